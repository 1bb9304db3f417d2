/**
 * The two tables token counting looks things up in, kept in typed arrays rather than `Map`s of strings.
 *
 * Why: V8 lets its heap grow to about four times what is live before it collects the old generation again, so
 * every megabyte held for the life of the process costs several megabytes of resident memory in a long run. A
 * `Map` from 100,000 token strings to ranks holds some 7 MB of small objects on the heap (js-tiktoken's own
 * encoder, which keeps each token twice, some 70 MB); the same table in typed arrays is 2.5 MB outside it,
 * and a lookup allocates nothing.
 *
 * Both are open-addressing hash tables (FNV-1a, linear probing) whose keys live in one pool array.
 */

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** An encoding's merge ranks, keyed by the bytes of each token. */
export interface RankTable {
  /** Rank of the token whose bytes are `bytes[start..end)`, or -1 when no token has them. */
  rank(bytes: Uint8Array, start: number, end: number): number;
  /**
   * Rank of the two-byte token `first second`, or -1: from a table of all 65,536 pairs. Byte-pair merging looks up
   * every adjacent pair of a piece before its first merge, and text whose pre-tokens are all new (junk) merges
   * nearly every piece: the table answers those lookups without hashing.
   */
  pairRank(first: number, second: number): number;
  /** Number of tokens. */
  readonly size: number;
}

/** What {@link createRankTable} reads: js-tiktoken's compressed ranks (`prefix offset token…` lines, base64). */
export interface CompressedRanks {
  readonly bpe_ranks: string;
}

/**
 * What a rank table looks things up in: token `t` is the bytes `pool[starts[t]..starts[t + 1])` with rank
 * `rankOf[t]`; `slots` is an open-addressing hash table of tokens (entry `t + 1`, 0 for empty, its length a power of
 * two) and `pairs` the rank of each two-byte token by its bytes (-1 for none). A prebuilt table file
 * (`rank-table-file.ts`) holds exactly these arrays.
 */
export interface RankArrays {
  readonly pool: Uint8Array;
  readonly starts: Int32Array;
  readonly rankOf: Int32Array;
  readonly slots: Int32Array;
  readonly pairs: Int32Array;
}

/** Builds the rank table of js-tiktoken's compressed ranks (tokens in base64, ranks counting up from an offset). */
export function createRankTable(ranks: CompressedRanks): RankTable {
  return rankTableOf(rankArraysOf(ranks));
}

/** Decodes js-tiktoken's compressed ranks and indexes them: the arrays a rank table looks things up in. */
export function rankArraysOf(ranks: CompressedRanks): RankArrays {
  const decoded = decodeRanks(ranks.bpe_ranks);
  const pool = decoded.pool;
  const starts = decoded.starts.subarray(0, decoded.count + 1);
  const rankOf = decoded.rankOf.subarray(0, decoded.count);
  const slots = new Int32Array(tableCapacity(rankOf.length));
  const mask = slots.length - 1;
  for (let t = 0; t < rankOf.length; t++) {
    let slot = hashBytes(pool, starts[t]!, starts[t + 1]!) & mask;
    // A token listed twice keeps its last rank, as in js-tiktoken.
    for (;;) {
      const entry = slots[slot]! - 1;
      if (entry < 0) {
        slots[slot] = t + 1;
        break;
      }
      if (bytesEqual(pool, starts[entry]!, starts[entry + 1]!, pool, starts[t]!, starts[t + 1]!)) {
        rankOf[entry] = rankOf[t]!;
        break;
      }
      slot = (slot + 1) & mask;
    }
  }
  const pairs = new Int32Array(0x10000).fill(-1);
  for (let t = 0; t < rankOf.length; t++) {
    const at = starts[t]!;
    if (starts[t + 1]! - at === 2) pairs[(pool[at]! << 8) | pool[at + 1]!] = rankOf[t]!;
  }
  return { pool, starts, rankOf, slots, pairs };
}

/** The rank table over decoded (or prebuilt) arrays. */
export function rankTableOf(arrays: RankArrays): RankTable {
  const { pool, starts, rankOf, slots, pairs } = arrays;
  const mask = slots.length - 1;
  return {
    size: rankOf.length,
    pairRank: (first, second) => pairs[(first << 8) | second]!,
    rank(bytes, start, end) {
      let slot = hashBytes(bytes, start, end) & mask;
      for (;;) {
        const entry = slots[slot]! - 1;
        if (entry < 0) return -1;
        if (bytesEqual(pool, starts[entry]!, starts[entry + 1]!, bytes, start, end)) return rankOf[entry]!;
        slot = (slot + 1) & mask;
      }
    },
  };
}

