/**
 * The models of Hugging Face tokenizers (BPE, WordPiece, Unigram, WordLevel), each counting the tokens of one
 * pre-token exactly as the Rust `tokenizers` library makes them: the same merge order and tie-breaks, the same
 * unknown-token and byte-fallback rules, the same lattice comparisons. A model only ever sees one pre-token at a
 * time (`Tokenizer::do_tokenize` runs it split by split), which is what lets the counter cache counts by
 * pre-token and add them.
 */
import { invalidOption } from '../../config.js';
import { createMinHeap } from './min-heap.js';
import { utf8Into } from './utf8-bytes.js';

/** Counts the tokens of one pre-token. */
export interface ModelCounter {
  /**
   * Tokens of `piece` (in the model's alphabet: for a byte-level model, the text before its bytes are mapped to
   * characters). `whole` is false when `piece` is a part of a pre-token cut where the model provably adds
   * (`BpeCounter.safeCut`): a BPE model that ignores merges for a word in its vocabulary does so only for whole
   * pre-tokens.
   */
  count(piece: string, whole?: boolean): number;
}

/** A BPE model's counter, with what the counter needs to cut one long pre-token into parts that add up. */
export interface BpeCounter extends ModelCounter {
  /**
   * True when no merge can join a symbol ending with `before` to one starting with `after` (code points, both
   * characters of the model's own vocabulary): then a pre-token cut between them counts as the sum of its parts.
   */
  safeCut(before: number, after: number): boolean;
}

type Json = Record<string, unknown>;

/** The counter of a `tokenizer.json` model; `byteLevel` when the pre-tokenizer maps bytes to characters. */
export function createModelCounter(model: Json, type: string, byteLevel: boolean): ModelCounter {
  switch (type) {
    case 'BPE':
      return createBpeCounter(model, byteLevel);
    case 'WordPiece':
      return createWordPieceCounter(model);
    case 'Unigram':
      return createUnigramCounter(model);
    case 'WordLevel':
      return { count: (piece) => (piece === '' ? 0 : 1) };
    default:
      throw invalidOption('tokenizer', 'has a model chunkstream does not count with', type);
  }
}

/** A vocabulary object (token → id) as a Map. */
function vocabMap(vocab: unknown): Map<string, number> {
  const map = new Map<string, number>();
  if (typeof vocab !== 'object' || vocab === null || Array.isArray(vocab)) throw invalidOption('tokenizer', 'has a vocabulary that is not an object of token ids', typeof vocab);
  for (const [token, id] of Object.entries(vocab)) {
    if (typeof id !== 'number' || !Number.isInteger(id) || id < 0) throw invalidOption('tokenizer', `has a vocabulary entry ${JSON.stringify(token)} whose id is not an integer >= 0`, id);
    map.set(token, id);
  }
  return map;
}

function optionalString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

// ---------------------------------------------------------------------------------------------------------------
// BPE

/** The byte-level alphabet: each byte's character (GPT-2's `bytes_to_unicode`). */
export const BYTE_CHARS: readonly string[] = (() => {
  const chars: string[] = new Array(256);
  let extra = 0;
  for (let b = 0; b < 256; b++) {
    const printable = (b >= 0x21 && b <= 0x7e) || (b >= 0xa1 && b <= 0xac) || (b >= 0xae && b <= 0xff);
    chars[b] = String.fromCharCode(printable ? b : 256 + extra++);
  }
  return chars;
})();

/** Ids are packed two to a number in merge keys: they must stay below this. */
const ID_LIMIT = 0x400000;

interface BpeTables {
  readonly vocab: Map<string, number>;
  /** (left id * ID_LIMIT + right id) → rank * ID_LIMIT + new id. */
  readonly merges: Map<number, number>;
  readonly unk: string | undefined;
  readonly prefix: string | undefined;
  readonly suffix: string | undefined;
  readonly fuseUnk: boolean;
  readonly byteFallback: boolean;
  readonly ignoreMerges: boolean;
  /** (last code point of a left token * 0x110000 + first code point of a right token) of every merge. */
  readonly joins: Set<number>;
}

