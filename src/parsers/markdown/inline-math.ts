/**
 * Whether a paragraph holds inline math (`$x$`), read without micromark.
 *
 * A paragraph's block keeps two things of its inline content, its images and whether it holds a formula
 * (`features`), and a `$` is common outside formulas (prices, shell variables, junk). Sending every paragraph with a
 * `$` to remark's full inline parse cost more than the rest of the parse on such text (on random bytes, some 1.4 s
 * a MB). This reads the paragraph the way micromark's inline tokenizer does, left to right, but follows only the
 * constructs that can make a `$` something other than the start of math: backslash escapes, code spans, autolinks
 * and inline HTML (which consume their text), and math itself. Emphasis, strikethrough and character references
 * consume nothing that matters.
 *
 * What it does not follow, it leaves to the full parse (the answer is then null): a `](` followed by a resource that
 * parses, which may make a link whose destination holds a `$`; a GFM autolink literal (`www.`, `http:`), which may
 * run over a `$`; and any text on which the reading would do more than linear work. The caller must also leave to
 * the full parse a block of a batch that defines references (`[x]`, `[^x]` and `![x]` may then be links, footnote
 * calls or images) or that may hold an image, since math in an image's description is not math in the tree.
 */

import {
  APOSTROPHE, AT, BACKSLASH, BACKTICK, COLON, CR, DASH, DOLLAR, DOT, EQUALS, EXCLAMATION, GREATER, LEFT_BRACKET,
  LEFT_PAREN, LESS, LF, PLUS, QUESTION, QUOTE, RIGHT_BRACKET, SLASH, SPACE, UNDERSCORE,
} from './char-codes.js';
import { isAsciiAlpha, isAsciiAlphanumeric, isAsciiControl, isWhitespace, type Read, reached } from './inline-chars.js';
import { readResource } from './link-resource.js';

/** A GFM autolink literal may start here: it can run over a `$` or a backtick, so the reading stops. */
const AUTOLINK_LITERAL = /www\.|https?:/i;

/** How much reading a text may cost, per character, before it is left to the full parse. */
const WORK_PER_CHAR = 6;

/**
 * True when `content` (a paragraph's inline content: its lines, without container prefixes) holds inline math
 * as micromark with remark-math reads it (single dollars on), false when it holds none, null when the answer
 * needs the full parse (see the module comment).
 */
export function holdsInlineMath(content: string): boolean | null {
  if (content.indexOf('$') === -1) return false;
  if (AUTOLINK_LITERAL.test(content)) return null;
  const reader = new InlineReader(content);
  try {
    return reader.read();
  } catch (error) {
    if (error === UNDECIDED) return null;
    throw error;
  }
}

/** Thrown where the reading cannot tell: a possible link, or more than linear work. */
const UNDECIDED = new Error('undecided');

/**
 * `holdsInlineMath` over the paragraphs of one block: true when one holds math, false when none does, null when
 * none is found to and one cannot be ruled out.
 */
export function holdsInlineMathIn(contents: readonly string[]): boolean | null {
  let undecided = false;
  for (const content of contents) {
    const math = holdsInlineMath(content);
    if (math === true) return true;
    if (math === null) undecided = true;
  }
  return undecided ? null : false;
}

class InlineReader {
  private budget: number;
  /** Per sequence character and length, where the next run of that length was found (memoized, as runs are sought forward). */
  private readonly found = new Map<number, number>();
  /** Per closing string (`-->`, `?>`, a quote), where it was found last: searches only go forward. */
  private readonly closes = new Map<string, number>();
  private readonly find = (close: string, from: number): number => this.indexOf(close, from);

  constructor(private readonly text: string) {
    this.budget = WORK_PER_CHAR * text.length + 1024;
  }

  read(): boolean {
    const text = this.text;
    const n = text.length;
    let p = 0;
    while (p < n) {
      const code = text.charCodeAt(p);
      switch (code) {
        case BACKSLASH: {
          // An escaped punctuation character (a `$` among them) or a hard break: both take the next character.
          const next = text.charCodeAt(p + 1);
          p += isAsciiPunctuation(next) || next === LF || next === CR ? 2 : 1;
          break;
        }
        case BACKTICK:
        case DOLLAR: {
          const end = runEnd(text, p, code);
          const close = this.nextRun(code, end, end - p);
          if (code === DOLLAR && close !== -1) return true;
          // A code span is skipped whole; a sequence without its closing run is text.
          p = close === -1 ? end : close + (end - p);
          break;
        }
        case LESS: {
          const end = autolinkEnd(text, p) ?? this.htmlTextEnd(p);
          p = end === -1 ? p + 1 : end;
          break;
        }
        case RIGHT_BRACKET: {
          if (text.charCodeAt(p + 1) === LEFT_PAREN) {
            const read = readResource(text, p + 1);
            this.spend(reached(read) - p);
            // A resource that parses may make a link, whose destination can run over a `$`.
            if (read >= 0) throw UNDECIDED;
          }
          p++;
          break;
        }
        default:
          p++;
      }
    }
    return false;
  }

