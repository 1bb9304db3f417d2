/**
 * What one line says, for the block scanner: the title of an ATX heading, a fence's info string, a link reference
 * definition, the cells of a GFM table row and delimiter row, the conditions that start and end an HTML block, the
 * fences of front matter. Pure functions over the text, each read the way micromark reads it.
 */
import { APOSTROPHE, BACKSLASH, BACKTICK, COLON, CR, DASH, DEL, DOLLAR, EQUALS, GREATER, HASH, isDigit, LEFT_BRACKET, LEFT_PAREN, LESS, LF, PIPE, PLUS, QUOTE, RIGHT_BRACKET, RIGHT_PAREN, SPACE, STAR, TAB, TILDE, UNDERSCORE } from './char-codes.js';

/** A construct the block scanner leaves to micromark; its message says which. */
export class Unsupported extends Error {}

/** Numbers per line in a list of lines: start, end (before the line ending), line number, flags. */
export const LINE = 4;

export const SPACE_OR_TAB = (c: number): boolean => c === SPACE || c === TAB;

/**
 * Where a block start is read on the line at `from`: after up to three spaces (four columns make indented code).
 * Lines of the functions below are strings that end where the line's text does (no line ending).
 */
export function afterIndent(line: string, from: number): number {
  let i = from;
  const to = Math.min(from + 3, line.length);
  while (i < to && line.charCodeAt(i) === SPACE) i++;
  return i;
}

// A line's text may end with a CR: a lone CR is a line ending of its own, which the batcher (cutting at LFs only)
// leaves in the line before a CRLF.
const THEMATIC_BREAK = /(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})\r?$/y;
const FENCE_MARKER = /`{3,}|~{3,}|\${2,}/y;
/** A list marker; what follows it may be a line ending, for a caller that reads past the line's text. */
const LIST_MARKER = /(?:[-+*]|\d{1,9}[.)])(?=[ \t]|\r?\n|$)/y;
/** A list marker and the blanks after it, before more content on the same line. */
const LIST_MARKER_AND_BLANKS = /(?:[-+*]|\d{1,9}[.)])[ \t]+/y;

/** Most `#`s an ATX heading opens with. */
const ATX_MAX_LEVEL = 6;

/**
 * The number of `#`s of the ATX heading opening at `from` of `line` (one to six, then a blank or the end), 0 when
 * none. What `/#{1,6}(?=[ \t]|$)/y` matches, read by a loop: the batcher and the scanner ask it of every line that opens with
 * `#`, three times for a heading per line, and the regular expression's call cost more than the reading.
 */
export function atxOpenLength(line: string, from: number): number {
  let at = from;
  const to = Math.min(from + ATX_MAX_LEVEL + 1, line.length);
  while (at < to && line.charCodeAt(at) === HASH) at++;
  const length = at - from;
  if (length === 0 || length > ATX_MAX_LEVEL) return 0;
  return at === line.length || SPACE_OR_TAB(line.charCodeAt(at)) ? length : 0;
}

/** True when `line` from `from` on is a thematic break: three or more of one of `*`, `-`, `_`, blanks between. */
export function isThematicBreak(line: string, from: number): boolean {
  THEMATIC_BREAK.lastIndex = from;
  return THEMATIC_BREAK.test(line);
}

/**
 * True when `line` from `from` on is a setext heading underline: a run of `=` or of `-`, then blanks. What
 * `/(?:=+|-+)[ \t]*\r?$/y` matches, read by a loop: a setext heading every two lines asks it of every other line, twice.
 */
export function isSetextUnderline(line: string, from: number): boolean {
  const c = line.charCodeAt(from);
  if (c !== EQUALS && c !== DASH) return false;
  let at = from + 1;
  while (at < line.length && line.charCodeAt(at) === c) at++;
  while (at < line.length && SPACE_OR_TAB(line.charCodeAt(at))) at++;
  if (at < line.length && line.charCodeAt(at) === CR) at++;
  return at === line.length;
}

