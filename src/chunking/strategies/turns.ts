/**
 * The turns strategy: windows of consecutive conversation turns. Windows advance by `turnsPerChunk - overlapTurns`
 * turns; a window too large for `maxTokens` gives up turns from its tail, and a turn too large alone is cut between
 * sentences (then words) into parts, each `Speaker: part` within `maxTokens`.
 */
import { ChunkError } from '../../errors.js';
import { invalidOption } from '../../config.js';
import type { Sizer, SizerLike } from '../../protocols.js';
import type { Block, Chunk } from '../../types.js';
import { finishChunk, type ChunkOwner } from '../chunk-factory.js';
import { hashText } from '../chunk-id.js';
import type { Core } from '../../core.js';
import { charSizer } from '../sizers/basic.js';
import { createTextSplitter, type HeadTextSplitter } from '../text-splitter.js';
import { countLineEndings } from '../../unicode/lines.js';
import { integerAtLeast, numberAbove, optionalSizer } from './common.js';

/** Options of `byTurns` and `turnGroups`. */
export interface TurnsOptions {
  /** Turns per window. Default 6. */
  turnsPerChunk?: number;
  /** Turns repeated between consecutive windows; clamped below `turnsPerChunk`. Default 1. */
  overlapTurns?: number;
  /** Measures a window's text; default UTF-16 code units. */
  sizer?: SizerLike;
  /**
   * A window above this gives up turns from its tail; a turn above it alone is cut between sentences into parts
   * that fit (`Speaker: part`), unless the speaker's name leaves no room. Default: no limit.
   */
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

/** One part of a turn too large alone, as a chunk's fields. */
interface TurnPart {
  readonly text: string;
  readonly start: number;
  readonly end: number;
  readonly startLine: number;
  readonly endLine: number;
  readonly size: number;
}

/**
 * The parts of a turn that measures over `maxTokens` alone, each `Speaker: part` and within `maxTokens`, cut by the
 * TextSplitter between sentences, then words, with the speaker's label as the frame of every part (measured with
 * it, so that tokens joined across the label count); undefined when the speaker's name leaves no room. A "Speaker:
 * text" turn's utterance is the end of its source slice, so each part points at its own source range (the first
 * from the speaker on); a JSONL part points at its record.
 */
function turnParts(turn: Block, sizer: Sizer, maxTokens: number, splitter: HeadTextSplitter): TurnPart[] | undefined {
  const speaker = turn.speaker as string;
  const utterance = turn.utterance as string;
  // The exception of the size contract (docs/guarantees.md): the turn stays whole, flagged oversized.
  if (maxTokens - sizer.size(`${speaker}:`) < 1) return undefined;
  const label = `${speaker}: `;
  const inSource = utterance.length > 0 && turn.text.endsWith(utterance);
  const base = turn.text.length - utterance.length;
  const parts = splitter.splitFramed(utterance, label, maxTokens).map((span, i): TurnPart => {
    const text = label + utterance.slice(span.start, span.end);
    const from = !inSource || i === 0 ? 0 : base + span.start;
    const to = inSource ? base + span.end : turn.text.length;
    const startLine = turn.startLine + countLineEndings(turn.text, 0, from);
    return { text, start: turn.start + from, end: turn.start + to, startLine, endLine: startLine + countLineEndings(turn.text, from, to), size: sizer.size(text) };
  });
  // An utterance of whitespace alone has no part (a sizer that counts the space after the colon): the turn stays whole.
  return parts.length === 0 ? undefined : parts;
}

/** What the turns core holds: the turns not yet covered by a window, its counters and the texts emitted. */
interface TurnsState {
  readonly config: TurnsConfig;
  readonly owner: ChunkOwner;
  /** Turns received and not yet passed by the windows. */
  readonly queue: Block[];
  /** Hashes of the texts emitted so far (a window that repeats another is not emitted again). */
  readonly seen: Set<string>;
  /** Position (in turns received) of `queue[0]`. */
  head: number;
  /** Position of the last turn some window has covered. */
  covered: number;
  /** The next chunk's index. */
  index: number;
  received: number;
  /** Built on the first turn too large alone: building one loads ICU's segmentation rules. */
  splitter: HeadTextSplitter | undefined;
}

/**
 * The turns core: turn blocks in, chunks out, holding at most `turnsPerChunk` turns and the hashes of the
 * texts emitted so far (for dedupe).
 */
export function createTurnsCore(config: TurnsConfig, owner: ChunkOwner): Core<Block, Chunk> {
  const state: TurnsState = { config, owner, queue: [], seen: new Set(), head: 0, covered: -1, index: 0, received: 0, splitter: undefined };
  const { queue } = state;
  return {
    write(block) {
      const turn = checkTurn(block);
      queue.push(turn.turn === undefined ? { ...turn, turn: state.received } : turn);
      state.received++;
      const out: Chunk[] = [];
      while (queue.length >= config.turnsPerChunk) emitWindow(state, out);
      return out;
    },
    end() {
      const out: Chunk[] = [];
      while (queue.length > 0 && state.head + queue.length - 1 > state.covered) emitWindow(state, out);
      queue.length = 0;
      return out;
    },
  };
}

/** Emits the parts of a turn too large alone; false when it cannot be cut (its speaker's name fills the room). */
function emitParts(state: TurnsState, turn: Block, out: Chunk[]): boolean {
  const { sizer, maxTokens } = state.config;
  state.splitter ??= createTextSplitter({ sizer });
  const parts = turnParts(turn, sizer, maxTokens, state.splitter);
  if (parts === undefined) return false;
  const position = turn.turn ?? state.head;
  // No part is dropped below minTokens: the turn's text would be lost, not a window that repeats others.
  for (const part of parts) {
    const hash = hashText(part.text);
    if (state.seen.has(hash)) continue;
    state.seen.add(hash);
    // A part is a piece of a cut turn (isSplit); one over the limit is flagged as a whole turn would be.
    const metadata = { kinds: ['paragraph' as const], isSplit: true, ...(part.size > maxTokens ? { oversizedReason: 'turn longer than maxTokens' } : {}) };
    out.push(finishChunk({ ...part, startTurn: position, endTurn: position, metadata, ...(part.size > maxTokens ? { oversized: true } : {}) }, state.owner, state.index++));
  }
  return true;
}

/** The most turns from the queue's head whose lines fit `maxTokens` together (at least one), with their text and size. */
function fittingWindow(state: TurnsState): { turns: number; text: string; size: number } {
  const { turnsPerChunk, sizer, maxTokens } = state.config;
  let turns = Math.min(turnsPerChunk, state.queue.length);
  let text = state.queue.slice(0, turns).map(lineOf).join('\n');
  let size = sizer.size(text);
  while (turns > 1 && size > maxTokens) {
    turns--;
    text = state.queue.slice(0, turns).map(lineOf).join('\n');
    size = sizer.size(text);
  }
  return { turns, text, size };
}

/** Emits the window at the queue's head (or the parts of its one turn too large alone) and moves the queue on. */
function emitWindow(state: TurnsState, out: Chunk[]): void {
  const { queue } = state;
  const { turnsPerChunk, overlapTurns, maxTokens, minTokens } = state.config;
  const { turns: w, text, size } = fittingWindow(state);
  const hash = hashText(text);
  if (size > maxTokens && emitParts(state, queue[0] as Block, out)) {
    // Cut into parts: nothing else to emit for this window of one turn.
  } else if (size >= minTokens && !state.seen.has(hash)) {
    state.seen.add(hash);
    const firstTurn = queue[0] as Block;
    const lastTurn = queue[w - 1] as Block;
    const draft = {
      text,
      start: firstTurn.start,
      end: lastTurn.end,
      startLine: firstTurn.startLine,
      endLine: lastTurn.endLine,
      size,
      startTurn: firstTurn.turn ?? state.head,
      endTurn: lastTurn.turn ?? state.head + w - 1,
      metadata: { kinds: ['paragraph' as const] },
      ...(size > maxTokens ? { oversized: true, metadata: { kinds: ['paragraph' as const], oversizedReason: 'turn longer than maxTokens' } } : {}),
    };
    out.push(finishChunk(draft, state.owner, state.index++));
  }
  state.covered = state.head + w - 1;
  // A shrunk window advances by its own size at most, so no turn is skipped.
  const advance = Math.max(1, Math.min(w, turnsPerChunk - overlapTurns));
  queue.splice(0, advance);
  state.head += advance;
}
