/**
 * cl100k_base's pre-token pattern, hand-run over text of the Basic Multilingual Plane.
 *
 * The pattern, `(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`,
 * is a Unicode regular expression, a large share of the time token counting takes. Its alternatives need nothing
 * but a class per character (letter, number, line break, other space, anything else), and this scanner finds the
 * same pre-token ends several times faster (`bench/sizers.ts`). Where a decision would depend on a character above
 * the BMP (a surrogate), it gives up and the caller runs the pattern for that pre-token.
 * A property test holds it to the pattern over generated text and the corpus.
 */

const LETTER = 1;
const DIGIT = 2;
/** Whitespace other than line feeds and carriage returns. */
const BLANK = 3;
const NEWLINE = 4;
/** Anything else: punctuation, symbols, marks, controls. */
const OTHER = 5;
/** Past the end of the text. */
const END = 6;
/** A surrogate (a character above the BMP): the scanner leaves it to the pattern. */
const UNKNOWN = 7;

const ASCII_CLASS = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const letter = (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
  ASCII_CLASS[c] = letter ? LETTER : c >= 48 && c <= 57 ? DIGIT : c === 10 || c === 13 ? NEWLINE : c === 9 || c === 11 || c === 12 || c === 32 ? BLANK : OTHER;
}

/**
 * Classes of the BMP outside ASCII, found by the pattern's own classes the first time a character is met (0: not
 * yet): the same answer as the pattern's, at the cost of a table lookup from then on.
 */
const BMP_CLASS = new Uint8Array(0x10000);
const UNICODE_LETTER = /^\p{L}$/u;
const UNICODE_NUMBER = /^\p{N}$/u;
const UNICODE_SPACE = /^\s$/u;

function classifyBmp(c: number): number {
  const ch = String.fromCharCode(c);
  const k = UNICODE_LETTER.test(ch) ? LETTER : UNICODE_NUMBER.test(ch) ? DIGIT : UNICODE_SPACE.test(ch) ? BLANK : OTHER;
  BMP_CLASS[c] = k;
  return k;
}

function classAt(text: string, i: number): number {
  if (i >= text.length) return END;
  const c = text.charCodeAt(i);
  if (c < 128) return ASCII_CLASS[c] as number;
  if (c >= 0xd800 && c <= 0xdfff) return UNKNOWN;
  return BMP_CLASS[c] || classifyBmp(c);
}

/** End of the run of letters from `i`, or -1 when it runs into a surrogate. */
function lettersEnd(text: string, i: number): number {
  for (;;) {
    const k = classAt(text, i);
    if (k === LETTER) i++;
    else return k === UNKNOWN ? -1 : i;
  }
}

/** `'s`, `'t`, `'re`, `'ve`, `'m`, `'ll`, `'d` in any case at `at` (an apostrophe): the end, or -1. */
function contractionEnd(text: string, at: number): number {
  // `| 0x20` lowers an ASCII capital and maps no other character onto these letters.
  const c1 = text.charCodeAt(at + 1) | 0x20;
  if (c1 === 0x73 || c1 === 0x74 || c1 === 0x6d || c1 === 0x64) return at + 2;
  const c2 = text.charCodeAt(at + 2) | 0x20;
  if ((c1 === 0x72 || c1 === 0x76) && c2 === 0x65) return at + 3;
  if (c1 === 0x6c && c2 === 0x6c) return at + 3;
  return -1;
}

/**
 * End of the cl100k_base pre-token that starts at `at` (which must be inside `text`), or -1 when telling it needs
 * a character above the BMP.
 */
export function cl100kPreTokenEnd(text: string, at: number): number {
  const k = classAt(text, at);
  if (k === UNKNOWN) return -1;
  if (text.charCodeAt(at) === 39) {
    const end = contractionEnd(text, at);
    if (end !== -1) return end;
  }
  // `[^\r\n\p{L}\p{N}]?\p{L}+`
  if (k === LETTER) return lettersEnd(text, at + 1);
  if (k === BLANK || k === OTHER) {
    const next = classAt(text, at + 1);
    if (next === UNKNOWN) return -1;
    if (next === LETTER) return lettersEnd(text, at + 2);
  }
  // `\p{N}{1,3}`
  if (k === DIGIT) {
    let i = at + 1;
    while (i < at + 3) {
      const ki = classAt(text, i);
      if (ki === UNKNOWN) return -1;
      if (ki !== DIGIT) break;
      i++;
    }
    return i;
  }
  // ` ?[^\s\p{L}\p{N}]+[\r\n]*`
  let i = text.charCodeAt(at) === 32 ? at + 1 : at;
  let ki = classAt(text, i);
  if (ki === UNKNOWN) return -1;
  if (ki === OTHER) {
    do ki = classAt(text, ++i);
    while (ki === OTHER);
    if (ki === UNKNOWN) return -1;
    while (ki === NEWLINE) ki = classAt(text, ++i);
    return i;
  }
  // What is left starts with whitespace: `\s*[\r\n]+`, else `\s+(?!\S)`, else `\s+`.
  let end = at;
  let afterNewline = -1;
  let ke = k;
  while (ke === BLANK || ke === NEWLINE) {
    if (ke === NEWLINE) afterNewline = end + 1;
    ke = classAt(text, ++end);
  }
  if (ke === UNKNOWN) return -1;
  if (afterNewline !== -1) return afterNewline;
  if (ke === END) return end;
  return end - at >= 2 ? end - 1 : end;
}
