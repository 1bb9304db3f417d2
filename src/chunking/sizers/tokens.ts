/**
 * Token counts of the bundled OpenAI encodings (`cl100k_base`, `o200k_base`), with the ranks shipped inside
 * js-tiktoken: no network, ever.
 *
 * A count is the sum of the counts of the encoding's pre-tokens (the pieces its own `pat_str` cuts the text into),
 * because byte-pair merging never crosses a pre-token. Each pre-token is counted once and remembered in a bounded
 * cache, so real text, where the same words come back again and again, is counted several times faster than
 * `encode(text).length` and gives exactly the same total.
 *
 * Special-token strings such as `<|endoftext|>` are ordinary text here, as they are in a document: they are counted
 * like any other characters and never throw.
 *
 * One exception to exactness, on purpose: a pre-token longer than {@link MAX_PIECE_LENGTH} UTF-16 units (a run of
 * 10,000 `x`, a page of CJK without punctuation, a very long rule of dashes) is cut into pieces of at most that
 * length (never inside a surrogate pair), and its count is the sum of the counts of its pieces. The real encoder's
 * merge is quadratic in the length of one pre-token, so nobody can afford the exact
 * figure; the sum of pieces is close to it (a piece boundary can only split one token in two).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { TiktokenBPE } from 'js-tiktoken/lite';
import { invalidOption, type TokenEncoding } from '../../config.js';
import type { Sizer } from '../../protocols.js';
import { isSpaceCode } from '../../unicode/segment-windows.js';
import { cl100kPreTokenEnd } from './cl100k-pretokens.js';
import { createPieceCache, type PieceCache, type RankTable, rankArraysOf, rankTableOf } from './count-tables.js';
import { createMinHeap } from './min-heap.js';
import { type RankTableFile, ranksFingerprint, readRankTableFile } from './rank-table-file.js';
import { utf8Into } from './utf8-bytes.js';

/** Pre-tokens longer than this (UTF-16 units) are counted as the sum of pieces of at most this length. */
export const MAX_PIECE_LENGTH = 512;

/** Pre-tokens up to this length are remembered; longer ones are rare enough to count each time. */
const MAX_CACHED_LENGTH = 128;
/**
 * Pre-tokens per cache generation (the cache holds at most twice this many per encoding), and key space for
 * them. Node's API docs, 3.5 MB, have some 60,000 distinct pre-tokens; a generation of 50,000 counted them
 * 1.6 times faster than one of 4,000. Both generations take about 4 MB of typed arrays, outside V8's heap.
 */
const CACHE_GENERATION = { entries: 50_000, units: 50_000 * 12 };
/** The cache of long pieces (a repeated run gives the same piece again and again). */
const LONG_CACHE_GENERATION = { entries: 256, units: 256 * MAX_PIECE_LENGTH };

/** Counts one pre-token without the cache. */
type PieceCounter = (piece: string) => number;

interface LoadedEncoding {
  /** The end of the pre-token that starts at `at`, or -1 when none starts there. */
  readonly preTokenEnd: (text: string, at: number) => number;
  /** The encoding's pre-token pattern, global: where does the next pre-token start? */
  readonly pattern: RegExp;
  readonly countPiece: PieceCounter;
  readonly cache: PieceCache;
  readonly longCache: PieceCache;
  /** Counts of pre-tokens of one UTF-16 unit, by the unit (0: not counted yet). */
  readonly singles: Uint8Array;
  /** Where a count of a text that extends the last one counted starts again (cl100k_base only: see `resumePlace`). */
  readonly resume?: Resume;
}

/**
 * The last text counted to its end, a pre-token start in it from which a count of any longer text that begins
 * with it may go on, and the count of the pre-tokens before that place. The optimizer fuses a run of small chunks
 * one at a time, measuring each fused text whole: every text it measures extends the one before (a chunk of
 * one-letter paragraphs was counted some four times over).
 */