/** True when a list marker (`-`, `+`, `*`, or up to nine digits and `.` or `)`) opens `text` at `from`. */
export function isListMarker(text: string, from: number): boolean {
  LIST_MARKER.lastIndex = from;
  return LIST_MARKER.test(text);
}

/** The opening line of fenced code or math: its marker (three backticks or tildes or more, or two dollars or more) and what follows it. */
export interface FenceOpen {
  readonly marker: string;
  readonly info: string;
}

/**
 * The fence `line` opens at `from`, or null: a backtick fence's info string may not hold a backtick, nor a `$$`
 * fence's meta a dollar (remark-math's math blocks).
 */
export function fenceOpen(line: string, from: number): FenceOpen | null {
  FENCE_MARKER.lastIndex = from;
  if (!FENCE_MARKER.test(line)) return null;
  const marker = line.slice(from, FENCE_MARKER.lastIndex);
  const info = line.slice(FENCE_MARKER.lastIndex);
  const c = marker.charCodeAt(0);
  if ((c === BACKTICK && info.includes('`')) || (c === DOLLAR && info.includes('$'))) return null;
  return { marker, info };
}

/**
 * The code fence opened on a list item's marker line (`- ```js`, `1. - ~~~`: blanks, one or more markers each
 * followed by blanks, then a fence of backticks or tildes), or null.
 */
export function itemFenceOpen(line: string): FenceOpen | null {
  let i = blanksEnd(line, 0, line.length);
  const first = i;
  for (;;) {
    LIST_MARKER_AND_BLANKS.lastIndex = i;
    if (!LIST_MARKER_AND_BLANKS.test(line)) break;
    i = LIST_MARKER_AND_BLANKS.lastIndex;
  }
  if (i === first || line.charCodeAt(i) === DOLLAR) return null;
  return fenceOpen(line, i);
}

/** True when `[from, to)` of `text` closes a fence of `length` or more `char`s: that run from `from`, then only blanks. */
export function closesFence(text: string, from: number, to: number, char: number, length: number): boolean {
  let i = from;
  while (i < to && text.charCodeAt(i) === char) i++;
  return i - from >= length && isBlankFrom(text, i, to);
}

