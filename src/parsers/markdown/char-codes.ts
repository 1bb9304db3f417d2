/**
 * The character codes the Markdown readers test, by name: `text.charCodeAt(i) === HASH` says what it looks for,
 * `=== 35` does not. UTF-16 code units; every one here is ASCII.
 */

export const NUL = 0; // U+0000
export const TAB = 9;
export const LF = 10; // line feed
export const CR = 13; // carriage return
export const SPACE = 32;
export const EXCLAMATION = 33; // !
export const QUOTE = 34; // "
export const HASH = 35; // #
export const DOLLAR = 36; // $
export const APOSTROPHE = 39; // '
export const LEFT_PAREN = 40; // (
export const RIGHT_PAREN = 41; // )
export const STAR = 42; // *
export const PLUS = 43; // +
export const DASH = 45; // -
export const DOT = 46; // .
export const SLASH = 47; // /
export const DIGIT_0 = 48; // 0
export const DIGIT_9 = 57; // 9
export const COLON = 58; // :
export const LESS = 60; // <
export const EQUALS = 61; // =
export const GREATER = 62; // >
export const QUESTION = 63; // ?
export const AT = 64; // @
export const LEFT_BRACKET = 91; // [
export const BACKSLASH = 92; // \
export const RIGHT_BRACKET = 93; // ]
export const CARET = 94; // ^
export const UNDERSCORE = 95; // _
export const BACKTICK = 96; // `
export const PIPE = 124; // |
export const TILDE = 126; // ~
export const DEL = 127; // delete, a control

/** True for a digit 0-9. */
export function isDigit(c: number): boolean {
  return c >= DIGIT_0 && c <= DIGIT_9;
}