interface Resume {
  text: string;
  at: number;
  before: number;
}

/** Characters of lookahead kept between the resume place and the end of the text (see `resumePlace`). */
const RESUME_MARGIN = 8;

/**
 * The latest place in `text` from which counting `text + more` may resume, whatever `more` is: a pre-token that
 * ends before it was found by looking at characters of `text` only. cl100k_base's pattern looks past the end of a
 * match by at most three characters (`'ll`), except over a run of whitespace (`\s*[\r\n]+`, `\s+(?!\S)` try the
 * whole run and give back): so the place is before the whitespace that ends the text, and `RESUME_MARGIN`
 * characters before the end. o200k_base's letter classes overlap and give back over a run of letters of any
 * length, so it has no resume place.
 */
function resumePlace(text: string): number {
  let end = text.length;
  while (end > 0 && isSpaceCode(text.charCodeAt(end - 1))) end--;
  return Math.min(end, text.length - RESUME_MARGIN);
}

const loaded = new Map<TokenEncoding, LoadedEncoding>();

/** Names of the encodings loaded so far in this process (each is loaded once, on first use). */
export function loadedEncodings(): TokenEncoding[] {
  return [...loaded.keys()];
}

/** Exact token count of `text` (see the module comment for pre-tokens over {@link MAX_PIECE_LENGTH}). */
export function countTokens(text: string, encoding: TokenEncoding = 'cl100k_base'): number {
  return countTokensUpTo(text, Number.POSITIVE_INFINITY, encoding);
}

/**
 * The token count of `text` when it is at most `limit`; otherwise a count above `limit`, of the pre-tokens up to
 * where the count went past it (pre-tokens count apart, so the rest can only add to it).
 */
function countTokensUpTo(text: string, limit: number, encoding: TokenEncoding): number {
  const { preTokenEnd, pattern, cache, countPiece, longCache, singles, resume } = load(encoding);
  let total = 0;
  let at = 0;
  if (resume !== undefined) {
    // Read before the test, not in its branch: a branch first taken after V8 optimized this function throws the
    // optimized code away, and this function is compiled early and often.
    const { at: resumeAt, before } = resume;
    if (text.length > resume.text.length && resume.text.length > 0 && text.startsWith(resume.text)) {
      at = resumeAt;
      total = before;
    }
  }
  // The pre-token of this text a count of a longer one may resume at: the last that starts at or before `place`.
  const place = resume === undefined ? -1 : resumePlace(text);
  const next = { at, before: total };
  while (at < text.length && total <= limit) {
    // The encodings' patterns leave no character unmatched, so each pre-token starts where the last one ended.
    // The global search covers a gap all the same.
    let start = at;
    const end = preTokenEnd(text, at);
    if (end !== -1) {
      at = end;
    } else {
      pattern.lastIndex = at;
      const match = pattern.exec(text);
      if (match === null || match[0].length === 0) break;
      start = match.index;
      at = start + match[0].length;
    }
    if (start <= place) {
      next.at = start;
      next.before = total;
    }
    if (at - start === 1) {
      total += singleUnitCount(text.charCodeAt(start), singles, countPiece);
    } else if (at - start <= MAX_CACHED_LENGTH) {
      total += cache.countOf(text, start, at, countPiece);
    } else {
      total += countLongPiece(text.slice(start, at), limit - total, countPiece, longCache);
    }
  }
  if (resume !== undefined && at >= text.length) {
    resume.text = text;
    resume.at = next.at;
    resume.before = next.before;
  }
  return total;
}

/** A `Sizer` counting tokens of `encoding` (default `cl100k_base`). The encoding is loaded on the first `size` call. */
export function createTokenSizer(encoding: TokenEncoding = 'cl100k_base'): Sizer {
  checkEncoding(encoding);
  return { size: (text) => countTokens(text, encoding), sizeUpTo: (text, limit) => countTokensUpTo(text, limit, encoding) };
}