/** The HTML blocks that start with a raw tag (condition 1) and the tag that ends them. */
const HTML_RAW = /^<(?:script|pre|style|textarea)(?=[ \t>]|$)/i;
const HTML_RAW_END = /<\/(?:script|pre|style|textarea)>/i;
const HTML_BLOCK_NAMES = new Set([
  'address', 'article', 'aside', 'base', 'basefont', 'blockquote', 'body', 'caption', 'center', 'col', 'colgroup',
  'dd', 'details', 'dialog', 'dir', 'div', 'dl', 'dt', 'fieldset', 'figcaption', 'figure', 'footer', 'form', 'frame',
  'frameset', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'head', 'header', 'hr', 'html', 'iframe', 'legend', 'li', 'link',
  'main', 'menu', 'menuitem', 'nav', 'noframes', 'ol', 'optgroup', 'option', 'p', 'param', 'search', 'section',
  'summary', 'table', 'tbody', 'td', 'tfoot', 'th', 'thead', 'title', 'tr', 'track', 'ul',
]);
/** An HTML block of condition 6: a known block tag name, opening or closing. */
const HTML_BLOCK_TAG = /^<\/?([A-Za-z][A-Za-z0-9-]*)(?=[ \t>]|\/>|$)/;
/** A complete open or closing tag alone on its line (condition 7), as micromark's `complete*` states read it. */
const HTML_COMPLETE_TAG =
  /^(?:<[A-Za-z][A-Za-z0-9-]*(?:[ \t]+[A-Za-z_:][A-Za-z0-9_.:-]*(?:[ \t]*=[ \t]*(?:[^"'=<>`\x00-\x20]+|'[^'\r\n]*'|"[^"\r\n]*"))?)*[ \t]*\/?>|<\/[A-Za-z][A-Za-z0-9-]*[ \t]*>)[ \t]*$/;

/**
 * The HTML block condition (1–7) that `line` (from its first non-space) starts, 0 when none. Condition 7, a
 * complete tag alone on its line, cannot interrupt a paragraph: the caller decides.
 */
export function htmlStartCondition(line: string): number {
  if (HTML_RAW.test(line)) return 1;
  if (line.startsWith('<!--')) return 2;
  if (line.startsWith('<?')) return 3;
  if (line.startsWith('<![CDATA[')) return 5;
  if (/^<![A-Za-z]/.test(line)) return 4;
  const tag = HTML_BLOCK_TAG.exec(line);
  // `<div/x` is no tag: a known name is followed by a space, `>`, `/>` or the line's end.
  if (tag !== null && HTML_BLOCK_NAMES.has((tag[1] as string).toLowerCase())) return 6;
  return HTML_COMPLETE_TAG.test(line) ? 7 : 0;
}

/**
 * Where the front matter that opens `text` ends (its closing `---` line, before the line ending), or -1: a line
 * of `---` first, and another later, each with nothing after but blanks (remark-frontmatter's YAML fences).
 */
export function frontMatterEnd(text: string): number {
  let end = fenceLineEnd(text, 0);
  if (end === -1 || end === text.length) return -1;
  for (;;) {
    // The next line.
    end += text.charCodeAt(end) === CR && text.charCodeAt(end + 1) === LF ? 2 : 1;
    if (end >= text.length) return -1;
    const close = fenceLineEnd(text, end);
    if (close !== -1) return close;
    while (end < text.length && text.charCodeAt(end) !== LF && text.charCodeAt(end) !== CR) end++;
    if (end === text.length) return -1;
  }
}

/** The end of the line at `from` when it is a front matter fence (`---` and blanks), else -1. */
export function fenceLineEnd(text: string, from: number): number {
  if (!text.startsWith('---', from)) return -1;
  const i = blanksEnd(text, from + 3, text.length);
  return i === text.length || text.charCodeAt(i) === LF || text.charCodeAt(i) === CR ? i : -1;
}

/** Where the spaces and tabs from `from` end (at `to` at the most). */
export function blanksEnd(text: string, from: number, to: number): number {
  let i = from;
  while (i < to && SPACE_OR_TAB(text.charCodeAt(i))) i++;
  return i;
}

/** True when only spaces and tabs lie between `from` and `to`. */
export function isBlankFrom(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (!SPACE_OR_TAB(text.charCodeAt(i))) return false;
  return true;
}

/** Where `char` next occurs in `text` from `from`, or the text's length. */
export function indexOrEnd(text: string, char: string, from: number): number {
  const at = text.indexOf(char, from);
  return at === -1 ? text.length : at;
}

/**
 * True when a line of an HTML block meets its end condition (conditions 1–5; 6 and 7 end at a blank line); `first`
 * for its opening line, where the end is looked for after the opening.
 */
export function htmlEnds(type: number, line: string, first: boolean): boolean {
  switch (type) {
    case 1:
      return HTML_RAW_END.test(first ? line.slice(line.indexOf('<') + 1) : line);
    case 2:
      // `<!-->` ends where it opens: the opener's dashes count.
      return line.indexOf('-->', first ? line.indexOf('<!--') + 2 : 0) !== -1;
    case 3:
      return line.indexOf('?>', first ? line.indexOf('<?') + 1 : 0) !== -1;
    case 4:
      return line.indexOf('>', first ? line.indexOf('<!') + 2 : 0) !== -1;
    case 5:
      return line.indexOf(']]>', first ? line.indexOf('<![CDATA[') + 9 : 0) !== -1;
    default:
      return false;
  }
}

/** An ATX heading's title: the text after the opening sequence, without the closing sequence or blanks. */
export function atxTitle(text: string, from: number, to: number): string {
  const start = blanksEnd(text, from, to);
  let end = to;
  while (end > start && SPACE_OR_TAB(text.charCodeAt(end - 1))) end--;
  // A closing sequence of #s counts when blanks (or the opening sequence) come before it.
  let hashes = end;
  while (hashes > start && text.charCodeAt(hashes - 1) === HASH) hashes--;
  if (hashes < end && (hashes === start || SPACE_OR_TAB(text.charCodeAt(hashes - 1)))) {
    end = hashes;
    while (end > start && SPACE_OR_TAB(text.charCodeAt(end - 1))) end--;
  }
  return asMicromarkReads(text.slice(start, end));
}

/** A fence's info string: `lang` up to the first blank, `meta` after it, as micromark collects them. */
export function readInfo(info: string): { lang: string | null; meta: string | null } {
  let start = 0;
  while (start < info.length && SPACE_OR_TAB(info.charCodeAt(start))) start++;
  let end = info.length;
  while (end > start && SPACE_OR_TAB(info.charCodeAt(end - 1))) end--;
  if (start === end) return { lang: null, meta: null };
  let langEnd = start;
  while (langEnd < end && !SPACE_OR_TAB(info.charCodeAt(langEnd))) langEnd++;
  let metaStart = langEnd;
  while (metaStart < end && SPACE_OR_TAB(info.charCodeAt(metaStart))) metaStart++;
  // The meta keeps its trailing blanks, as micromark collects it.
  return { lang: asMicromarkReads(info.slice(start, langEnd)), meta: metaStart < end ? asMicromarkReads(info.slice(metaStart)) : null };
}

/** `text` as micromark gives it in a node's value: each NUL replaced by U+FFFD, as its preprocessing does. */
export function asMicromarkReads(text: string): string {
  return text.indexOf('\0') === -1 ? text : text.replaceAll('\0', '\uFFFD');
}

/**
 * A link reference definition of one line, `[label]: destination "title"`, opening the paragraph line `k` (of
 * `lines`); null when the line opens no definition. Throws `Unsupported` for the forms left to micromark: labels
 * over lines, destinations on the next line or with escapes or parentheses, titles over lines or with escapes.
 */
export function readDefinition(text: string, lines: readonly number[], k: number): { label: string; end: number } | null {
  const from = lines[k] as number;
  const to = lines[k + 1] as number;
  const labelEnd = findLabelEnd(text, lines, k);
  if (labelEnd === -1) return null;
  if (text.charCodeAt(labelEnd + 1) !== COLON) return null;
  if (labelEnd >= to) throw new Unsupported('a label over lines');
  const label = text.slice(from + 1, labelEnd);
  let i = labelEnd + 2;
  while (i < to && SPACE_OR_TAB(text.charCodeAt(i))) i++;
  if (i === to) throw new Unsupported('a destination on the next line');
  if (text.charCodeAt(i) === LESS) {
    i++;
    while (i < to && text.charCodeAt(i) !== GREATER) {
      const c = text.charCodeAt(i);
      if (c === LESS || c === BACKSLASH) throw new Unsupported('a destination with an escape');
      i++;
    }
    if (i === to) throw new Unsupported('an unclosed destination');
    i++;
  } else {
    while (i < to) {
      const c = text.charCodeAt(i);
      if (c <= SPACE || c === DEL) break;
      if (c === LEFT_PAREN || c === RIGHT_PAREN || c === BACKSLASH) throw new Unsupported('a destination with parentheses or escapes');
      i++;
    }
  }
  const destinationEnd = i;
  while (i < to && SPACE_OR_TAB(text.charCodeAt(i))) i++;
  if (i < to) {
    // A title on the same line, after a blank: "…", '…' or (…), without escapes, nothing but blanks after it.
    const open = text.charCodeAt(i);
    const close = open === LEFT_PAREN ? RIGHT_PAREN : open;
    if (i === destinationEnd || (open !== QUOTE && open !== APOSTROPHE && open !== LEFT_PAREN)) throw new Unsupported('a definition title');
    i++;
    while (i < to && text.charCodeAt(i) !== close) {
      const c = text.charCodeAt(i);
      if (c === BACKSLASH || (open === LEFT_PAREN && c === LEFT_PAREN)) throw new Unsupported('a definition title');
      i++;
    }
    if (i === to) throw new Unsupported('a definition title');
    i++;
    while (i < to && SPACE_OR_TAB(text.charCodeAt(i))) i++;
    if (i < to) throw new Unsupported('a definition title');
  }
  // The definition takes the blanks after its destination or title.
  return { label, end: i };
}

/**
 * Where the link label that opens paragraph line `k` ends (its `]`), or -1 when the line opens no label: a `[`
 * inside, no `]` before the paragraph ends, more than 999 characters, or nothing but blanks. Escaped brackets and
 * backslashes are part of the label.
 */
function findLabelEnd(text: string, lines: readonly number[], k: number): number {
  let size = 0;
  let seen = false;
  for (let line = k; line < lines.length; line += LINE) {
    const end = lines[line + 1] as number;
    let i = line === k ? (lines[line] as number) + 1 : (lines[line] as number);
    if (line > k) size++; // the line ending
    while (i < end) {
      const c = text.charCodeAt(i);
      if (c === RIGHT_BRACKET) return seen ? i : -1;
      if (c === LEFT_BRACKET) return -1;
      if (c === BACKSLASH && i + 1 < end) {
        const n = text.charCodeAt(i + 1);
        if (n === LEFT_BRACKET || n === BACKSLASH || n === RIGHT_BRACKET) {
          i += 2;
          size += 2;
          seen = true;
          continue;
        }
      }
      if (!SPACE_OR_TAB(c)) seen = true;
      if (++size > 999) return -1;
      i++;
    }
  }
  return -1;
}

/** What may start a delimiter row: a pipe, a colon or a dash. */
export function mayBeDelimiterRow(c: number): boolean {
  return c === PIPE || c === COLON || c === DASH;
}

/**
 * The cells of a GFM delimiter row between `from` and `to` (`| :-- | --: |`), or 0 when the line is none: each
 * cell a dash run with optional colons, cells parted by pipes, a pipe or colon somewhere (else it is a setext
 * underline or a thematic break), blanks anywhere between.
 */
export function delimiterCells(text: string, from: number, to: number): number {
  let i = from;
  let cells = 0;
  let marked = false;
  for (;;) {
    if (text.charCodeAt(i) === PIPE && i < to) {
      marked = true;
      i = blanksEnd(text, i + 1, to);
      if (i === to) break;
    }
    if (text.charCodeAt(i) === COLON) {
      marked = true;
      i++;
    }
    if (i >= to || text.charCodeAt(i) !== DASH) return 0;
    while (i < to && text.charCodeAt(i) === DASH) i++;
    if (i < to && text.charCodeAt(i) === COLON) {
      marked = true;
      i++;
    }
    cells++;
    i = blanksEnd(text, i, to);
    if (i === to) break;
    if (text.charCodeAt(i) !== PIPE) return 0;
  }
  return marked ? cells : 0;
}

/**
 * Where the cells of a table row between `from` and `to` start, as micromark's table resolver places them: at
 * the row's start, and at every pipe but one that opens the row and the last one when only blanks follow it.
 * Escaped pipes (`\|`) part nothing; a backslash escapes a backslash before a pipe.
 */
export function cellStarts(text: string, from: number, to: number): number[] {
  const starts = [from];
  let i = from;
  if (text.charCodeAt(i) === PIPE) i++;
  for (; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === BACKSLASH) {
      const n = text.charCodeAt(i + 1);
      if ((n === BACKSLASH || n === PIPE) && i + 1 < to) i++;
      continue;
    }
    if (c !== PIPE) continue;
    if (isBlankFrom(text, i + 1, to)) break;
    starts.push(i);
  }
  return starts;
}

/** How many cells the header row between `from` and `to` has; 0 for a lone pipe, which opens no table. */
export function headerCells(text: string, from: number, to: number): number {
  if (text.charCodeAt(from) === PIPE && isBlankFrom(text, from + 1, to)) return 0;
  return cellStarts(text, from, to).length;
}

/** Characters that may start a block other than a paragraph (the rest of a line is then text). */
export function mayStartBlock(c: number): boolean {
  switch (c) {
    case HASH:
    case BACKTICK:
    case TILDE:
    case DOLLAR:
    case STAR:
    case PLUS:
    case UNDERSCORE:
    case EQUALS:
    case LESS:
    case GREATER:
    case DASH:
      return true;
    default:
      return isDigit(c);
  }
}
