/**
 * Tables from ruling lines, the way pdfplumber's table finder works (itself after Anssi Nurminen's thesis and
 * Tabula): edges are snapped (edges within a few points of one another move to their average), joined (collinear
 * edges that touch or nearly touch become one), and short ones dropped; the points where a horizontal and a vertical
 * edge cross are the intersections; a cell is the smallest rectangle whose four corners are intersections joined by
 * edges; cells that share corners form one table. Coordinates are PDF page space (y grows upwards).
 */
import type { PdfBox, PdfRule } from './types.js';

/** Edges closer than this (points) across their direction are snapped together. */
const SNAP = 3;
/** Collinear edges with a gap up to this (points) are joined. */
const JOIN = 3;
/** Edges shorter than this (points) are dropped. */
const MIN_LENGTH = 3;
/** How far (points) an edge may stop short of another and still cross it. */
const INTERSECT = 3;
/** Most intersections examined on one page: past them a page is a grid of paths (a chart, a flood), not a table. */
const MAX_INTERSECTIONS = 20_000;

/** A table found from rulings: its cells row by row, top row first. */
export interface RuledTable {
  readonly box: PdfBox;
  /** x of each column's left edge, then the table's right edge: `columns.length - 1` columns. */
  readonly columns: readonly number[];
  /** y of each row's top edge, then the table's bottom edge, top first: `rows.length - 1` rows. */
  readonly rows: readonly number[];
  /**
   * The cells, by row then column: each grid position holds the index of the cell covering it in `cells`, so a cell
   * that spans columns or rows appears at every position it covers.
   */
  readonly grid: readonly (readonly number[])[];
  readonly cells: readonly PdfBox[];
}

interface Edge {
  /** Horizontal: y, from x0 to x1. Vertical: x, from y0 to y1. */
  at: number;
  from: number;
  to: number;
}

/** Groups values within `tolerance` of their neighbour and moves each to its group's average, like pdfplumber. */
function snap(edges: Edge[], tolerance: number): void {
  edges.sort((a, b) => a.at - b.at);
  let start = 0;
  for (let i = 1; i <= edges.length; i++) {
    if (i < edges.length && (edges[i] as Edge).at - (edges[i - 1] as Edge).at <= tolerance) continue;
    let sum = 0;
    for (let k = start; k < i; k++) sum += (edges[k] as Edge).at;
    const average = sum / (i - start);
    for (let k = start; k < i; k++) (edges[k] as Edge).at = average;
    start = i;
  }
}

/** Joins collinear edges that overlap or nearly touch, and drops the short ones. */
function join(edges: Edge[]): Edge[] {
  edges.sort((a, b) => a.at - b.at || a.from - b.from);
  const out: Edge[] = [];
  for (const edge of edges) {
    const last = out[out.length - 1];
    if (last !== undefined && last.at === edge.at && edge.from <= last.to + JOIN) last.to = Math.max(last.to, edge.to);
    else out.push({ ...edge });
  }
  return out.filter((e) => e.to - e.from >= MIN_LENGTH);
}

/** Shortest horizontal rule whose ends are taken for a table's outer edges. */
const FRAME_RULE = 40;

/**
 * Vertical edges supposed at the ends of horizontal rules where no vertical rule stands: one for each place where two
 * horizontal rules or more end together, from the lowest of them to the highest.
 */
function frameEdges(horizontal: readonly Edge[], vertical: readonly Edge[]): Edge[] {
  const ends = new Map<number, { xs: number[]; ys: number[] }>();
  for (const e of horizontal) {
    if (e.to - e.from < FRAME_RULE) continue;
    for (const x of [e.from, e.to]) {
      const key = Math.round(x / SNAP);
      const end = ends.get(key) ?? ends.set(key, { xs: [], ys: [] }).get(key)!;
      end.xs.push(x);
      end.ys.push(e.at);
    }
  }
  const out: Edge[] = [];
  for (const { xs, ys } of ends.values()) {
    if (ys.length < 2) continue;
    const x = xs.reduce((a, b) => a + b, 0) / xs.length;
    const from = Math.min(...ys);
    const to = Math.max(...ys);
    // Where a vertical rule stands at that place, even in pieces, the drawing frames the table itself.
    if (vertical.some((v) => Math.abs(v.at - x) <= SNAP && v.to >= from && v.from <= to)) continue;
    out.push({ at: x, from, to });
  }
  return out;
}

/** The tables drawn with the given rulings, top first. */
export function findRuledTables(rules: readonly PdfRule[]): RuledTable[] {
  return groupCells(findCells(rules)).tables;
}

/**
 * The tables drawn with the given rulings (top first), and the frames: boxes of one ruled row or column that are no
 * table (a box of code, a callout, a form's field).
 */
export function findRuledShapes(rules: readonly PdfRule[]): { tables: RuledTable[]; frames: PdfBox[] } {
  return groupCells(findCells(rules));
}