/** Pre-token ends by the encoding's pattern, sticky: a test at `at`, without allocating a match. */
function patternEnd(sticky: RegExp): (text: string, at: number) => number {
  return (text, at) => {
    sticky.lastIndex = at;
    return sticky.test(text) && sticky.lastIndex > at ? sticky.lastIndex : -1;
  };
}

/** cl100k_base's pre-token ends: the scanner's, the pattern's where a character above the BMP decides. */
function scannedOrMatched(matched: (text: string, at: number) => number): (text: string, at: number) => number {
  return (text, at) => {
    const end = cl100kPreTokenEnd(text, at);
    return end !== -1 ? end : matched(text, at);
  };
}

/**
 * Cuts an over-long pre-token into pieces of at most `MAX_PIECE_LENGTH` units, never inside a surrogate pair, and
 * counts them until the count passes `limit`: a run of tens of thousands of letters (CJK without punctuation) was
 * counted whole each time a splitter asked whether it fits.
 */
function countLongPiece(piece: string, limit: number, countPiece: PieceCounter, cache: PieceCache): number {
  let total = 0;
  let start = 0;
  while (start < piece.length && total <= limit) {
    let end = Math.min(start + MAX_PIECE_LENGTH, piece.length);
    if (end < piece.length && isLowSurrogate(piece.charCodeAt(end)) && isHighSurrogate(piece.charCodeAt(end - 1))) end--;
    total += cache.countOf(piece, start, end, countPiece);
    start = end;
  }
  return total;
}

/**
 * The count of a pre-token of one UTF-16 unit (at most three bytes, so at most three tokens), from a table by the
 * unit: a third of the pre-tokens of junk and a fifth of those of prose are one character, and a table lookup costs
 * a fraction of a cache probe. A lone surrogate is counted as the string it is, as any other pre-token.
 */
function singleUnitCount(unit: number, singles: Uint8Array, countPiece: PieceCounter): number {
  const known = singles[unit]!;
  if (known !== 0) return known;
  const n = countPiece(String.fromCharCode(unit));
  singles[unit] = n;
  return n;
}

function isHighSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}

function checkEncoding(encoding: unknown): asserts encoding is TokenEncoding {
  if (encoding !== 'cl100k_base' && encoding !== 'o200k_base') {
    throw invalidOption('encoding', "must be one of 'cl100k_base', 'o200k_base'", encoding);
  }
}

const requireRanks = createRequire(import.meta.url);

function load(encoding: TokenEncoding): LoadedEncoding {
  const found = loaded.get(encoding);
  if (found !== undefined) return found;
  checkEncoding(encoding);
  // A synchronous, lazy load: the ranks of an encoding nobody uses (o200k_base is 2 MB) are never read.
  const { pattern, arrays } = loadRanks(encoding);
  const sticky = new RegExp(pattern, 'uy');
  const enc: LoadedEncoding = {
    preTokenEnd: encoding === 'cl100k_base' ? scannedOrMatched(patternEnd(sticky)) : patternEnd(sticky),
    pattern: new RegExp(pattern, 'gu'),
    countPiece: createPieceCounter(rankTableOf(arrays)),
    cache: createPieceCache(CACHE_GENERATION),
    longCache: createPieceCache(LONG_CACHE_GENERATION),
    singles: new Uint8Array(0x10000),
    ...(encoding === 'cl100k_base' ? { resume: { text: '', at: 0, before: 0 } } : {}),
  };
  loaded.set(encoding, enc);
  return enc;
}

/**
 * The encoding's pre-token pattern and rank arrays: from the table prebuilt for exactly this ranks file when there
 * is one (`rank-table-file.ts`), else decoded from the ranks.
 */
