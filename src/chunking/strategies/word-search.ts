/**
 * Searches over word positions with few sizer calls: the fit search (`../fit.ts`) growing by doubling. A window's
 * end is found by doubling the number of words taken, then narrowing the last step; each call measures only the
 * words added (with the whitespace before them), and the found window is measured once as a whole to confirm. For
 * a sizer that is additive across whitespace (characters, words, and tokens up to rare merges across a space) a
 * 512-token window with its overlap costs about three window lengths of measured text in all, where measuring
 * every candidate window whole costs over ten.
 */
import { budget } from '../budget.js';
import { fitRun } from '../fit.js';

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
 * Finds the end of the window of words starting at `first` that measures at most `max`. Only words up to
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
  max: number,
  guess: number,
): WindowEnd {
  const found = fitRun({
    first,
    last: known,
    final,
    // Words a..b with the whitespace before a, so that consecutive runs concatenate to the window text.
    added: (a, b) => size(view.text.slice(a === first ? (view.starts[a] as number) : (view.ends[a - 1] as number), view.ends[b] as number)),
    exact: (to) => size(wordSlice(view, first, to)),
    budget: budget(max),
    grow: { kind: 'doubling', guess },
  });
  return found.last === null ? found : { last: found.last, size: found.size as number };
}

/**
 * The first word of the next window: the longest tail of words `first..last` measuring at most `overlap`, but
 * never before `first + 1`, so every window advances by a word. The tail is the same fit search as a window's
 * end, run from the last word leftwards: unit `j` of the search is word `last - j`, and a tail may be empty.
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
  const found = fitRun({
    first: 0,
    last: last - (first + 1),
    final: true,
    allowEmpty: true,
    // Words last-b..last-a with the whitespace after them: runs that concatenate, right to left, to the tail text.
    added: (a, b) => size(view.text.slice(view.starts[last - b] as number, a === 0 ? (view.ends[last] as number) : (view.starts[last - a + 1] as number))),
    exact: (to) => size(wordSlice(view, last - to, last)),
    budget: budget(overlap),
    grow: { kind: 'doubling', guess },
  });
  return last - (found.last as number);
}
