/**
 * What the inline readers (`inline-math.ts`, `link-resource.ts`) share: micromark's character classes on UTF-16
 * code units, and how a reading reports where it ended. The character codes are in `char-codes.ts`.
 */

import { CR, LF, SPACE, TAB } from './char-codes.js';

/**
 * How a reading of a construct ended: the index after it when the construct is there, else `-1 - stop`, where
 * `stop` is the index at which the reading found it is not (so that a caller can count the work either way).
 */
export type Read = number;

/** The index a reading reached, whether the construct was there or not. */
export function reached(read: Read): number {
  return read < 0 ? -1 - read : read;
}

/** Blanks and line endings, as micromark's `markdownLineEndingOrSpace` reads them. */
export function isWhitespace(code: number): boolean {
  return code === SPACE || code === TAB || code === LF || code === CR;
}

/** An ASCII control character as micromark sees it: a NUL is U+FFFD to it, and not one. */
export function isAsciiControl(code: number): boolean {
  return (code < 32 && code !== 0) || code === 127;
}

export function isAsciiAlpha(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

export function isAsciiAlphanumeric(code: number): boolean {
  return isAsciiAlpha(code) || (code >= 48 && code <= 57);
}