/** The two tokens of a merge, in either format (`["a", "b"]`, or the older `"a b"`). */
function mergePair(merge: unknown, rank: number): [string, string] {
  if (Array.isArray(merge) && merge.length === 2 && typeof merge[0] === 'string' && typeof merge[1] === 'string') return [merge[0], merge[1]];
  if (typeof merge === 'string') {
    const parts = merge.split(' ');
    if (parts.length === 2) return [parts[0]!, parts[1]!];
  }
  throw invalidOption('tokenizer', `has merge ${rank} that is not a pair of tokens`, merge);
}

function bpeTables(model: Json): BpeTables {
  const vocab = vocabMap(model.vocab);
  const merges = new Map<number, number>();
  const joins = new Set<number>();
  const prefix = optionalString(model.continuing_subword_prefix);
  const list = model.merges as unknown[];
  list.forEach((merge, rank) => {
    const [a, b] = mergePair(merge, rank);
    const aId = vocab.get(a);
    const bId = vocab.get(b);
    const joined = a + (prefix !== undefined && b.startsWith(prefix) ? b.slice(prefix.length) : b);
    const newId = vocab.get(joined);
    if (aId === undefined || bId === undefined || newId === undefined) {
      throw invalidOption('tokenizer', `has merge ${rank} (${JSON.stringify(a)} ${JSON.stringify(b)}) of a token that is not in its vocabulary`, joined);
    }
    if (aId >= ID_LIMIT || bId >= ID_LIMIT || newId >= ID_LIMIT) throw invalidOption('tokenizer', `has token ids of ${ID_LIMIT} or more`, Math.max(aId, bId, newId));
    // A pair listed twice keeps its last rank, as the Rust library's map does.
    merges.set(aId * ID_LIMIT + bId, rank * ID_LIMIT + newId);
    if (a !== '' && b !== '') joins.add(a.codePointAt(a.length - 1 - (isLowSurrogateAt(a, a.length - 1) ? 1 : 0))! * 0x110000 + b.codePointAt(0)!);
  });
  return {
    vocab,
    merges,
    unk: optionalString(model.unk_token),
    prefix,
    suffix: optionalString(model.end_of_word_suffix),
    fuseUnk: model.fuse_unk === true,
    byteFallback: model.byte_fallback === true,
    ignoreMerges: model.ignore_merges === true,
    joins,
  };
}

function isLowSurrogateAt(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  return c >= 0xdc00 && c <= 0xdfff && i > 0 && text.charCodeAt(i - 1) >= 0xd800 && text.charCodeAt(i - 1) <= 0xdbff;
}

/** The symbols of a word before merging: ids and UTF-8 lengths (`Word::add`), kept between calls. */
interface Symbols {
  ids: Int32Array;
  lens: Int32Array;
  n: number;
}

function pushSymbol(s: Symbols, id: number, len: number): void {
  if (s.n === s.ids.length) {
    const ids = new Int32Array(s.ids.length * 2);
    const lens = new Int32Array(s.ids.length * 2);
    ids.set(s.ids);
    lens.set(s.lens);
    s.ids = ids;
    s.lens = lens;
  }
  s.ids[s.n] = id;
  s.lens[s.n++] = len;
}

/** What a BPE counter keeps between calls: the model's tables, the ids it looks up often, and its buffers. */
interface BpeState {
  readonly t: BpeTables;
  readonly byteLevel: boolean;
  /** The symbols of the word being counted, kept between calls. */
  readonly symbols: Symbols;
  readonly unkId: number | undefined;
  /** The ids of the 256 byte characters (byte-level), and of the `<0xNN>` byte-fallback tokens; -1 when absent. */
  readonly byteIds: readonly number[];
  readonly fallbackIds: readonly number[];
  /** Byte-level with every byte in the vocabulary and no prefix or suffix: a byte is its own symbol. */
  readonly fastBytes: boolean;
  readonly merging: ReturnType<typeof createMerging>;
  /** The UTF-8 bytes of the piece being counted (byte-level), grown as needed. */
  bytes: Uint8Array;
  /** Answers of `safeCut`, asked for the same few pairs of characters over and over. */
  readonly cuts: Map<number, boolean>;
}

