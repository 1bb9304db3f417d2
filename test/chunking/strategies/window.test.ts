import { describe, expect, it } from 'vitest';
import { createLineIndex } from '../../../src/unicode/lines.js';
import { createWordSizer } from '../../../src/chunking/sizers/basic.js';
import { createSlidingWindowCore, normalizeSlidingWindow, slidingWindow } from '../../../src/chunking/strategies/window.js';
import type { Sizer } from '../../../src/protocols.js';
import { tiktokenSizer } from '../../support/tiktoken.js';
import { linkNeighbours } from '../../../src/chunking/neighbours.js';

const source = (text: string) => ({ id: 'w', origin: 'a.md', text });
const words = (n: number, w = (i: number) => `w${i}`) => Array.from({ length: n }, (_, i) => w(i)).join(' ');
/** Whitespace-separated words, exactly additive over pieces that keep the whitespace before them. */
const wordCount: Sizer = { size: (t) => t.split(/\s+/).filter(Boolean).length };

function expectWordAligned(text: string, chunks: { start: number; end: number }[]): void {
  for (const c of chunks) {
    expect(c.start === 0 || /\s/.test(text[c.start - 1]!)).toBe(true);
    expect(/\S/.test(text[c.start]!)).toBe(true);
    expect(/\S/.test(text[c.end - 1]!)).toBe(true);
    expect(c.end === text.length || /\s/.test(text[c.end]!)).toBe(true);
  }
}

describe('slidingWindow', () => {
  it('fills windows up to size and repeats overlap units of the tail', () => {
    const text = words(10);
    const chunks = slidingWindow({ size: 4, overlap: 1, sizer: wordCount })(source(text));
    expect(chunks.map((c) => c.text)).toEqual(['w0 w1 w2 w3', 'w3 w4 w5 w6', 'w6 w7 w8 w9']);
    expect(chunks.map((c) => c.size)).toEqual([4, 4, 4]);
  });

  it('takes the longest tail that fits the overlap', () => {
    const text = words(12);
    const chunks = slidingWindow({ size: 5, overlap: 2, sizer: wordCount })(source(text));
    expect(chunks.map((c) => c.text)).toEqual(['w0 w1 w2 w3 w4', 'w3 w4 w5 w6 w7', 'w6 w7 w8 w9 w10', 'w9 w10 w11']);
  });

  it('drops the overlap when nothing past the previous window would fit, instead of a contained window', () => {
    const chunks = slidingWindow({ size: 5, overlap: 4 })(source('aa bb ccccc'));
    expect(chunks.map((c) => c.text)).toEqual(['aa bb', 'ccccc']);
  });

  it('gives exact slices that never cut a word, with documentId and origin', () => {
    const text = 'Alpha  beta,\tgamma\n\ndelta — epsilon\r\nzeta eta theta 😀😀 iota';
    const chunks = slidingWindow({ size: 12, overlap: 4 })(source(text));
    for (const c of chunks) {
      expect(text.slice(c.start, c.end)).toBe(c.text);
      expect(c.size).toBeLessThanOrEqual(12);
      expect(c).toMatchObject({ documentId: 'w', origin: 'a.md' });
    }
    expectWordAligned(text, chunks);
  });

  it('gives no chunks for empty or whitespace-only text', () => {
    const chunker = slidingWindow({ size: 5 });
    expect(chunker(source(''))).toEqual([]);
    expect(chunker(source(' \n\t\r\n  '))).toEqual([]);
  });

  it('lets a word longer than the window stand alone, flagged oversized', () => {
    const chunks = slidingWindow({ size: 5, overlap: 2 })(source('ab abcdefghij cd'));
    expect(chunks.map((c) => c.text)).toEqual(['ab', 'abcdefghij', 'cd']);
    expect(chunks[1]).toMatchObject({ oversized: true, size: 10, metadata: { oversizedReason: 'word longer than the window size' } });
    expect(chunks[0]).not.toHaveProperty('oversized');
  });

  it('fails at creation when size <= 0, saying the window would not advance', () => {
    expect(() => slidingWindow({ size: 0 })).toThrow('Invalid option size: must be a number > 0 (the window would not advance), got 0');
    expect(() => slidingWindow({ size: -1 })).toThrow(expect.objectContaining({ code: 'ERR_INVALID_OPTION', option: 'size' }));
  });

  it('fails at creation when overlap >= size, saying the window would not advance', () => {
    expect(() => slidingWindow({ size: 10, overlap: 10 })).toThrow(
      'Invalid option overlap: must be less than size (10), or the window would not advance, got 10',
    );
    expect(() => slidingWindow({ size: 10, overlap: 12 })).toThrow(expect.objectContaining({ code: 'ERR_INVALID_OPTION', option: 'overlap' }));
  });

  it('refuses a negative overlap and a non-number size', () => {
    expect(() => slidingWindow({ size: 10, overlap: -1 })).toThrow('Invalid option overlap: must be a number >= 0, got -1');
    expect(() => slidingWindow({ size: '10' as never })).toThrow(/Invalid option size/);
  });

  it('advances by at least one word with a sizer that returns a constant above the size', () => {
    const chunks = slidingWindow({ size: 5, overlap: 4, sizer: () => 1000 })(source(words(20)));
    expect(chunks.map((c) => c.text)).toEqual(words(20).split(' '));
  });

  it('advances with a sizer that returns 0: one window holds everything', () => {
    const text = words(50);
    const chunks = slidingWindow({ size: 5, overlap: 4, sizer: () => 0 })(source(text));
    expect(chunks.map((c) => c.text)).toEqual([text]);
  });

  it('advances with a sizer that ignores its input and grows with every call', () => {
    let calls = 0;
    const chunks = slidingWindow({ size: 50, overlap: 40, sizer: () => calls++ % 60 })(source(words(200)));
    for (let i = 1; i < chunks.length; i++) expect(chunks[i]!.start).toBeGreaterThan(chunks[i - 1]!.start);
    expect(chunks[chunks.length - 1]!.text.endsWith('w199')).toBe(true);
  });

  it('keeps windows within size when the sizer is not additive over pieces', () => {
    // Quadratic in words: pieces always under-count their concatenation.
    const square: Sizer = { size: (t) => wordCount.size(t) ** 2 };
    const chunks = slidingWindow({ size: 30, overlap: 5, sizer: square })(source(words(100)));
    for (const c of chunks) expect(c.size).toBeLessThanOrEqual(30);
    expect(chunks.map((c) => wordCount.size(c.text))).toContain(5);
  });

  it('finds window ends with few sizer calls, not one per word', () => {
    const text = words(20_000);
    let calls = 0;
    const counting: Sizer = { size: (t) => (calls++, wordCount.size(t)) };
    const chunks = slidingWindow({ size: 500, overlap: 50, sizer: counting })(source(text));
    expect(chunks.length).toBeGreaterThan(40);
    expect(calls).toBeLessThan(20_000 / 20);
  });

  it('gives the lines of createLineIndex', () => {
    const text = 'one two\r\nthree\rfour\n\nfive six\r\nseven';
    const lineOf = createLineIndex(text);
    for (const c of slidingWindow({ size: 9, overlap: 4 })(source(text))) {
      expect([c.startLine, c.endLine]).toEqual([lineOf(c.start), lineOf(c.end - 1)]);
    }
  });

  it('counts tokens with a tiktoken sizer: every window at most size tokens', () => {
    const text = Array.from({ length: 300 }, (_, i) => `Sentence ${i} says something, quite plainly.`).join(' ');
    const chunks = slidingWindow({ size: 64, overlap: 8, sizer: tiktokenSizer })(source(text));
    for (const c of chunks) {
      expect(c.size).toBe(tiktokenSizer.size(c.text));
      expect(c.size).toBeLessThanOrEqual(64);
    }
    expect(Math.max(...chunks.map((c) => c.size))).toBeGreaterThan(56);
  });

  it('accepts the word sizer of the package', () => {
    const chunks = slidingWindow({ size: 3, sizer: createWordSizer() })(source('a b, c. d e'));
    expect(chunks.map((c) => c.text)).toEqual(['a b, c.', 'd e']);
  });
});

