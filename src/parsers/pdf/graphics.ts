/**
 * What a page draws besides text, from its pdf.js operator list: ruling segments (the strokes and thin fills that
 * tables are drawn with, and the sides of rectangles, as pdfplumber takes them), the boxes of images, and the boxes
 * of other vector drawings (curves, slanted lines: figures). The current transformation matrix is tracked through
 * `q`/`Q`, `cm` and form XObjects, so every box is in page space, like the text items.
 *
 * An operator list is expensive (about as much again as the text content), so `looksTabular` tells from a page's
 * text alone whether it may hold a table worth it.
 */
import type { PdfBox, PdfGraphics, PdfRule, PdfTextItem } from './types.js';

/** The pdf.js operator codes this module reads (`pdfjs.OPS`). */
export interface OperatorCodes {
  readonly save: number;
  readonly restore: number;
  readonly transform: number;
  readonly constructPath: number;
  readonly paintFormXObjectBegin: number;
  readonly paintFormXObjectEnd: number;
  readonly stroke: number;
  readonly closeStroke: number;
  readonly fill: number;
  readonly eoFill: number;
  readonly fillStroke: number;
  readonly eoFillStroke: number;
  readonly closeFillStroke: number;
  readonly closeEOFillStroke: number;
  readonly endPath: number;
  /** Set the clipping path to the path that follows (nonzero and even-odd rules); absent, nothing is clipped. */
  readonly clip?: number;
  readonly eoClip?: number;
  readonly paintImageXObject: number;
  readonly paintInlineImageXObject: number;
  readonly paintImageMaskXObject: number;
  readonly paintImageXObjectRepeat: number;
  readonly paintInlineImageXObjectGroup: number;
  readonly paintImageMaskXObjectGroup: number;
  readonly paintImageMaskXObjectRepeat: number;
}

/** pdf.js path-buffer codes (`DrawOPS`): how `constructPath` encodes a path. */
const MOVE = 0;
const LINE = 1;
const CURVE = 2;
const QUADRATIC = 3;
const CLOSE = 4;

/** Most rules, images and drawings kept from one page: past them a page is a flood of paths, not a table. */
export const MAX_PAGE_GRAPHICS = 20_000;
/** A filled rectangle thinner than this (points) is a line. */
const THIN = 2;
/** A segment whose ends differ by less than this across its direction is axis-aligned. */
const STRAIGHT = 0.5;

type Matrix = [number, number, number, number, number, number];

function multiply(m: Matrix, n: readonly number[]): Matrix {
  const [a, b, c, d, e, f] = n as Matrix;
  return [
    a * m[0] + b * m[2],
    a * m[1] + b * m[3],
    c * m[0] + d * m[2],
    c * m[1] + d * m[3],
    e * m[0] + f * m[2] + m[4],
    e * m[1] + f * m[3] + m[5],
  ];
}

function apply(m: Matrix, x: number, y: number): [number, number] {
  return [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]];
}

/** Collects what a page draws into rules, images and drawings. */
class Collector {
  readonly rules: PdfRule[] = [];
  readonly images: PdfBox[] = [];
  readonly drawings: PdfBox[] = [];
  truncated = false;

  full(): boolean {
    if (this.rules.length + this.images.length + this.drawings.length < MAX_PAGE_GRAPHICS) return false;
    this.truncated = true;
    return true;
  }

  /**
   * The bounds of the clipping path in force: a rule painted outside it is not seen (a web page's hidden menus, a
   * table scrolled out of its frame), and one half inside is seen to the edge. Images and drawings keep their whole
   * box: a figure's labels often lie over the part of a picture its frame crops, and tell a figure's extent better.
   */
  clip: PdfBox | null = null;

  rule(x0: number, y0: number, x1: number, y1: number): void {
    if (this.full()) return;
    if (Math.abs(y0 - y1) <= STRAIGHT) {
      const y = (y0 + y1) / 2;
      this.keepRule({ x0: Math.min(x0, x1), y0: y, x1: Math.max(x0, x1), y1: y });
    } else if (Math.abs(x0 - x1) <= STRAIGHT) {
      const x = (x0 + x1) / 2;
      this.keepRule({ x0: x, y0: Math.min(y0, y1), x1: x, y1: Math.max(y0, y1) });
    }
  }

  box(into: PdfBox[], points: readonly (readonly [number, number])[]): void {
    if (this.full() || points.length === 0) return;
    into.push(bounds(points));
  }

