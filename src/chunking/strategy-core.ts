/**
 * The simpler strategies as a core over blocks, so that `chunk({ strategy })` sits in the same pipeline as the
 * semantic chunker: a text strategy gets the document text rebuilt from the blocks (each block's `gapBefore` and
 * `text`, which are exact), the turns strategy the turn blocks themselves. Which core is made comes from the
 * strategy table.
 */
import type { ChunkConfig } from '../config.js';
import { invalidOption } from '../config.js';
import type { Core } from '../core.js';
import type { Sizer } from '../protocols.js';
import type { Block, Chunk, ChunkStatistics } from '../types.js';
import type { ChunkOwner } from './chunk-factory.js';
import { createStatisticsAccumulator } from './statistics.js';
import { strategyRow } from './strategies/table.js';

/** Turns blocks back into the document text they were cut from, one block at a time. */
function blocksToText<Out>(inner: Core<string, Out>): Core<Block, Out> {
  return {
    write: (block) => inner.write((block.gapBefore ?? '') + block.text),
    end: () => inner.end(),
  };
}

/** Creates the core of a non-semantic strategy over blocks, with running statistics. */
export function createStrategyCore(
  config: ChunkConfig,
  sizer: Sizer,
  owner: ChunkOwner = { documentId: config.documentId, origin: config.origin },
): Core<Block, Chunk> & { statistics(): ChunkStatistics } {
  const row = strategyRow(config.strategy);
  if (row === undefined) throw invalidOption('strategy', 'the semantic strategy has its own core', config.strategy);
  const inner: Core<Block, Chunk> = row.input === 'text' ? blocksToText(row.core(config, sizer, owner)) : row.core(config, sizer, owner);
  const stats = createStatisticsAccumulator(config);
  const count = (chunks: Chunk[]) => {
    for (const c of chunks) stats.add(c);
    return chunks;
  };
  return {
    write: (block) => count(inner.write(block)),
    end: () => count(inner.end()),
    statistics: () => stats.result(),
  };
}
