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

  it('gives the rank of every byte pair from its pair table as the hashed lookup does', () => {
    const pair = new Uint8Array(2);
    let tokens = 0;
    for (let first = 0; first < 256; first++) {
      for (let second = 0; second < 256; second++) {
        pair[0] = first;
        pair[1] = second;
        const rank = table.rank(pair, 0, 2);
        if (rank >= 0) tokens++;
        if (table.pairRank(first, second) !== rank) expect(table.pairRank(first, second), `${first} ${second}`).toBe(rank);
      }
    }
    // cl100k_base has a few thousand two-byte tokens: the table is not all -1.
    expect(tokens).toBeGreaterThan(1000);
  });

  it('answers -1 for byte strings that are no token', () => {
    const bytes = new TextEncoder().encode('zzqxjv-not-a-token-zzqxjv');
    expect(table.rank(bytes, 0, bytes.length)).toBe(-1);
    expect(table.rank(bytes, 0, 0)).toBe(-1);
  });
});

/** Looks up a whole string. */
const lookup = (cache: PieceCache, piece: string) => cache.get(piece, 0, piece.length);
/** Stores a piece the cache does not hold yet, as counting it does. */
const store = (cache: PieceCache, piece: string, count: number) => cache.countOf(piece, 0, piece.length, () => count);

describe('createPieceCache', () => {
  it('looks up a range of a larger string as the string it spans', () => {
    const cache = createPieceCache({ entries: 8, units: 64 });
    store(cache, ' hello', 7);
    expect(cache.get('say hello there', 3, 9)).toBe(7);
    expect(cache.get('say hello there', 3, 8)).toBeUndefined();
    expect(cache.get('say hello there', 4, 9)).toBeUndefined();
  });

  it('counts a piece it does not hold once, with the piece as a string, and remembers it', () => {
    const cache = createPieceCache({ entries: 8, units: 64 });
    const asked: string[] = [];
    const count = (piece: string): number => (asked.push(piece), piece.length);
    expect(cache.countOf('say hello there', 3, 9, count)).toBe(6);
    expect(cache.countOf('hello, hello', 6, 12, count)).toBe(6);
    expect(cache.countOf('say hello there', 4, 9, count)).toBe(5);
    expect(asked).toEqual([' hello', 'hello']);
    expect(lookup(cache, ' hello')).toBe(6);
  });

  it('returns what was stored, and undefined for what was not', () => {
    const cache = createPieceCache({ entries: 8, units: 64 });
    store(cache, 'hello', 1);
    store(cache, ' world', 2);
    expect(lookup(cache, 'hello')).toBe(1);
    expect(lookup(cache, ' world')).toBe(2);
    expect(lookup(cache, 'hell')).toBeUndefined();
    expect(lookup(cache, '')).toBeUndefined();
  });

  it('keeps at most two generations: the oldest entries go, recently read ones stay', () => {
    const cache = createPieceCache({ entries: 4, units: 1000 });
    for (let i = 0; i < 4; i++) store(cache, `a${i}`, i);
    // The young generation is full: the next entry starts a new one, and a0..a3 become the old one.
    store(cache, 'b0', 10);
    expect(lookup(cache, 'a1')).toBe(1); // promoted into the young generation
    for (let i = 1; i < 3; i++) store(cache, `b${i}`, 10 + i);
    // Young is full again (b0, a1, b1, b2): it becomes the old one, and a0, a2, a3 are gone.
    store(cache, 'c0', 20);
    expect(lookup(cache, 'a0')).toBeUndefined();
    expect(lookup(cache, 'a2')).toBeUndefined();
    expect(lookup(cache, 'a1')).toBe(1);
    expect(lookup(cache, 'b2')).toBe(12);
    expect(lookup(cache, 'c0')).toBe(20);
  });

  it('counts key space too, and skips a key longer than a whole generation', () => {
    const cache = createPieceCache({ entries: 100, units: 10 });
    store(cache, 'abcdef', 1);
    store(cache, 'ghijkl', 2); // does not fit beside the first: a new generation
    expect(lookup(cache, 'abcdef')).toBe(1);
    expect(lookup(cache, 'ghijkl')).toBe(2);
    store(cache, 'x'.repeat(11), 3);
    expect(lookup(cache, 'x'.repeat(11))).toBeUndefined();
  });

  it('tells apart keys that differ only in UTF-16 units above 0xff', () => {
    const cache = createPieceCache({ entries: 8, units: 64 });
    store(cache, '\u4e00\u4e01', 1);
    store(cache, '\u4e01\u4e00', 2);
    store(cache, '\ud83d\ude00', 3);
    expect(lookup(cache, '\u4e00\u4e01')).toBe(1);
    expect(lookup(cache, '\u4e01\u4e00')).toBe(2);
    expect(lookup(cache, '\ud83d\ude00')).toBe(3);
    expect(lookup(cache, '\ud83d\ude01')).toBeUndefined();
  });
});