/** A bounded cache from strings (pre-tokens) to counts. */
export interface PieceCache {
  /** The count of `text.slice(start, end)`, looked up without making that string. */
  get(text: string, start: number, end: number): number | undefined;
  /**
   * The count of `text.slice(start, end)`: remembered, or `count(piece)` remembered. One hash serves every probe:
   * a piece that is new (most of junk's) misses both generations and is then stored, three probes of one hash.
   */
  countOf(text: string, start: number, end: number, count: (piece: string) => number): number;
}

/** Bounds of a {@link createPieceCache} cache. */
export interface PieceCacheLimits {
  /** Entries per generation. */
  readonly entries: number;
  /** UTF-16 units of keys per generation. */
  readonly units: number;
}

/**
 * A two-generation cache: lookups hit the young generation, then the old one (promoting the entry); when the
 * young one is full (entries or key space) it becomes the old one and the previous old one is cleared and reused.
 * Close to LRU at the cost of one more probe, bounded to twice the limits, and allocating nothing after creation.
 */
export function createPieceCache(limits: PieceCacheLimits): PieceCache {
  let young = createGeneration(limits);
  let old = createGeneration(limits);
  const store = (piece: string, hash: number, count: number): void => {
    if (!young.fits(piece)) {
      const emptied = old;
      emptied.clear();
      old = young;
      young = emptied;
      if (!young.fits(piece)) return;
    }
    young.add(piece, hash, count);
  };
  /** The count remembered in either generation (one from the old one is promoted), or -1. */
  const lookup = (hash: number, text: string, start: number, end: number): number => {
    const hit = young.get(hash, text, start, end);
    if (hit !== -1) return hit;
    const aged = old.get(hash, text, start, end);
    if (aged !== -1) store(text.slice(start, end), hash, aged);
    return aged;
  };
  return {
    get(text, start, end) {
      const found = lookup(hashString(text, start, end), text, start, end);
      return found === -1 ? undefined : found;
    },
    countOf(text, start, end, count) {
      const hash = hashString(text, start, end);
      const found = lookup(hash, text, start, end);
      if (found !== -1) return found;
      const piece = text.slice(start, end);
      const n = count(piece);
      store(piece, hash, n);
      return n;
    },
  };
}

/** One generation of a piece cache; `hash` is always `hashString` of the piece. */
interface Generation {
  /** The count of `text.slice(start, end)`, or -1. */
  get(hash: number, text: string, start: number, end: number): number;
  /** True when `piece` can be added without passing the limits. */
  fits(piece: string): boolean;
  add(piece: string, hash: number, count: number): void;
  clear(): void;
}

function createGeneration(limits: PieceCacheLimits): Generation {
  const units = new Uint16Array(limits.units);
  const starts = new Int32Array(limits.entries + 1);
  const counts = new Int32Array(limits.entries);
  const slots = new Int32Array(tableCapacity(limits.entries));
  const mask = slots.length - 1;
  let size = 0;
  /** The slot of `text[start..end)`: where it is, or the empty slot where it would go. */
  const find = (hash: number, text: string, start: number, end: number): number => {
    let slot = hash & mask;
    for (;;) {
      const entry = slots[slot]! - 1;
      if (entry < 0 || unitsEqual(units, starts[entry]!, starts[entry + 1]!, text, start, end)) return slot;
      slot = (slot + 1) & mask;
    }
  };
  return {
    get(hash, text, start, end) {
      const entry = slots[find(hash, text, start, end)]! - 1;
      return entry < 0 ? -1 : counts[entry]!;
    },
    fits(piece) {
      return size < limits.entries && starts[size]! + piece.length <= units.length;
    },
    add(piece, hash, count) {
      const slot = find(hash, piece, 0, piece.length);
      if (slots[slot]! !== 0) return;
      let at = starts[size]!;
      for (let i = 0; i < piece.length; i++) units[at++] = piece.charCodeAt(i);
      counts[size] = count;
      starts[size + 1] = at;
      slots[slot] = ++size;
    },
    clear() {
      slots.fill(0);
      size = 0;
    },
  };
}

/**
 * Decodes js-tiktoken's compressed ranks straight into one byte pool: token `t` is `pool[starts[t]..starts[t + 1])`
 * with rank `rankOf[t]`. The string is read in place, one character at a time, base64 decoded by hand: splitting it
 * and decoding each token into its own Buffer made some 200,000 small objects (over 15 MB) that outlived the young
 * generation, at the start of every run, when V8 sizes its heap; and a substring and a `Buffer.write` call per
 * token (100,000 of them) were most of the 80 ms that building the table cost each process and worker thread.
 */
