/**
 * The resource of an inline link or image, `(destination "title")`, read as micromark's label end reads it: what
 * decides whether a `](` in a paragraph can make a link or an image at all. Without link definitions in the batch
 * an image needs one (`![alt](src)`); a `](` whose resource does not parse leaves its `]` as text.
 */

import { APOSTROPHE, BACKSLASH, CR, GREATER, LEFT_PAREN, LESS, LF, QUOTE, RIGHT_PAREN, SPACE } from './char-codes.js';
import { isAsciiControl, isWhitespace, type Read } from './inline-chars.js';

/** How deep parentheses may nest in a raw destination (micromark's `linkResourceDestinationBalanceMax`). */
const MAX_BALANCE = 32;

/**
 * Reads the resource whose `(` is at `open` in `text` (a paragraph's inline content, without container prefixes):
 * the index after its `)` when one parses there (see `Read`).
 */
export function readResource(text: string, open: number): Read {
  let i = skipWhitespace(text, open + 1);
  if (text.charCodeAt(i) === RIGHT_PAREN) return i + 1;
  const destination = destinationEnd(text, i);
  if (destination < 0) return destination;
  i = skipWhitespace(text, destination);
  const code = text.charCodeAt(i);
  if (i > destination && (code === QUOTE || code === APOSTROPHE || code === LEFT_PAREN)) {
    const title = titleEnd(text, i);
    if (title < 0) return title;
    i = skipWhitespace(text, title);
  }
  return text.charCodeAt(i) === RIGHT_PAREN ? i + 1 : -1 - i;
}

/** The end of the destination starting at `at` (`<…>`, or raw with balanced parentheses), or `-1 - stop`. */
function destinationEnd(text: string, at: number): number {
  let code = text.charCodeAt(at);
  if (code === LESS) {
    for (let i = at + 1; i < text.length; i++) {
      code = text.charCodeAt(i);
      if (code === GREATER) return i + 1;
      if (code === LESS || code === LF || code === CR) return -1 - i;
      // A backslash escapes `<`, `>` or another backslash.
      if (code === BACKSLASH) {
        const next = text.charCodeAt(i + 1);
        if (next === LESS || next === GREATER || next === BACKSLASH) i++;
      }
    }
    return -1 - text.length;
  }
  if (Number.isNaN(code) || code === SPACE || code === RIGHT_PAREN || isAsciiControl(code)) return -1 - at;
  let balance = 0;
  for (let i = at; ; i++) {
    code = text.charCodeAt(i);
    if (balance === 0 && (Number.isNaN(code) || code === RIGHT_PAREN || isWhitespace(code))) return i;
    if (code === LEFT_PAREN && balance < MAX_BALANCE) balance++;
    else if (code === RIGHT_PAREN) balance--;
    else if (Number.isNaN(code) || code === SPACE || code === LEFT_PAREN || isAsciiControl(code)) return -1 - i;
    else if (code === BACKSLASH) {
      const next = text.charCodeAt(i + 1);
      if (next === LEFT_PAREN || next === RIGHT_PAREN || next === BACKSLASH) i++;
    }
  }
}

/** The end of the title whose opening mark (`"`, `'` or `(`) is at `at`, or `-1 - stop` when it is not closed. */
function titleEnd(text: string, at: number): number {
  const close = text.charCodeAt(at) === LEFT_PAREN ? RIGHT_PAREN : text.charCodeAt(at);
  for (let i = at + 1; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === close) return i + 1;
    if (code === BACKSLASH) {
      const next = text.charCodeAt(i + 1);
      if (next === close || next === BACKSLASH) i++;
    }
  }
  return -1 - text.length;
}

function skipWhitespace(text: string, at: number): number {
  while (isWhitespace(text.charCodeAt(at))) at++;
  return at;
}