/** A BPE model's counter (`BPE::tokenize`). */
export function createBpeCounter(model: Json, byteLevel: boolean): BpeCounter {
  const t = bpeTables(model);
  const byteIds = BYTE_CHARS.map((c) => t.vocab.get(c) ?? -1);
  const state: BpeState = {
    t,
    byteLevel,
    symbols: { ids: new Int32Array(64), lens: new Int32Array(64), n: 0 },
    unkId: t.unk === undefined ? undefined : t.vocab.get(t.unk),
    byteIds,
    fallbackIds: Array.from({ length: 256 }, (_, b) => t.vocab.get(`<0x${b.toString(16).toUpperCase().padStart(2, '0')}>`) ?? -1),
    fastBytes: byteLevel && t.prefix === undefined && t.suffix === undefined && byteIds.every((id) => id >= 0),
    merging: createMerging(t),
    bytes: new Uint8Array(256),
    cuts: new Map(),
  };
  return {
    count: (piece, whole = true) => countBpe(state, piece, whole),
    safeCut: (before, after) => safeBpeCut(state, before, after),
  };
}

/** The tokens of `piece`; `whole` when it is a whole pre-token (a model that ignores merges counts one for a word it knows). */
function countBpe(state: BpeState, piece: string, whole: boolean): number {
  if (piece === '') return 0;
  const { t, symbols } = state;
  if (state.byteLevel) {
    if (state.bytes.length < 3 * piece.length) state.bytes = new Uint8Array(3 * piece.length);
    const bytes = state.bytes;
    const n = utf8Into(piece, bytes);
    if (t.ignoreMerges && whole && t.vocab.has(byteString(bytes, n))) return 1;
    if (state.fastBytes) {
      symbols.n = 0;
      for (let i = 0; i < n; i++) pushSymbol(symbols, state.byteIds[bytes[i]!]!, 1);
    } else {
      const chars = Array.from(bytes.subarray(0, n), (b) => BYTE_CHARS[b]!);
      symbolsOf(state, chars, chars.map(() => 1));
    }
    return state.merging.count(symbols);
  }
  if (t.ignoreMerges && whole && t.vocab.has(piece)) return 1;
  const chars = Array.from(piece);
  symbolsOf(
    state,
    chars,
    chars.map((c) => Buffer.byteLength(c, 'utf8')),
  );
  return state.merging.count(symbols);
}

/** `BPE::merge_word`'s symbols for the characters of `chars` (each one character of the model's alphabet), into `state.symbols`. */
function symbolsOf(state: BpeState, chars: string[], byteLens: number[]): void {
  const { t, symbols, unkId } = state;
  // The pending unknown token (`unk` in merge_word): its id and its UTF-8 length, -1 when none.
  let unkPending = -1;
  let unkLen = 0;
  symbols.n = 0;
  for (let k = 0; k < chars.length; k++) {
    let s = chars[k]!;
    if (k > 0 && t.prefix !== undefined) s = t.prefix + s;
    if (k === chars.length - 1 && t.suffix !== undefined) s += t.suffix;
    const id = t.vocab.get(s);
    if (id !== undefined) {
      if (unkPending >= 0) pushSymbol(symbols, unkPending, unkLen);
      unkPending = -1;
      pushSymbol(symbols, id, byteLens[k]!);
      continue;
    }
    // The pending unknown token stays pending across bytes of the fallback, as in merge_word.
    if (t.byteFallback && pushFallbackBytes(state, s)) continue;
    if (unkId === undefined) {
      // No unknown token: merge_word drops the character (an unknown token named but not in the vocabulary
      // fails the Rust encoding; it counts one token here).
      if (t.unk !== undefined) pushSymbol(symbols, -1, byteLens[k]!);
      continue;
    }
    if (unkPending >= 0 && t.fuseUnk) {
      unkLen += byteLens[k]!;
      continue;
    }
    if (unkPending >= 0) pushSymbol(symbols, unkPending, unkLen);
    unkPending = unkId;
    unkLen = byteLens[k]!;
  }
  if (unkPending >= 0) pushSymbol(symbols, unkPending, unkLen);
}

/** Pushes the byte-fallback tokens of `s`'s UTF-8 bytes when the vocabulary has each; false (nothing pushed) when not. */
function pushFallbackBytes(state: BpeState, s: string): boolean {
  const ids = Array.from(Buffer.from(s, 'utf8'), (b) => state.fallbackIds[b]!);
  if (!ids.every((b) => b >= 0)) return false;
  for (const b of ids) pushSymbol(state.symbols, b, 1);
  return true;
}