/** The smallest ruled cells: rectangles whose four corners are intersections joined by edges. */
function findCells(rules: readonly PdfRule[]): PdfBox[] {
  const horizontal: Edge[] = [];
  const vertical: Edge[] = [];
  for (const r of rules) {
    if (r.y0 === r.y1 && r.x1 - r.x0 > 0) horizontal.push({ at: r.y0, from: r.x0, to: r.x1 });
    else if (r.x0 === r.x1 && r.y1 - r.y0 > 0) vertical.push({ at: r.x0, from: r.y0, to: r.y1 });
  }
  if (horizontal.length < 2) return [];
  snap(horizontal, SNAP);
  snap(vertical, SNAP);
  const h = join(horizontal);
  const v = join([...vertical, ...frameEdges(join(horizontal), vertical)]);
  if (h.length < 2 || v.length < 2) return [];

  // Intersections, keyed by position; each knows the edges through it, to tell whether two points are joined.
  const points = new Map<string, { x: number; y: number; h: Edge; v: Edge }>();
  const key = (x: number, y: number): string => `${x}|${y}`;
  for (const ve of v) {
    for (const he of h) {
      if (he.at < ve.from - INTERSECT || he.at > ve.to + INTERSECT || ve.at < he.from - INTERSECT || ve.at > he.to + INTERSECT) continue;
      points.set(key(ve.at, he.at), { x: ve.at, y: he.at, h: he, v: ve });
      if (points.size > MAX_INTERSECTIONS) return [];
    }
  }
  // An edge joins two intersections when both lie on it (within the crossing tolerance).
  const onH = (e: Edge, x: number): boolean => x >= e.from - INTERSECT && x <= e.to + INTERSECT;
  const onV = (e: Edge, y: number): boolean => y >= e.from - INTERSECT && y <= e.to + INTERSECT;
  const byColumn = new Map<number, number[]>();
  const byRow = new Map<number, number[]>();
  for (const p of points.values()) {
    (byColumn.get(p.x) ?? byColumn.set(p.x, []).get(p.x)!).push(p.y);
    (byRow.get(p.y) ?? byRow.set(p.y, []).get(p.y)!).push(p.x);
  }
  for (const ys of byColumn.values()) ys.sort((a, b) => b - a);
  for (const xs of byRow.values()) xs.sort((a, b) => a - b);

  // The smallest cell whose top-left corner is each intersection: the nearest point below joined to it by the
  // vertical edge, the nearest to the right joined by the horizontal edge, and the corner they share.
  const cells: PdfBox[] = [];
  for (const p of points.values()) {
    const below = (byColumn.get(p.x) as number[]).filter((y) => y < p.y);
    const right = (byRow.get(p.y) as number[]).filter((x) => x > p.x);
    search: for (const y of below) {
      if (!onV(p.v, y)) break;
      for (const x of right) {
        if (!onH(p.h, x)) break;
        const corner = points.get(key(x, y));
        const rightPoint = points.get(key(x, p.y));
        const belowPoint = points.get(key(p.x, y));
        if (corner === undefined || rightPoint === undefined || belowPoint === undefined) continue;
        if (onV(rightPoint.v, y) && onH(belowPoint.h, x) && onV(corner.v, p.y) && onH(corner.h, p.x)) {
          cells.push({ x0: p.x, y0: y, x1: x, y1: p.y });
          break search;
        }
      }
    }
  }
  return cells;
}

/** Cells sharing a corner belong to one table; tables of a single row or column are frames, not tables. */
function groupCells(cells: readonly PdfBox[]): { tables: RuledTable[]; frames: PdfBox[] } {
  const parent = cells.map((_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i] as number] as number;
    return i;
  };
  const owner = new Map<string, number>();
  cells.forEach((c, i) => {
    for (const corner of [`${c.x0}|${c.y0}`, `${c.x0}|${c.y1}`, `${c.x1}|${c.y0}`, `${c.x1}|${c.y1}`]) {
      const other = owner.get(corner);
      if (other === undefined) owner.set(corner, i);
      else parent[find(i)] = find(other);
    }
  });
  const groups = new Map<number, PdfBox[]>();
  cells.forEach((c, i) => {
    const root = find(i);
    (groups.get(root) ?? groups.set(root, []).get(root)!).push(c);
  });
  const tables: RuledTable[] = [];
  const frames: PdfBox[] = [];
  for (const group of groups.values()) {
    const columns = [...new Set(group.flatMap((c) => [c.x0, c.x1]))].sort((a, b) => a - b);
    const rows = [...new Set(group.flatMap((c) => [c.y0, c.y1]))].sort((a, b) => b - a);
    if (columns.length < 3 || rows.length < 3) {
      frames.push({ x0: columns[0] as number, y0: rows[rows.length - 1] as number, x1: columns[columns.length - 1] as number, y1: rows[0] as number });
      continue;
    }
    const grid = Array.from({ length: rows.length - 1 }, () => new Array<number>(columns.length - 1).fill(-1));
    group.forEach((c, index) => {
      for (let r = rows.indexOf(c.y1); r < rows.length - 1 && (rows[r] as number) > c.y0; r++) {
        for (let k = columns.indexOf(c.x0); k < columns.length - 1 && (columns[k] as number) < c.x1; k++) (grid[r] as number[])[k] = index;
      }
    });
    const box = { x0: columns[0] as number, y0: rows[rows.length - 1] as number, x1: columns[columns.length - 1] as number, y1: rows[0] as number };
    tables.push({ box, columns, rows, grid, cells: group });
  }
  return { tables: tables.sort((a, b) => b.box.y1 - a.box.y1 || a.box.x0 - b.box.x0), frames };
}
