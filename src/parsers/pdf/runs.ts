/**
 * Runs: spans of a text and the boxes their glyphs are drawn in, as lines, blocks and chunks carry them so that a
 * viewer can highlight where a text came from. A run's glyphs are taken as laid evenly over its box, in the order
 * they are drawn (pdf.js gives a run's width, not each glyph's), so a part of a run is a part of its box.
 */
import { glyphBoxOf, textRun } from './shapes.js';
import type { GlyphBox, TextRun } from './types.js';

/** Degrees within which a run counts as set along one of the page's axes. */
const AXIS = 3;

/**
 * The part of a run's box where its characters `[from, to)` of `n` lie: along the baseline from the left (from the
 * right for right-to-left text), up the page for text set bottom-up (90°), down for text set top-down (270°). A run
 * at another angle keeps its whole box: its upright box does not follow its characters.
 */
export function sliceBox(box: GlyphBox, from: number, to: number, n: number, rtl: boolean, angle = 0): GlyphBox {
  if (from <= 0 && to >= n) return box;
  const turn = ((angle % 360) + 360) % 360;
  if (turn <= AXIS || turn >= 360 - AXIS) {
    const step = box.width / n;
    const left = rtl ? n - to : from;
    return glyphBoxOf(box.page, box.x + left * step, box.y, (to - from) * step, box.height);
  }
  if (Math.abs(turn - 90) <= AXIS || Math.abs(turn - 270) <= AXIS) {
    const step = box.height / n;
    // Boxes are measured down the page: text set bottom-up starts at the box's bottom.
    const top = Math.abs(turn - 90) <= AXIS ? n - to : from;
    return glyphBoxOf(box.page, box.x, box.y + top * step, box.width, (to - from) * step);
  }
  return box;
}

/** A run moved `by` characters along the text. */
export function shiftRun(run: TextRun, by: number): TextRun {
  return by === 0 ? run : textRun(run.start + by, run.end + by, run.box, run.rtl, run.angle);
}

/** The runs of `[from, to)`: those inside it whole, and those across its ends cut to the glyphs they keep. */
export function clipRuns(runs: readonly TextRun[], from: number, to: number): TextRun[] {
  const out: TextRun[] = [];
  for (const run of runs) {
    if (run.end <= from || run.start >= to) continue;
    if (run.start >= from && run.end <= to) {
      out.push(run);
      continue;
    }
    const start = Math.max(run.start, from);
    const end = Math.min(run.end, to);
    const box = sliceBox(run.box, start - run.start, end - run.start, run.end - run.start, run.rtl === true, run.angle);
    out.push(textRun(start, end, box, run.rtl, run.angle));
  }
  return out;
}

/** The smallest boxes holding `boxes`, one per page they are on, in the order the pages first come. */
export function unionBoxes(boxes: Iterable<GlyphBox>): GlyphBox[] {
  const byPage = new Map<number, { x0: number; y0: number; x1: number; y1: number }>();
  for (const b of boxes) {
    const u = byPage.get(b.page);
    if (u === undefined) byPage.set(b.page, { x0: b.x, y0: b.y, x1: b.x + b.width, y1: b.y + b.height });
    else {
      u.x0 = Math.min(u.x0, b.x);
      u.y0 = Math.min(u.y0, b.y);
      u.x1 = Math.max(u.x1, b.x + b.width);
      u.y1 = Math.max(u.y1, b.y + b.height);
    }
  }
  return [...byPage].map(([page, u]) => ({ page, x: u.x0, y: u.y0, width: u.x1 - u.x0, height: u.y1 - u.y0 }));
}

/** The boxes of some lines' runs. */
export function lineBoxes(lines: Iterable<{ readonly runs?: readonly TextRun[] }>): GlyphBox[] {
  const out: GlyphBox[] = [];
  for (const l of lines) for (const r of l.runs ?? []) out.push(r.box);
  return out;
}