function loadRanks(encoding: TokenEncoding): RankTableFile {
  const path = requireRanks.resolve(`js-tiktoken/ranks/${encoding}`);
  const source = readFileSync(path);
  const prebuilt = readRankTableFile(prebuiltRankTablePath(encoding), ranksFingerprint(source));
  if (prebuilt !== null) return prebuilt;
  const ranks = decodedRanks(path, source);
  return { pattern: ranks.pat_str, arrays: rankArraysOf(ranks) };
}

/** Where `scripts/build.mjs` writes the prebuilt table of `encoding`: beside this module, in `dist/`. */
export function prebuiltRankTablePath(encoding: TokenEncoding): string {
  return fileURLToPath(new URL(`./ranks/${encoding}.bin`, import.meta.url));
}

/**
 * The encoding's ranks as js-tiktoken ships them: one string of 1 MB (cl100k_base) or 2 MB (o200k_base), in a
 * CommonJS file that is nothing but `module.exports = {...}` with a JSON object. The file is read and its object
 * parsed, not `require`d: a required module stays reachable from the requiring module's `children` (the cache
 * entry aside), and with it the string, after the rank table has been built from it; a process that keeps it
 * pays for it several times over in the heap V8 sizes to it. Should a later version ship another format, the
 * file is required after all.
 */
function decodedRanks(path: string, source: Uint8Array): TiktokenBPE {
  const parsed = parseRanks(source);
  if (parsed !== null) return parsed;
  const ranks = requireRanks(path) as TiktokenBPE;
  delete requireRanks.cache[path];
  return ranks;
}

/** The ranks in a file of the shape `module.exports = {...};` with a JSON object, or null when it is not one. */
export function readRanksFile(path: string): TiktokenBPE | null {
  return parseRanks(readFileSync(path));
}

/** The ranks in the bytes of such a file, or null when they are not one. */
export function parseRanks(bytes: Uint8Array): TiktokenBPE | null {
  const source = new TextDecoder().decode(bytes);
  try {
    const ranks = JSON.parse(source.slice(source.indexOf('{'), source.lastIndexOf('}') + 1)) as Partial<TiktokenBPE>;
    if (typeof ranks.pat_str === 'string' && typeof ranks.bpe_ranks === 'string') return ranks as TiktokenBPE;
  } catch {
    // Not plain JSON.
  }
  return null;
}

/**
 * Counts one pre-token: merges the lowest-ranked adjacent pair first and the leftmost among equals, exactly as
 * js-tiktoken's `encode` does: a short piece by scanning its parts, a long one with a heap and a linked list (n log n
 * instead of js-tiktoken's quadratic rebuilding).
 */
function createPieceCounter(table: RankTable): PieceCounter {
  let bytes = new Uint8Array(4 * MAX_PIECE_LENGTH);
  return (piece) => {
    if (bytes.length < 3 * piece.length) bytes = new Uint8Array(3 * piece.length);
    return mergeCount(bytes, utf8Into(piece, bytes), table);
  };
}

/**
 * The working arrays of `mergeWithHeap`, kept between calls (those of `mergeScanned` are `scanned`): allocating
 * typed arrays for each piece was a large share of counting text whose pre-tokens are all new (junk, random bytes).
 */
let work = { next: new Int32Array(64), prev: new Int32Array(64), pairRank: new Float64Array(64) };
/** Up to this many bytes, the lowest pair is found by a scan over the parts rather than with a heap. */
const SCANNED_MERGE = 32;
/** The parts of a short piece (`mergeScanned`): their starts, and the rank of each merged with the next. */
const scanned = { starts: new Int32Array(SCANNED_MERGE + 1), ranks: new Float64Array(SCANNED_MERGE) };

/** Number of tokens byte-pair merging leaves of `bytes[0..n)`. */
function mergeCount(bytes: Uint8Array, n: number, table: RankTable): number {
  if (n <= 1) return n;
  if (table.rank(bytes, 0, n) >= 0) return 1;
  return n <= SCANNED_MERGE ? mergeScanned(bytes, n, table) : mergeWithHeap(bytes, n, table);
}

