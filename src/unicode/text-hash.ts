/**
 * A hash of the text at a place, for cuts chosen by content: the same text around a place gives the same hash
 * wherever the place lies in a document, so a cut chosen by it survives edits elsewhere.
 *
 * It reads the text, not the marks Markdown sets in it: spaces, controls, the backquote, the backslash and
 * `#*_~[]<>|-+` are skipped. `### \`fs.open()\`` in Markdown and `fs.open()` in the HTML built from it or in a PDF
 * hash alike, so the same document cut from any format ends its chunks at the same places, and a change of
 * emphasis or of a heading's marks does not move a cut. The list markers `-` and `+` are marks too (`*` already
 * was): Node's Markdown writes its lists with `*` and the HTML reader with `-`, and while they were read, the
 * place before a list hashed alike in the two for 25 of 2,214 lists; so do the dashes of a table's delimiter row,
 * which Markdown pads to the column's width. Other punctuation is read: a line of code that is only `}` must still
 * differ from one that is `});`, or the ties leave a chunk's end to where it began.
 */

/** How many characters from a place its hash reads, skipped ones not counted. */
export const HASHED_CHARACTERS = 48;

/**
 * How far from a place its hash looks for them: the hash of a place depends on no character at or past this
 * distance. A long run of skipped ones (indentation, a rule of `*`) costs no more than a few words.
 */
export const HASH_REACH = 4 * HASHED_CHARACTERS;

/** FNV-1a's 32-bit offset basis and prime. */
const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** Spaces, controls and the characters Markdown marks text with: a hash skips them. */
const SKIPPED = new Uint8Array(128);
for (let code = 0; code <= 0x20; code++) SKIPPED[code] = 1;
for (const mark of '#*_`~\\[]<>|-+') SKIPPED[mark.charCodeAt(0)] = 1;

/** True for the characters a hash reads. */
function isHashed(code: number): boolean {
  return code >= 128 || SKIPPED[code] === 0;
}

/**
 * FNV-1a of up to `HASHED_CHARACTERS` characters of `text` from `from` (see the file comment), looking no
 * further than `HASH_REACH` and not past `to`: an unsigned 32-bit integer.
 */
export function textHash(text: string, from = 0, to = text.length): number {
  let h = FNV_OFFSET;
  let hashed = 0;
  const end = Math.min(to, from + HASH_REACH);
  for (let i = from; i < end && hashed < HASHED_CHARACTERS; i++) {
    const code = text.charCodeAt(i);
    if (isHashed(code)) {
      h = Math.imul(h ^ code, FNV_PRIME);
      hashed++;
    }
  }
  return h >>> 0;
}

/** FNV-1a of every UTF-16 unit of `text[from..to)`, none skipped: a key for exact text, not a place's hash. */
export function exactTextHash(text: string, from: number, to: number): number {
  let h = FNV_OFFSET;
  for (let i = from; i < to; i++) h = Math.imul(h ^ text.charCodeAt(i), FNV_PRIME);
  return h >>> 0;
}

/** Hashes many places of one text: `hashAt(from)` is `textHash(text, from)`. */
export interface TextHasher {
  hashAt(from: number): number;
}

/**
 * Longest stretch of the text (UTF-16 units) a `TextHasher` keeps its characters of. A few times `HASH_REACH`, so
 * that it is read again seldom as the places move on; small enough to stay in cache.
 */
const HASHER_WINDOW = 16 * HASH_REACH;
/** Length of the first stretch a `TextHasher` reads (see `fillWindow`). */
const FIRST_STRETCH = 2 * HASH_REACH;
/**
 * Distance (UTF-16 units) within which places are near: a stretch of the text is read for a run of places near
 * each other (the places between words, a few units apart), and any other place is hashed alone, reading no more
 * than its hash does. Junk cut into runs of clusters has a place every hundred units or so, with a short word here
 * and there: a stretch read around each pair was read for a hash or two.
 */
