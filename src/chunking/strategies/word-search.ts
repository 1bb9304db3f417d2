/**
 * Searches over word positions with few sizer calls. A window's end is found by doubling the number of words
 * taken, then narrowing the last step; each call measures only the words added (with the whitespace before them),
 * and the found window is measured once as a whole to confirm. For a sizer that is additive across whitespace
 * (characters, words, and tokens up to rare merges across a space) a 512-token window with its overlap costs
 * about three window lengths of measured text in all, where measuring every candidate window whole costs over ten.
 */

/** Word positions over one text: `starts[w]` and `ends[w]` are the offsets of word `w` in that text. */
export interface WordView {
  readonly text: string;
  readonly starts: readonly number[];
  readonly ends: readonly number[];
}

/** The result of a window search. */
export type WindowEnd =
  /** The window is words `first..last`, measuring `size` (its real size, from one call on its text). */
  | { readonly last: number; readonly size: number }
  /** Words up to `need` must be known before the window can be decided. */
  | { readonly last: null; readonly need: number };

/**
 * The next step of a doubling search: twice the last one, but no more than 90% of the words that the units left
 * would hold at the rate measured so far, so that an additive sizer rarely overshoots and the halving stays short.
 */
function nextStep(step: number, words: number, total: number, limit: number): number {
  const estimate = total > 0 ? Math.floor(((limit - total) * words * 0.9) / total) : Number.POSITIVE_INFINITY;
  return Math.max(1, Math.min(step * 2, estimate));
}

/**
 * A point strictly inside `(lo, hi)`: at `share` of the way (a guess from the rate, 5% short so that it usually
 * fits), or halfway when `share` is negative.
 */
function splitPoint(lo: number, hi: number, share: number): number {
  const at = share < 0 ? lo + ((hi - lo) >> 1) : lo + Math.floor((hi - lo) * Math.min(1, share) * 0.95);
  return Math.min(hi - 1, Math.max(lo + 1, at));
}

/** Text of words `a..b` of `view`, from the first word's start. */
export function wordSlice(view: WordView, a: number, b: number): string {
  return view.text.slice(view.starts[a] as number, view.ends[b] as number);
}

/**
 * Finds the end of the window of words starting at `first` that measures at most `limit`. Only words up to
 * `known` may be read; unless `final`, a search that would need word `known + 1` returns `{ need }` instead of a
 * window, so the result never depends on how much text happened to be available. Always takes at least one
 * word, so a caller always advances, whatever the sizer returns.
 *
 * `guess` (the previous window's word count) sets the first step.
 */
export function findWindowEnd(
  view: WordView,
  size: (text: string) => number,
  first: number,
  known: number,
  final: boolean,
  limit: number,
  guess: number,
): WindowEnd {
  // Words a..b with the whitespace before a, so that consecutive pieces concatenate to the window text.
  const piece = (a: number, b: number): number =>
    size(view.text.slice(a === first ? (view.starts[a] as number) : (view.ends[a - 1] as number), view.ends[b] as number));
  let fit = first - 1;
  let total = 0;
  // Four fifths of the last window's word count usually fit: the search then only grows by small steps.
  let step = Math.max(1, Math.floor(guess * 0.8));
  for (;;) {
    let hi = fit + step;
    if (hi > known) {
      if (!final) return { last: null, need: hi };
      hi = known;
    }
    const s = piece(fit + 1, hi);
    if (total + s <= limit) {
      total += s;
      fit = hi;
      if (fit === known) {
        if (!final) return { last: null, need: known + 1 };
        break;
      }
      step = nextStep(step, fit - first + 1, total, limit);
      continue;
    }
    // The end lies in (fit, hi): narrow it, alternating a guess from the rate and a halving (log bound).
    let rest = s;
    let interpolate = true;
    while (hi - fit > 1) {
      const mid = splitPoint(fit, hi, interpolate && rest > 0 ? (limit - total) / rest : -1);
      const m = piece(fit + 1, mid);
      if (total + m <= limit) {
        total += m;
        fit = mid;
        rest = Math.max(0, rest - m);
      } else {
        hi = mid;
        rest = m;
      }
      interpolate = !interpolate;
    }
    break;
  }
  let last = Math.max(fit, first);
  let whole = size(wordSlice(view, first, last));
  if (whole > limit && last > first) {
    // The sizer is not additive here: search again with whole-window measures.
    let lo = first;
    let hi = last;
    let loSize = size(wordSlice(view, first, first));
    while (hi - lo > 1) {
      const mid = lo + ((hi - lo) >> 1);
      const m = size(wordSlice(view, first, mid));
      if (m <= limit) {
        lo = mid;
        loSize = m;
      } else hi = mid;
    }
    last = lo;
    whole = loSize;
  }
  return { last, size: whole };
}

/**
 * The first word of the next window: the longest tail of words `first..last` measuring at most `overlap`, but
 * never before `first + 1`, so every window advances by a word. Like a window's end, the tail grows from the last
 * word by doubling, then halving, measuring only the words added (with the whitespace after them); the tail found
 * is measured once as a whole and, if the sizer is not additive there, shrunk with whole measures.
 */
export function findOverlapStart(
  view: WordView,
  size: (text: string) => number,
  first: number,
  last: number,
  overlap: number,
  guess: number,
): number {
  if (overlap <= 0 || last <= first) return last + 1;
  const floor = first + 1;
  // Words a..b with the whitespace before b + 1: pieces that concatenate, right to left, to the tail text.
  const piece = (a: number, b: number): number =>
    size(view.text.slice(view.starts[a] as number, b === last ? (view.ends[b] as number) : (view.starts[b + 1] as number)));
  let fit = last + 1;
  let total = 0;
  let step = Math.max(1, Math.floor(guess * 0.8));
  for (;;) {
    const lo = Math.max(floor, fit - step);
    const s = piece(lo, fit - 1);
    if (total + s <= overlap) {
      total += s;
      fit = lo;
      if (lo === floor) break;
      step = nextStep(step, last + 1 - fit, total, overlap);
      continue;
    }
    // The tail's start lies in (lo, fit): narrow it as for a window's end, from the right.
    let out = lo;
    let rest = s;
    let interpolate = true;
    while (fit - out > 1) {
      // Count words from `fit` leftwards: mirror the indices so that the same split rule applies.
      const mid = fit + out - splitPoint(out, fit, interpolate && rest > 0 ? (overlap - total) / rest : -1);
      const m = piece(mid, fit - 1);
      if (total + m <= overlap) {
        total += m;
        fit = mid;
        rest = Math.max(0, rest - m);
      } else {
        out = mid;
        rest = m;
      }
      interpolate = !interpolate;
    }
    break;
  }
  if (fit <= last && size(wordSlice(view, fit, last)) > overlap) {
    // Not additive here: shrink with whole measures; an empty tail (last + 1) always fits.
    let lo = fit;
    let hi = last + 1;
    while (hi - lo > 1) {
      const mid = lo + ((hi - lo) >> 1);
      if (size(wordSlice(view, mid, last)) <= overlap) hi = mid;
      else lo = mid;
    }
    fit = hi;
  }
  return fit;
}