/**
 * Byte-pair merging of a short piece: each round scans the parts for the lowest rank, the leftmost among equals,
 * and closes the gap the merge leaves (a few dozen entries at most, in arrays that stay in the CPU's cache).
 */
function mergeScanned(bytes: Uint8Array, n: number, table: RankTable): number {
  const { starts, ranks } = scanned;
  for (let i = 0; i <= n; i++) starts[i] = i;
  for (let i = 0; i < n - 1; i++) ranks[i] = table.pairRank(bytes[i]!, bytes[i + 1]!);
  // Parts 0..parts-1 start at starts[k]; starts[parts] is n; ranks[k] ranks part k merged with part k + 1 (-1: none).
  let parts = n;
  for (;;) {
    let best = -1;
    let bestRank = Number.POSITIVE_INFINITY;
    for (let k = 0; k < parts - 1; k++) {
      const r = ranks[k]!;
      if (r >= 0 && r < bestRank) {
        bestRank = r;
        best = k;
      }
    }
    if (best < 0) return parts;
    parts--;
    for (let k = best + 1; k < parts; k++) {
      starts[k] = starts[k + 1]!;
      ranks[k] = ranks[k + 1]!;
    }
    starts[parts] = n;
    ranks[best] = best + 1 < parts ? table.rank(bytes, starts[best]!, starts[best + 2]!) : -1;
    if (best > 0) ranks[best - 1] = table.rank(bytes, starts[best - 1]!, starts[best + 1]!);
  }
}

/** Merges part `i` with the part after it and ranks the pairs that changed; returns the part after the merged one. */
function mergeAt(bytes: Uint8Array, n: number, table: RankTable, i: number, next: Int32Array, prev: Int32Array, pairRank: Float64Array): number {
  const j = next[i]!;
  const k = next[j]!;
  next[i] = k;
  if (k < n) prev[k] = i;
  pairRank[j] = -1;
  pairRank[i] = k < n ? table.rank(bytes, i, next[k]!) : -1;
  const p = prev[i]!;
  if (p >= 0) pairRank[p] = table.rank(bytes, p, k);
  return k;
}

/**
 * Byte-pair merging of a long piece with a heap (n log n instead of js-tiktoken's quadratic rebuilding). Heap
 * entries are rank * stride + part, so ties go to the leftmost part.
 */
function mergeWithHeap(bytes: Uint8Array, n: number, table: RankTable): number {
  if (work.next.length < n) work = { next: new Int32Array(2 * n), prev: new Int32Array(2 * n), pairRank: new Float64Array(2 * n) };
  // Parts are identified by their first byte; next[] links them; pairRank[i] is the rank of part i merged with
  // the part after it (-1: none).
  const { next, prev, pairRank } = work;
  for (let i = 0; i < n; i++) {
    next[i] = i + 1;
    prev[i] = i - 1;
  }
  for (let i = 0; i < n - 1; i++) pairRank[i] = table.pairRank(bytes[i]!, bytes[i + 1]!);
  pairRank[n - 1] = -1;
  const stride = n + 1;
  const heap = createMinHeap(n);
  for (let i = 0; i < n - 1; i++) if (pairRank[i]! >= 0) heap.push(pairRank[i]! * stride + i);
  let parts = n;
  while (heap.size() > 0) {
    const entry = heap.pop();
    const i = entry % stride;
    const r = (entry - i) / stride;
    // Stale: the pair starting at part i changed (a neighbour merged) or part i was absorbed.
    if (pairRank[i] !== r) continue;
    mergeAt(bytes, n, table, i, next, prev, pairRank);
    parts--;
    if (pairRank[i]! >= 0) heap.push(pairRank[i]! * stride + i);
    const p = prev[i]!;
    if (p >= 0 && pairRank[p]! >= 0) heap.push(pairRank[p]! * stride + p);
  }
  return parts;
}