  /** Keeps the part of a rule inside the clip, if any. */
  private keepRule(rule: PdfRule): void {
    const seen = this.clip === null ? rule : intersection(rule, this.clip);
    if (seen !== null) this.rules.push(seen);
  }
}

/**
 * Reads the rules, images and drawings of a page's operator list (`fnArray`, `argsArray` of pdf.js). `view`, the
 * page's crop box (`[x0, y0, x1, y1]` in PDF space), is the first clip: a browser prints a web page's hidden menus and
 * skip links hundreds of points beside the sheet, and their sides, lined up with the page's own, made a ruled table.
 */
export function readGraphics(fnArray: ArrayLike<number>, argsArray: ArrayLike<unknown>, ops: OperatorCodes, view?: readonly number[]): PdfGraphics {
  const out = new Collector();
  out.clip = view === undefined ? null : viewBox(view);
  let ctm: Matrix = [1, 0, 0, 1, 0, 0];
  // The graphics state this reads: the transform and the clip, saved and restored together.
  const stack: { ctm: Matrix; clip: PdfBox | null }[] = [];
  let clipNext = false;
  const painting = new Set([ops.stroke, ops.closeStroke, ops.fill, ops.eoFill, ops.fillStroke, ops.eoFillStroke, ops.closeFillStroke, ops.closeEOFillStroke]);
  const images = new Set([
    ops.paintImageXObject,
    ops.paintInlineImageXObject,
    ops.paintImageMaskXObject,
    ops.paintImageXObjectRepeat,
    ops.paintInlineImageXObjectGroup,
    ops.paintImageMaskXObjectGroup,
    ops.paintImageMaskXObjectRepeat,
  ]);
  const restore = (): void => {
    const saved = stack.pop();
    if (saved !== undefined) ({ ctm, clip: out.clip } = saved);
  };
  for (let i = 0; i < fnArray.length && !out.truncated; i++) {
    const fn = fnArray[i] as number;
    const args = argsArray[i] as unknown[] | null;
    if (fn === ops.save) stack.push({ ctm, clip: out.clip });
    else if (fn === ops.restore) restore();
    else if (fn === ops.transform && Array.isArray(args) && args.length === 6) ctm = multiply(ctm, args as number[]);
    else if (fn === ops.clip || fn === ops.eoClip) clipNext = true;
    else if (fn === ops.paintFormXObjectBegin) {
      stack.push({ ctm, clip: out.clip });
      const matrix = args?.[0];
      if (Array.isArray(matrix) && matrix.length === 6) ctm = multiply(ctm, matrix as number[]);
    } else if (fn === ops.paintFormXObjectEnd) restore();
    else if (fn === ops.constructPath && Array.isArray(args)) {
      const paint = args[0] as number;
      const buffer = (args[1] as unknown[] | undefined)?.[0];
      if (clipNext && buffer instanceof Float32Array) out.clip = clipped(out.clip, pathBounds(buffer, ctm));
      clipNext = false;
      if (painting.has(paint) && buffer instanceof Float32Array) readPath(buffer, ctm, paint === ops.stroke || paint === ops.closeStroke, out);
    } else if (images.has(fn)) {
      out.box(out.images, [apply(ctm, 0, 0), apply(ctm, 1, 0), apply(ctm, 0, 1), apply(ctm, 1, 1)]);
    }
  }
  return { rules: out.rules, images: out.images, drawings: out.drawings, ...(out.truncated ? { truncated: true } : {}) };
}

/** The clip after intersecting `clip` with a path's bounds: an empty one hides everything painted until a restore. */
function clipped(clip: PdfBox | null, path: PdfBox | null): PdfBox | null {
  if (path === null) return clip;
  const area = clip === null ? path : intersection(clip, path);
  return area ?? HIDDEN;
}

/** The box of a crop box `[x0, y0, x1, y1]`, or null when it is not four finite numbers in order. */
function viewBox(view: readonly number[]): PdfBox | null {
  const [x0, y0, x1, y1] = view as [number, number, number, number];
  return view.length === 4 && view.every((v) => Number.isFinite(v)) && x0 < x1 && y0 < y1 ? { x0, y0, x1, y1 } : null;
}

/** A clip nothing lies inside. */
const HIDDEN: PdfBox = { x0: Infinity, y0: Infinity, x1: -Infinity, y1: -Infinity };

