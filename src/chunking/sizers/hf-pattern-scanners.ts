/**
 * Hand-run scanners for the two pre-token patterns most byte-level BPE tokenizers split with, giving the same
 * pre-token ends as the patterns do, several times faster than running the regular expression for each pre-token
 * (the way `cl100k-pretokens.ts` runs cl100k's):
 *
 * - GPT-2's, which ByteLevel uses (RoBERTa, GPT-2, BART, …):
 *   `'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+`
 * - the cl100k family's, which a Split pre-tokenizer holds (Qwen2/3 with `\p{N}`, Llama 3 with `\p{N}{1,3}`):
 *   `(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,D}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`
 *
 * As the Rust library reads them (Oniguruma): `\s` is Unicode's White_Space. Classes are looked up by code point
 * (a table for the BMP, filled on first sight). A property test holds each scanner to its pattern.
 */

const LETTER = 1;
const DIGIT = 2;
/** White_Space other than line feed and carriage return. */
const BLANK = 3;
const NEWLINE = 4;
/** Anything else: punctuation, symbols, marks, controls. */
const OTHER = 5;
const END = 6;

const SPACE = 0x20;
const APOSTROPHE = 0x27;

const IS_LETTER = /^\p{L}$/u;
const IS_NUMBER = /^\p{N}$/u;
const IS_SPACE = /^\p{White_Space}$/u;

const BMP_CLASS = new Uint8Array(0x10000);
const ASTRAL_CLASS = new Map<number, number>();

function classify(cp: number): number {
  if (cp === 0x0a || cp === 0x0d) return NEWLINE;
  const ch = String.fromCodePoint(cp);
  return IS_LETTER.test(ch) ? LETTER : IS_NUMBER.test(ch) ? DIGIT : IS_SPACE.test(ch) ? BLANK : OTHER;
}

/** The class of the code point at `i` (END past the text). The text holds no lone surrogate. */
function classAt(text: string, i: number): number {
  if (i >= text.length) return END;
  const unit = text.charCodeAt(i);
  if (unit < 0xd800 || unit > 0xdbff) {
    const known = BMP_CLASS[unit]!;
    if (known !== 0) return known;
    const k = classify(unit);
    BMP_CLASS[unit] = k;
    return k;
  }
  const cp = text.codePointAt(i)!;
  let k = ASTRAL_CLASS.get(cp);
  if (k === undefined) {
    k = classify(cp);
    if (ASTRAL_CLASS.size < 0x10000) ASTRAL_CLASS.set(cp, k);
  }
  return k;
}

/** UTF-16 width of the code point at `i`. */
function widthAt(text: string, i: number): number {
  const unit = text.charCodeAt(i);
  return unit >= 0xd800 && unit <= 0xdbff ? 2 : 1;
}

/** End of the run of code points of class `k` from `i`. */
function runEnd(text: string, i: number, k: number): number {
  while (classAt(text, i) === k) i += widthAt(text, i);
  return i;
}

/** U+017F LATIN SMALL LETTER LONG S, which Unicode case folding (Oniguruma's `(?i)`) makes an `s`. */
const LONG_S = 0x17f;

/**
 * `'s|'t|'re|'ve|'m|'ll|'d` at `at` (an apostrophe), in any case when `fold` (as Oniguruma folds: ASCII capitals,
 * and ſ for s): the end, or -1.
 */
function contractionEnd(text: string, at: number, fold: boolean): number {
  const lower = (c: number): number => (!fold ? c : c >= 0x41 && c <= 0x5a ? c | 0x20 : c === LONG_S ? 0x73 : c);
  const c1 = lower(text.charCodeAt(at + 1));
  if (c1 === 0x73 || c1 === 0x74 || c1 === 0x6d || c1 === 0x64) return at + 2;
  const c2 = lower(text.charCodeAt(at + 2));
  if ((c1 === 0x72 || c1 === 0x76) && c2 === 0x65) return at + 3;
  if (c1 === 0x6c && c2 === 0x6c) return at + 3;
  return -1;
}

/** `\s+(?!\S)|\s+` from `at`, whitespace there: the run, less its last character when a non-space follows. */
function whitespaceEnd(text: string, at: number): number {
  let end = at;
  let k = classAt(text, end);
  let last = at;
  while (k === BLANK || k === NEWLINE) {
    last = end;
    end += widthAt(text, end);
    k = classAt(text, end);
  }
  return k === END || last === at ? end : last;
}

/** The end of GPT-2's pre-token that starts at `at` (inside `text`). */
export function gpt2PreTokenEnd(text: string, at: number): number {
  if (text.charCodeAt(at) === APOSTROPHE) {
    const end = contractionEnd(text, at, false);
    if (end !== -1) return end;
  }
  const k = classAt(text, at);
  if (text.charCodeAt(at) === SPACE) {
    // ` ?\p{L}+`, ` ?\p{N}+`, ` ?[^\s\p{L}\p{N}]+`
    const next = classAt(text, at + 1);
    if (next === LETTER || next === DIGIT || next === OTHER) return runEnd(text, at + 1, next);
  }
  if (k === LETTER || k === DIGIT || k === OTHER) return runEnd(text, at, k);
  return whitespaceEnd(text, at);
}

/** The end of the cl100k-family pre-token (numbers of at most `digits` digits) that starts at `at`. */
export function cl100kFamilyPreTokenEnd(text: string, at: number, digits: number): number {
  if (text.charCodeAt(at) === APOSTROPHE) {
    const end = contractionEnd(text, at, true);
    if (end !== -1) return end;
  }
  const k = classAt(text, at);
  // `[^\r\n\p{L}\p{N}]?\p{L}+`
  if (k === LETTER) return runEnd(text, at, LETTER);
  if (k === BLANK || k === OTHER) {
    const after = at + widthAt(text, at);
    if (classAt(text, after) === LETTER) return runEnd(text, after, LETTER);
  }
  // `\p{N}{1,D}`
  if (k === DIGIT) {
    let i = at;
    for (let n = 0; n < digits && classAt(text, i) === DIGIT; n++) i += widthAt(text, i);
    return i;
  }
  // ` ?[^\s\p{L}\p{N}]+[\r\n]*`
  const start = text.charCodeAt(at) === SPACE ? at + 1 : at;
  if (classAt(text, start) === OTHER) return runEnd(text, runEnd(text, start, OTHER), NEWLINE);
  // What is left starts with whitespace: `\s*[\r\n]+`, else `\s+(?!\S)`, else `\s+`.
  let end = at;
  let afterNewline = -1;
  let ke = k;
  while (ke === BLANK || ke === NEWLINE) {
    end += widthAt(text, end);
    if (ke === NEWLINE) afterNewline = end;
    ke = classAt(text, end);
  }
  if (afterNewline !== -1) return afterNewline;
  return whitespaceEnd(text, at);
}

/** GPT-2's pattern as `tokenizer.json` writes it. */
export const GPT2_PATTERN = "'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+|\\s+(?!\\S)|\\s+";
const CL100K_FAMILY = (digits: string): string =>
  `(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}${digits}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+`;

/** The hand-run scanner of a pattern, when it is one of those above. */
export function patternScanner(pattern: string): ((text: string, at: number) => number) | undefined {
  if (pattern === GPT2_PATTERN) return gpt2PreTokenEnd;
  if (pattern === CL100K_FAMILY('')) return (text, at) => cl100kFamilyPreTokenEnd(text, at, 1);
  if (pattern === CL100K_FAMILY('{1,3}')) return (text, at) => cl100kFamilyPreTokenEnd(text, at, 3);
  return undefined;
}
