/**
 * The strategies as whole-source chunkers, from the strategy table: `createStrategy` builds one from a normalized
 * config, and `byTurns` reads a transcript's turns before windowing them (reading is the transcript parser's part,
 * windowing the strategy's).
 */
import { invalidOption, type ChunkConfig } from '../config.js';
import { runCore } from '../core.js';
import type { Chunker, Sizer } from '../protocols.js';
import type { Chunk, Source } from '../types.js';
import { checkSource, ownerOf } from '../chunking/strategies/common.js';
import { strategyRow, STRATEGIES } from '../chunking/strategies/table.js';
import { createTurnsCore, normalizeTurns, type TurnsOptions } from '../chunking/strategies/turns.js';
import { linkNeighbours } from '../chunking/neighbours.js';
import { readTurns } from '../parsers/transcript/turns.js';

/**
 * Creates the turns strategy over a transcript source (JSONL turns or "Speaker: text" lines). Windows of
 * `turnsPerChunk` consecutive turns advance by `turnsPerChunk - overlapTurns`; a window measuring above
 * `maxTokens` drops turns from its tail and then advances by at most its shrunk size, so no turn is skipped; a turn
 * still too large alone is cut between sentences into chunks `Speaker: part` (flagged `oversized` only when the
 * speaker's name alone fills `maxTokens`); windows below `minTokens` are dropped; a text
 * already emitted is not emitted again. Chunks carry `startTurn` and `endTurn`.
 *
 * A chunk's `text` is its turns as `Speaker: utterance` lines joined by `\n`: it is rewritten, not a slice, for
 * JSONL input. For "Speaker: text" lines it is the exact source slice `text.slice(start, end)` whenever the
 * turns are separated by single `\n` and each has one space after its colon; otherwise (CRLF, blank lines, a
 * tab) it is rewritten in the same way. `start`/`end` always span the first turn to the last in the source.
 *
 * Throws `ERR_TRANSCRIPT_INVALID` (from the reader) for input that is not a transcript.
 */
export function byTurns(options: TurnsOptions = {}): Chunker {
  const config = normalizeTurns(options);
  return (source: Source): Chunk[] => {
    checkSource(source);
    return linkNeighbours(runCore(createTurnsCore(config, ownerOf(source)), readTurns(source.text)));
  };
}

/**
 * Builds the chunker for `config.strategy` from the config's fields:
 * - `fixed`: `fixedSize` characters, or `maxSize` when `unit` is `chars`;
 * - `window`: windows of `maxSize` with `overlap`;
 * - `markers`: `markers`, with `minSize` and `maxSize`;
 * - `turns`: `turnsPerChunk`, `overlapTurns`, `maxSize` as `maxTokens` and `minSize` as `minTokens`.
 *
 * Sizes are measured with `sizer`, the one the config's `unit` calls for. Throws `ERR_INVALID_OPTION` for the
 * `semantic` strategy (it is not a whole-source chunker; it runs in `chunk()` and `chunkText()`).
 */
export function createStrategy(config: ChunkConfig, sizer: Sizer): Chunker {
  const row = strategyRow(config.strategy);
  if (row === undefined) {
    const names = STRATEGIES.map((s) => `'${s.name}'`);
    throw invalidOption('strategy', `must be ${names.slice(0, -1).join(', ')} or ${names.at(-1)} for createStrategy (the semantic strategy runs in chunk())`, config.strategy);
  }
  if (row.input === 'text') return row.chunker(config, sizer);
  return (source: Source): Chunk[] => {
    checkSource(source);
    return linkNeighbours(runCore(row.core(config, sizer, ownerOf(source)), readTurns(source.text)));
  };
}
