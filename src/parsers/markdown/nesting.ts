/**
 * The nesting cap: block quotes and list items nested deeper than `MAX_NESTING` are read as text, as
 * markdown-it's `maxNesting` does. micromark checks every open container on every line and recurses on markers
 * that open many containers on one line (thousands of `>` overflow the stack), and the tree mapping walks nodes
 * recursively, so without a cap a short line could make the parse quadratic or crash it.
 *
 * The cap works on a copy of the batch in which each container marker past the limit is replaced by the same
 * number of `x` characters: offsets stay those of the source, which the blocks are sliced from.
 */
import { ChunkError } from '../../errors.js';
import { GREATER, SPACE, TAB } from './char-codes.js';

/** Deepest nesting of block quotes and list items read as such; deeper markers are text. */
export const MAX_NESTING = 32;

/**
 * What capping changed: the text to parse, and where runs of replaced markers start (offsets into the text;
 * markers next to each other, or with a space between, are one run).
 */
export interface CappedText {
  readonly text: string;
  readonly capped: readonly number[];
}

/**
 * A line that may nest past the cap: its container prefix (indentation, quote and list markers) is at least as
 * long as the cap, since each level takes a character at least. Batches without one are left alone.
 */
const LONG_PREFIX = new RegExp(`^[ \\t>*+\\-0-9.)]{${MAX_NESTING}}`, 'm');

const MARKER = /^(?:[-+*]|\d{1,9}[.)])(?=[ \t]|\r?\n|$)/;

/** `x`, what a capped marker is overwritten with (a UTF-16LE unit: this byte, then 0). */
const X = 0x78;

/**
 * `text` with container markers nested deeper than `max` replaced by `x`; `text` itself (and no position) when
 * nothing is that deep. With `strict`, deep nesting fails with `ERR_NESTING_TOO_DEEP` instead.
 */
export function capNesting(text: string, strict = false, max = MAX_NESTING): CappedText {
  if (!LONG_PREFIX.test(text)) return { text, capped: [] };
  const capped: number[] = [];
  /** The text as UTF-16 units, made at the first marker capped; markers past the cap are overwritten in place. */
  let units: Buffer | null = null;
  /** Where the last capped marker ended: a marker right after it (or after its space) continues the same run. */
  let cappedEnd = -1;
  /** Content columns of the list items open at the line being read (increasing). */
  const items: number[] = [];
  let lineStart = 0;
  while (lineStart < text.length) {
    let lineEnd = text.indexOf('\n', lineStart);
    if (lineEnd === -1) lineEnd = text.length;
    let i = lineStart;
    let column = 0;
    while (i < lineEnd && (text.charCodeAt(i) === SPACE || text.charCodeAt(i) === TAB)) {
      column = text.charCodeAt(i) === TAB ? column + 4 - (column % 4) : column + 1;
      i++;
    }
    if (i < lineEnd) {
      while (items.length > 0 && (items.at(-1) as number) > column) items.pop();
      let depth = items.length;
      let quoted = false;
      for (;;) {
        const c = text.charCodeAt(i);
        let length = 0;
        if (c === GREATER) length = 1;
        else {
          const m = MARKER.exec(text.slice(i, Math.min(lineEnd, i + 11)));
          if (m === null) break;
          length = m[0].length;
        }
        depth++;
        if (depth > max) {
          if (strict) {
            throw new ChunkError('ERR_NESTING_TOO_DEEP', `Containers nested deeper than ${max} levels at offset ${i} of a batch; leave strict off to read them as text`, { offset: i });
          }
          // One position per run of capped markers: a line of thousands of `>` is one place, not thousands.
          if (cappedEnd !== i && !(cappedEnd === i - 1 && text.charCodeAt(i - 1) === SPACE)) capped.push(i);
          units ??= Buffer.from(text, 'utf16le');
          for (let k = 2 * i; k < 2 * (i + length); k += 2) {
            units[k] = X;
            units[k + 1] = 0;
          }
          cappedEnd = i + length;
        } else if (c !== GREATER && !quoted) {
          items.push(column + length + 1);
        }
        if (c === GREATER) quoted = true;
        i += length;
        column += length;
        // One space after a marker belongs to it; more would be content.
        if (text.charCodeAt(i) === SPACE) {
          i++;
          column++;
        }
      }
    }
    lineStart = lineEnd + 1;
  }
  if (units === null) return { text, capped };
  return { text: units.toString('utf16le'), capped };
}
