/** Character and word sizers. */
import type { Sizer } from '../../protocols.js';
import { SEGMENT_WINDOW, segmentWindows } from '../../unicode/segment-windows.js';
import { segmenterFor } from '../../unicode/segmenters.js';

/** Counts UTF-16 code units (`text.length`), the unit of every offset. */
export const charSizer: Sizer = { size: (text) => text.length };

/**
 * Counts user-perceived characters (grapheme clusters). Text longer than a few KB is segmented in windows cut
 * before whitespace or at a checked cluster boundary, so the count stays exact and linear in time.
 */
export function createGraphemeSizer(locale = 'en'): Sizer {
  const segmenter = segmenterFor(locale, 'grapheme');
  return {
    size(text) {
      // ASCII without CR is one grapheme per code unit: skip the segmenter.
      if (/^[\x00-\x0c\x0e-\x7f]*$/.test(text)) return text.length;
      let n = 0;
      if (text.length <= SEGMENT_WINDOW) {
        for (const _ of segmenter.segment(text)) n++;
        return n;
      }
      segmentWindows(text, 0, text.length, segmenter, segmenter, () => n++);
      return n;
    },
  };
}

/**
 * Counts word-like segments (`Intl.Segmenter` word granularity): punctuation and spaces do not count. Text longer
 * than a few KB is segmented in windows cut before whitespace; only a window without any whitespace (a long CJK
 * run) is cut inside a run, where the dictionary segmentation may count one word more or less than on the whole.
 */
export function createWordSizer(locale = 'en'): Sizer {
  const segmenter = segmenterFor(locale, 'word');
  const graphemes = segmenterFor(locale, 'grapheme');
  return {
    size(text) {
      let n = 0;
      if (text.length <= SEGMENT_WINDOW) {
        for (const s of segmenter.segment(text)) if (s.isWordLike) n++;
        return n;
      }
      segmentWindows(text, 0, text.length, segmenter, graphemes, (_start, _end, wordLike) => {
        if (wordLike) n++;
      });
      return n;
    },
  };
}