  /** Start of the first run of exactly `length` characters `code` at or after `from`, or -1. */
  private nextRun(code: number, from: number, length: number): number {
    const key = code * 0x10000 + length;
    const known = this.found.get(key);
    // Runs are sought forward only; one found at or after `from` is still the first (-1 stays -1).
    if (known !== undefined && (known === -1 || known >= from)) return known;
    const text = this.text;
    const char = code === DOLLAR ? '$' : '`';
    let at = from;
    for (;;) {
      const start = text.indexOf(char, at);
      if (start === -1) {
        this.spend(text.length - from);
        this.found.set(key, -1);
        return -1;
      }
      const end = runEnd(text, start, code);
      if (end - start === length) {
        this.spend(end - from);
        this.found.set(key, start);
        return start;
      }
      at = end;
    }
  }

  /** `text.indexOf(close, from)`, remembered: a later search from before the last match finds it again. */
  private indexOf(close: string, from: number): number {
    const known = this.closes.get(close);
    if (known !== undefined && (known === -1 || known >= from)) return known;
    const at = this.text.indexOf(close, from);
    this.spend((at === -1 ? this.text.length : at) - from);
    this.closes.set(close, at);
    return at;
  }

  private spend(work: number): void {
    this.budget -= work;
    if (this.budget < 0) throw UNDECIDED;
  }

  /** End of the inline HTML (tag, comment, instruction, declaration, CDATA) opened by the `<` at `p`, or -1. */
  private htmlTextEnd(p: number): number {
    const text = this.text;
    const next = text.charCodeAt(p + 1);
    let end: number;
    if (next === EXCLAMATION) {
      const third = text.charCodeAt(p + 2);
      if (third === DASH) end = text.charCodeAt(p + 3) === DASH ? commentEnd(text, p + 4, this.find) : -1;
      else if (third === LEFT_BRACKET) end = text.startsWith('CDATA[', p + 3) ? closeAfter(p + 9, ']]>', this.find) : -1;
      else if (isAsciiAlpha(third)) end = closeAfter(p + 3, '>', this.find);
      else end = -1;
    } else if (next === QUESTION) end = closeAfter(p + 2, '?>', this.find);
    else if (next === SLASH || isAsciiAlpha(next)) {
      if (next === SLASH && !isAsciiAlpha(text.charCodeAt(p + 2))) return -1;
      const read = next === SLASH ? readClosingTag(text, p + 3) : readOpeningTag(text, p + 2, this.find);
      // A tag is read character by character: that work is counted here.
      this.spend(reached(read) - p);
      end = read < 0 ? -1 : read;
    } else return -1;
    return end;
  }
}

/** End of the run of `code` characters at `p`. */
function runEnd(text: string, p: number, code: number): number {
  let end = p;
  while (text.charCodeAt(end) === code) end++;
  return end;
}

/**
 * End of an autolink (`<https://x>`, `<a@b.c>`) at the `<` at `p`, or undefined: micromark tries it before inline
 * HTML. A NUL counts as U+FFFD, which micromark reads it as.
 */
function autolinkEnd(text: string, p: number): number | undefined {
  let i = p + 1;
  let code = text.charCodeAt(i);
  if (isAsciiAlpha(code)) {
    // A scheme: a letter, then 1 to 31 of letters, digits, `+`, `-`, `.`, then `:`.
    let size = 1;
    i++;
    while (isSchemeChar(text.charCodeAt(i)) && size < 32) {
      i++;
      size++;
    }
    if (size >= 2 && text.charCodeAt(i) === COLON) {
      // A URL: anything but spaces, `<` and controls, up to `>`.
      for (i++; i < text.length; i++) {
        code = text.charCodeAt(i);
        if (code === GREATER) return i + 1;
        if (code === SPACE || code === LESS || isAsciiControl(code)) return undefined;
      }
      return undefined;
    }
    // Not a scheme: the letters read so far are atext, and may start an e-mail address.
    i = p + 1;
  } else if (code === AT) return undefined;
  // An e-mail address: atext, `@`, then labels of letters, digits and `-` (at most 63 a label) split by dots.
  while (isAsciiAtext(text.charCodeAt(i))) i++;
  if (text.charCodeAt(i) !== AT) return undefined;
  i++;
  for (;;) {
    if (!isAsciiAlphanumeric(text.charCodeAt(i))) return undefined;
    let size = 1;
    i++;
    for (;;) {
      code = text.charCodeAt(i);
      // A label neither starts nor ends with `-`.
      if ((code === DOT || code === GREATER) && text.charCodeAt(i - 1) === DASH) return undefined;
      if (code === DOT) {
        i++;
        break;
      }
      if (code === GREATER) return i + 1;
      if ((code === DASH || isAsciiAlphanumeric(code)) && size++ < 63) i++;
      else return undefined;
    }
  }
}

/** Finds a string at or after an index in the text being read (`indexOf`, remembered). */
type Find = (close: string, from: number) => number;

