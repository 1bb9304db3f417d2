import { Tiktoken, type TiktokenBPE } from 'js-tiktoken/lite';
import cl100k from 'js-tiktoken/ranks/cl100k_base';
import { describe, expect, it } from 'vitest';
import { createPieceCache, createRankTable, type PieceCache } from '../../../src/chunking/sizers/count-tables.js';

describe('createRankTable', () => {
  const table = createRankTable(cl100k as TiktokenBPE);
  const reference = new Tiktoken(cl100k as TiktokenBPE) as unknown as { textMap: Map<number, Uint8Array> };

  it('finds every token of the encoding at its rank, inside a larger byte array too', () => {
    expect(table.size).toBe(reference.textMap.size);
    for (const [rank, bytes] of reference.textMap) {
      const padded = new Uint8Array(bytes.length + 6);
      padded.set(bytes, 3);
      expect(table.rank(padded, 3, 3 + bytes.length)).toBe(rank);
    }
  });

  it('answers -1 for byte strings that are no token', () => {
    const bytes = new TextEncoder().encode('zzqxjv-not-a-token-zzqxjv');
    expect(table.rank(bytes, 0, bytes.length)).toBe(-1);
    expect(table.rank(bytes, 0, 0)).toBe(-1);
  });
});

/** Looks up a whole string. */
const lookup = (cache: PieceCache, piece: string) => cache.get(piece, 0, piece.length);

describe('createPieceCache', () => {
  it('looks up a range of a larger string as the string it spans', () => {
    const cache = createPieceCache({ entries: 8, units: 64 });
    cache.set(' hello', 7);
    expect(cache.get('say hello there', 3, 9)).toBe(7);
    expect(cache.get('say hello there', 3, 8)).toBeUndefined();
    expect(cache.get('say hello there', 4, 9)).toBeUndefined();
  });

  it('returns what was set, and undefined for what was not', () => {
    const cache = createPieceCache({ entries: 8, units: 64 });
    cache.set('hello', 1);
    cache.set(' world', 2);
    expect(lookup(cache, 'hello')).toBe(1);
    expect(lookup(cache, ' world')).toBe(2);
    expect(lookup(cache, 'hell')).toBeUndefined();
    expect(lookup(cache, '')).toBeUndefined();
  });

  it('keeps at most two generations: the oldest entries go, recently read ones stay', () => {
    const cache = createPieceCache({ entries: 4, units: 1000 });
    for (let i = 0; i < 4; i++) cache.set(`a${i}`, i);
    // The young generation is full: the next entry starts a new one, and a0..a3 become the old one.
    cache.set('b0', 10);
    expect(lookup(cache, 'a1')).toBe(1); // promoted into the young generation
    for (let i = 1; i < 3; i++) cache.set(`b${i}`, 10 + i);
    // Young is full again (b0, a1, b1, b2): it becomes the old one, and a0, a2, a3 are gone.
    cache.set('c0', 20);
    expect(lookup(cache, 'a0')).toBeUndefined();
    expect(lookup(cache, 'a2')).toBeUndefined();
    expect(lookup(cache, 'a1')).toBe(1);
    expect(lookup(cache, 'b2')).toBe(12);
    expect(lookup(cache, 'c0')).toBe(20);
  });

  it('counts key space too, and skips a key longer than a whole generation', () => {
    const cache = createPieceCache({ entries: 100, units: 10 });
    cache.set('abcdef', 1);
    cache.set('ghijkl', 2); // does not fit beside the first: a new generation
    expect(lookup(cache, 'abcdef')).toBe(1);
    expect(lookup(cache, 'ghijkl')).toBe(2);
    cache.set('x'.repeat(11), 3);
    expect(lookup(cache, 'x'.repeat(11))).toBeUndefined();
  });

  it('tells apart keys that differ only in UTF-16 units above 0xff', () => {
    const cache = createPieceCache({ entries: 8, units: 64 });
    cache.set('\u4e00\u4e01', 1);
    cache.set('\u4e01\u4e00', 2);
    cache.set('\ud83d\ude00', 3);
    expect(lookup(cache, '\u4e00\u4e01')).toBe(1);
    expect(lookup(cache, '\u4e01\u4e00')).toBe(2);
    expect(lookup(cache, '\ud83d\ude00')).toBe(3);
    expect(lookup(cache, '\ud83d\ude01')).toBeUndefined();
  });
});
