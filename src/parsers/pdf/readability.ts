/**
 * Unreadable text: a font without a usable Unicode mapping (a subset font whose codes are its glyph numbers, and no
 * `ToUnicode` table) comes out of the text layer as its raw codes, which read as control characters and ASCII
 * punctuation (`" % & % '`). Such text would be indexed as junk; it needs OCR instead. Letters, digits and the
 * punctuation of ordinary text, code and tables stay well below the shares measured here.
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

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/u;
const SYMBOL = /[!-/:-@[-`{-~\ue000-\uf8ff\ufffd]/u;

/** Which fonts of a page give unreadable text, and whether the page as a whole is unreadable. */
export interface Readability {
  /** Font ids whose text on this page is junk. */
  readonly junkFonts: ReadonlySet<string>;
  /** Most of the page's text is junk: the page needs OCR. */
  readonly unreadable: boolean;
}

/** Judges the text of one page, font by font. */
export function judgeReadability(items: readonly PdfTextItem[]): Readability {
  const counts = new Map<string, { chars: number; junk: number; control: number }>();
  let total = 0;
  for (const item of items) {
    let c = counts.get(item.fontName);
    for (const ch of item.str) {
      if (ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r' || ch === '\u00a0') continue;
      if (c === undefined) counts.set(item.fontName, (c = { chars: 0, junk: 0, control: 0 }));
      c.chars++;
      total++;
      if (CONTROL.test(ch)) {
        c.control++;
        c.junk++;
      } else if (SYMBOL.test(ch)) c.junk++;
    }
  }
  const junkFonts = new Set<string>();
  let junkChars = 0;
  for (const [font, c] of counts) {
    if (c.chars < MIN_CHARS) continue;
    if (c.junk >= JUNK_SHARE * c.chars || c.control >= CONTROL_SHARE * c.chars) {
      junkFonts.add(font);
      junkChars += c.chars;
    }
  }
  return { junkFonts, unreadable: total >= MIN_CHARS && junkChars > PAGE_SHARE * total };
}
