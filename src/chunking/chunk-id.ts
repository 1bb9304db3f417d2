/**
 * Stable chunk ids: `${documentId}#${digest}`, where the digest is the first 16 hex digits of the sha-256 of what
 * the embedder sees (`embedText`, or prefix + text + suffix), and a repeat of the same content in the same document
 * gets `-2`, `-3`, … in order. A chunk whose embedded content did not change keeps its id whatever was inserted or
 * deleted elsewhere, so a re-index embeds only the chunks that are new; `index` still gives the order.
 *
 * Counting repeats means remembering what was seen. Up to `EXACT_LIMIT` distinct contents per document are kept
 * exactly; past that a fixed-size Bloom filter (1 MiB) takes over, so memory stays bounded on any input. A false
 * positive of the filter gives a content seen for the first time a `-2` suffix: ids stay unique, and only that one
 * id depends on what came before it.
 */
import { hash } from 'node:crypto';

/** What an id is computed from: the fields that make up what the embedder sees. */
export interface ChunkContent {
  readonly text: string;
  readonly prefix?: string;
  readonly suffix?: string;
  readonly embedText?: string;
}

/** Hands out the ids of one document's chunks, in order. */
export interface ChunkIdSequence {
  /** The id of the next chunk of the document. */
  next(chunk: ChunkContent): string;
  /** The id `chunk` would get as the first of its content, without counting it: for chunks not numbered yet. */
  peek(chunk: ChunkContent): string;
}

/** Hex digits of the content digest kept in an id: 64 bits, so two different contents of a document never meet in practice. */
export const ID_DIGEST_LENGTH = 16;

/** Distinct contents per document counted exactly before the Bloom filter takes over. */
export const EXACT_LIMIT = 1 << 16;

const FILTER_BITS = 1 << 23;
const FILTER_PROBES = 4;

/** The text hashed last and its digest: see {@link hashText}. */
const last = { text: '', digest: hash('sha256', '', 'hex') };

/**
 * Hex sha-256 of a text: a chunk's `hash`, and the digest its id is made from. One-shot `crypto.hash` (Node 20.12 and
 * later) takes half the time of a `Hash` object per call. A chunk without prefix, suffix or embedded text is
 * hashed twice in a row with the same string (its id, then its `hash`): the last digest is kept for that, which
 * halves the hashing of most chunks (a string compared with itself is one pointer comparison).
 */
export function hashText(text: string): string {
  if (text === last.text) return last.digest;
  const digest = hash('sha256', text, 'hex');
  last.text = text;
  last.digest = digest;
  return digest;
}

/** What the embedder sees of a chunk, the text its id is derived from. */
export function embeddedContent(chunk: ChunkContent): string {
  return chunk.embedText ?? (chunk.prefix ?? '') + chunk.text + (chunk.suffix ?? '');
}

/** The id of a chunk whose embedded content has digest `digest` and is the `occurrence`-th (1-based) of that content. */
export function formatChunkId(documentId: string, digest: string, occurrence: number): string {
  const base = `${documentId}#${digest.slice(0, ID_DIGEST_LENGTH)}`;
  return occurrence <= 1 ? base : `${base}-${occurrence}`;
}

/** Creates the id sequence of one document; `exactLimit` (tests lower it) is where the Bloom filter takes over. */
export function createChunkIdSequence(documentId: string, exactLimit = EXACT_LIMIT): ChunkIdSequence {
  // Each count in a box of its own: a repeat is one lookup, not a lookup and a store (a heading per line repeats
  // one content chunk after chunk).
  const exact = new Map<string, { n: number }>();
  let filter: Uint32Array | undefined;
  let repeats: Map<string, number> | undefined;

  // The key of the digest looked up last: a content repeated chunk after chunk (a heading per line) gets the same
  // digest string from `hashText`, and its key, hashed once by the map, is not cut and hashed again.
  // Its id without a count (`formatChunkId`'s base) is kept with it, not joined again for every repeat.
  const lastKey = { digest: '', key: '', base: '' };
  const occurrenceOf = (digest: string): number => {
    if (digest !== lastKey.digest) {
      lastKey.digest = digest;
      lastKey.key = digest.slice(0, ID_DIGEST_LENGTH);
      lastKey.base = formatChunkId(documentId, digest, 1);
    }
    const key = lastKey.key;
    const known = exact.get(key);
    if (known !== undefined) return ++known.n;
    if (exact.size < exactLimit) {
      exact.set(key, { n: 1 });
      return 1;
    }
    filter ??= new Uint32Array(FILTER_BITS >>> 5);
    repeats ??= new Map();
    if (!testAndSet(filter, digest)) return 1;
    // Seen before, or a false positive: either way a number no earlier chunk of this content has.
    const n = (repeats.get(key) ?? 1) + 1;
    repeats.set(key, n);
    return n;
  };

  return {
    next(chunk: ChunkContent): string {
      // `occurrenceOf` leaves `lastKey` at this digest: the id is its base, with the count after a first time.
      const occurrence = occurrenceOf(hashText(embeddedContent(chunk)));
      return occurrence <= 1 ? lastKey.base : `${lastKey.base}-${occurrence}`;
    },
    peek(chunk: ChunkContent): string {
      return formatChunkId(documentId, hashText(embeddedContent(chunk)), 1);
    },
  };
}

/** Sets the filter bits of `digest` and tells whether they were all set already. Probes use digest bits past the id's. */
function testAndSet(filter: Uint32Array, digest: string): boolean {
  let present = true;
  for (let k = 0; k < FILTER_PROBES; k++) {
    const from = ID_DIGEST_LENGTH + 8 * k;
    const bit = Number.parseInt(digest.slice(from, from + 8), 16) % FILTER_BITS;
    const word = bit >>> 5;
    const mask = 1 << (bit & 31);
    const bits = filter[word] as number;
    if ((bits & mask) === 0) {
      present = false;
      filter[word] = bits | mask;
    }
  }
  return present;
}

const sequences = new WeakMap<object, ChunkIdSequence>();

/**
 * The next id for a chunk of `owner`'s document, from a sequence kept per owner object: the strategies make one
 * owner per document and number its chunks in order, so each gets its own count of repeats.
 */
export function nextChunkId(owner: { readonly documentId: string }, chunk: ChunkContent): string {
  let sequence = sequences.get(owner);
  if (sequence === undefined) {
    sequence = createChunkIdSequence(owner.documentId);
    sequences.set(owner, sequence);
  }
  return sequence.next(chunk);
}
