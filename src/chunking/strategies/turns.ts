/**
 * The turns strategy: windows of consecutive conversation turns. A turn is never split; windows advance by
 * `turnsPerChunk - overlapTurns` turns; a window too large for `maxTokens` gives up turns from its tail.
 */
import { ChunkError } from '../../errors.js';
import { invalidOption } from '../../config.js';
import type { Sizer, SizerLike } from '../../protocols.js';
import type { Block, Chunk } from '../../types.js';
import { finishChunk, type ChunkOwner } from '../chunk-factory.js';
import { hashText } from '../chunk-id.js';
import type { Core } from '../../core.js';
import { charSizer } from '../sizers/basic.js';
import { integerAtLeast, numberAbove, optionalSizer } from './common.js';

/** Options of `byTurns` and `turnGroups`. */
export interface TurnsOptions {
  /** Turns per window. Default 6. */
  turnsPerChunk?: number;
  /** Turns repeated between consecutive windows; clamped below `turnsPerChunk`. Default 1. */
  overlapTurns?: number;
  /** Measures a window's text; default UTF-16 code units. */
  sizer?: SizerLike;
  /** A window above this gives up turns from its tail (never below one turn). Default: no limit. */
  maxTokens?: number;
  /** Windows below this are dropped. Default 0. */
  minTokens?: number;
}

/** The checked, defaulted form of `TurnsOptions`. */
export interface TurnsConfig {
  readonly turnsPerChunk: number;
  readonly overlapTurns: number;
  readonly sizer: Sizer;
  readonly maxTokens: number;
  readonly minTokens: number;
}

/** Checks options once, at creation. */
export function normalizeTurns(options: TurnsOptions = {}): TurnsConfig {
  if (typeof options !== 'object' || options === null) throw invalidOption('options', 'must be an object', options);
  const turnsPerChunk = options.turnsPerChunk === undefined ? 6 : integerAtLeast('turnsPerChunk', options.turnsPerChunk, 1);
  const overlap = options.overlapTurns === undefined ? 1 : integerAtLeast('overlapTurns', options.overlapTurns, 0);
  const maxTokens = options.maxTokens === undefined ? Number.POSITIVE_INFINITY : numberAbove('maxTokens', options.maxTokens, 0, false);
  const minTokens = options.minTokens === undefined ? 0 : numberAbove('minTokens', options.minTokens, 0, true);
  if (minTokens > maxTokens) throw invalidOption('minTokens', `must not exceed maxTokens (${maxTokens})`, minTokens);
  return Object.freeze({
    turnsPerChunk,
    // Clamped below the window so that every window advances.
    overlapTurns: Math.min(overlap, turnsPerChunk - 1),
    sizer: optionalSizer('sizer', options.sizer) ?? charSizer,
    maxTokens,
    minTokens,
  });
}

/** A turn as a chunk line: `Speaker: utterance`. */
function lineOf(turn: Block): string {
  return `${turn.speaker as string}: ${turn.utterance as string}`;
}

function checkTurn(block: unknown): Block {
  const b = block as Block;
  if (typeof b !== 'object' || b === null || typeof b.speaker !== 'string' || typeof b.utterance !== 'string') {
    throw new ChunkError('ERR_INVALID_INPUT', "turnGroups() takes the turn blocks of parse({ format: 'transcript' }), each with a speaker and an utterance");
  }
  return b;
}

/**
 * The turns core: turn blocks in, chunks out, holding at most `turnsPerChunk` turns and the hashes of the
 * texts emitted so far (for dedupe).
 */
export function createTurnsCore(config: TurnsConfig, owner: ChunkOwner): Core<Block, Chunk> {
  const { turnsPerChunk, overlapTurns, sizer, maxTokens, minTokens } = config;
  const step = turnsPerChunk - overlapTurns;
  const queue: Block[] = [];
  const at = {
    /** Position (in turns received) of `queue[0]`. */
    head: 0,
    /** Position of the last turn some window has covered. */
    covered: -1,
    /** The next chunk's index. */
    index: 0,
    received: 0,
  };
  const seen = new Set<string>();

  function window(out: Chunk[]): void {
    let w = Math.min(turnsPerChunk, queue.length);
    let text = queue.slice(0, w).map(lineOf).join('\n');
    let size = sizer.size(text);
    while (w > 1 && size > maxTokens) {
      w--;
      text = queue.slice(0, w).map(lineOf).join('\n');
      size = sizer.size(text);
    }
    const hash = hashText(text);
    if (size >= minTokens && !seen.has(hash)) {
      seen.add(hash);
      const firstTurn = queue[0] as Block;
      const lastTurn = queue[w - 1] as Block;
      const draft = {
        text,
        start: firstTurn.start,
        end: lastTurn.end,
        startLine: firstTurn.startLine,
        endLine: lastTurn.endLine,
        size,
        startTurn: firstTurn.turn ?? at.head,
        endTurn: lastTurn.turn ?? at.head + w - 1,
        metadata: { kinds: ['paragraph' as const] },
        ...(size > maxTokens ? { oversized: true, metadata: { kinds: ['paragraph' as const], oversizedReason: 'turn longer than maxTokens' } } : {}),
      };
      out.push(finishChunk(draft, owner, at.index++));
    }
    at.covered = at.head + w - 1;
    // A shrunk window advances by its own size at most, so no turn is skipped.
    const advance = Math.max(1, Math.min(w, step));
    queue.splice(0, advance);
    at.head += advance;
  }

  return {
    write(block) {
      const turn = checkTurn(block);
      queue.push(turn.turn === undefined ? { ...turn, turn: at.received } : turn);
      at.received++;
      const out: Chunk[] = [];
      while (queue.length >= turnsPerChunk) window(out);
      return out;
    },
    end() {
      const out: Chunk[] = [];
      while (queue.length > 0 && at.head + queue.length - 1 > at.covered) window(out);
      queue.length = 0;
      return out;
    },
  };
}