/** `BpeCounter.safeCut`, remembered for the first 65,536 pairs asked. */
function safeBpeCut(state: BpeState, before: number, after: number): boolean {
  const { t, cuts } = state;
  const key = before * 0x110000 + after;
  let safe = cuts.get(key);
  if (safe === undefined) {
    const inVocab = t.vocab.has(String.fromCodePoint(before)) && t.vocab.has(String.fromCodePoint(after));
    safe = t.prefix === undefined && t.suffix === undefined && inVocab && !t.joins.has(key);
    if (cuts.size < 0x10000) cuts.set(key, safe);
  }
  return safe;
}

function byteString(bytes: Uint8Array, n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += BYTE_CHARS[bytes[i]!];
  return s;
}

/** `Word::merge_all`: merges pairs lowest rank first, leftmost among equals, with the same checks. */
function createMerging(t: BpeTables): { count(symbols: Symbols): number } {
  let work = { c: new Int32Array(64), prev: new Int32Array(64), next: new Int32Array(64), len: new Int32Array(64) };
  const pairOf = (a: number, b: number): number | undefined => (a < 0 || b < 0 ? undefined : t.merges.get(a * ID_LIMIT + b));
  return {
    count(s) {
      const n = s.n;
      if (n <= 1) return n;
      if (work.c.length < n) work = { c: new Int32Array(2 * n), prev: new Int32Array(2 * n), next: new Int32Array(2 * n), len: new Int32Array(2 * n) };
      const { c, prev, next, len } = work;
      for (let i = 0; i < n; i++) {
        c[i] = s.ids[i]!;
        len[i] = s.lens[i]!;
        prev[i] = i - 1;
        next[i] = i + 1 < n ? i + 1 : -1;
      }
      // Heap entries are rank * stride + position: the lowest rank first, then the leftmost (`Merge`'s order).
      const stride = n + 1;
      const heap = createMinHeap(n);
      for (let i = 0; i < n - 1; i++) {
        const m = pairOf(c[i]!, c[i + 1]!);
        if (m !== undefined) heap.push(Math.floor(m / ID_LIMIT) * stride + i);
      }
      let parts = n;
      while (heap.size() > 0) {
        const entry = heap.pop();
        const pos = entry % stride;
        const rank = (entry - pos) / stride;
        if (len[pos] === 0 || next[pos] === -1) continue;
        const right = next[pos]!;
        const current = pairOf(c[pos]!, c[right]!);
        const newId = newIdOfRank(t, rank);
        if (current === undefined || current % ID_LIMIT !== newId) continue;
        c[pos] = newId;
        len[pos] = len[pos]! + len[right]!;
        next[pos] = next[right]!;
        len[right] = 0;
        parts--;
        if (next[right]! > -1) prev[next[right]!] = pos;
        const p = prev[pos]!;
        if (p >= 0) {
          const m = pairOf(c[p]!, c[pos]!);
          if (m !== undefined) heap.push(Math.floor(m / ID_LIMIT) * stride + p);
        }
        const q = next[pos]!;
        if (q >= 0) {
          const m = pairOf(c[pos]!, c[q]!);
          if (m !== undefined) heap.push(Math.floor(m / ID_LIMIT) * stride + pos);
        }
      }
      return parts;
    },
  };
}

/** The id a merge of `rank` makes (looked up once per rank, then remembered). */
const newIdsOf = new WeakMap<BpeTables, Int32Array>();
function newIdOfRank(t: BpeTables, rank: number): number {
  let ids = newIdsOf.get(t);
  if (ids === undefined) {
    let most = 0;
    for (const v of t.merges.values()) most = Math.max(most, Math.floor(v / ID_LIMIT));
    ids = new Int32Array(most + 1).fill(-1);
    for (const v of t.merges.values()) ids[Math.floor(v / ID_LIMIT)] = v % ID_LIMIT;
    newIdsOf.set(t, ids);
  }
  return ids[rank]!;
}

// ---------------------------------------------------------------------------------------------------------------
// WordPiece

