/**
 * Lines → block text. Soft-wrapped lines are joined with a space, except after a dash or a slash (`737–` + `9`,
 * `https://` + `www.…`) and between two CJK characters, where the break adds nothing; lines of code (fixed-pitch
 * fonts) and table-like rows keep their line breaks. A word hyphenated across a line break (`infor-` + `mation`) is joined when the joined
 * word is a word of the document, or when the piece before the hyphen is no word of its own (`discov-` + `ered`). The
 * hyphen stays when the document writes the compound with a hyphen elsewhere, or when the first piece is a word of
 * four letters or more (`self-` + `made` → `self-made`).
 */
import { clipRuns, shiftRun } from './runs.js';
import type { PdfLine, TextRun } from './types.js';

/** Tells whether a lower-case word, or a hyphenated compound (`self-made`), was seen whole in the document. */
export type Vocabulary = (word: string) => boolean;

const HYPHENATED = /(\p{L}+)-$/u;
const LEADING_WORD = /^\p{L}+/u;
/** A line end after which the text runs on without a space: a dash (not a hyphen, handled apart) or a slash. */
const JOINING_END = /[–—/]$/u;
/** Scripts written without spaces between words (Han, kana, CJK punctuation and full-width forms). */
const CJK_CLASS = '[\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\u3000-\\u303f\\uff00-\\uffef]';
const CJK_END = new RegExp(`${CJK_CLASS}$`, 'u');
const CJK_START = new RegExp(`^${CJK_CLASS}`, 'u');

/** Joins the lines of one block (or one list item) into its text; `keepBreaks` false joins code and rows with spaces too. */
export function joinLines(lines: readonly PdfLine[], knows: Vocabulary, keepBreaks = true): string {
  return joinLinesAt(lines, knows, keepBreaks).text;
}

/**
 * `joinLines`, with the offset in the text where each line starts, and, when every line has them, the runs of the
 * joined text (a hyphen taken out at a line's end leaves the runs of its line, its glyph out of their boxes).
 */
export function joinLinesAt(lines: readonly PdfLine[], knows: Vocabulary, keepBreaks = true): { text: string; starts: number[]; runs?: TextRun[] } {
  const parts: string[] = [];
  const starts: number[] = [];
  /** Per line: the characters of its text kept in the joined text. */
  const kept: number[] = [];
  let length = 0;
  let previous: PdfLine | null = null;
  for (const line of lines) {
    if (previous !== null) {
      const sep = separator(previous, line, knows, keepBreaks);
      // null: the hyphen ending the previous line goes, the word is whole again.
      if (sep === null) {
        parts[parts.length - 1] = previous.text.slice(0, -1);
        kept[kept.length - 1] = previous.text.length - 1;
        length--;
      } else {
        parts.push(sep);
        length += sep.length;
      }
    }
    starts.push(length);
    kept.push(line.text.length);
    parts.push(line.text);
    length += line.text.length;
    previous = line;
  }
  const text = parts.join('');
  if (!lines.every((l) => l.runs !== undefined)) return { text, starts };
  const runs: TextRun[] = [];
  lines.forEach((line, i) => {
    for (const run of clipRuns(line.runs as readonly TextRun[], 0, kept[i] as number)) runs.push(shiftRun(run, starts[i] as number));
  });
  return { text, starts, runs };
}

/** What goes between two lines: a space, a line break, nothing (after a kept hyphen), or null to delete the hyphen. */
function separator(previous: PdfLine, line: PdfLine, knows: Vocabulary, keepBreaks: boolean): string | null {
  if (keepBreaks && ((previous.monospace && line.monospace) || previous.cells > 1 || line.cells > 1)) return '\n';
  const text = previous.text;
  if (text.charCodeAt(text.length - 1) === 45 /* - */) {
    const hyphen = HYPHENATED.exec(text.slice(-64));
    const next = LEADING_WORD.exec(line.text);
    if (hyphen !== null && next !== null && !text.endsWith('--')) {
      const head = (hyphen[1] as string).toLowerCase();
      const tail = next[0].toLowerCase();
      if (knows(head + tail)) return null;
      if (knows(`${head}-${tail}`) || (head.length >= 4 && knows(head))) return '';
      return null;
    }
  }
  if (JOINING_END.test(text)) return '';
  if (CJK_END.test(text) && CJK_START.test(line.text)) return '';
  return ' ';
}