/** End after the first `close` at or after `from`, or -1 (comments' and instructions' bodies may span lines). */
function closeAfter(from: number, close: string, find: Find): number {
  const at = find(close, from);
  return at === -1 ? -1 : at + close.length;
}

/** End of a comment whose `<!--` ends before `from`: micromark ends it at the first `-->`, even `<!-->`. */
function commentEnd(text: string, from: number, find: Find): number {
  // After `<!--`, a `>` right away, or after one more `-`, ends it.
  if (text.charCodeAt(from) === GREATER) return from + 1;
  if (text.charCodeAt(from) === DASH && text.charCodeAt(from + 1) === GREATER) return from + 2;
  return closeAfter(from, '-->', find);
}

/** A closing tag whose `</` and first letter end before `from` (see `Read`). */
function readClosingTag(text: string, from: number): Read {
  let i = from;
  while (isTagNameChar(text.charCodeAt(i))) i++;
  while (isWhitespace(text.charCodeAt(i))) i++;
  return text.charCodeAt(i) === GREATER ? i + 1 : -1 - i;
}

/** An opening tag whose `<` and first letter end before `from` (see `Read`). */
function readOpeningTag(text: string, from: number, find: Find): Read {
  let i = from;
  while (isTagNameChar(text.charCodeAt(i))) i++;
  let code = text.charCodeAt(i);
  if (!(code === SLASH || code === GREATER || isWhitespace(code))) return -1 - i;
  // Attributes: whitespace, then a name and an optional value; a value must be followed by whitespace, `/` or `>`.
  for (;;) {
    while (isWhitespace(text.charCodeAt(i))) i++;
    code = text.charCodeAt(i);
    if (code === SLASH) return text.charCodeAt(i + 1) === GREATER ? i + 2 : -1 - i;
    if (code === GREATER) return i + 1;
    if (!(code === COLON || code === UNDERSCORE || isAsciiAlpha(code))) return -1 - i;
    i++;
    while (isAttributeNameChar(text.charCodeAt(i))) i++;
    let j = i;
    while (isWhitespace(text.charCodeAt(j))) j++;
    if (text.charCodeAt(j) !== EQUALS) continue;
    j++;
    while (isWhitespace(text.charCodeAt(j))) j++;
    code = text.charCodeAt(j);
    if (Number.isNaN(code) || code === LESS || code === EQUALS || code === GREATER || code === BACKTICK) return -1 - j;
    if (code === QUOTE || code === APOSTROPHE) {
      // The search for the closing quote counts its own work.
      const close = find(code === QUOTE ? '"' : "'", j + 1);
      if (close === -1) return -1 - j;
      i = close + 1;
      code = text.charCodeAt(i);
      if (!(code === SLASH || code === GREATER || isWhitespace(code))) return -1 - i;
    } else {
      // The first character of an unquoted value may be anything the checks above let through, `/` too.
      i = j + 1;
      for (;;) {
        code = text.charCodeAt(i);
        if (Number.isNaN(code) || code === QUOTE || code === APOSTROPHE || code === LESS || code === EQUALS || code === BACKTICK) return -1 - i;
        if (code === SLASH || code === GREATER || isWhitespace(code)) break;
        i++;
      }
    }
  }
}

function isSchemeChar(code: number): boolean {
  return isAsciiAlphanumeric(code) || code === PLUS || code === DASH || code === DOT;
}

function isTagNameChar(code: number): boolean {
  return isAsciiAlphanumeric(code) || code === DASH;
}

function isAttributeNameChar(code: number): boolean {
  return isAsciiAlphanumeric(code) || code === DASH || code === DOT || code === COLON || code === UNDERSCORE;
}

/** micromark's atext: letters, digits and `#$%&'*+-/=?^_\`{|}~` (and `.`, which it lets through too). */
function isAsciiAtext(code: number): boolean {
  return (code >= 35 && code <= 39) || code === 42 || code === 43 || (code >= 45 && code <= 57) || code === 61 || code === 63 || (code >= 65 && code <= 90) || (code >= 94 && code <= 126);
}

function isAsciiPunctuation(code: number): boolean {
  return (code >= 33 && code <= 47) || (code >= 58 && code <= 64) || (code >= 91 && code <= 96) || (code >= 123 && code <= 126);
}

/**
 * Whether `content` (a paragraph's inline content) may hold an image when the batch defines no references: an HTML
 * `<img`, or a `![` followed by a `](` whose resource parses (without a definition, an image needs a resource).
 * Null when reading the resources would take more than linear work.
 */
export function mayHoldImageWithoutReferences(content: string): boolean | null {
  if (HTML_IMAGE.test(content)) return true;
  const image = content.indexOf('![');
  if (image === -1) return false;
  let budget = WORK_PER_CHAR * content.length + 1024;
  for (let close = content.indexOf('](', image + 2); close !== -1; close = content.indexOf('](', close + 2)) {
    const read = readResource(content, close + 1);
    if (read >= 0) return true;
    budget -= reached(read) - close;
    if (budget < 0) return null;
  }
  return false;
}

/** What may start an HTML image. */
export const HTML_IMAGE = /<img/i;
