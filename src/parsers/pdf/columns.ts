/**
 * Reading order of a page. Columns are found from the x positions of the line fragments: a gutter is a vertical
 * strip that wide fragments on both sides leave empty over a shared height. Fragments that cross the gutter (a title,
 * a full-width figure caption) cut the page into bands; each band is read column by column, top to bottom, and a
 * column may itself hold a gutter (three-column layouts).
 */
import { shiftRun } from './runs.js';
import { pdfLine } from './shapes.js';
import type { PdfLine, TextRun } from './types.js';

/** Fewest fragments on each side of a gutter. */
const MIN_SIDE = 4;
/** Most fragments crossing a gutter, as a share of those beside it. */
const MAX_CROSSING = 0.6;
/** How deep gutters are searched inside columns (three columns need two levels). */
const MAX_DEPTH = 3;

/**
 * Orders the fragments of one page for reading and joins fragments that share a baseline inside one column into
 * one line (a table-like row keeps its `cells` count). Each returned line carries the `region` (column of a band)
 * it was read in, numbered in reading order from `firstRegion`.
 */
export function orderLines(fragments: readonly PdfLine[], firstRegion = 0): PdfLine[] {
  const runs = splitRuns(fragments, 0);
  const out: PdfLine[] = [];
  let region = firstRegion;
  for (const run of runs) {
    for (const line of mergeRows(run)) out.push(pdfLine({ ...line, region }));
    region++;
  }
  return out;
}

/** Splits fragments into runs read one after the other; each run is a single column. */
function splitRuns(fragments: readonly PdfLine[], depth: number): PdfLine[][] {
  if (fragments.length === 0) return [];
  const gutter = depth < MAX_DEPTH ? findGutter(fragments) : null;
  if (gutter === null) return [[...fragments]];
  const byTop = [...fragments].sort((a, b) => b.y - a.y || a.x - b.x);
  const runs: PdfLine[][] = [];
  // The band being read: lines left of the gutter, right of it, and across it.
  const band: Band = { left: [], right: [], spanning: [] };
  for (const f of byTop) {
    if (f.right <= gutter.start + 0.5) {
      if (band.spanning.length > 0) flushBand(band, runs, depth);
      band.left.push(f);
    } else if (f.x >= gutter.end - 0.5) {
      if (band.spanning.length > 0) flushBand(band, runs, depth);
      band.right.push(f);
    } else {
      if (band.left.length > 0 || band.right.length > 0) flushBand(band, runs, depth);
      band.spanning.push(f);
    }
  }
  flushBand(band, runs, depth);
  return runs;
}

/** A horizontal band of a page being split at a gutter: its lines on each side, and those across it. */
interface Band {
  left: PdfLine[];
  right: PdfLine[];
  spanning: PdfLine[];
}

/** Ends a band: its lines across the gutter as one run, then each side's runs (split again), and empties it. */
function flushBand(band: Band, runs: PdfLine[][], depth: number): void {
  if (band.spanning.length > 0) runs.push(band.spanning);
  band.spanning = [];
  if (band.left.length > 0) runs.push(...splitRuns(band.left, depth + 1));
  if (band.right.length > 0) runs.push(...splitRuns(band.right, depth + 1));
  band.left = [];
  band.right = [];
}

/** A vertical strip free of column text. */
export interface Gutter {
  readonly start: number;
  readonly end: number;
}

/** Finds the gutter between two columns of `fragments`, or null for a single column. */
export function findGutter(fragments: readonly PdfLine[]): Gutter | null {
  if (fragments.length < 2 * MIN_SIDE) return null;
  let minX = Infinity;
  let maxX = -Infinity;
  for (const f of fragments) {
    minX = Math.min(minX, f.x);
    maxX = Math.max(maxX, f.right);
  }
  const width = maxX - minX;
  if (!(width > 0)) return null;
  const from = minX + 0.15 * width;
  const to = maxX - 0.15 * width;
  // The crossing count only changes at fragment edges: try the places just beside them, fewest crossings first,
  // and run the full (linear) check on those few only.
  // Typed arrays sort numbers natively, without a comparator call per comparison (the edges are finite here: a NaN
  // would have made the width NaN above).
  const lefts = new Float64Array(fragments.length);
  const rights = new Float64Array(fragments.length);
  fragments.forEach((f, i) => {
    lefts[i] = f.x;
    rights[i] = f.right;
  });
  lefts.sort();
  rights.sort();
  const candidates: { x: number; crossing: number }[] = [];
  const seen = new Set<number>();
  const tryEdge = (edge: number): void => {
    const x = Math.round(edge * 2) / 2;
    if (x < from || x > to || seen.has(x)) return;
    seen.add(x);
    // Fragments strictly across x: started before it and not yet ended.
    candidates.push({ x, crossing: countBelow(lefts, x) - countBelow(rights, x + 1e-9) });
  };
  for (const right of rights) tryEdge(right + 0.5);
  for (const left of lefts) tryEdge(left - 0.5);
  if (candidates.length === 0) return null;
  candidates.sort((a, b) => a.crossing - b.crossing || a.x - b.x);
  const byWidth = [...fragments].sort((a, b) => a.right - a.x - (b.right - b.x));
  for (const candidate of candidates.slice(0, 12)) {
    if (accepts(fragments, byWidth, candidate.x, minX, maxX) < 0) continue;
    // Widen the strip to the nearest column edges, so every fragment of a column falls on its side.
    let start = minX;
    let end = maxX;
    for (const f of fragments) {
      if (f.right <= candidate.x && f.right > start) start = f.right;
      if (f.x >= candidate.x && f.x < end) end = f.x;
    }
    if (end > start) return { start, end };
  }
  return null;
}

