/**
 * The window strategy: windows of about `size` units (tokens, or whatever the sizer counts), each starting with
 * up to `overlap` units of the previous window's tail. Cuts fall between words (runs of non-whitespace), so a
 * word is never cut; a window's text is the exact source slice from its first word to its last.
 */
import { ChunkError } from '../../errors.js';
import { invalidOption } from '../../config.js';
import type { Chunker, Sizer, SizerLike } from '../../protocols.js';
import type { Chunk, Source } from '../../types.js';
import { finishChunk, type ChunkOwner } from '../chunk-factory.js';
import type { Core } from '../../core.js';
import { linkNeighbours } from '../neighbours.js';
import { charSizer } from '../sizers/basic.js';
import { createLineCounter, endLineOf, type LineCounter } from '../../unicode/lines.js';
import { checkSource, numberAbove, optionalSizer, ownerOf } from './common.js';
import { findOverlapStart, findWindowEnd, type WordView } from './word-search.js';

/** Options of `slidingWindow`. */
export interface SlidingWindowOptions {
  /** Largest window, in the sizer's unit. Must be > 0. */
  size: number;
  /** Units of each window's tail repeated at the start of the next. Default 0; must be below `size`. */
  overlap?: number;
  /** Measures text; default UTF-16 code units. A token sizer gives token windows. */
  sizer?: SizerLike;
  /**
   * Streams only: cap (UTF-16 units) on the text held while looking for a window's end. Reached only when the
   * sizer does not grow with the text or one word is longer than the cap. Default 16 Mi.
   */
  maxBufferChars?: number;
}

/** The checked, defaulted form of `SlidingWindowOptions`. */
export interface SlidingWindowConfig {
  readonly size: number;
  readonly overlap: number;
  readonly sizer: Sizer;
  readonly maxBufferChars: number;
}

/** Checks options once, at creation: a window that could not advance is refused with the reason. */
export function normalizeSlidingWindow(options: SlidingWindowOptions): SlidingWindowConfig {
  if (typeof options !== 'object' || options === null) throw invalidOption('options', 'must be an object { size, overlap?, sizer? }', options);
  const size = numberAbove('size', options.size, 0, false, ' (the window would not advance)');
  const overlap = options.overlap === undefined ? 0 : numberAbove('overlap', options.overlap, 0, true);
  if (overlap >= size) {
    throw invalidOption('overlap', `must be less than size (${size}), or the window would not advance`, overlap);
  }
  const maxBufferChars = options.maxBufferChars === undefined ? 16 * 1024 * 1024 : numberAbove('maxBufferChars', options.maxBufferChars, 1, true);
  return Object.freeze({ size, overlap, sizer: optionalSizer('sizer', options.sizer) ?? charSizer, maxBufferChars });
}

const WORD = /\S+/g;

/**
 * What the sliding-window core holds between writes: the text from the next window's first word on, its words, and
 * where the search stands. One object, so that each step below is a function of it.
 */
interface WindowState {
  readonly config: SlidingWindowConfig;
  readonly owner: ChunkOwner;
  readonly lines: LineCounter;
  buffer: string;
  /** Absolute offset of `buffer[0]`. */
  base: number;
  /** Word offsets relative to `buffer`. The last one may still grow while `open`. */
  starts: number[];
  ends: number[];
  /** The last word ends where the buffer does: the next write may continue it. */
  open: boolean;
  /** First word of the next window. */
  first: number;
  /** Do not search again before this many words are complete. */
  need: number;
  /** Last word of the previous window: every window ends past it. */
  prevLast: number;
  /** Index of the next chunk. */
  index: number;
  /** Words of the last window and of the last overlap: the first steps of the next searches. */
  guessWords: number;
  guessTail: number;
}

/**
 * The sliding-window core: text in writes of any size, windows out, holding only the text from the current window's first
 * word to the end of what was written (plus at most one write). The windows do not depend on how the text was
 * split into writes.
 */
export function createSlidingWindowCore(config: SlidingWindowConfig, owner: ChunkOwner): Core<string, Chunk> {
  const state: WindowState = {
    config,
    owner,
    lines: createLineCounter(),
    buffer: '',
    base: 0,
    starts: [],
    ends: [],
    open: false,
    first: 0,
    need: 0,
    prevLast: -1,
    index: 0,
    guessWords: 0,
    guessTail: 0,
  };
  return {
    write(text) {
      append(state, text);
      return drain(state, false);
    },
    end() {
      return drain(state, true);
    },
  };
}

/** Adds `text` to the buffer and finds its words; a word the buffer ended in is found again, whole. */
function append(state: WindowState, text: string): void {
  let from = state.buffer.length;
  if (state.open) {
    from = state.starts.pop() as number;
    state.ends.pop();
  }
  state.buffer += text;
  WORD.lastIndex = from;
  for (let m = WORD.exec(state.buffer); m !== null; m = WORD.exec(state.buffer)) {
    state.starts.push(m.index);
    state.ends.push(m.index + m[0].length);
  }
  state.open = state.ends.length > 0 && state.ends[state.ends.length - 1] === state.buffer.length;
}

