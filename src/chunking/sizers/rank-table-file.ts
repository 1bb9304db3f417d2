/**
 * Prebuilt rank tables: the arrays of `count-tables.ts`'s `RankArrays`, decoded once at build time from
 * js-tiktoken's ranks and written beside this module (`ranks/<encoding>.bin`, by `scripts/build.mjs`).
 *
 * Why: decoding 100,000 base64 tokens (200,000 for o200k_base) from a 1 MB string, after reading that file as
 * UTF-8 and parsing it as JSON, cost every process and worker thread tens of milliseconds on its first count,
 * about a fifth of a short command's run; reading the arrays back is a few milliseconds.
 *
 * A file is used only for the very ranks it was made from: it holds the SHA-1 of the ranks file, and a table built
 * against another version of js-tiktoken (or a file that is cut short, or written on a machine of the other byte
 * order) is not read; the ranks are then decoded as before. Layout, 4-byte aligned, numbers in the machine's byte
 * order (the order mark says which):
 *
 *     magic "CSRT" · u32 version · u32 order mark · u32 token count · u32 pool bytes · u32 ranks stored (0: rank = index)
 *     · u32 slots · u32 fingerprint bytes · u32 pattern bytes · fingerprint (ASCII hex) · pattern (UTF-8) · padding
 *     · starts (count + 1 × i32) · ranks (count × i32, when stored) · slots (i32) · pairs (65,536 × i32) · pool (bytes)
 *
 * The hash slots are stored rather than rebuilt: hashing every token again was half of what loading still cost.
 */
import { hash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { RankArrays } from './count-tables.js';

const MAGIC = 0x54525343; // "CSRT" read as a little-endian u32
const VERSION = 1;
const ORDER_MARK = 0x01020304;
const HEADER_WORDS = 9;
const PAIRS = 0x10000;

/** A prebuilt table: its arrays and the encoding's pre-token pattern (`pat_str`). */
export interface RankTableFile {
  readonly arrays: RankArrays;
  readonly pattern: string;
}

/** What a prebuilt table is checked against: the SHA-1 (hex) of the ranks file's bytes. */
export function ranksFingerprint(source: Uint8Array): string {
  return hash('sha1', source, 'hex');
}

/** The bytes of a prebuilt table file. */
export function encodeRankTableFile(table: RankTableFile, fingerprint: string): Uint8Array {
  const { pool, starts, rankOf, slots, pairs } = table.arrays;
  const count = rankOf.length;
  const storeRanks = !rankOf.every((rank, t) => rank === t);
  const encoder = new TextEncoder();
  const fingerprintBytes = encoder.encode(fingerprint);
  const patternBytes = encoder.encode(table.pattern);
  const textEnd = align4(4 * HEADER_WORDS + fingerprintBytes.length + patternBytes.length);
  const startsAt = textEnd;
  const ranksAt = startsAt + 4 * (count + 1);
  const slotsAt = ranksAt + (storeRanks ? 4 * count : 0);
  const pairsAt = slotsAt + 4 * slots.length;
  const poolAt = pairsAt + 4 * PAIRS;
  const out = new Uint8Array(poolAt + pool.length);
  const header = new Uint32Array(out.buffer, 0, HEADER_WORDS);
  header.set([MAGIC, VERSION, ORDER_MARK, count, pool.length, storeRanks ? 1 : 0, slots.length, fingerprintBytes.length, patternBytes.length]);
  out.set(fingerprintBytes, 4 * HEADER_WORDS);
  out.set(patternBytes, 4 * HEADER_WORDS + fingerprintBytes.length);
  new Int32Array(out.buffer, startsAt, count + 1).set(starts.subarray(0, count + 1));
  if (storeRanks) new Int32Array(out.buffer, ranksAt, count).set(rankOf);
  new Int32Array(out.buffer, slotsAt, slots.length).set(slots);
  new Int32Array(out.buffer, pairsAt, PAIRS).set(pairs);
  out.set(pool, poolAt);
  return out;
}

/**
 * The table in `bytes` when it was made from the ranks whose fingerprint is `fingerprint`, else null (another
 * version, another byte order, a file cut short or not a table at all).
 */
export function decodeRankTableFile(bytes: Uint8Array, fingerprint: string): RankTableFile | null {
  // Typed arrays over the file need it 4-byte aligned; a buffer from a pool may not be.
  const data = bytes.byteOffset % 4 === 0 ? bytes : bytes.slice();
  if (data.length < 4 * HEADER_WORDS) return null;
  const [magic, version, order, count, poolLength, storeRanks, slotCount, fingerprintLength, patternLength] = new Uint32Array(data.buffer, data.byteOffset, HEADER_WORDS);
  if (magic !== MAGIC || version !== VERSION || order !== ORDER_MARK) return null;
  // The lookups mask a hash by the slot count: it must be a power of two, with room to spare.
  if (slotCount! < 2 * count! || (slotCount! & (slotCount! - 1)) !== 0) return null;
  const decoder = new TextDecoder();
  const textAt = data.byteOffset + 4 * HEADER_WORDS;
  const startsAt = align4(4 * HEADER_WORDS + fingerprintLength! + patternLength!);
  const ranksAt = startsAt + 4 * (count! + 1);
  const slotsAt = ranksAt + (storeRanks === 1 ? 4 * count! : 0);
  const pairsAt = slotsAt + 4 * slotCount!;
  const poolAt = pairsAt + 4 * PAIRS;
  if (data.length !== poolAt + poolLength!) return null;
  if (decoder.decode(new Uint8Array(data.buffer, textAt, fingerprintLength)) !== fingerprint) return null;
  const pattern = decoder.decode(new Uint8Array(data.buffer, textAt + fingerprintLength!, patternLength));
  const starts = new Int32Array(data.buffer, data.byteOffset + startsAt, count! + 1);
  if (starts[0] !== 0 || starts[count!] !== poolLength) return null;
  const rankOf = storeRanks === 1 ? new Int32Array(data.buffer, data.byteOffset + ranksAt, count) : identityRanks(count!);
  const slots = new Int32Array(data.buffer, data.byteOffset + slotsAt, slotCount);
  const pairs = new Int32Array(data.buffer, data.byteOffset + pairsAt, PAIRS);
  const pool = new Uint8Array(data.buffer, data.byteOffset + poolAt, poolLength);
  return { arrays: { pool, starts, rankOf, slots, pairs }, pattern };
}

/** The prebuilt table at `path` for the ranks of `fingerprint`, or null when there is none or it does not match. */
export function readRankTableFile(path: string, fingerprint: string): RankTableFile | null {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch {
    return null; // not built (tests run the sources), or not shipped
  }
  return decodeRankTableFile(bytes, fingerprint);
}

function identityRanks(count: number): Int32Array {
  const ranks = new Int32Array(count);
  for (let t = 0; t < count; t++) ranks[t] = t;
  return ranks;
}

function align4(n: number): number {
  return (n + 3) & ~3;
}
