/**
 * The rule `contentDefinedLast` runs, written plainly over places read through closures: the reference the tests
 * hold the packer's scan to (the scan reads a run's places as it goes and stops measuring past its choice, which
 * makes it fast and harder to read).
 */
import type { CutMode } from '../../src/chunking/content-cuts.js';

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
 * The place a run ends at, chosen by content (see `src/chunking/content-cuts.ts`): an index in `1..count - 1`, or -1 when no
 * eligible place lies at or past `low` (and, with `mode.early`, none before it tops its window).
 */
export function contentDefinedCut(places: CutPlaces, low: number, window = low, before: readonly EarlierPlace[] = [], mode: CutMode = {}): number {
  // Eligible places within the window before the current one, their values decreasing from the front. Places
  // before the run (`before`) are indices -1, -2, … with their own positions and values.
  const queue: number[] = [];
  // Each place's value is read once: the queue compares a place with later ones many times.
  const values: number[] = [];
  const placeValue = (k: number): number => (k < 0 ? (before[-k - 1] as EarlierPlace).value : (values[k] ??= places.value(k)));
  const positionOf = (k: number): number => (k < 0 ? (before[-k - 1] as EarlierPlace).position : places.position(k));
  for (let b = before.length - 1; b >= 0; b--) {
    const value = (before[b] as EarlierPlace).value;
    while (queue.length > 0 && placeValue(queue[queue.length - 1] as number) <= value) queue.pop();
    queue.push(-b - 1);
  }
  let head = 0;
  let best = -1;
  let bestValue = -Infinity;
  // With `early`, the last place below `low` that tops its window: where the run ends when none past `low` does.
  let below = -1;
  for (let k = 0; k < places.count; k++) {
    const position = places.position(k);
    if (k > 0 && !places.eligible(k)) continue;
    const value = placeValue(k);
    while (head < queue.length && positionOf(queue[head] as number) < position - window) head++;
    const tops = head === queue.length || value > placeValue(queue[head] as number);
    if (k > 0 && position >= low) {
      if (tops) return k;
      if (value >= bestValue) {
        best = k;
        bestValue = value;
      }
    } else if (k > 0 && mode.early === true && tops) below = k;
    while (queue.length > head && placeValue(queue[queue.length - 1] as number) <= value) queue.pop();
    queue.push(k);
  }
  return below > 0 ? below : best;
}

/** A place before a run: its position (negative, units before the run's start) and its value. */
export interface EarlierPlace {
  readonly position: number;
  readonly value: number;
}
