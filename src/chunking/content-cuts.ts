/**
 * Cuts chosen by content: where a run of units (the pieces of a chunk, the rows or lines of a block, the sentences
 * of a paragraph) ends when the next unit does not fit.
 *
 * A greedy packer ends each run at the last unit that fits, so where a run ends depends on where it began: one
 * sentence inserted near the top of a long section moves every later cut of the section, and every chunk after
 * the edit must be embedded again. Here a run ends at the first place past `low` units whose value (the strength
 * of the boundary there, then a hash of the text that follows it) tops the value of every place within `window`
 * units before it. That is a property of the text around the place alone, as long as the run began at least
 * `window` units before it, which `window <= low` ensures: two runs that began at different places end at the
 * same place as soon as they both pass it, and from there on every cut is the same as before the edit.
 *
 * When no place qualifies before the run is full, the run ends at the place of highest value past `low` (which
 * still depends on the content more than on the start). Scanning keeps the places of the window in a monotonic
 * queue, so one choice costs time linear in the places scanned.
 */

/** Share of a run's limit below which it is never ended early: runs fill at least this much. */
export const CUT_LOW = 0.5;

/** The places a run may end at, read lazily: index 0 is the run's start, `count - 1` the end of the greedy run. */
export interface CutPlaces {
  readonly count: number;
  /** Units of the run before place `k` (0 for the start); non-decreasing. */
  position(k: number): number;
  /** The place's value: higher is a better place to cut. */
  value(k: number): number;
  /** False where the run must not end (after a heading that would be left alone). */
  eligible(k: number): boolean;
}

/**
 * The place a run ends at, chosen by content (see the file comment): an index in `1..count - 1`, or -1 when no
 * eligible place lies at or past `low`.
 */
export function contentDefinedCut(places: CutPlaces, low: number, window = low): number {
  // Eligible places within the window before the current one, their values decreasing from the front.
  const queue: number[] = [];
  // Each place's value is read once: the queue compares a place with later ones many times.
  const values: number[] = [];
  const placeValue = (k: number): number => (values[k] ??= places.value(k));
  let head = 0;
  let best = -1;
  let bestValue = -Infinity;
  for (let k = 0; k < places.count; k++) {
    const position = places.position(k);
    if (k > 0 && !places.eligible(k)) continue;
    const value = placeValue(k);
    while (head < queue.length && places.position(queue[head] as number) < position - window) head++;
    if (k > 0 && position >= low) {
      if (head === queue.length || value > placeValue(queue[head] as number)) return k;
      if (value > bestValue) {
        best = k;
        bestValue = value;
      }
    }
    while (queue.length > head && placeValue(queue[queue.length - 1] as number) <= value) queue.pop();
    queue.push(k);
  }
  return best;
}

/** A run of units `first..last` that the unit after `last` does not fit, as the packing steps see it. */
export interface UnitRun {
  readonly first: number;
  readonly last: number;
  /** What unit `k` adds to the run's size: its own, and past `first` the gap before it too. */
  added(k: number): number;
  /**
   * The value of the place before unit `k` (`placeValue`), for `k` in `first..last + 1`: the run's start is a place
   * too, which later places must top.
   */
  valueBefore(k: number): number;
  /** False where the run must not end before unit `k`; by default it may end anywhere. */
  mayEndBefore?(k: number): boolean;
}

/** The last unit of `run`, chosen by content (see the file comment); `run.last` when no place past `low` qualifies. */
export function contentDefinedLast(run: UnitRun, low: number): number {
  const { first, last } = run;
  const positions = [0];
  for (let k = first; k <= last; k++) positions.push((positions[positions.length - 1] as number) + run.added(k));
  const mayEnd = run.mayEndBefore;
  const cut = contentDefinedCut(
    {
      count: last - first + 2,
      position: (i) => positions[i] as number,
      value: (i) => run.valueBefore(first + i),
      eligible: mayEnd === undefined ? () => true : (i) => mayEnd(first + i),
    },
    low,
  );
  return cut > 0 ? first + cut - 1 : last;
}

/** A place's value from its strength (a small integer, stronger boundaries higher) and its hash. */
export function placeValue(strength: number, hash: number): number {
  return strength * 2 ** 32 + hash;
}
