import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type RankArrays, rankArraysOf } from '../../../src/chunking/sizers/count-tables.js';
import { decodeRankTableFile, encodeRankTableFile, ranksFingerprint, readRankTableFile } from '../../../src/chunking/sizers/rank-table-file.js';
import { readRanksFile } from '../../../src/chunking/sizers/tokens.js';

const require = createRequire(import.meta.url);
const ROOT = join(import.meta.dirname, '../../..');

/** An encoding's ranks file as installed: its bytes, its parsed ranks and the arrays decoded from them. */
function installed(encoding: string) {
  const path = require.resolve(`js-tiktoken/ranks/${encoding}`);
  const ranks = readRanksFile(path);
  if (ranks === null) throw new Error(`${path} is not a ranks file`);
  return { source: readFileSync(path), pattern: ranks.pat_str, arrays: rankArraysOf(ranks) };
}

function expectSameArrays(actual: RankArrays, expected: RankArrays): void {
  for (const name of ['pool', 'starts', 'rankOf', 'slots', 'pairs'] as const) {
    expect(Buffer.from(actual[name].buffer, actual[name].byteOffset, actual[name].byteLength).equals(Buffer.from(expected[name].buffer, expected[name].byteOffset, expected[name].byteLength)), name).toBe(true);
  }
}

describe('prebuilt rank tables', () => {
  const cl100k = installed('cl100k_base');
  const fingerprint = ranksFingerprint(cl100k.source);
  const bytes = encodeRankTableFile({ pattern: cl100k.pattern, arrays: cl100k.arrays }, fingerprint);

  it('read back to the very arrays decoding the ranks gives, and the pattern', () => {
    const read = decodeRankTableFile(bytes, fingerprint);
    expect(read?.pattern).toBe(cl100k.pattern);
    expectSameArrays(read!.arrays, cl100k.arrays);
    // At any offset in memory: a copy is aligned for the typed arrays.
    const shifted = new Uint8Array(bytes.length + 1).subarray(1);
    shifted.set(bytes);
    expectSameArrays(decodeRankTableFile(shifted, fingerprint)!.arrays, cl100k.arrays);
  });

  it('are not read for other ranks, cut short, lengthened or of another format', () => {
    expect(decodeRankTableFile(bytes, ranksFingerprint(Buffer.from('other ranks')))).toBeNull();
    expect(decodeRankTableFile(bytes.subarray(0, bytes.length - 1), fingerprint)).toBeNull();
    expect(decodeRankTableFile(bytes.subarray(0, 20), fingerprint)).toBeNull();
    const longer = new Uint8Array(bytes.length + 4);
    longer.set(bytes);
    expect(decodeRankTableFile(longer, fingerprint)).toBeNull();
    const otherMagic = bytes.slice();
    otherMagic[0] = 0x58;
    expect(decodeRankTableFile(otherMagic, fingerprint)).toBeNull();
    expect(readRankTableFile(join(ROOT, 'no-such-table.bin'), fingerprint)).toBeNull();
  });

  // `npm test` builds first: the files `scripts/build.mjs` wrote are the ones every process of the package reads.
  it.each(['cl100k_base', 'o200k_base'])('in dist/ hold what decoding the installed %s ranks gives', (encoding) => {
    const { source, pattern, arrays } = installed(encoding);
    const read = readRankTableFile(join(ROOT, 'dist/chunking/sizers/ranks', `${encoding}.bin`), ranksFingerprint(source));
    expect(read, 'run npm run build first').not.toBeNull();
    expect(read?.pattern).toBe(pattern);
    expectSameArrays(read!.arrays, arrays);
  });
});
