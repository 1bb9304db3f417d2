/**
 * Line numbers, counted the way CommonMark counts line endings: `\n`, `\r\n` (once) and a lone `\r`. Every
 * stage numbers lines with these, so a block, a piece and a chunk agree on them.
 */

const LF = 0x0a;
const CR = 0x0d;

/**
 * Number of line endings in `text[from..to)`. A `\r` at `to - 1` counts unless `text[to]` is `\n`: that CRLF
 * ends its line at the `\n`, which the next range counts.
 */
export function countLineEndings(text: string, from = 0, to = text.length): number {
  const start = Math.max(0, from);
  const end = Math.min(to, text.length);
  return end - start < SEARCHED_RANGE ? countByLoop(text, start, end) : countBySearch(text, start, end);
}

/**
 * Ranges at least this long are counted by `indexOf`, which V8 runs as a native search: a loop of `charCodeAt`
 * reads a character at a time through the string's representation (a batch is a slice of the batcher's buffer),
 * several times the work per character, and the batcher counts the lines of every batch.
 */
const SEARCHED_RANGE = 256;

/** `countLineEndings` of `text[start..end)` a character at a time: for a short range, where a search costs more. */
function countByLoop(text: string, start: number, end: number): number {
  let count = 0;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === LF || (c === CR && text.charCodeAt(i + 1) !== LF)) count++;
  }
  return count;
}

/**
 * `countLineEndings` of `text[start..end)` by searching for LF, then for CR. The searches run in a slice of the
 * range, so that one for a character the range lacks stops at its end (over the many ranges of one long text,
 * a search to the text's end would be quadratic); a CR at the range's end looks at the character after it.
 */
function countBySearch(text: string, start: number, end: number): number {
  const range = start === 0 && end === text.length ? text : text.slice(start, end);
  let count = 0;
  for (let i = range.indexOf('\n'); i !== -1; i = range.indexOf('\n', i + 1)) count++;
  for (let i = range.indexOf('\r'); i !== -1; i = range.indexOf('\r', i + 1)) {
    if (text.charCodeAt(start + i + 1) !== LF) count++;
  }
  return count;
}

/** True when the whitespace `text[from..to)` holds a blank line: two line endings. */
export function holdsBlankLine(text: string, from: number, to: number): boolean {
  return countLineEndings(text, from, to) >= 2;
}

/** Line of the last character of `text`, which starts on `startLine`. */
export function endLineOf(text: string, startLine: number): number {
  return text.length <= 1 ? startLine : startLine + countLineEndings(text, 0, text.length - 1);
}

/** Maps offsets of one text to 1-based line numbers. */
export function createLineIndex(text: string): (offset: number) => number {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === LF || (c === CR && text.charCodeAt(i + 1) !== LF)) starts.push(i + 1);
  }
  return (offset) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((starts[mid] as number) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
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
  // Where the count has reached: the line at `pos`, and whether a CR ended the text read so far. A CR at the end of
  // a buffer ends a line only if the next character, not yet seen, is not LF.
  const at = { line: 1, pos: 0, pendingCr: false };
  return {
    lineAt(buffer, base, offset) {
      let i = at.pos - base;
      let line = at.line;
      if (at.pendingCr && i < buffer.length) {
        if (buffer.charCodeAt(i) !== LF) line++;
        at.pendingCr = false;
      }
      for (const to = offset - base; i < to; i++) {
        const c = buffer.charCodeAt(i);
        if (c === LF) line++;
        else if (c === CR) {
          if (i + 1 >= buffer.length) at.pendingCr = true;
          else if (buffer.charCodeAt(i + 1) !== LF) line++;
        }
      }
      at.line = line;
      if (offset > at.pos) at.pos = offset;
      return line;
    },
  };
}
