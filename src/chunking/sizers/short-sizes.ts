/**
 * Sizes of short texts already measured, remembered by their content for one sizer. A sentence cut at its words
 * measures every word with the whitespace before it (` the`, ` and`), and prose says the same words again and
 * again: a paragraph that is one long sentence spent a third of its cut slicing and counting words it had counted
 * before. A text is looked up in place (hashed and compared where it lies in the text being cut), so a word seen
 * before costs neither a string nor a count.
 */
import { sizeUpTo, type Sizer } from '../../protocols.js';
import { exactTextHash } from '../../unicode/text-hash.js';

/**
 * Longest text (UTF-16 units) remembered. V8 copies a slice this short, where a longer one points into the text it
 * was cut from: a remembered key never holds a block's text alive.
 */
export const SHORT_TEXT = 12;
/** Slots of one sizer's table (a power of two): enough for a document's common words, small enough for the cache. */
const SLOTS = 4096;

/** One sizer's table: each slot holds the last short text hashed to it and that text's exact size. */
interface ShortSizes {
  readonly keys: (string | undefined)[];
  /** A plain array, not a Float64Array: a size read from it stays a small integer, as the sizer returned it. */
  readonly sizes: number[];
}

const tables = new WeakMap<Sizer, ShortSizes>();

/** The table of `sizer`, made on first use and kept as long as the sizer lives. */
export function shortSizesOf(sizer: Sizer): ShortSizes {
  let table = tables.get(sizer);
  if (table === undefined) {
    table = { keys: new Array<string | undefined>(SLOTS).fill(undefined), sizes: new Array<number>(SLOTS).fill(0) };
    tables.set(sizer, table);
  }
  return table;
}

/**
 * `sizeUpTo(sizer, text.slice(from, to), limit)` for a text of at most `SHORT_TEXT` units, remembered: an exact
 * size (one within the limit it was measured against) answers any later limit, since past a limit any size over it
 * will do. A size over the limit is not kept.
 */
export function shortSizeUpTo(table: ShortSizes, sizer: Sizer, text: string, from: number, to: number, limit: number): number {
  const slot = exactTextHash(text, from, to) & (SLOTS - 1);
  const key = table.keys[slot];
  if (key !== undefined && sameText(key, text, from, to)) return table.sizes[slot] as number;
  const piece = text.slice(from, to);
  const size = sizeUpTo(sizer, piece, limit);
  if (size <= limit) {
    table.keys[slot] = piece;
    table.sizes[slot] = size;
  }
  return size;
}

/** True when `key` is `text.slice(from, to)`, compared in place. */
function sameText(key: string, text: string, from: number, to: number): boolean {
  if (key.length !== to - from) return false;
  for (let i = 0; i < key.length; i++) if (key.charCodeAt(i) !== text.charCodeAt(from + i)) return false;
  return true;
}
