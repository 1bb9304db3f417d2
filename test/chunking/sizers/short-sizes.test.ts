import { describe, expect, it } from 'vitest';
import { SHORT_TEXT, shortSizesOf, shortSizeUpTo } from '../../../src/chunking/sizers/short-sizes.js';
import { createTokenSizer } from '../../../src/chunking/sizers/tokens.js';
import { sizeUpTo, type Sizer } from '../../../src/protocols.js';

/** A sizer that counts characters and records what it measured. */
function countedSizer(): { sizer: Sizer; calls: string[] } {
  const calls: string[] = [];
  return { sizer: { size: (t) => (calls.push(t), t.length) }, calls };
}

describe('shortSizeUpTo', () => {
  it('gives what sizeUpTo gives for every short slice of a text', () => {
    const sizer = createTokenSizer();
    const table = shortSizesOf(sizer);
    const text = 'The quick brown fox, the lazy dog; 12 345 x\u00e9\u4e2d\ud83d\ude00 the quick.\nthe end';
    for (let from = 0; from < text.length; from++) {
      for (let to = from + 1; to <= Math.min(text.length, from + SHORT_TEXT); to++) {
        // Twice: measured, then remembered (or a collision's slot overwritten).
        for (let pass = 0; pass < 2; pass++) expect(shortSizeUpTo(table, sizer, text, from, to, 100)).toBe(sizeUpTo(sizer, text.slice(from, to), 100));
      }
    }
  });

  it('measures a text said again only once, wherever it lies', () => {
    const { sizer, calls } = countedSizer();
    const table = shortSizesOf(sizer);
    const text = ' the cat and the dog and the bird';
    const words = [...text.matchAll(/ \w+/g)].map((m) => [m.index, m.index + m[0].length] as const);
    const sizes = words.map(([from, to]) => shortSizeUpTo(table, sizer, text, from, to, 10));
    expect(sizes).toEqual(words.map(([from, to]) => to - from));
    expect(calls).toEqual([' the', ' cat', ' and', ' dog', ' bird']);
  });

  it('keeps a size over the limit for no later limit', () => {
    const { sizer, calls } = countedSizer();
    const table = shortSizesOf(sizer);
    expect(shortSizeUpTo(table, sizer, ' word', 0, 5, 3)).toBe(5);
    expect(shortSizeUpTo(table, sizer, ' word', 0, 5, 10)).toBe(5);
    expect(shortSizeUpTo(table, sizer, ' word', 0, 5, 10)).toBe(5);
    expect(calls).toEqual([' word', ' word']);
  });

  it('keeps one table per sizer', () => {
    const a = countedSizer();
    const b = countedSizer();
    expect(shortSizesOf(a.sizer)).toBe(shortSizesOf(a.sizer));
    expect(shortSizesOf(a.sizer)).not.toBe(shortSizesOf(b.sizer));
  });
});
