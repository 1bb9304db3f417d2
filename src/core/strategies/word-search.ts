/**
 * Searches over word positions with few sizer calls. A window's end is found by doubling the number of words
 * taken, then halving the last step; each call measures only the words added (with the whitespace before them),
 * and the found window is measured once as a whole to confirm. For a sizer that is additive across whitespace
 * (characters, words, and tokens up to rare merges across a space) this measures about 1.5 times the text of
 * a window, where one call per candidate window would measure it a dozen times.
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
  let step = Math.max(1, guess);
  let stepsTaken = 0;
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
      // After a first step sized by the last window, grow from small steps: the end is usually near.
      step = stepsTaken === 0 && guess > 1 ? Math.max(1, Math.ceil(guess / 16)) : step * 2;
      stepsTaken++;
      continue;
    }
    // The end lies in (fit, hi): halve.
    while (hi - fit > 1) {
      const mid = fit + ((hi - fit) >> 1);
      const m = piece(fit + 1, mid);
      if (total + m <= limit) {
        total += m;
        fit = mid;
      } else hi = mid;
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
 * The first word of the next window: the longest tail of words `first..last` measuring at most `overlap`, found
 * by doubling from the end and halving, but never before `first + 1`, so every window advances by a word.
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
  let fit = last + 1;
  let step = Math.max(1, guess);
  let firstStep = true;
  for (;;) {
    const cand = Math.max(floor, fit - step);
    if (size(wordSlice(view, cand, last)) <= overlap) {
      fit = cand;
      if (cand === floor) return fit;
      // As for windows: after a first step sized by the last tail, grow from small steps.
      step = firstStep && guess > 1 ? Math.max(1, Math.ceil(guess / 8)) : step * 2;
      firstStep = false;
      continue;
    }
    let lo = cand;
    while (fit - lo > 1) {
      const mid = lo + ((fit - lo) >> 1);
      if (size(wordSlice(view, mid, last)) <= overlap) fit = mid;
      else lo = mid;
    }
    return fit;
  }
}