const NEAR_PLACES = 16;
const NO_CODES = new Uint16Array(0);
const NO_COUNTS = new Int32Array(1);

/**
 * What a `TextHasher` keeps of `[base, end)`: the characters a hash reads, in order (`codes`), and for each offset
 * `i` of the stretch how many of them come before it (`before[i - base]`). The last hash is kept with the indexes
 * of its first character and of the one after its last (`memoFrom`, `memoTo`).
 */
interface HashWindow {
  base: number;
  end: number;
  codes: Uint16Array;
  before: Int32Array;
  memoFrom: number;
  memoTo: number;
  memoHash: number;
  /** The last place hashed, and whether it was near the one before it (`NEAR_PLACES`). */
  last: number;
  near: boolean;
}

/**
 * A hasher of the places of `text`, each hash the same as `textHash(text, from)` gives. The packer hashes every
 * place between words it scans, some three million in an 8 MB table, each reading up to `HASH_REACH` characters: in
 * a table, where a hash skips the bars and spaces, `textHash` stepped through some 85 characters a place and was a
 * third of the pass. Here the hashed characters of a stretch are picked out once, so a hash is one tight loop over
 * them, and a place with only skipped characters before the next (the bar of a cell, then its text) takes the hash
 * already made from the same characters.
 */
export function createTextHasher(text: string): TextHasher {
  const window: HashWindow = { base: 0, end: -1, codes: NO_CODES, before: NO_COUNTS, memoFrom: -1, memoTo: -1, memoHash: 0, last: Number.NEGATIVE_INFINITY, near: false };
  return {
    hashAt(from) {
      const reach = Math.min(text.length, from + HASH_REACH);
      // A stretch is read once two places in a row are near the one before.
      const near = Math.abs(from - window.last) <= NEAR_PLACES;
      const inRun = near && window.near;
      window.last = from;
      window.near = near;
      if (from < window.base || reach > window.end) {
        if (!inRun) return textHash(text, from);
        fillWindow(window, text, from, reach);
      }
      const first = window.before[from - window.base] as number;
      const after = Math.min(window.before[reach - window.base] as number, first + HASHED_CHARACTERS);
      if (first !== window.memoFrom || after !== window.memoTo) {
        window.memoHash = hashCodes(window.codes, first, after);
        window.memoFrom = first;
        window.memoTo = after;
      }
      return window.memoHash;
    },
  };
}

/**
 * Keeps in `window` the stretch of `text` that holds `[from, reach)`: from `from` on when the places move forward,
 * ending at `reach` when they move back (a run looking at the places before it).
 */
function fillWindow(window: HashWindow, text: string, from: number, reach: number): void {
  if (window.codes === NO_CODES) {
    const size = Math.min(HASHER_WINDOW, text.length);
    window.codes = new Uint16Array(size);
    window.before = new Int32Array(size + 1);
  }
  // The first stretch is short, and each that goes on from the last twice as long: a text of which a cut hashes a
  // few places only (its head, a run that fits whole, a few words among runs of clusters) is not read far past them.
  const size = Math.min(window.codes.length, from >= window.base && from <= window.end ? Math.max(FIRST_STRETCH, 2 * (window.end - window.base)) : FIRST_STRETCH);
  const base = from < window.base ? Math.max(0, reach - size) : from;
  const end = Math.min(text.length, base + size);
  let count = 0;
  for (let i = base; i < end; i++) {
    window.before[i - base] = count;
    const code = text.charCodeAt(i);
    if (isHashed(code)) window.codes[count++] = code;
  }
  window.before[end - base] = count;
  window.base = base;
  window.end = end;
  window.memoFrom = -1;
}

/** FNV-1a of `codes[from..to - 1]`, as `textHash` makes it. */
function hashCodes(codes: Uint16Array, from: number, to: number): number {
  let h = FNV_OFFSET;
  for (let i = from; i < to; i++) h = Math.imul(h ^ (codes[i] as number), FNV_PRIME);
  return h >>> 0;
}