/** A WordPiece model's counter (`WordPiece::tokenize`): greedy longest match, `[UNK]` for a word it cannot cover. */
export function createWordPieceCounter(model: Json): ModelCounter {
  const vocab = new Set(vocabMap(model.vocab).keys());
  const prefix = optionalString(model.continuing_subword_prefix) ?? '##';
  const maxChars = typeof model.max_input_chars_per_word === 'number' ? model.max_input_chars_per_word : 100;
  return {
    count(word) {
      if (word === '') return 0;
      let chars = 0;
      for (let i = 0; i < word.length; i++) {
        const c = word.charCodeAt(i);
        if (!(c >= 0xdc00 && c <= 0xdfff && i > 0 && word.charCodeAt(i - 1) >= 0xd800 && word.charCodeAt(i - 1) <= 0xdbff)) chars++;
      }
      if (chars > maxChars) return 1;
      let tokens = 0;
      let start = 0;
      while (start < word.length) {
        let end = word.length;
        let found = false;
        while (start < end) {
          const sub = word.slice(start, end);
          if (vocab.has(start > 0 ? prefix + sub : sub)) {
            found = true;
            break;
          }
          // Back one code point, never into a surrogate pair.
          end -= end - 2 >= start && isLowSurrogateAt(word, end - 1) ? 2 : 1;
        }
        // A word with a part no piece covers is one unknown token, whatever its length.
        if (!found) return 1;
        tokens++;
        start = end;
      }
      return tokens;
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Unigram

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
/** Bits of each piece filter: 2 MB each, a few percent of false positives for 250,000 pieces. */
const FILTER_BITS = 1 << 24;

/**
 * Two bit sets over the FNV-1a hashes of the pieces' prefixes and of the pieces, in place of a trie: a prefix whose
 * bit is not set begins no piece (the walk stops), a string whose bit is not set is no piece (no look-up). A bit set
 * by another string only costs a look-up; the answers stay exact. Two megabytes each, where a set of the prefixes
 * of XLM-R's 250,000 pieces as strings would take tens.
 */
function createPieceFilters(pieces: Iterable<string>): { prefix(hash: number): boolean; piece(hash: number): boolean } {
  const prefixes = new Uint8Array(FILTER_BITS >>> 3);
  const whole = new Uint8Array(FILTER_BITS >>> 3);
  const mask = FILTER_BITS - 1;
  const set = (bits: Uint8Array, hash: number): void => {
    const bit = hash & mask;
    bits[bit >>> 3] = bits[bit >>> 3]! | (1 << (bit & 7));
  };
  const has = (bits: Uint8Array, hash: number): boolean => {
    const bit = hash & mask;
    return (bits[bit >>> 3]! & (1 << (bit & 7))) !== 0;
  };
  for (const piece of pieces) {
    let hash = FNV_OFFSET;
    for (let k = 0; k < piece.length; k++) {
      hash = Math.imul(hash ^ piece.charCodeAt(k), FNV_PRIME) >>> 0;
      set(prefixes, hash);
    }
    set(whole, hash);
  }
  return { prefix: (hash) => has(prefixes, hash), piece: (hash) => has(whole, hash) };
}

/** The penalty of an unknown character's node below the lowest score (`K_UNK_PENALTY`). */
const UNK_PENALTY = 10;

/** What a Unigram counter keeps: the pieces and their scores, and the lattice's arrays between calls. */
interface UnigramState {
  readonly ids: ReadonlyMap<string, number>;
  readonly scores: Float64Array;
  /** The longest piece, in UTF-16 units. */
  readonly longest: number;
  readonly unkId: number | undefined;
  readonly byteFallback: boolean;
  /** The score of an unknown character's node. */
  readonly unkScore: number;
  readonly filters: ReturnType<typeof createPieceFilters>;
  /** Whether the vocabulary has the byte-fallback token of each byte. */
  readonly byteIds: readonly boolean[];
  /** The lattice's arrays: the best score of a path to each offset, where its last piece starts, and that piece's id. */
  lattice: { best: Float64Array; from: Int32Array; idAt: Int32Array };
}

/** A Unigram model's counter (`Unigram::encode_optimized` and `tokenize`). */
export function createUnigramCounter(model: Json): ModelCounter {
  const { ids, scores, longest, minScore } = unigramVocab(model);
  const state: UnigramState = {
    ids,
    scores,
    longest,
    unkId: typeof model.unk_id === 'number' ? model.unk_id : undefined,
    byteFallback: model.byte_fallback === true,
    unkScore: minScore - UNK_PENALTY,
    filters: createPieceFilters(ids.keys()),
    byteIds: Array.from({ length: 256 }, (_, b) => ids.has(`<0x${b.toString(16).toUpperCase().padStart(2, '0')}>`)),
    lattice: { best: new Float64Array(64), from: new Int32Array(64), idAt: new Int32Array(64) },
  };
  return {
    count(sentence) {
      if (sentence.length === 0) return 0;
      fillLattice(state, sentence);
      return countBestPath(state, sentence);
    },
  };
}

/** A Unigram vocabulary read: each piece's id and score, the longest piece and the lowest score. */
function unigramVocab(model: Json): { ids: Map<string, number>; scores: Float64Array; longest: number; minScore: number } {
  const vocab = model.vocab as unknown[];
  const ids = new Map<string, number>();
  const scores = new Float64Array(vocab.length);
  let longest = 0;
  let minScore = Number.POSITIVE_INFINITY;
  vocab.forEach((entry, id) => {
    if (!Array.isArray(entry) || typeof entry[0] !== 'string' || typeof entry[1] !== 'number') throw invalidOption('tokenizer', `has Unigram vocabulary entry ${id} that is not [piece, score]`, entry);
    ids.set(entry[0], id);
    scores[id] = entry[1];
    longest = Math.max(longest, entry[0].length);
    minScore = Math.min(minScore, entry[1]);
  });
  return { ids, scores, longest, minScore };
}

/**
 * Fills the lattice forward (`encode_optimized`): for each offset, the best path to it. An offset no piece of one
 * character reaches gets an unknown character's node.
 */
function fillLattice(state: UnigramState, sentence: string): void {
  const n = sentence.length;
  if (state.lattice.best.length < n + 1) state.lattice = { best: new Float64Array(2 * n + 2), from: new Int32Array(2 * n + 2), idAt: new Int32Array(2 * n + 2) };
  const { best, from, idAt } = state.lattice;
  const { ids, scores, filters } = state;
  best.fill(0, 0, n + 1);
  from.fill(-1, 0, n + 1);
  for (let start = 0; start < n; ) {
    const till = best[start]!;
    const width = start + 1 < n && isLowSurrogateAt(sentence, start + 1) ? 2 : 1;
    let single = false;
    // Pieces starting here, shortest first (the trie's common-prefix order); the walk stops where no piece goes
    // on, and only what may be a piece is looked up.
    let hash = FNV_OFFSET;
    for (let end = start + 1; end <= Math.min(n, start + state.longest); end++) {
      hash = Math.imul(hash ^ sentence.charCodeAt(end - 1), FNV_PRIME) >>> 0;
      if (!filters.prefix(hash)) break;
      if (!filters.piece(hash)) continue;
      const id = ids.get(sentence.slice(start, end));
      if (id === undefined) continue;
      const candidate = scores[id]! + till;
      if (from[end] === -1 || candidate > best[end]!) {
        best[end] = candidate;
        from[end] = start;
        idAt[end] = id;
      }
      if (end - start === width) single = true;
    }
    if (!single) {
      const end = start + width;
      const candidate = state.unkScore + till;
      if (from[end] === -1 || candidate > best[end]!) {
        best[end] = candidate;
        from[end] = start;
        idAt[end] = state.unkId ?? -1;
      }
    }
    start += width;
  }
}

/** The tokens along the lattice's best path, back from the end; runs of unknown characters are one string (fuse_unk). */
function countBestPath(state: UnigramState, sentence: string): number {
  const { from, idAt } = state.lattice;
  const unkId = state.unkId;
  let tokens = 0;
  let unknownEnd = -1;
  for (let end = sentence.length; end > 0; ) {
    const start = from[end]!;
    const unknown = unkId !== undefined && idAt[end] === unkId;
    if (unknown) {
      if (unknownEnd === -1) unknownEnd = end;
    } else {
      if (unknownEnd !== -1) tokens += unknownTokens(state, sentence.slice(end, unknownEnd));
      unknownEnd = -1;
      tokens += 1;
    }
    end = start;
  }
  if (unknownEnd !== -1) tokens += unknownTokens(state, sentence.slice(0, unknownEnd));
  return tokens;
}

/** Tokens of one string of the best path (`tokenize`): itself, its bytes (each must be a piece), or one unknown token. */
function unknownTokens(state: UnigramState, piece: string): number {
  if (state.ids.has(piece)) return 1;
  if (!state.byteFallback) return 1;
  const bytes = Buffer.from(piece, 'utf8');
  return bytes.every((b) => state.byteIds[b]) ? bytes.length : 1;
}
