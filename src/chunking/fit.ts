/**
 * The fit search every cut runs to pick where a run of spans ends: take consecutive spans (the spans of a block at
 * some level, or the words of a window) while an estimate of their size stays within the budget's `desired`,
 * measure the run once exactly, and give back spans from its tail in the rare case the estimate was short of
 * `max`. The cutting engine (`pack.ts`), and through it the table, list, code and text cuts and the TextSplitter,
 * and the word windows of the simpler strategies all run this one search, on one cached measure.
 *
 * Estimates come in two forms. Where every span has been measured once already (the spans of a cut), a run grows
 * one span at a time by adding those sizes (`one-by-one`). Where measuring every span would cost more than the
 * search (the words of a window), a run grows by doubling the spans it takes and then narrowing between the last
 * step that fitted and the first that did not, measuring only the spans added (`doubling`).
 */
import type { Sizer } from '../protocols.js';
import type { Budget } from './budget.js';

/** How a run grows before it is measured whole. */
export type Grow =
  /** One span at a time: `added(k, k)` is span `k`'s own estimate (with the gap before it, past the first). */
  | { readonly kind: 'one-by-one' }
  /**
   * By doubling from `guess` spans, then narrowing by the measured rate and by halves: `added(a, b)` measures spans
   * `a..b` joined at the end of the run, and is the only call made while growing.
   */
  | { readonly kind: 'doubling'; readonly guess: number };

/** One fit search: a run starting at span `first` that fits its budget. */
export interface RunSearch {
  readonly first: number;
  /** The last span known. */
  readonly last: number;
  /**
   * True when no span after `last` will come: otherwise a run that would need one is not decided (`need`), so that
   * the result never depends on how much of a stream has arrived.
   */
  readonly final: boolean;
  /** Estimated size of spans `from..to` joined at the end of a run that ends at `from - 1` (alone when `from` is `first`). */
  added(from: number, to: number): number;
  /** Exact size of the run `first..to`, as it will be seen. */
  exact(to: number): number;
  /** The estimate is bound by `desired`, the exact size by `max`. */
  readonly budget: Budget;
  readonly grow: Grow;
  /** The size of span `first` alone, when known: a run of it alone is taken whatever it measures, and not measured. */
  readonly single?: number;
  /** The run may be empty (end at `first - 1`) when not even `first` fits; by default it always holds `first`. */
  readonly allowEmpty?: boolean;
  /**
   * Picks where a run that the next span does not fit ends, in `first..last` by the estimate, before it is
   * measured: a cut chosen by content (`content-cuts.ts`). By default the run ends at `last`.
   */
  choose?(first: number, last: number): number;
}

/** What a fit search found. */
export type RunFound =
  /**
   * The run is `first..last` (`first - 1` for an empty run); `size` is its exact size (`single` for a run of span
   * `first` alone, undefined for an empty run).
   */
  | { readonly last: number; readonly size: number | undefined }
  /** Spans up to `need` must be known before the run can be decided. */
  | { readonly last: null; readonly need: number };

/**
 * Runs a fit search: the longest run from `first` whose estimate stays within `budget.desired`, then, measured
 * exactly, shrunk to its longest prefix within `budget.max`. The run always holds `first`, so every search
 * advances, whatever the sizer returns.
 */
export function fitRun(search: RunSearch): RunFound {
  const grown = search.grow.kind === 'one-by-one' ? growOneByOne(search) : growByDoubling(search, search.grow.guess);
  if (grown.last === null) return grown;
  const { first, budget } = search;
  const lowest = search.allowEmpty === true ? first - 1 : first;
  let last = grown.last;
  if (search.choose !== undefined && last > first && last < search.last) last = Math.max(first, Math.min(last, search.choose(first, last)));
  // Each run is measured once, however often the shrinking asks; a lone span of known size not at all.
  const measured = new Map<number, number>();
  const exact = (to: number): number => {
    if (to === first && search.single !== undefined) return search.single;
    let n = measured.get(to);
    if (n === undefined) measured.set(to, (n = search.exact(to)));
    return n;
  };
  if (last < first) return { last, size: undefined };
  if (last > lowest && exact(last) > budget.max) last = longestFitting(lowest, last, (to) => to < first || exact(to) <= budget.max);
  return { last, size: last < first ? undefined : exact(last) };
}

/** `fitRun` over spans that are all known (`final: true`): always decided. */
export function fitKnown(search: RunSearch & { readonly final: true }): { readonly last: number; readonly size: number | undefined } {
  return fitRun(search) as { readonly last: number; readonly size: number | undefined };
}

/**
 * The largest `to` in `[first, last)` for which `fits(to)` holds, `first` when none does: `last - 1` is tried
 * first (an estimate is rarely short by more than a span), then the rest is bisected.
 */