/** Emits every window the words known decide (all of them when `final`), then drops the text behind the next one. */
function drain(state: WindowState, final: boolean): Chunk[] {
  const out: Chunk[] = [];
  while (nextWindow(state, final, out));
  compact(state);
  // After compaction the buffer starts at the next window's first word: all of it is pending.
  if (!final && state.buffer.length > state.config.maxBufferChars) overflow(state);
  return out;
}

/** Finds the next window and emits it into `out`; false when no more can be decided now. */
function nextWindow(state: WindowState, final: boolean, out: Chunk[]): boolean {
  const { config } = state;
  const view: WordView = { text: state.buffer, starts: state.starts, ends: state.ends };
  const known = (final || !state.open ? state.starts.length : state.starts.length - 1) - 1;
  if (state.first > known || (!final && known + 1 < state.need)) return false;
  const measure = (text: string): number => config.sizer.size(text);
  const found = findWindowEnd(view, measure, state.first, known, final, config.size, state.guessWords);
  if (found.last === null) {
    state.need = found.need + 1;
    return false;
  }
  if (found.last <= state.prevLast) {
    // Nothing past the previous window fits after this overlap: drop the overlap rather than emit a window
    // contained in the previous one.
    state.first = state.prevLast + 1;
    return true;
  }
  const last = found.last;
  state.prevLast = last;
  out.push(windowChunk(state, last, found.size));
  state.guessWords = last - state.first + 1;
  if (last === known && final) {
    state.first = last + 1;
    return false;
  }
  const next = findOverlapStart(view, measure, state.first, last, config.overlap, state.guessTail);
  state.guessTail = last + 1 - next;
  state.first = next;
  return true;
}

/** The chunk of the window from the first word to word `last`, which measures `size`. */
function windowChunk(state: WindowState, last: number, size: number): Chunk {
  const start = state.starts[state.first] as number;
  const end = state.ends[last] as number;
  const text = state.buffer.slice(start, end);
  const startLine = state.lines.lineAt(state.buffer, state.base, state.base + start);
  const draft = {
    text,
    start: state.base + start,
    end: state.base + end,
    startLine,
    endLine: endLineOf(text, startLine),
    size,
    ...(size > state.config.size ? { oversized: true, metadata: { oversizedReason: 'word longer than the window size' } } : {}),
  };
  return finishChunk(draft, state.owner, state.index++);
}

/** Keeps the text from the next window's first word; drops the rest once per write, not once per window. */
function compact(state: WindowState): void {
  const { first } = state;
  const keep = first < state.starts.length ? (state.starts[first] as number) : state.buffer.length;
  if (keep === 0) return;
  state.lines.lineAt(state.buffer, state.base, state.base + keep);
  state.buffer = state.buffer.slice(keep);
  state.base += keep;
  state.starts = state.starts.slice(first).map((s) => s - keep);
  state.ends = state.ends.slice(first).map((e) => e - keep);
  state.need = Math.max(0, state.need - first);
  state.prevLast -= first;
  state.first = 0;
}

function overflow(state: WindowState): never {
  throw new ChunkError(
    'ERR_BUFFER_OVERFLOW',
    `slidingWindow: no window end found within maxBufferChars (${state.config.maxBufferChars}) characters; the sizer does not grow with the text, or one word is longer than the cap`,
    { offset: state.base },
  );
}

/**
 * Creates the window strategy. Windows measure at most `size` (a single word longer than `size` stands alone,
 * flagged `oversized`); each next window starts at the longest tail of the previous one that measures at most
 * `overlap`, and always at least one word later, so the windows advance even with a sizer that returns a
 * constant; a window that would end inside the previous one starts after it instead, so every window ends
 * further than the one before. Window ends are found by a doubling search and a binary refine over word positions. Empty or
 * whitespace-only text gives no chunks.
 *
 * Throws `ERR_INVALID_OPTION` when `size <= 0` or `overlap >= size` (the window would not advance).
 *
 * ```ts
 * const chunks = slidingWindow({ size: 512, overlap: 64, sizer: tokenSizer })({ id: 'a', text });
 * ```
 */
export function slidingWindow(options: SlidingWindowOptions): Chunker {
  const config = normalizeSlidingWindow(options);
  // One whole text needs no buffer cap: the search can always look to its end.
  const whole = Object.freeze({ ...config, maxBufferChars: Number.POSITIVE_INFINITY });
  return (source: Source) => {
    checkSource(source);
    const core = createSlidingWindowCore(whole, ownerOf(source));
    return linkNeighbours([...core.write(source.text), ...core.end()]);
  };
}