/** How many values of the sorted array are below `x`. */
function countBelow(sorted: Float64Array, x: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((sorted[mid] as number) < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Where a fragment lies from a gutter at `x`. */
const LEFT = 0;
const RIGHT = 1;
const ACROSS = 2;
type Side = typeof LEFT | typeof RIGHT | typeof ACROSS;

function sideOf(f: PdfLine, x: number): Side {
  return f.right <= x ? LEFT : f.x >= x ? RIGHT : ACROSS;
}

/**
 * Number of fragments crossing a gutter at `x`, or -1 when `x` is not between two real columns. `byWidth` holds the
 * fragments from the narrowest: each of a page's candidate gutters reads its sides' widths from it, with no sort and
 * no copy of its own.
 */
function accepts(fragments: readonly PdfLine[], byWidth: readonly PdfLine[], x: number, minX: number, maxX: number): number {
  let left = 0;
  let right = 0;
  let crossing = 0;
  let leftChars = 0;
  let rightChars = 0;
  let leftTop = -Infinity;
  let leftBottom = Infinity;
  for (const f of fragments) {
    const side = sideOf(f, x);
    if (side === LEFT) {
      left++;
      leftChars += f.chars;
      leftTop = Math.max(leftTop, f.y);
      leftBottom = Math.min(leftBottom, f.y);
    } else if (side === RIGHT) {
      right++;
      rightChars += f.chars;
    } else crossing++;
  }
  // A short column (the end of an article, a page's last lines) beside a full column of prose needs no more than a
  // line when nothing crosses the white strip between them.
  const few = Math.min(left, right);
  const full: Side = left >= right ? LEFT : RIGHT;
  const short = crossing === 0 && Math.max(left, right) >= 2 * MIN_SIDE && medianChars(fragments, x, full) >= PROSE_LINE_CHARS;
  if (few < (short ? 1 : MIN_SIDE)) return -1;
  if (crossing > MAX_CROSSING * (left + right)) return -1;
  // Columns are filled with text: narrow cells of a table do not make columns, a figure's labels do not hide one.
  if (weightedMedian(byWidth, x, LEFT, leftChars) < 0.35 * (x - minX) || weightedMedian(byWidth, x, RIGHT, rightChars) < 0.35 * (maxX - x)) return -1;
  let beside = 0;
  for (const f of fragments) if (f.x >= x && f.y <= leftTop && f.y >= leftBottom) beside++;
  if (beside < Math.min(MIN_SIDE - 1, short ? few : MIN_SIDE - 1)) return -1;
  return crossing;
}

/** Characters from which a column's middle line reads as a line of prose (some five words). */
const PROSE_LINE_CHARS = 25;

/** The character count of the middle fragment of a side, by count. */
function medianChars(fragments: readonly PdfLine[], x: number, side: Side): number {
  const chars: number[] = [];
  for (const f of fragments) if (sideOf(f, x) === side) chars.push(f.chars);
  chars.sort((a, b) => a - b);
  return chars[Math.floor(chars.length / 2)] ?? 0;
}

/**
 * The width of the fragment of a side holding the side's middle character (of `total`): long text lines outweigh
 * short labels. `byWidth` is sorted by width.
 */
function weightedMedian(byWidth: readonly PdfLine[], x: number, side: Side, total: number): number {
  let seen = 0;
  for (const f of byWidth) {
    if (sideOf(f, x) !== side) continue;
    seen += f.chars;
    if (seen * 2 >= total) return f.right - f.x;
  }
  return 0;
}

/** Sorts one column top to bottom and joins fragments on one baseline into one line. */
function mergeRows(run: readonly PdfLine[]): PdfLine[] {
  const sorted = [...run].sort((a, b) => b.y - a.y || a.x - b.x);
  const out: PdfLine[] = [];
  let i = 0;
  while (i < sorted.length) {
    const first = sorted[i] as PdfLine;
    // A table or an image stands alone in the reading order.
    if (first.insert !== undefined) {
      out.push(first);
      i++;
      continue;
    }
    const row: PdfLine[] = [first];
    let j = i + 1;
    while (j < sorted.length) {
      const next = sorted[j] as PdfLine;
      if (next.insert !== undefined) break;
      if (Math.abs(first.y - next.y) > 0.35 * Math.max(first.fontSize, next.fontSize)) break;
      row.push(next);
      j++;
    }
    const rtl = readsRightToLeft(row);
    row.sort((a, b) => (rtl ? b.right - a.right : a.x - b.x));
    out.push(...(rtl ? joinRowRtl(row) : joinRow(row)));
    i = j;
  }
  return out;
}

/** Letters of a script that has a direction (digits, punctuation and spaces have none of their own). */
const STRONG_LETTER = /\p{L}/gu;

/**
 * True when a row reads from its rightmost fragment: most of its letters are in right-to-left fragments. Letters are
 * counted, not fragments, because a number in a right-to-left line (`2-5` before an Arabic section title) is a
 * left-to-right fragment of its own that would otherwise outvote the title; digits take the direction of the text
 * around them (Unicode's bidirectional algorithm counts them as weak), so they do not count.
 */
export function readsRightToLeft(row: readonly PdfLine[]): boolean {
  if (!row.some((l) => l.rtl === true)) return false;
  let rtl = 0;
  let ltr = 0;
  for (const l of row) {
    const letters = l.text.match(STRONG_LETTER)?.length ?? 0;
    if (l.rtl === true) rtl += letters;
    else ltr += letters;
  }
  return rtl > ltr;
}

/** The runs of `a`'s text, a space, then `b`'s text: `b`'s moved past `a`'s; none unless both have them. */
export function joinedRuns(a: PdfLine, b: PdfLine): TextRun[] | undefined {
  if (a.runs === undefined || b.runs === undefined) return undefined;
  const shift = a.text.length + 1;
  return [...a.runs, ...b.runs.map((r) => shiftRun(r, shift))];
}

/** Characters of `major`'s font in two joined fragments. */
function sameFontChars(a: PdfLine, b: PdfLine, major: PdfLine): number {
  if (a.fontName === b.fontName) return a.fontShare * a.chars + b.fontShare * b.chars;
  return major.fontShare * major.chars;
}

/** Joins the fragments of a right-to-left baseline, read from the rightmost; overlapping ones stay separate lines. */
function joinRowRtl(row: PdfLine[]): PdfLine[] {
  const out: PdfLine[] = [];
  let current = row[0] as PdfLine;
  for (let k = 1; k < row.length; k++) {
    const next = row[k] as PdfLine;
    if (next.right > current.x + 0.5 * next.fontSize) {
      out.push(current);
      current = next;
      continue;
    }
    const chars = current.chars + next.chars;
    const major = current.chars >= next.chars ? current : next;
    const runs = joinedRuns(current, next);
    current = pdfLine({
      ...major,
      text: `${current.text} ${next.text}`,
      runs,
      x: Math.min(current.x, next.x),
      right: current.right,
      fontShare: chars === 0 ? 1 : sameFontChars(current, next, major) / chars,
      monospace: current.monospace && next.monospace,
      cells: current.cells + next.cells - (current.x - next.right > 1.5 * Math.max(current.fontSize, next.fontSize) ? 0 : 1),
      chars,
      region: current.region,
      rtl: true,
    });
  }
  out.push(current);
  return out;
}

/** Joins the fragments of one baseline; fragments that overlap stay separate lines. */
function joinRow(row: PdfLine[]): PdfLine[] {
  const out: PdfLine[] = [];
  let current = row[0] as PdfLine;
  for (let k = 1; k < row.length; k++) {
    const next = row[k] as PdfLine;
    if (next.x < current.right - 0.5 * next.fontSize) {
      out.push(current);
      current = next;
      continue;
    }
    const chars = current.chars + next.chars;
    const major = current.chars >= next.chars ? current : next;
    const gapIsWide = next.x - current.right > 1.5 * Math.max(current.fontSize, next.fontSize);
    const runs = joinedRuns(current, next);
    current = pdfLine({
      text: `${current.text} ${next.text}`,
      x: current.x,
      y: major.y,
      right: Math.max(current.right, next.right),
      fontSize: major.fontSize,
      fontName: major.fontName,
      fontShare: chars === 0 ? 1 : sameFontChars(current, next, major) / chars,
      monospace: current.monospace && next.monospace,
      cells: current.cells + next.cells - (gapIsWide ? 0 : 1),
      chars,
      region: current.region,
      bold: current.bold === true && next.bold === true ? true : undefined,
      textX: current.textX,
      markerEnd: current.textX !== undefined ? current.markerEnd : undefined,
      markerFont: current.textX !== undefined ? current.markerFont : undefined,
      figure: current.figure === true && next.figure === true ? true : undefined,
      runs,
    });
  }
  out.push(current);
  return out;
}