export function longestFitting(first: number, last: number, fits: (to: number) => boolean): number {
  if (last - 1 <= first || fits(last - 1)) return Math.max(first, last - 1);
  let lo = first;
  let hi = last - 2;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (fits(mid)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * The smallest index in `[0, count)` for which `fits` holds, when it holds from some index on (sizes shrink as a
 * start moves forward); `count` when it never does.
 */
export function earliestFitting(count: number, fits: (index: number) => boolean): number {
  let lo = 0;
  let hi = count;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (fits(mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/**
 * The largest `n` in `[1, count]` for which `fits(n)` holds, given that `fits(1)` does: `n` doubles until it does
 * not fit (or reaches `count`), then the last step is bisected. For a run whose every length must be measured
 * whole (the grapheme clusters of one long word), it takes about twice the logarithm of the answer in measures.
 */
export function gallop(count: number, fits: (n: number) => boolean): number {
  let good = 1;
  let bad = 0;
  while (good < count) {
    const next = Math.min(good * 2, count);
    if (!fits(next)) {
      bad = next;
      break;
    }
    good = next;
  }
  while (bad > good + 1) {
    const mid = (good + bad) >> 1;
    if (fits(mid)) good = mid;
    else bad = mid;
  }
  return good;
}

/** Adds span estimates one at a time while the sum stays within `desired`. */
function growOneByOne(s: RunSearch): RunFound {
  let to = s.first;
  let estimate = s.added(s.first, s.first);
  for (;;) {
    if (to === s.last) {
      if (!s.final) return { last: null, need: to + 1 };
      return { last: to, size: undefined };
    }
    const grown = estimate + s.added(to + 1, to + 1);
    if (grown > s.budget.desired) return { last: to, size: undefined };
    estimate = grown;
    to++;
  }
}

/**
 * The next step of a doubling search: twice the last one, but no more than 90% of the spans that the room left
 * would hold at the rate measured so far, so that an additive sizer rarely overshoots and the narrowing stays short.
 */
function nextStep(step: number, spans: number, total: number, desired: number): number {
  const estimate = total > 0 ? Math.floor(((desired - total) * spans * 0.9) / total) : Number.POSITIVE_INFINITY;
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

/** Grows by doubling, measuring the spans added, then narrows between the last fit and the first miss. */
function growByDoubling(s: RunSearch, guess: number): RunFound {
  const { desired } = s.budget;
  let fit = s.first - 1;
  let total = 0;
  // Four fifths of the last run's length usually fit: the search then only grows by small steps.
  let step = Math.max(1, Math.floor(guess * 0.8));
  for (;;) {
    let hi = fit + step;
    if (hi > s.last) {
      if (!s.final) return { last: null, need: hi };
      hi = s.last;
    }
    const grown = s.added(fit + 1, hi);
    if (total + grown <= desired) {
      total += grown;
      fit = hi;
      if (fit === s.last) {
        if (!s.final) return { last: null, need: s.last + 1 };
        break;
      }
      step = nextStep(step, fit - s.first + 1, total, desired);
      continue;
    }
    // The end lies in (fit, hi): narrow it, alternating a guess from the rate and a halving (log bound).
    let rest = grown;
    let interpolate = true;
    while (hi - fit > 1) {
      const mid = splitPoint(fit, hi, interpolate && rest > 0 ? (desired - total) / rest : -1);
      const m = s.added(fit + 1, mid);
      if (total + m <= desired) {
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
  return { last: s.allowEmpty === true ? fit : Math.max(fit, s.first), size: undefined };
}

/**
 * The one cached measure of a chunking run: sizes of texts in the size unit, and of the whitespace between
 * spans, which repeats (`"\n\n"`, `"\n"`, `" "`) and is looked up rather than measured again.
 */
export interface Measure {
  /** Size of `text`. */
  size(text: string): number;
  /** Size of a gap of whitespace between spans (`''` is 0), from a bounded cache. */
  gap(text: string): number;
}

/** Most gaps remembered; past it the cache starts over. */
const GAP_CACHE = 1000;

/** Creates the measure of `sizer`. */
export function createMeasure(sizer: Sizer): Measure {
  const gaps = new Map<string, number>();
  // The gap measured last, looked at before the map: gaps between blocks are nearly all the same (`"\n\n"`), and
  // comparing two short strings costs less than hashing a new slice for the map (a block every three bytes asks
  // for several gaps a block).
  const last = { text: '', size: 0 };
  return {
    size: (text) => sizer.size(text),
    gap(text) {
      if (text === '') return 0;
      if (text === last.text) return last.size;
      let n = gaps.get(text);
      if (n === undefined) {
        n = sizer.size(text);
        if (gaps.size > GAP_CACHE) gaps.clear();
        gaps.set(text, n);
      }
      last.text = text;
      last.size = n;
      return n;
    },
  };
}
