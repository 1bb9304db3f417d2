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
import { charSizer } from '../sizers/basic.js';
import { createLineCounter, endLineOf } from '../../unicode/lines.js';
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
 * The sliding-window core: text in writes of any size, windows out, holding only the text from the current window's first
 * word to the end of what was written (plus at most one write). The windows do not depend on how the text was
 * split into writes.
 */
export function createSlidingWindowCore(config: SlidingWindowConfig, owner: ChunkOwner): Core<string, Chunk> {
  const { size: limit, overlap, sizer, maxBufferChars } = config;
  const measure = (text: string): number => sizer.size(text);
  let buffer = '';
  /** Absolute offset of `buffer[0]`. */
  let base = 0;
  /** Word offsets relative to `buffer`. The last one may still grow while `open`. */
  let starts: number[] = [];
  let ends: number[] = [];
  let open = false;
  /** First word of the next window. */
  let first = 0;
  /** Do not search again before this many words are complete. */
  let need = 0;
  /** Last word of the previous window: every window ends past it. */
  let prevLast = -1;
  let index = 0;
  let guessWords = 0;
  let guessTail = 0;
  const lines = createLineCounter();

  function scan(from: number): void {
    WORD.lastIndex = from;
    for (let m = WORD.exec(buffer); m !== null; m = WORD.exec(buffer)) {
      starts.push(m.index);
      ends.push(m.index + m[0].length);
    }
    open = ends.length > 0 && ends[ends.length - 1] === buffer.length;
  }

  function append(text: string): void {
    let from = buffer.length;
    if (open) {
      // The last word may continue in this text: scan it again.
      from = starts.pop() as number;
      ends.pop();
    }
    buffer += text;
    scan(from);
  }

  function drain(final: boolean): Chunk[] {
    const out: Chunk[] = [];
    const view: WordView = { text: buffer, starts, ends };
    for (;;) {
      const known = (final || !open ? starts.length : starts.length - 1) - 1;
      if (first > known || (!final && known + 1 < need)) break;
      const found = findWindowEnd(view, measure, first, known, final, limit, guessWords);
      if (found.last === null) {
        need = found.need + 1;
        break;
      }
      if (found.last <= prevLast) {
        // Nothing past the previous window fits after this overlap: drop the overlap rather than emit a window
        // contained in the previous one.
        first = prevLast + 1;
        continue;
      }
      const last = found.last;
      prevLast = last;
      const start = starts[first] as number;
      const text = buffer.slice(start, ends[last]);
      const startLine = lines.lineAt(buffer, base, base + start);
      const draft = {
        text,
        start: base + start,
        end: base + (ends[last] as number),
        startLine,
        endLine: endLineOf(text, startLine),
        size: found.size,
        ...(found.size > limit ? { oversized: true, metadata: { oversizedReason: 'word longer than the window size' } } : {}),
      };
      out.push(finishChunk(draft, owner, index++));
      guessWords = last - first + 1;
      if (last === known && final) {
        first = last + 1;
        break;
      }
      const next = findOverlapStart(view, measure, first, last, overlap, guessTail);
      guessTail = last + 1 - next;
      first = next;
    }
    compact();
    // After compaction the buffer starts at the next window's first word: all of it is pending.
    if (!final && buffer.length > maxBufferChars) overflow();
    return out;
  }

  function compact(): void {
    // Keep the text from the next window's first word; drop the rest once per write, not once per window.
    const keep = first < starts.length ? (starts[first] as number) : buffer.length;
    if (keep === 0) return;
    lines.lineAt(buffer, base, base + keep);
    buffer = buffer.slice(keep);
    base += keep;
    starts = starts.slice(first).map((s) => s - keep);
    ends = ends.slice(first).map((e) => e - keep);
    need = Math.max(0, need - first);
    prevLast -= first;
    first = 0;
  }

  function overflow(): never {
    throw new ChunkError(
      'ERR_BUFFER_OVERFLOW',
      `slidingWindow: no window end found within maxBufferChars (${maxBufferChars}) characters; the sizer does not grow with the text, or one word is longer than the cap`,
      { offset: base },
    );
  }

  return {
    write(text) {
      append(text);
      return drain(false);
    },
    end() {
      return drain(true);
    },
  };
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
    return [...core.write(source.text), ...core.end()];
  };
}
