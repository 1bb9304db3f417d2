/**
 * Character classes of Hugging Face tokenizers, as the Rust library (the reference every embedder runs) defines
 * them: its BERT clean-up and punctuation take Unicode 9.0 tables (`hf-unicode-9.ts`), its whitespace is Rust's
 * `char::is_whitespace` (Unicode's White_Space, which JavaScript's `\s` is not: it adds U+FEFF and leaves out
 * U+0085). Each class is looked up in a table by code unit for the BMP, filled once.
 */
import { ASSIGNED_RANGES, MARK_RANGES, NONSPACING_MARK_RANGES, OTHER_RANGES, PUNCTUATION_RANGES } from './hf-unicode-9.js';

/** Inclusive ranges of a `hf-unicode-9.ts` list, flattened: [start0, end0, start1, end1, …]. */
function parseRanges(list: string): Int32Array {
  const parts = list.split(',');
  const out = new Int32Array(parts.length * 2);
  parts.forEach((part, i) => {
    const [a, b] = part.split('-');
    out[2 * i] = Number.parseInt(a!, 16);
    out[2 * i + 1] = Number.parseInt(b ?? a!, 16);
  });
  return out;
}

/** A set of code points: a bit table for the BMP, a binary search above it. */
export interface CharClass {
  has(cp: number): boolean;
}

function charClass(ranges: Int32Array): CharClass {
  const bmp = new Uint8Array(0x10000);
  for (let i = 0; i < ranges.length; i += 2) {
    for (let c = ranges[i]!; c <= Math.min(ranges[i + 1]!, 0xffff); c++) bmp[c] = 1;
  }
  return {
    has(cp) {
      if (cp < 0x10000) return bmp[cp] === 1;
      let lo = 0;
      let hi = ranges.length / 2 - 1;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        if (cp < ranges[2 * mid]!) hi = mid - 1;
        else if (cp > ranges[2 * mid + 1]!) lo = mid + 1;
        else return true;
      }
      return false;
    },
  };
}

/** Cc, Cf, Co of Unicode 9 (`unicode_categories::is_other`). */
export const OTHER_9 = charClass(parseRanges(OTHER_RANGES));
/** Mn of Unicode 9 (`is_mark_nonspacing`). */
export const NONSPACING_MARK_9 = charClass(parseRanges(NONSPACING_MARK_RANGES));
/** P* of Unicode 9 (`is_punctuation`). */
export const PUNCTUATION_9 = charClass(parseRanges(PUNCTUATION_RANGES));
/** Mn, Mc and Me of Unicode 9 (`is_combining_mark`). */
export const MARK_9 = charClass(parseRanges(MARK_RANGES));
/** Every character Unicode 9 assigns. */
export const ASSIGNED_9 = charClass(parseRanges(ASSIGNED_RANGES));

const TAB = 0x09;
const LINE_FEED = 0x0a;
const CARRIAGE_RETURN = 0x0d;
const SPACE = 0x20;

/** Rust's `char::is_whitespace`: Unicode White_Space. */
export function isWhitespace(cp: number): boolean {
  if (cp <= SPACE) return cp === SPACE || (cp >= TAB && cp <= CARRIAGE_RETURN);
  if (cp < 0x85) return false;
  return (
    cp === 0x85 || cp === 0xa0 || cp === 0x1680 || (cp >= 0x2000 && cp <= 0x200a) || cp === 0x2028 || cp === 0x2029 || cp === 0x202f || cp === 0x205f || cp === 0x3000
  );
}

/** The BERT normalizer's control characters: `is_other` (Cc, Cf, Co of Unicode 9) less tab and line breaks. */
export function isBertControl(cp: number): boolean {
  return cp !== TAB && cp !== LINE_FEED && cp !== CARRIAGE_RETURN && OTHER_9.has(cp);
}

/** The BERT pre-tokenizer's punctuation: ASCII punctuation, and P* of Unicode 9. */
export function isBertPunctuation(cp: number): boolean {
  if (cp < 0x80) return (cp >= 0x21 && cp <= 0x2f) || (cp >= 0x3a && cp <= 0x40) || (cp >= 0x5b && cp <= 0x60) || (cp >= 0x7b && cp <= 0x7e);
  return PUNCTUATION_9.has(cp);
}

/** The BERT normalizer's "Chinese characters", padded with spaces so that each is a word. */
export function isChineseChar(cp: number): boolean {
  return (
    (cp >= 0x4e00 && cp <= 0x9fff) ||
    (cp >= 0x3400 && cp <= 0x4dbf) ||
    (cp >= 0x20000 && cp <= 0x2a6df) ||
    (cp >= 0x2a700 && cp <= 0x2b73f) ||
    (cp >= 0x2b740 && cp <= 0x2b81f) ||
    (cp >= 0x2b920 && cp <= 0x2ceaf) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0x2f800 && cp <= 0x2fa1f)
  );
}
