/** Pieces the strategy chunkers share: option checks, line numbers over a moving buffer, surrogate tests. */
import { invalidOption } from '../../config.js';
import { toSizer, type Sizer, type SizerLike } from '../../protocols.js';
import type { ChunkOwner } from '../chunk-factory.js';
import type { Source } from '../../types.js';

/** Where a source's chunks belong: `documentId` is the source's `id`, `origin` is copied. */
export function ownerOf(source: Source): ChunkOwner {
  return { documentId: source.id, origin: source.origin };
}

/** Checks a source before a chunker reads it, so a wrong argument fails with a coded error instead of a crash. */
export function checkSource(source: Source): void {
  if (typeof source !== 'object' || source === null || typeof source.text !== 'string' || typeof source.id !== 'string') {
    throw invalidOption('source', 'must be an object { id: string, origin?: string, text: string }', source);
  }
}

/** A checked `Sizer`, or `undefined` when none was given. */
export function optionalSizer(option: string, sizer: SizerLike | undefined): Sizer | undefined {
  if (sizer === undefined) return undefined;
  if (typeof sizer !== 'function' && (typeof sizer !== 'object' || sizer === null || typeof sizer.size !== 'function')) {
    throw invalidOption(option, 'must be a function (text) => number or an object with a size(text) method', sizer);
  }
  return toSizer(sizer);
}

/** A number option that must be finite and above (or at least) a bound. */
export function numberAbove(option: string, value: unknown, min: number, inclusive: boolean, why = ''): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || (inclusive ? value < min : value <= min)) {
    throw invalidOption(option, `must be a number ${inclusive ? '>=' : '>'} ${min}${why}`, value);
  }
  return value;
}

/** An integer option with a lower bound. */
export function integerAtLeast(option: string, value: unknown, min: number, why = ''): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
    throw invalidOption(option, `must be an integer >= ${min}${why}`, value);
  }
  return value;
}

/** True for a UTF-16 high (leading) surrogate. */
export function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** True for a UTF-16 low (trailing) surrogate. */
export function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/**
 * Line breaks among `text[from..to)`: `\n`, and `\r` not followed by `\n` (the `\n` of a CRLF counts once). The
 * character at `to` must be readable when `text[to - 1]` may be a `\r`; past the end it counts as "not `\n`".
 */
export function countBreaks(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) n++;
  }
  return n;
}

/**
 * 1-based line numbers of offsets that only move forward, over text that arrives and leaves in pieces: only
 * the text between two queries is scanned, so a stream counts each character once. Agrees with
 * `createLineIndex` on the whole text.
 */
export interface LineCounter {
  /**
   * Line of absolute `offset`; `buffer` holds the text from absolute `base`, which must not be past the last
   * offset asked for. Also used to move past text about to be dropped from a buffer.
   */
  lineAt(buffer: string, base: number, offset: number): number;
}

/** Creates a `LineCounter` at line 1, offset 0. */
export function createLineCounter(): LineCounter {
  let line = 1;
  let pos = 0;
  // A CR at the end of a buffer ends a line only if the next character, not yet seen, is not LF.
  let pendingCr = false;
  return {
    lineAt(buffer, base, offset) {
      let i = pos - base;
      if (pendingCr && i < buffer.length) {
        if (buffer.charCodeAt(i) !== 10) line++;
        pendingCr = false;
      }
      for (const to = offset - base; i < to; i++) {
        const c = buffer.charCodeAt(i);
        if (c === 10) line++;
        else if (c === 13) {
          if (i + 1 >= buffer.length) pendingCr = true;
          else if (buffer.charCodeAt(i + 1) !== 10) line++;
        }
      }
      if (offset > pos) pos = offset;
      return line;
    },
  };
}

/** Line of the last character of `text`, which starts on `startLine`. */
export function endLineOf(text: string, startLine: number): number {
  return text.length <= 1 ? startLine : startLine + countBreaks(text, 0, text.length - 1);
}
