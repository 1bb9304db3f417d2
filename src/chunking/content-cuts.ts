/**
 * Cuts chosen by content: where a run of units (the pieces of a chunk, the rows or lines of a block, the sentences
 * of a paragraph) ends when the next unit does not fit.
 *
 * A greedy packer ends each run at the last unit that fits, so where a run ends depends on where it began: one
 * sentence inserted near the top of a long section moves every later cut of the section, and every chunk after
 * the edit must be embedded again. Here a run ends at the first place past `low` units whose value (the strength
 * of the boundary there, then a hash of the text that follows it) tops the value of every place within `window`
 * units before it, the places of the runs before this one included (`before`, `UnitRun.earliest`). That is a
 * property of the text around the place alone: two runs that began at different places end at the same place as
 * soon as they both pass it, and from there on every cut is the same as before the edit.
 *
 * How soon they do depends on how far apart such places are. A window narrower than the floor (the first form of
 * this search: both half a run) makes them dense: in a long run of equal boundaries (many small sections under
 * one heading) about every other place qualified, a run took the first past half its limit, and an edit shifted
 * which pair of entries went together down to the end of the section. A wide window (`CUT_WINDOW`) over a low
 * floor (`CUT_LOW`) makes qualifying places seldom closer than the floor, so a run that starts at one ends at the
 * next, and two runs that differ meet at the first place both reach.
 *
 * When no place qualifies before the run is full, the run ends at the place of highest value past `low` (which
 * still depends on the content more than on the start), the last of them where several have it: places of equal
 * value (the same strength and the same text after them: one-letter paragraphs, a word list or a page repeated
 * again and again) top no window, and the first past `low` made every run a fifth of its limit (a line of words
 * cut into 105-token chunks where 512 fit, paragraphs packed a fifth full and fused again by the optimizer).
 * Scanning keeps the places of the window in a monotonic queue, so one choice costs time linear in the places
 * scanned.
 */

/**
 * Share of a run's limit below which it is not ended early (but see `CutMode.early`): runs fill at least this
 * much. Low enough that a run can take one small entry or three where a stricter floor forced two
 * (`bench/edits.ts --every`: with 0.5, a section of small `###` entries was cut in pairs, and an edit shifted the
 * pairing to the section's end).
 */
export const CUT_LOW = 0.2;

/**
 * Share of a run's limit that a place must top the places of, before it, to end the run: wide enough that places
 * that do are seldom closer than `CUT_LOW`, so a run that starts at one ends at the next (measured with
 * `bench/edits.ts --every` on the corpus and Node's deprecations.md, 0.5 to 1 of the limit by steps).
 */
export const CUT_WINDOW = 0.8;

/** How a content-defined cut falls back when no place past `low` tops its window. */
export interface CutMode {
  /**
   * End at the last place below `low` that tops its window, if one does, before any place past `low` that does
   * not: a run shorter than the floor (which the optimizer fuses with a neighbour) rather than one that ends
   * where its start says. Where a strong boundary lies just short of the floor, a run that starts a little later
   * than before an edit would otherwise pass it and end at the best weak place after it.
   */
  readonly early?: boolean;
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
  /**
   * The first unit whose place may be looked back at, at or before `first` (default `first`): the places before
   * units `earliest..first - 1`, of the runs before this one, compete with the run's own places within the window.
   */
  readonly earliest?: number;
  /**
   * Reads the places before `first` into `into`, as the scan would through `added`, `valueBefore` and
   * `mayEndBefore` (see `readEarlierPlaces`): for a caller that keeps them at hand. A cut of one-letter paragraphs
   * looks back at some two hundred places, and read through those calls they were a tenth of the pass.
   */
  readEarlier?(from: number, into: PlaceList): void;
}

/**
 * The last unit of `run`, whose limit is `limit`, chosen by content (see the file comment): past `CUT_LOW` of the
 * limit, topping the places within `CUT_WINDOW` of it before; `run.last` when no place qualifies.
 *
 * The run's places are read from the run as the scan goes: the packer asks this once for every chunk, and the
 * run's units past the chosen place are never measured. A test holds it to a plain reference of the rule over
 * the same places (`test/support/content-cut-reference.ts`).
 */
export function contentDefinedLast(run: UnitRun, limit: number, mode: CutMode = {}): number {
  const scan = openScan();
  try {
    return scanRun(scan, run, CUT_LOW * limit, CUT_WINDOW * limit, mode.early === true);
  } finally {
    closeScan(scan);
  }
}