/** The part two boxes share (a segment's box may have no width or height), or null. */
function intersection(a: PdfBox, b: PdfBox): PdfBox | null {
  const box = { x0: Math.max(a.x0, b.x0), y0: Math.max(a.y0, b.y0), x1: Math.min(a.x1, b.x1), y1: Math.min(a.y1, b.y1) };
  return box.x0 <= box.x1 && box.y0 <= box.y1 ? box : null;
}

/** The bounds of every point of a path (control points included), on the page. */
function pathBounds(buffer: Float32Array, ctm: Matrix): PdfBox | null {
  const points: [number, number][] = [];
  for (let k = 0; k < buffer.length; ) {
    const op = buffer[k++];
    const coordinates = op === MOVE || op === LINE ? 2 : op === CURVE ? 6 : op === QUADRATIC ? 4 : op === CLOSE ? 0 : -1;
    if (coordinates < 0) break;
    for (let c = 0; c < coordinates; c += 2) points.push(apply(ctm, buffer[k + c] as number, buffer[k + c + 1] as number));
    k += coordinates;
  }
  return points.length === 0 ? null : bounds(points);
}

/** Reads one painted path: rectangles become their sides (or one line when thin), straight segments rules, the rest a drawing. */
function readPath(buffer: Float32Array, ctm: Matrix, strokeOnly: boolean, out: Collector): void {
  let points: [number, number][] = [];
  let curved = false;
  const flush = (closed: boolean): void => {
    if (points.length >= 2) readSubpath(points, closed, curved, strokeOnly, out);
    points = [];
    curved = false;
  };
  for (let k = 0; k < buffer.length; ) {
    const op = buffer[k++];
    if (op === MOVE) {
      flush(false);
      points.push(apply(ctm, buffer[k] as number, buffer[k + 1] as number));
      k += 2;
    } else if (op === LINE) {
      points.push(apply(ctm, buffer[k] as number, buffer[k + 1] as number));
      k += 2;
    } else if (op === CURVE) {
      // A curve stays within the hull of its control points: they bound its box.
      curved = true;
      for (let c = 0; c < 6; c += 2) points.push(apply(ctm, buffer[k + c] as number, buffer[k + c + 1] as number));
      k += 6;
    } else if (op === QUADRATIC) {
      curved = true;
      for (let c = 0; c < 4; c += 2) points.push(apply(ctm, buffer[k + c] as number, buffer[k + c + 1] as number));
      k += 4;
    } else if (op === CLOSE) {
      flush(true);
    } else {
      break;
    }
  }
  flush(false);
}

function readSubpath(points: [number, number][], closed: boolean, curved: boolean, strokeOnly: boolean, out: Collector): void {
  if (!curved && isRectangle(points)) {
    const { x0, y0, x1, y1 } = bounds(points);
    if (y1 - y0 < THIN) out.rule(x0, (y0 + y1) / 2, x1, (y0 + y1) / 2);
    else if (x1 - x0 < THIN) out.rule((x0 + x1) / 2, y0, (x0 + x1) / 2, y1);
    else {
      out.rule(x0, y0, x1, y0);
      out.rule(x0, y1, x1, y1);
      out.rule(x0, y0, x0, y1);
      out.rule(x1, y0, x1, y1);
    }
    return;
  }
  if (curved) {
    out.box(out.drawings, points);
    return;
  }
  let slanted = false;
  const segments = closed ? [...points, points[0] as [number, number]] : points;
  for (let k = 1; k < segments.length; k++) {
    const [ax, ay] = segments[k - 1] as [number, number];
    const [bx, by] = segments[k] as [number, number];
    if (Math.abs(ax - bx) <= STRAIGHT || Math.abs(ay - by) <= STRAIGHT) {
      // A filled polygon's straight sides bound a shape, not a table, unless it is only lines.
      if (strokeOnly) out.rule(ax, ay, bx, by);
    } else slanted = true;
  }
  if (slanted || !strokeOnly) out.box(out.drawings, points);
}

/** The bounding box of some points (a loop: a path may hold more points than a call takes arguments). */
function bounds(points: readonly (readonly [number, number])[]): PdfBox {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const [x, y] of points) {
    if (x < x0) x0 = x;
    if (x > x1) x1 = x;
    if (y < y0) y0 = y;
    if (y > y1) y1 = y;
  }
  return { x0, y0, x1, y1 };
}

