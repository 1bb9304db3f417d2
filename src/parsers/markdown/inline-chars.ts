/**
 * What the inline readers (`inline-math.ts`, `link-resource.ts`) share: the character codes they test, micromark's
 * character classes on UTF-16 code units, and how a reading reports where it ended.
 */

export const TAB = 9;
export const LF = 10;
export const CR = 13;
export const SPACE = 32;
export const EXCLAMATION = 33;
export const QUOTE = 34;
export const DOLLAR = 36;
export const APOSTROPHE = 39;
export const LEFT_PAREN = 40;
export const RIGHT_PAREN = 41;
export const PLUS = 43;
export const DASH = 45;
export const DOT = 46;
export const SLASH = 47;
export const COLON = 58;
export const LESS = 60;
export const EQUALS = 61;
export const GREATER = 62;
export const QUESTION = 63;
export const AT = 64;
export const LEFT_BRACKET = 91;
export const BACKSLASH = 92;
export const RIGHT_BRACKET = 93;
export const UNDERSCORE = 95;
export const BACKTICK = 96;

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
