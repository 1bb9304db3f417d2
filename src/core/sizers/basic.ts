/** Character and word sizers. */
import type { Sizer } from '../../protocols.js';

/** Counts UTF-16 code units (`text.length`), the unit of every offset. */
export const charSizer: Sizer = { size: (text) => text.length };

/** Counts user-perceived characters (grapheme clusters). */
export function createGraphemeSizer(locale = 'en'): Sizer {
  const segmenter = new Intl.Segmenter(locale, { granularity: 'grapheme' });
  return {
    size(text) {
      // ASCII without CR is one grapheme per code unit: skip the segmenter.
      if (/^[\x00-\x0c\x0e-\x7f]*$/.test(text)) return text.length;
      let n = 0;
      for (const _ of segmenter.segment(text)) n++;
      return n;
    },
  };
}

/** Counts word-like segments (`Intl.Segmenter` word granularity): punctuation and spaces do not count. */
export function createWordSizer(locale = 'en'): Sizer {
  const segmenter = new Intl.Segmenter(locale, { granularity: 'word' });
  return {
    size(text) {
      let n = 0;
      for (const s of segmenter.segment(text)) if (s.isWordLike) n++;
      return n;
    },
  };
}