/** `contentDefinedLast` with its scan's arrays, `low` and `window` in the run's units, `early` as `CutMode.early`. */
function scanRun(scan: PlaceScan, run: UnitRun, low: number, window: number, early: boolean): number {
  const { first, last } = run;
  const mayEnd = run.mayEndBefore;
  // A run ends no earlier than `low` unless `early`, when places from its start on count.
  readEarlierPlaces(scan, run, (early ? 0 : low) - window);
  const { earlier } = scan;
  for (let b = earlier.count - 1; b >= 0; b--) enqueue(scan, earlier.positions[b] as number, earlier.values[b] as number);
  let best = -1;
  let bestValue = Number.NEGATIVE_INFINITY;
  // With `early`, the last place below `low` that tops its window: where the run ends when none past `low` does.
  let below = -1;
  let position = 0;
  for (let k = first; k <= last + 1; k++) {
    if (k > first) {
      position += run.added(k - 1);
      if (mayEnd !== undefined && !mayEnd(k)) continue;
    }
    const value = run.valueBefore(k);
    const { queue } = scan;
    while (queue.head < queue.tail && (queue.positions[queue.head] as number) < position - window) queue.head++;
    const tops = queue.head === queue.tail || value > (queue.values[queue.head] as number);
    if (k > first && position >= low) {
      if (tops) return k - 1;
      if (value >= bestValue) {
        best = k;
        bestValue = value;
      }
    } else if (k > first && early && tops) below = k;
    enqueue(scan, position, value);
  }
  if (below > 0) return below - 1;
  return best > 0 ? best - 1 : last;
}

/** Places as positions and values side by side, `count` of them in use. */
export interface PlaceList {
  positions: number[];
  values: number[];
  count: number;
}

/**
 * What a `contentDefinedLast` scan holds: the places before the run it read (nearest first), and the queue of the
 * places within the window (`head..tail - 1`), their values decreasing from the head.
 */
interface PlaceScan {
  readonly earlier: PlaceList;
  readonly queue: { positions: number[]; values: number[]; head: number; tail: number };
  busy: boolean;
}

function createScan(): PlaceScan {
  return { earlier: { positions: [], values: [], count: 0 }, queue: { positions: [], values: [], head: 0, tail: 0 }, busy: true };
}

/**
 * One scan's arrays, kept between scans: the packer scans some 400 places a chunk, and arrays grown anew each time
 * were a fifth of what a document of one-letter paragraphs allocates. A scan started inside another gets its own.
 */
const SCRATCH: PlaceScan = createScan();
/** Longest arrays `SCRATCH` keeps once a scan is over: a scan of more places lets them go. */
const SCRATCH_KEPT = 1 << 14;

function openScan(): PlaceScan {
  if (SCRATCH.busy) return createScan();
  SCRATCH.busy = true;
  SCRATCH.earlier.count = 0;
  SCRATCH.queue.head = 0;
  SCRATCH.queue.tail = 0;
  return SCRATCH;
}

function closeScan(scan: PlaceScan): void {
  scan.busy = false;
  for (const list of [scan.earlier, scan.queue]) {
    if (list.positions.length > SCRATCH_KEPT) {
      list.positions = [];
      list.values = [];
    }
  }
}

/** Adds a place to the scan: the places in the queue it tops can no longer top a window, and leave it. */
function enqueue(scan: PlaceScan, position: number, value: number): void {
  const { queue } = scan;
  while (queue.tail > queue.head && (queue.values[queue.tail - 1] as number) <= value) queue.tail--;
  queue.positions[queue.tail] = position;
  queue.values[queue.tail] = value;
  queue.tail++;
}

/**
 * Reads the eligible places before `run.first` at or after `from` (a negative position) into `scan.earlier`, nearest
 * first. A run ends no earlier than `low` (but see `CutMode.early`), and the places it competes with there lie
 * within `window` before it: places before `low - window` are out of every window that counts, and are not read
 * (each costs a hash of its text).
 */
function readEarlierPlaces(scan: PlaceScan, run: UnitRun, from: number): void {
  const { earlier } = scan;
  if (run.readEarlier !== undefined) {
    run.readEarlier(from, earlier);
    return;
  }
  let position = 0;
  for (let k = run.first - 1; k >= (run.earliest ?? run.first); k--) {
    position -= run.added(k);
    if (position < from) break;
    if (run.mayEndBefore === undefined || run.mayEndBefore(k)) {
      earlier.positions[earlier.count] = position;
      earlier.values[earlier.count] = run.valueBefore(k);
      earlier.count++;
    }
  }
}

/** A place's value from its strength (a small integer, stronger boundaries higher) and its hash. */
export function placeValue(strength: number, hash: number): number {
  return strength * 2 ** 32 + hash;
}
