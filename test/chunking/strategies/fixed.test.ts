import { describe, expect, it } from 'vitest';
import { createLineIndex } from '../../../src/unicode/lines.js';
import { createWordSizer } from '../../../src/chunking/sizers/basic.js';
import { createFixedSizeCore, fixedSize } from '../../../src/chunking/strategies/fixed.js';
import { ChunkError } from '../../../src/errors.js';
import { referenceChunkIds } from '../../support/chunk-contracts.js';
import { linkNeighbours } from '../../../src/chunking/neighbours.js';

const source = (text: string) => ({ id: 'doc-1', origin: 'notes/a.txt', text });

describe('fixedSize', () => {
  it('cuts every n characters, the last chunk keeping the remainder', () => {
    const chunks = fixedSize(4)(source('abcdefghij'));
    expect(chunks.map((c) => c.text)).toEqual(['abcd', 'efgh', 'ij']);
    expect(chunks.map((c) => [c.start, c.end])).toEqual([[0, 4], [4, 8], [8, 10]]);
  });

  it('does not overlap and concatenates back to the source, whitespace included', () => {
    const text = '  line one\r\n\r\nline two  \n';
    const chunks = fixedSize(3)(source(text));
    expect(chunks.map((c) => c.text).join('')).toBe(text);
    for (let i = 1; i < chunks.length; i++) expect(chunks[i]!.start).toBe(chunks[i - 1]!.end);
  });

  it('gives no chunks for an empty source', () => {
    expect(fixedSize(5)(source(''))).toEqual([]);
  });

  it('never cuts a surrogate pair: the chunk ends one unit early', () => {
    const chunks = fixedSize(2)(source('a😀b'));
    expect(chunks.map((c) => c.text)).toEqual(['a', '😀', 'b']);
  });

  it('never cuts a surrogate pair with n = 1: the chunk ends one unit late', () => {
    expect(fixedSize(1)(source('x😀y')).map((c) => c.text)).toEqual(['x', '😀', 'y']);
  });

  it('fails at creation, with a coded error, for n < 1 or a fraction', () => {
    for (const n of [0, -3, 1.5, Number.NaN]) {
      expect(() => fixedSize(n)).toThrow(ChunkError);
    }
    try {
      fixedSize(0);
      expect.unreachable();
    } catch (error) {
      expect(error).toMatchObject({ code: 'ERR_INVALID_OPTION', option: 'fixedSize' });
      expect((error as Error).message).toBe('Invalid option fixedSize: must be an integer >= 1 (characters per chunk), got 0');
    }
  });

  it('carries documentId and origin, numbers ids, fills hash and counts', () => {
    const chunks = fixedSize(6)(source('hello world!'));
    const [first, second] = chunks;
    const ids = referenceChunkIds('doc-1', chunks);
    expect(first).toMatchObject({ id: ids[0], documentId: 'doc-1', origin: 'notes/a.txt', index: 0, charCount: 6, wordCount: 1 });
    expect(second).toMatchObject({ id: ids[1], index: 1, text: 'world!' });
    expect(first!.hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('leaves origin out when the source has none', () => {
    const [chunk] = fixedSize(3)({ id: 'x', text: 'abc' });
    expect(chunk).not.toHaveProperty('origin');
  });

  it('gives the lines of createLineIndex, a CRLF cut in two included', () => {
    const text = 'a\r\nb\rc\n\nd\r\ne';
    const lineOf = createLineIndex(text);
    for (let n = 1; n <= 4; n++) {
      for (const c of fixedSize(n)(source(text))) {
        expect([c.startLine, c.endLine]).toEqual([lineOf(c.start), lineOf(c.end - 1)]);
      }
    }
  });

  it('measures size with the given sizer, the cuts staying in characters', () => {
    const chunks = fixedSize(11, { sizer: createWordSizer() })(source('one two three four'));
    expect(chunks.map((c) => [c.text, c.size])).toEqual([['one two thr', 3], ['ee four', 2]]);
  });

  it('defaults size to the chunk length', () => {
    expect(fixedSize(3)(source('abcd')).map((c) => c.size)).toEqual([3, 1]);
  });

  it('refuses a sizer that is neither a function nor a Sizer', () => {
    expect(() => fixedSize(3, { sizer: 42 as never })).toThrow(/Invalid option sizer: must be a function/);
  });

  it('refuses a source without text', () => {
    expect(() => fixedSize(3)({ id: 'x' } as never)).toThrow(/Invalid option source/);
  });

  it('gives the same chunks when the text arrives one unit at a time', () => {
    const text = 'ab😀cd\r\nef😀😀g';
    for (let n = 1; n <= 5; n++) {
      const core = createFixedSizeCore(n, { documentId: 'doc-1', origin: 'notes/a.txt' });
      const streamed = text.split('').flatMap((unit) => core.write(unit));
      streamed.push(...core.end());
      expect(linkNeighbours(streamed)).toEqual(fixedSize(n)(source(text)));
    }
  });
});
