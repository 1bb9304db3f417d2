/**
 * The simpler strategies as a core over blocks, so that `chunk({ strategy })` sits in the same pipeline as the
 * semantic chunker: the document text is rebuilt from the blocks (each block's `gapBefore` and `text`, which are
 * exact) and fed to the strategy's own core.
 */
import type { ChunkConfig } from '../config.js';
import { ChunkError } from '../errors.js';
import type { Sizer } from '../protocols.js';
import type { Block, Chunk, ChunkStatistics } from '../types.js';
import type { ChunkOwner } from './chunk-factory.js';
import type { Core } from '../core.js';
import { createStatisticsAccumulator } from './statistics.js';
import {
  byMarkers,
  createFixedSizeCore,
  createSlidingWindowCore,
  createTurnsCore,
  normalizeSlidingWindow,
  normalizeTurns,
} from './strategies/index.js';

/** Turns blocks back into the document text they were cut from, one block at a time. */
function blocksToText<Out>(inner: Core<string, Out>): Core<Block, Out> {
  return {
    write: (block) => inner.write((block.gapBefore ?? '') + block.text),
    end: () => inner.end(),
  };
}

/**
 * The markers strategy needs the whole text (a cut may depend on a marker far ahead): it is held up to
 * `maxChars`, a cap with its own error.
 */
function markersCore(config: ChunkConfig, sizer: Sizer, owner: ChunkOwner, maxChars: number): Core<string, Chunk> {
  const chunker = byMarkers({ markers: [...config.markers], minSize: config.minSize, maxSize: config.maxSize, sizer });
  let text = '';
  return {
    write(piece) {
      text += piece;
      if (text.length > maxChars) {
        throw new ChunkError('ERR_BUFFER_OVERFLOW', `The markers strategy holds the whole document, which passed ${maxChars} characters; use the window or semantic strategy for larger inputs`);
      }
      return [];
    },
    end: () => chunker({ id: owner.documentId, ...(owner.origin !== undefined ? { origin: owner.origin } : {}), text }),
  };
}

/** Creates the core of a non-semantic strategy over blocks, with running statistics. */
export function createStrategyCore(config: ChunkConfig, sizer: Sizer, maxChars = 64 * 1024 * 1024): Core<Block, Chunk> & { statistics(): ChunkStatistics } {
  const owner: ChunkOwner = { documentId: config.documentId, origin: config.origin };
  let inner: Core<Block, Chunk>;
  switch (config.strategy) {
    case 'fixed': {
      if (config.fixedSize === undefined && config.unit !== 'chars') {
        throw new ChunkError('ERR_INVALID_OPTION', `Invalid option fixedSize: is required with unit '${config.unit}' (the fixed strategy cuts characters), got undefined`, { option: 'fixedSize' });
      }
      inner = blocksToText(createFixedSizeCore(config.fixedSize ?? config.maxSize, owner, sizer));
      break;
    }
    case 'window':
      inner = blocksToText(createSlidingWindowCore(normalizeSlidingWindow({ size: config.maxSize, overlap: config.overlap, sizer }), owner));
      break;
    case 'markers':
      inner = blocksToText(markersCore(config, sizer, owner, maxChars));
      break;
    case 'turns':
      inner = createTurnsCore(
        normalizeTurns({ turnsPerChunk: config.turnsPerChunk, overlapTurns: config.overlapTurns, sizer, maxTokens: config.maxSize, minTokens: config.minSize }),
        owner,
      );
      break;
    default:
      throw new ChunkError('ERR_INVALID_OPTION', `Invalid option strategy: the semantic strategy has its own core, got '${config.strategy}'`, { option: 'strategy' });
  }
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