/** Four (or five, closed back to the start) points forming an axis-aligned rectangle. */
function isRectangle(points: readonly [number, number][]): boolean {
  const p = points.length === 5 && near(points[0] as [number, number], points[4] as [number, number]) ? points.slice(0, 4) : points;
  if (p.length !== 4) return false;
  for (let k = 0; k < 4; k++) {
    const [ax, ay] = p[k] as [number, number];
    const [bx, by] = p[(k + 1) % 4] as [number, number];
    if (Math.abs(ax - bx) > STRAIGHT && Math.abs(ay - by) > STRAIGHT) return false;
  }
  return true;
}

function near(a: readonly [number, number], b: readonly [number, number]): boolean {
  return Math.abs(a[0] - b[0]) <= STRAIGHT && Math.abs(a[1] - b[1]) <= STRAIGHT;
}

/** Consecutive rows of three cells or more a page needs before a table is suspected. */
const TABLE_ROWS = 3;
/** Cell edges closer than this (points) are one column edge. */
const COLUMN_SLACK = 3;

/** True when a string is empty or only whitespace (as `trim` tells it), told without a trimmed copy. */
function isBlank(str: string): boolean {
  return !/\S/.test(str);
}

/** Letters and digits in a string, up to `enough`. */
function alphanumerics(text: string, enough: number): number {
  let n = 0;
  for (let i = 0; i < text.length && n < enough; i++) {
    const c = text.charCodeAt(i);
    if ((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c > 0xbf) n++;
  }
  return n;
}

/**
 * True when the text of a page suggests a table, so that its drawing (the rulings) is worth reading: three
 * consecutive baselines or more that each hold three cells or more (runs apart by more than one and a half font
 * sizes), two of them at least with a word or a figure in them, whose edges line up in columns from one row to the
 * next. Only a line of prose (a run wider than two fifths of the page's text) ends such a run of rows: a table's
 * sparser rows (a first column set between two lines of the others) do not. Prose in one or two columns has at most
 * two cells a line, and the symbols a formula scatters over its lines are neither words nor in consecutive rows.
 */
export function looksTabular(items: readonly PdfTextItem[]): boolean {
  const rows = new Map<number, PdfTextItem[]>();
  let left = Infinity;
  let right = -Infinity;
  for (const item of items) {
    if (isBlank(item.str) || (item.angle ?? 0) !== 0) continue;
    const key = Math.round(item.y / 2);
    const row = rows.get(key);
    if (row === undefined) rows.set(key, [item]);
    else row.push(item);
    left = Math.min(left, item.x);
    right = Math.max(right, item.x + item.width);
  }
  const prose = 0.4 * (right - left);
  const edges = new Map<number, number>();
  let run = 0;
  let best = 0;
  for (const key of [...rows.keys()].sort((a, b) => b - a)) {
    const row = rows.get(key) as PdfTextItem[];
    // A cell's letters and digits are counted as its runs join it (up to the two that make it worded): every page
    // comes through here, and joining the runs' text only to count it made a string per cell.
    const cells: { left: number; right: number; alphanumerics: number }[] = [];
    row.sort((a, b) => a.x - b.x);
    for (const item of row) {
      const last = cells[cells.length - 1];
      if (last !== undefined && item.x - last.right <= 1.5 * item.fontSize) {
        last.right = Math.max(last.right, item.x + item.width);
        last.alphanumerics += alphanumerics(item.str, 2 - last.alphanumerics);
      } else cells.push({ left: item.x, right: item.x + item.width, alphanumerics: alphanumerics(item.str, 2) });
    }
    const worded = cells.filter((c) => c.alphanumerics >= 2).length;
    if (cells.length < 3 || worded < 2) {
      if (cells.some((c) => c.right - c.left > prose)) run = 0;
      continue;
    }
    run++;
    best = Math.max(best, run);
    // Left and right edges both: text columns line up on the left, figures on the right.
    const seen = new Set<number>();
    for (const { left, right } of cells) {
      for (const edge of [Math.round(left / COLUMN_SLACK), -Math.round(right / COLUMN_SLACK) - 1]) {
        if (seen.has(edge)) continue;
        seen.add(edge);
        edges.set(edge, (edges.get(edge) ?? 0) + 1);
      }
    }
  }
  if (best < TABLE_ROWS) return false;
  let aligned = 0;
  for (const count of edges.values()) if (count >= TABLE_ROWS) aligned++;
  return aligned >= 3;
}
