/**
 * Unreadable text: a font without a usable Unicode mapping (a subset font whose codes are its glyph numbers, and no
 * `ToUnicode` table) comes out of the text layer as its raw codes, which read as control characters and ASCII
 * punctuation (`" % & % '`). Such text would be indexed as junk; it needs OCR instead. Letters, digits and the
 * punctuation of ordinary text, code and tables stay well below the shares measured here, and a font that draws one
 * and the same mark throughout (a form's checkboxes, the asterisks of a survey table) is marks, not raw codes.
 */
import type { PdfTextItem } from './types.js';

/** Fewest non-space characters of a font on a page before its text is judged. */
const MIN_CHARS = 12;
/** A font is unreadable when this share of its characters is control characters, private-use or ASCII symbols. */
const JUNK_SHARE = 0.6;
/** Or when this share of them is control characters alone. */
const CONTROL_SHARE = 0.3;
/** A page whose unreadable fonts hold more than this share of its characters is unreadable as a whole. */
const PAGE_SHARE = 0.5;

/** 0 for a space, 1 for an ordinary character, 2 for an ASCII symbol, private-use or replacement character, 3 for a control character. */
function kind(code: number): number {
  if (code === 32 || code === 9 || code === 10 || code === 13 || code === 0xa0) return 0;
  if (code < 32 || code === 127) return 3;
  if (code < 127) return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) ? 1 : 2;
  return (code >= 0xe000 && code <= 0xf8ff) || code === 0xfffd ? 2 : 1;
}

/** Which fonts of a page give unreadable text, and whether the page as a whole is unreadable. */
export interface Readability {
  /** Font ids whose text on this page is junk. */
  readonly junkFonts: ReadonlySet<string>;
  /** Most of the page's text is junk: the page needs OCR. */
  readonly unreadable: boolean;
}

/** Judges the text of one page, font by font. */
export function judgeReadability(items: readonly PdfTextItem[]): Readability {
  // `mark`: the one character a font has drawn so far, or -1 once it has drawn two different ones.
  const counts = new Map<string, { chars: number; junk: number; control: number; mark: number }>();
  let total = 0;
  for (const item of items) {
    let c = counts.get(item.fontName);
    const str = item.str;
    // The last character that was not a space: a symbol repeated after it is a leader (`. . . .`, `-----`) of a
    // contents page or a form, not a raw glyph code, whose runs vary.
    let previous = -1;
    for (let i = 0; i < str.length; i++) {
      const code = str.charCodeAt(i);
      const k = kind(code);
      if (k === 0) continue;
      const repeated = k === 2 && code === previous;
      previous = code;
      if (repeated) continue;
      if (c === undefined) counts.set(item.fontName, (c = { chars: 0, junk: 0, control: 0, mark: code }));
      if (c.mark !== code) c.mark = -1;
      c.chars++;
      total++;
      if (k === 3) {
        c.control++;
        c.junk++;
      } else if (k === 2) c.junk++;
    }
  }
  const junkFonts = new Set<string>();
  let junkChars = 0;
  for (const [font, c] of counts) {
    // Raw glyph codes vary with the text they stand for; one symbol drawn again and again is a mark of the page.
    if (c.chars < MIN_CHARS || c.mark !== -1) continue;
    if (c.junk >= JUNK_SHARE * c.chars || c.control >= CONTROL_SHARE * c.chars) {
      junkFonts.add(font);
      junkChars += c.chars;
    }
  }
  return { junkFonts, unreadable: total >= MIN_CHARS && junkChars > PAGE_SHARE * total };
}
