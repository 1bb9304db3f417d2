import { describe, expect, it } from 'vitest';
import { createLineIndex } from '../../../src/unicode/lines.js';
import { byMarkers, markerCuts } from '../../../src/chunking/strategies/markers.js';
import type { Sizer } from '../../../src/protocols.js';
import { referenceChunkIds } from '../../support/chunk-contracts.js';

const source = (text: string) => ({ id: 'm', origin: 'm.adoc', text });
const wordCount: Sizer = { size: (t) => t.split(/\s+/).filter(Boolean).length };

describe('byMarkers', () => {
  it('splits at blank lines by default, leaving the whitespace around chunks out', () => {
    const text = '\n\nFirst paragraph.\n\n\n  Second one.  \n\nThird.\n';
    const chunks = byMarkers({ maxSize: 100 })(source(text));
    expect(chunks.map((c) => c.text)).toEqual(['First paragraph.', 'Second one.', 'Third.']);
    for (const c of chunks) expect(text.slice(c.start, c.end)).toBe(c.text);
  });

  it('starts a piece at its marker: a heading prefix', () => {
    const text = '# A\nalpha\n# B\nbeta\n# C\ngamma';
    const chunks = byMarkers({ markers: ['\n# '], maxSize: 100 })(source(text));
    expect(chunks.map((c) => c.text)).toEqual(['# A\nalpha', '# B\nbeta', '# C\ngamma']);
  });

  it('splits AsciiDoc sections at \\n==', () => {
    const text = '= Title\n\nPreamble.\n\n== One\n\nText one.\n\n== Two\n\nText two.';
    const chunks = byMarkers({ markers: ['\n=='], maxSize: 100 })(source(text));
    expect(chunks.map((c) => c.text)).toEqual(['= Title\n\nPreamble.', '== One\n\nText one.', '== Two\n\nText two.']);
  });

  it('takes regular expressions, a lookahead included, and leaves their lastIndex alone', () => {
    const text = 'intro\n## a\nx\n## b\ny';
    const re = /^(?=## )/gm;
    re.lastIndex = 3;
    const chunks = byMarkers({ markers: [re], maxSize: 100 })(source(text));
    expect(chunks.map((c) => c.text)).toEqual(['intro', '## a\nx', '## b\ny']);
    expect(re.lastIndex).toBe(3);
  });

  it('merges a piece below minSize into the next one', () => {
    const text = 'a b\n\nc\n\nd e f g\n\nh i j k';
    const chunks = byMarkers({ minSize: 4, maxSize: 10, sizer: wordCount })(source(text));
    expect(chunks.map((c) => c.text)).toEqual(['a b\n\nc\n\nd e f g', 'h i j k']);
    expect(chunks.map((c) => c.size)).toEqual([7, 4]);
  });

  it('stops merging once the piece reaches minSize', () => {
    const chunks = byMarkers({ minSize: 3, maxSize: 10, sizer: wordCount })(source('a b\n\nc\n\nd e f g'));
    expect(chunks.map((c) => c.text)).toEqual(['a b\n\nc', 'd e f g']);
  });

  it('merges a small last piece into the previous one', () => {
    const chunks = byMarkers({ minSize: 3, maxSize: 10, sizer: wordCount })(source('a b c d\n\ne'));
    expect(chunks.map((c) => c.text)).toEqual(['a b c d\n\ne']);
  });

  it('does not merge when the merged piece would exceed maxSize', () => {
    const chunks = byMarkers({ minSize: 3, maxSize: 5, sizer: wordCount })(source('a\n\nb c d e f'));
    expect(chunks.map((c) => c.text)).toEqual(['a', 'b c d e f']);
  });

  it('splits a piece above maxSize at the next marker in the list', () => {
    const text = '# A\nalpha beta gamma\n\ndelta epsilon\n# B\nzeta';
    const chunks = byMarkers({ markers: ['\n# ', '\n\n'], maxSize: 5, sizer: wordCount })(source(text));
    expect(chunks.map((c) => c.text)).toEqual(['# A\nalpha beta gamma', 'delta epsilon', '# B\nzeta']);
  });

  it('splits at a word boundary when no marker is left', () => {
    const text = 'one two three four five six seven';
    const chunks = byMarkers({ maxSize: 3, sizer: wordCount })(source(text));
    expect(chunks.map((c) => c.text)).toEqual(['one two three', 'four five six', 'seven']);
  });

  it('lets a word longer than maxSize stand alone, flagged oversized', () => {
    const chunks = byMarkers({ maxSize: 4 })(source('ab abcdefgh'));
    expect(chunks.map((c) => [c.text, c.oversized])).toEqual([['ab', undefined], ['abcdefgh', true]]);
  });

  it('gives no chunks for empty or whitespace-only text', () => {
    expect(byMarkers({ maxSize: 10 })(source(''))).toEqual([]);
    expect(byMarkers({ maxSize: 10 })(source('\n\n  \n\n'))).toEqual([]);
  });

  it('gives the lines of createLineIndex and numbers chunks', () => {
    const text = 'a\r\n\r\nb\n\nc';
    const lineOf = createLineIndex(text);
    const chunks = byMarkers({ markers: ['\r\n\r\n', '\n\n'], maxSize: 1 })(source(text));
    const ids = referenceChunkIds('m', chunks);
    expect(chunks.map((c) => [c.id, c.index, c.startLine, c.endLine])).toEqual(chunks.map((c, i) => [ids[i], i, lineOf(c.start), lineOf(c.end - 1)]));
  });

  it('refuses bad options at creation', () => {
    expect(() => byMarkers({ maxSize: 0 })).toThrow('Invalid option maxSize: must be a number > 0, got 0');
    expect(() => byMarkers({ maxSize: 5, minSize: 6 })).toThrow('Invalid option minSize: must not exceed maxSize (5), got 6');
    expect(() => byMarkers({ maxSize: 5, minSize: -1 })).toThrow('Invalid option minSize: must be a number >= 0, got -1');
    expect(() => byMarkers({ maxSize: 5, markers: [] })).toThrow(
      'Invalid option markers: must be a non-empty array of non-empty strings or regular expressions, got []',
    );
    expect(() => byMarkers({ maxSize: 5, markers: [''] })).toThrow(expect.objectContaining({ code: 'ERR_INVALID_OPTION', option: 'markers' }));
  });
});

describe('markerCuts', () => {
  it('finds string markers after the start of the range', () => {
    expect(markerCuts('xx\n\nyy\n\nzz', 0, 10, '\n\n')).toEqual([2, 6]);
    expect(markerCuts('\n\nyy', 0, 4, '\n\n')).toEqual([]);
  });

  it('steps past empty regex matches', () => {
    expect(markerCuts('abc', 0, 3, /(?=)/)).toEqual([1, 2]);
  });
});
