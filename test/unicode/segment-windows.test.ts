import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fcParams } from '../support/property.js';
import { SEGMENT_WINDOW, boundaryAtOrAfter, boundaryAtOrBefore, isGraphemeBoundary, isSpaceCode, segmentWindows, unwrappedLines, windowEnd } from '../../src/unicode/segment-windows.js';
import { createTextSplitter } from '../../src/chunking/text-splitter.js';
import { createSizer } from '../../src/chunking/sizers/index.js';
import { normalizeOptions } from '../../src/config.js';

const g = new Intl.Segmenter('en', { granularity: 'grapheme' });
const sentences = new Intl.Segmenter('en', { granularity: 'sentence' });

describe('isSpaceCode', () => {
  it('agrees with /\\s/ on every UTF-16 code unit', () => {
    const differ: number[] = [];
    for (let c = 0; c <= 0xffff; c++) if (isSpaceCode(c) !== /\s/.test(String.fromCharCode(c))) differ.push(c);
    expect(differ).toEqual([]);
  });
});

describe('grapheme boundaries', () => {
  it('knows CR LF, combining marks, ZWJ sequences, surrogate pairs and prepended marks', () => {
    expect(isGraphemeBoundary('a\r\nb', 2, g)).toBe(false);
    expect(isGraphemeBoundary('a\r\nb', 1, g)).toBe(true);
    expect(isGraphemeBoundary('e\u0301', 1, g)).toBe(false);
    expect(isGraphemeBoundary(' \u0301', 1, g)).toBe(false);
    expect(isGraphemeBoundary('👨‍👩', 2, g)).toBe(false);
    expect(isGraphemeBoundary('😀', 1, g)).toBe(false);
    expect(isGraphemeBoundary('\u0600 ', 1, g)).toBe(false);
    expect(isGraphemeBoundary('ab', 0, g)).toBe(true);
    expect(isGraphemeBoundary('ab', 2, g)).toBe(true);
  });

  it('agrees with Intl.Segmenter at every position of text mixing scripts, marks, jamo, emoji and controls', () => {
    // Neighbours from every class the fast path has to tell apart, in random orders.
    const pieces = ['a', '中', '文', 'ア', 'ﾞ', '가', 'ᄀ', 'ᅡ', 'ᆨ', 'ㄱ', 'क', '्', 'ष', 'ा', 'ำ', 'ำ', 'e\u0301', '\u0301', '\u200d', '\u200c', '👩', '🏽', '🇫', '🇷', '❤', '\ufe0f', '\u0600', '\u{110bd}', '\r', '\n', '\t', ' ', '\u00a0', '-', '1', '𠀀', '\u{e0061}', '\u00ad', 'ـ', '\x00', '\x1b', '\x7f', '\x85', '\x9f', '\ufffd'];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { minLength: 2, maxLength: 12 }), (parts) => {
        const text = parts.join('');
        const bounds = new Set([...g.segment(text)].map((s) => s.index));
        for (let pos = 1; pos < text.length; pos++) expect(isGraphemeBoundary(text, pos, g), `${JSON.stringify(text)} at ${pos}`).toBe(bounds.has(pos));
      }),
      fcParams(2000),
    );
  });

  it('moves a position inside a cluster to the cluster edges', () => {
    const text = 'x👨‍👩‍👧y';
    expect(boundaryAtOrBefore(text, 4, g)).toBe(1);
    expect(boundaryAtOrAfter(text, 4, g)).toBe(text.length - 1);
    expect(boundaryAtOrBefore(text, 1, g)).toBe(1);
  });
});

describe('windowEnd', () => {
  it('cuts before whitespace in the second half of the window', () => {
    const text = 'word '.repeat(2000);
    const end = windowEnd(text, 0, text.length, g);
    expect(end).toBeLessThanOrEqual(SEGMENT_WINDOW);
    expect(end).toBeGreaterThan(SEGMENT_WINDOW / 2);
    expect(text[end]).toBe(' ');
  });

  it('cuts a run without whitespace between clusters', () => {
    const text = '👍🏽'.repeat(3000);
    const end = windowEnd(text, 0, text.length, g);
    expect(end % 4).toBe(0);
    expect(end).toBeGreaterThan(0);
  });

  it('returns the end when the rest fits', () => {
    expect(windowEnd('short text', 2, 10, g)).toBe(10);
  });
});

describe('segmentWindows', () => {
  it('gives the sentences of a long text as one whole segmentation would', () => {
    const text = Array.from({ length: 600 }, (_, i) => `Sentence number ${i} ends here. `).join('');
    const whole = [...sentences.segment(text)].map((s) => s.index);
    const windowed: number[] = [];
    segmentWindows(text, 0, text.length, sentences, g, (s, e) => {
      expect(e).toBeGreaterThan(s);
      windowed.push(s);
    });
    expect(text.length).toBeGreaterThan(3 * SEGMENT_WINDOW);
    expect(windowed).toEqual(whole);
  });

  it('covers a long unbroken run with contiguous segments of bounded length', () => {
    const text = 'x'.repeat(20_000);
    let at = 0;
    segmentWindows(text, 0, text.length, sentences, g, (s, e) => {
      expect(s).toBe(at);
      expect(e - s).toBeLessThanOrEqual(SEGMENT_WINDOW);
      at = e;
    });
    expect(at).toBe(text.length);
  });
});

describe('unwrappedLines', () => {
  it('turns each line end inside a paragraph into as many spaces, and keeps blank lines', () => {
    const text = 'a hard\nwrapped\r\nline\n\nnext  \n \tpara\r\rgraph\n';
    const window = unwrappedLines(text, 0, text.length);
    expect(window).toBe('a hard wrapped  line\n\nnext    \tpara\r\rgraph\n');
    expect(window.length).toBe(text.length);
    // Neighbours outside the window count: a line end at its edge before a blank line stays one.
    expect(unwrappedLines(text, 0, 21)).toBe('a hard wrapped  line\n');
  });

  it('lets a hard-wrapped paragraph be cut between its sentences, not at its margin', () => {
    const sentence = (i: number) => `Sentence ${i} runs on for a\nwhile and wraps at the margin\nof its source.`;
    const text = Array.from({ length: 6 }, (_, i) => sentence(i)).join(' ');
    const config = normalizeOptions({ unit: 'words', maxSize: 40 });
    const spans = createTextSplitter({ sizer: createSizer(config) }).split(text, 40, 20);
    expect(spans.length).toBeGreaterThan(1);
    for (const { end } of spans) expect(text.slice(0, end)).toMatch(/source\.$/);
  });
});