function decodeRanks(source: string): { pool: Uint8Array; starts: Int32Array; rankOf: Int32Array; count: number } {
  let fields = 1;
  for (let i = source.indexOf(' '); i !== -1; i = source.indexOf(' ', i + 1)) fields++;
  const pool = new Uint8Array(Math.ceil((source.length * 3) / 4));
  const starts = new Int32Array(fields + 1);
  const rankOf = new Int32Array(fields);
  const decoder = { pool, at: 0 };
  let count = 0;
  for (let lineStart = 0; lineStart < source.length; ) {
    let lineEnd = source.indexOf('\n', lineStart);
    if (lineEnd === -1) lineEnd = source.length;
    // `prefix offset token token…`: lines with fewer than three fields hold no token.
    const first = source.indexOf(' ', lineStart);
    const second = first === -1 || first >= lineEnd ? -1 : source.indexOf(' ', first + 1);
    if (second !== -1 && second < lineEnd) {
      let rank = Number.parseInt(source.slice(first + 1, second), 10);
      for (let fieldStart = second + 1; ; ) {
        let fieldEnd = source.indexOf(' ', fieldStart);
        if (fieldEnd === -1 || fieldEnd > lineEnd) fieldEnd = lineEnd;
        starts[count] = decoder.at;
        rankOf[count++] = rank++;
        decodeBase64(source, fieldStart, fieldEnd, decoder);
        if (fieldEnd === lineEnd) break;
        fieldStart = fieldEnd + 1;
      }
    }
    lineStart = lineEnd + 1;
  }
  starts[count] = decoder.at;
  return { pool: pool.subarray(0, decoder.at), starts, rankOf, count };
}

/** Values of the base64 alphabet by character code (standard and URL-safe), -1 for any other character. */
const BASE64 = ((): Int8Array => {
  const values = new Int8Array(128).fill(-1);
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  for (let i = 0; i < alphabet.length; i++) values[alphabet.charCodeAt(i)] = i;
  values[45] = 62; // '-'
  values[95] = 63; // '_'
  return values;
})();

/**
 * Appends the bytes of the base64 text `source[start..end)` to `out.pool` at `out.at`, as `Buffer.write(…, 'base64')`
 * does: characters outside the alphabet (padding) are skipped, and a last group of two or three characters gives
 * one or two bytes.
 */
function decodeBase64(source: string, start: number, end: number, out: { pool: Uint8Array; at: number }): void {
  const { pool } = out;
  let at = out.at;
  let bits = 0;
  let held = 0;
  for (let i = start; i < end; i++) {
    const code = source.charCodeAt(i);
    const value = code < 128 ? (BASE64[code] as number) : -1;
    if (value < 0) continue;
    bits = (bits << 6) | value;
    held += 6;
    if (held >= 8) {
      held -= 8;
      pool[at++] = (bits >> held) & 0xff;
    }
  }
  out.at = at;
}

/** A power of two at least twice `count`: probes stay short at a load factor of one half. */
function tableCapacity(count: number): number {
  let capacity = 16;
  while (capacity < 2 * count) capacity *= 2;
  return capacity;
}

function hashBytes(bytes: Uint8Array, start: number, end: number): number {
  let h = FNV_OFFSET;
  for (let i = start; i < end; i++) h = Math.imul(h ^ bytes[i]!, FNV_PRIME);
  return h >>> 0;
}

function hashString(text: string, start: number, end: number): number {
  let h = FNV_OFFSET;
  for (let i = start; i < end; i++) h = Math.imul(h ^ text.charCodeAt(i), FNV_PRIME);
  return h >>> 0;
}

function bytesEqual(a: Uint8Array, aStart: number, aEnd: number, b: Uint8Array, bStart: number, bEnd: number): boolean {
  if (aEnd - aStart !== bEnd - bStart) return false;
  for (let i = 0; i < aEnd - aStart; i++) if (a[aStart + i] !== b[bStart + i]) return false;
  return true;
}

function unitsEqual(units: Uint16Array, start: number, end: number, text: string, textStart: number, textEnd: number): boolean {
  if (end - start !== textEnd - textStart) return false;
  for (let i = 0; i < end - start; i++) if (units[start + i] !== text.charCodeAt(textStart + i)) return false;
  return true;
}