/**
 * The words of some text, lower-cased, for the vocabulary hyphenated words are checked against: each word of two
 * letters or more, and each hyphenated compound whole. A piece hyphenated at the end of a line is no word.
 */
export function wordsOf(text: string): string[] {
  const out = new Set<string>();
  addWords(out, text);
  return [...out];
}

/** Code point of `-`, the only joiner inside a word. */
const HYPHEN = 0x2d;
/** A letter, for the code units past ASCII (`letterAt` keeps each answer). */
const LETTER = /^\p{L}$/u;
/** Per UTF-16 code unit past ASCII: 0 not yet asked, 1 a letter, 2 not a letter. */
const LETTER_UNITS = new Uint8Array(0x10000);

/** Length in code units of the letter starting at `i` of `s` (1, or 2 for a letter past the BMP), or 0 when none does. */
function letterAt(s: string, i: number): number {
  // Past the end there is no letter. charCodeAt there gives NaN, which reads the same, but each place that met it
  // threw its compiled caller away once (addWords deopted 'out of bounds' in each of three passes on tracemonkey.pdf).
  if (i >= s.length) return 0;
  const c = s.charCodeAt(i);
  if (c < 0x80) return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) ? 1 : 0;
  if (c >= 0xd800 && c <= 0xdbff) {
    const next = i + 1 < s.length ? s.charCodeAt(i + 1) : 0;
    // A lone surrogate is no letter; a pair is one code point.
    return next >= 0xdc00 && next <= 0xdfff && LETTER.test(s.slice(i, i + 2)) ? 2 : 0;
  }
  let known = LETTER_UNITS[c] as number;
  if (known === 0) LETTER_UNITS[c] = known = LETTER.test(s[i] as string) ? 1 : 2;
  return known === 1 ? 1 : 0;
}

/** Index past the letters starting at `i` of `s`. */
function pastLetters(s: string, i: number): number {
  let at = i;
  for (let step = letterAt(s, at); step > 0; step = letterAt(s, at)) at += step;
  return at;
}

/**
 * Adds the words of `text` (lines separated by `\n`) to `vocabulary`; see `wordsOf`. A word is what
 * `/\p{L}+(?:-\p{L}+)*-?/u` matches, scanned by hand: the regex's match objects cost the most of a page's words
 * (addWords was the layout's first function after the collector, 9% of its self time over the corpus PDFs).
 */
export function addWords(vocabulary: Set<string>, text: string): void {
  // One pass over a whole page is much cheaper than one per line.
  const lower = text.toLowerCase();
  const n = lower.length;
  let i = 0;
  while (i < n) {
    if (letterAt(lower, i) === 0) {
      i++;
      continue;
    }
    const start = i;
    let compound = false;
    i = pastLetters(lower, i);
    while (i < n && lower.charCodeAt(i) === HYPHEN && letterAt(lower, i + 1) > 0) {
      compound = true;
      i = pastLetters(lower, i + 1);
    }
    const end = i;
    if (i < n && lower.charCodeAt(i) === HYPHEN) {
      // A piece hyphenated at the end of a line (or of the text) is no word.
      i++;
      if (i >= n || lower.charCodeAt(i) === 10) continue;
    }
    if (end - start < 2) continue;
    const token = lower.slice(start, end);
    vocabulary.add(token);
    if (compound) for (const part of token.split('-')) if (part.length >= 2) vocabulary.add(part);
  }
}