describe('createSlidingWindowCore', () => {
  const config = normalizeSlidingWindow({ size: 7, overlap: 3, sizer: wordCount });

  it('gives the windows of the whole text when the text arrives one unit at a time', () => {
    const text = `${words(40, (i) => (i % 7 === 0 ? `w${i}\r\n` : `wörd${i}`))} 😀 end`;
    const core = createSlidingWindowCore(config, { documentId: 'w', origin: 'a.md' });
    const streamed = text.split('').flatMap((u) => core.write(u));
    streamed.push(...core.end());
    expect(linkNeighbours(streamed)).toEqual(slidingWindow({ size: 7, overlap: 3, sizer: wordCount })(source(text)));
  });

  it('holds a bounded buffer: past maxBufferChars without a window end it fails with ERR_BUFFER_OVERFLOW', () => {
    const core = createSlidingWindowCore(normalizeSlidingWindow({ size: 5, sizer: () => 0, maxBufferChars: 100 }), { documentId: 'w' });
    expect(() => {
      for (let i = 0; i < 50; i++) core.write('word ');
    }).toThrow(expect.objectContaining({ code: 'ERR_BUFFER_OVERFLOW' }));
  });

  it('does not fail on long input when the sizer grows with the text', () => {
    const core = createSlidingWindowCore(normalizeSlidingWindow({ size: 5, sizer: wordCount, maxBufferChars: 100 }), { documentId: 'w' });
    let n = 0;
    for (let i = 0; i < 2000; i++) n += core.write(`w${i} `).length;
    n += core.end().length;
    expect(n).toBe(400);
  });
});
