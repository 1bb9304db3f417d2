/**
 * Table text: the runs of a page placed into the cells of a table (each character by its centre, as pdfplumber
 * places characters; a run that crosses a column's edge is cut there), and a table's cells rendered as a Markdown
 * pipe table, the same shape as a Markdown `TableBlock`, so the chunker splits it by row with the header repeated.
 */
import { buildLines } from './lines.js';
import type { RuledTable } from './ruled-tables.js';
import { lineBoxes, sliceBox, unionBoxes } from './runs.js';
import { textItem } from './shapes.js';
import type { GlyphBox, PdfBox, PdfLine, PdfTextItem } from './types.js';

/** A table read from a page: its cells' text row by row, and where it was. */
export interface TableGrid {
  readonly box: PdfBox;
  /** Cell texts, row by row, top first; every row has the same number of cells. */
  readonly rows: readonly (readonly string[])[];
  /** Leading rows that are the header (at least 1). */
  readonly headerRows: number;
  /** Body font size of the table's text, for reading order. */
  readonly fontSize: number;
  /**
   * Where each cell's text is drawn (a box per page, usually one; none for an empty cell), parallel to `rows`;
   * absent when unknown.
   */
  readonly cellBoxes?: readonly (readonly (readonly GlyphBox[])[])[];
}

/**
 * `table` with `rows` (and their boxes) after its own, in `box`: the boxes are kept only when both parts have them,
 * so that a grid's boxes always run parallel to its rows.
 */
export function appendRows(table: TableGrid, rows: readonly (readonly string[])[], cellBoxes: TableGrid['cellBoxes'], box: PdfBox): TableGrid {
  const { cellBoxes: own, ...rest } = table;
  const boxes = own !== undefined && cellBoxes !== undefined ? { cellBoxes: [...own, ...cellBoxes] } : {};
  return { ...rest, box, rows: [...table.rows, ...rows], ...boxes };
}

/** `table`'s rows from `from` on (the ones before dropped with their boxes). */
export function rowsFrom(table: TableGrid, from: number): Pick<TableGrid, 'rows' | 'cellBoxes'> {
  return { rows: table.rows.slice(from), ...(table.cellBoxes !== undefined ? { cellBoxes: table.cellBoxes.slice(from) } : {}) };
}

/** Joins the lines of one cell into its text. */
export type CellJoin = (lines: readonly PdfLine[]) => string;

/** Where a run's characters fall, when its ends lie in different cells: one piece per cell. */
function splitAtColumns(item: PdfTextItem, columns: readonly number[]): PdfTextItem[] {
  const n = item.str.length;
  if (n <= 1 || !(item.width > 0)) return [item];
  const step = item.width / n;
  const out: PdfTextItem[] = [];
  let start = 0;
  const columnOf = (i: number): number => {
    const centre = item.x + (i + 0.5) * step;
    let k = 0;
    while (k < columns.length - 2 && centre >= (columns[k + 1] as number)) k++;
    return k;
  };
  let column = columnOf(0);
  for (let i = 1; i <= n; i++) {
    const next = i < n ? columnOf(i) : -1;
    if (next === column) continue;
    const str = item.str.slice(start, i);
    // The pieces are placed from the left, as their columns are found.
    const glyphs = item.glyphs === undefined ? undefined : sliceBox(item.glyphs, start, i, n, false);
    if (str.trim() !== '') out.push(textItem({ ...item, str, x: item.x + start * step, width: (i - start) * step, glyphs }));
    start = i;
    column = next;
  }
  return out;
}

/** Share of a table's runs that may run out of it or be cut inside a word before it is taken for a drawing behind prose. */
const MAX_MISFIT_SHARE = 0.2;

/** Runs cut inside a word by the grid's rules, from which it is a drawing behind prose: cell rules run between words. */
const MAX_CUT_WORDS = 3;

/** True when a run was cut into pieces somewhere other than between words. */
function cutInsideWords(pieces: readonly PdfTextItem[]): boolean {
  for (let k = 1; k < pieces.length; k++) {
    const before = (pieces[k - 1] as PdfTextItem).str;
    const after = (pieces[k] as PdfTextItem).str;
    if (/[\p{L}\p{N}]$/u.test(before) && /^[\p{L}\p{N}]/u.test(after)) return true;
  }
  return false;
}

/** Baselines closer than this (points) are one baseline of a row. */
const BASELINE = 2;

/** The grid position (row, column) a point falls in, or null outside the grid. */
function positionOf(table: RuledTable, x: number, y: number): [number, number] | null {
  const { rows, columns } = table;
  let r = 0;
  while (r < rows.length - 1 && y < (rows[r + 1] as number)) r++;
  let k = 0;
  while (k < columns.length - 1 && x >= (columns[k + 1] as number)) k++;
  if (r >= rows.length - 1 || k >= columns.length - 1 || y >= (rows[0] as number) || x < (columns[0] as number)) return null;
  return (table.grid[r] as readonly number[])[k] === -1 ? null : [r, k];
}

/**
 * Places the runs inside a ruled table into its grid. Each piece of text goes to the grid position under its centre,
 * so the column headers under a header that spans several columns keep their own columns. A ruled row whose filled
 * columns mostly hold several lines on the same baselines (bands of rows drawn as one box, as zebra stripes often
 * are) is split at those baselines; a wrapped cell in one column does not split its row. A full-width row of one
 * cell at the top or the bottom (a title band, notes) is not part of the table: its runs stay with the page.
 * Returns the grid (null when the table holds too little text to be a table: fewer than two filled columns) and the
 * indexes of the runs it took.
 */
export function fillRuledTable(table: RuledTable, items: readonly PdfTextItem[], join: CellJoin): { grid: TableGrid | null; used: Set<number> } {
  const placed = placeRuns(table, items);
  const { counts } = placed;
  const { first, last } = bodyRows(table);
  let rows: string[][] = [];
  let cellBoxes: GlyphBox[][][] = [];
  for (let r = first; r <= last; r++) {
    for (const row of splitRow(placed.positions[r] as PdfTextItem[][], table.grid[r] as readonly number[], join)) {
      rows.push(row.cells);
      cellBoxes.push(row.boxes);
    }
  }
  if (!holdsRecords(rows) || counts.misfit > MAX_MISFIT_SHARE * counts.placed || counts.cutWords >= MAX_CUT_WORDS) return { grid: null, used: new Set() };
  const used = new Set<number>();
  for (const [index, r] of placed.owner) if (r >= first && r <= last) used.add(index);
  let fontSize = 0;
  let most = -1;
  for (const [size, n] of placed.sizes) if (n > most) [fontSize, most] = [size, n];
  if (2 * counts.rtlChars > counts.chars) {
    rows = rows.map((r) => r.reverse());
    cellBoxes = cellBoxes.map((r) => r.reverse());
  }
  const keep = filledColumns(rows);
  const trimmed = rows.map((r) => keep.map((k) => r[k] ?? ''));
  cellBoxes = cellBoxes.map((r) => keep.map((k) => r[k] ?? []));
  const top = table.rows[first] as number;
  const bottom = table.rows[last + 1] as number;
  // A page whose area is unknown gives its runs no boxes, and its tables none (an empty row has none either way).
  const boxes = items.some((i) => i.glyphs !== undefined) ? { cellBoxes } : {};
  return { grid: { box: { ...table.box, y0: bottom, y1: top }, rows: trimmed, headerRows: headerRowCount(trimmed), fontSize, ...boxes }, used };
}

/** The runs of a page placed into a ruled table's grid positions, and what the placing counted. */
interface RunPlacement {
  /** The pieces of text at each row and column. */
  readonly positions: PdfTextItem[][][];
  /** The row each run inside the table went to, by its index. */
  readonly owner: Map<number, number>;
  /** Characters placed at each font size (rounded to a tenth). */
  readonly sizes: Map<number, number>;
  readonly counts: {
    /** Runs placed. */
    placed: number;
    /** Characters placed, and those of right-to-left runs: a right-to-left table's first column is its rightmost. */
    chars: number;
    rtlChars: number;
    /** Runs that run out of the table, or are cut inside their words. */
    misfit: number;
    cutWords: number;
  };
}

/**
 * Places each run inside the table at the grid position under its centre, a run that crosses into another cell cut
 * at the column rules.
 */
function placeRuns(table: RuledTable, items: readonly PdfTextItem[]): RunPlacement {
  const rowCount = table.rows.length - 1;
  const columnCount = table.columns.length - 1;
  const placement: RunPlacement = {
    positions: Array.from({ length: rowCount }, () => Array.from({ length: columnCount }, (): PdfTextItem[] => [])),
    owner: new Map(),
    sizes: new Map(),
    counts: { placed: 0, chars: 0, rtlChars: 0, misfit: 0, cutWords: 0 },
  };
  const { box } = table;
  const { counts, positions, sizes } = placement;
  items.forEach((item, index) => {
    if (item.str.length === 0) return;
    const horizontal = (item.angle ?? 0) === 0;
    const x = item.x + (horizontal ? item.width / 2 : 0);
    const y = item.y + (horizontal ? 0.35 * item.fontSize : item.width / 2);
    if (x < box.x0 || x >= box.x1 || y < box.y0 || y >= box.y1) return;
    const at = positionOf(table, x, y);
    if (at === null) return;
    placement.owner.set(index, at[0]);
    if (item.str.trim() === '') return;
    counts.placed++;
    counts.chars += item.str.length;
    if (item.rtl === true) counts.rtlChars += item.str.length;
    // A run is cut only where it crosses into another cell: inside a cell spanning columns it stays whole.
    const cell = table.cells[(table.grid[at[0]] as readonly number[])[at[1]] as number] as PdfBox;
    const spill = item.x < cell.x0 - 1 || item.x + item.width > cell.x1 + 1;
    const pieces = horizontal && spill && crosses(item, table.columns) ? splitAtColumns(item, table.columns) : [item];
    // Text running out of the table, or cut inside its words, is prose beside a drawing, not a table's text.
    const cut = horizontal && cutInsideWords(pieces);
    if (cut) counts.cutWords++;
    if (horizontal && (item.x < box.x0 - 0.5 * item.fontSize || item.x + item.width > box.x1 + 0.5 * item.fontSize || cut)) counts.misfit++;
    for (const piece of pieces) {
      const where = horizontal ? positionOf(table, piece.x + piece.width / 2, y) : at;
      if (where === null) continue;
      ((positions[where[0]] as PdfTextItem[][])[where[1]] as PdfTextItem[]).push(piece);
      const size = Math.round(piece.fontSize * 10) / 10;
      sizes.set(size, (sizes.get(size) ?? 0) + piece.str.length);
    }
  });
  return placement;
}

/** The table's rows without the rows of one cell across the whole table at its top or bottom (a title band, notes). */
function bodyRows(table: RuledTable): { first: number; last: number } {
  const spansAll = (r: number): boolean => new Set(table.grid[r]).size === 1;
  let first = 0;
  let last = table.rows.length - 2;
  while (first <= last && spansAll(first)) first++;
  while (last >= first && spansAll(last)) last--;
  return { first, last };
}

/**
 * True when a grid's rows read as records: two rows at least, one of which (a header at the least) holds two filled
 * cells or more. A grid whose text sits one cell per row is a frame drawn around a page's parts (a letterhead's logo
 * box beside its title box, form fields), and its text is read as the page's text.
 */
function holdsRecords(rows: readonly (readonly string[])[]): boolean {
  if (rows.length < 2) return false;
  return rows.some((row) => {
    let filled = 0;
    for (const text of row) if (text !== '') filled++;
    return filled >= 2;
  });
}

/** The lines of one ruled row's cells, as one row or as the rows their shared baselines make, each with its boxes. */
function splitRow(cells: readonly PdfTextItem[][], gridRow: readonly number[], join: CellJoin): { cells: string[]; boxes: GlyphBox[][] }[] {
  const lines = spreadGroupLabels(cells.map((cellItems) => cellLines(cellItems)), gridRow);
  const baselines = lines.map((cell) => distinctBaselines(cell.map((l) => l.y)));
  const filled = baselines.filter((b) => b.length > 0);
  const stacked = baselines.filter((b) => b.length >= 2);
  const rotated = cells.map((cellItems) => cellItems.filter((i) => (i.angle ?? 0) !== 0));
  const boxesOf = (cellLines: readonly PdfLine[], turned: readonly PdfTextItem[]): GlyphBox[] =>
    unionBoxes([...lineBoxes(cellLines), ...turned.flatMap((i) => (i.glyphs === undefined ? [] : [i.glyphs]))]);
  const one = () => [
    {
      cells: lines.map((cell, k) => cellText(cell, rotated[k] as PdfTextItem[], join)),
      boxes: lines.map((cell, k) => boxesOf(cell, rotated[k] as PdfTextItem[])),
    },
  ];
  if (stacked.length < 2 || stacked.length < 0.5 * filled.length) return one();
  const reference = stacked[0] as number[];
  if (!stacked.every((b) => b.length === reference.length && b.every((y, i) => Math.abs(y - (reference[i] as number)) <= BASELINE))) return one();
  return reference.map((_, i) => {
    const mine = lines.map((cell) => cell.filter((l) => nearestIndex(reference, l.y) === i));
    const turned = (k: number): PdfTextItem[] => (i === 0 ? (rotated[k] as PdfTextItem[]) : []);
    return { cells: mine.map((cellLines, k) => cellText(cellLines, turned(k), join)), boxes: mine.map((cellLines, k) => boxesOf(cellLines, turned(k))) };
  });
}

/**
 * A label set over several columns above their own headers (`Pre-Pawn` over `Handgun`, `Long Gun`, `*Other`, all in
 * one ruled cell spanning the three columns) heads each of them: the cell's top line, when the cell's other lines
 * stand lower in two of its columns or more, is put at the top of every one of those columns, so that each column's
 * header says all it is.
 */
function spreadGroupLabels(lines: PdfLine[][], gridRow: readonly number[]): PdfLine[][] {
  const out = lines.map((cell) => [...cell]);
  const spans = new Map<number, number[]>();
  gridRow.forEach((cell, k) => {
    if (cell >= 0) (spans.get(cell) ?? spans.set(cell, []).get(cell)!).push(k);
  });
  for (const columns of spans.values()) {
    if (columns.length < 2) continue;
    let top = -Infinity;
    for (const k of columns) for (const l of lines[k] as PdfLine[]) top = Math.max(top, l.y);
    const labels = columns.flatMap((k) => (lines[k] as PdfLine[]).filter((l) => top - l.y <= BASELINE));
    const below = columns.filter((k) => (lines[k] as PdfLine[]).some((l) => top - l.y > BASELINE));
    if (labels.length === 0 || below.length < 2) continue;
    for (const k of columns) out[k] = (out[k] as PdfLine[]).filter((l) => !labels.includes(l));
    for (const k of below) (out[k] as PdfLine[]).unshift(...labels);
  }
  return out.map((cell) => cell.sort((a, b) => b.y - a.y || a.x - b.x));
}

/** Sorted (top first) baselines of some lines, those within `BASELINE` of the previous merged. */
function distinctBaselines(ys: readonly number[]): number[] {
  const out: number[] = [];
  for (const y of [...ys].sort((a, b) => b - a)) if (out.length === 0 || (out[out.length - 1] as number) - y > BASELINE) out.push(y);
  return out;
}

function nearestIndex(values: readonly number[], y: number): number {
  let best = 0;
  for (let i = 1; i < values.length; i++) if (Math.abs((values[i] as number) - y) < Math.abs((values[best] as number) - y)) best = i;
  return best;
}

/**
 * A cell's level runs as lines, top to bottom; on one baseline from the left, or from the right when most of the
 * cell's characters are right-to-left text (whose runs must reach `buildLines` in reading order to join).
 */
function cellLines(items: readonly PdfTextItem[]): PdfLine[] {
  const level = items.filter((i) => (i.angle ?? 0) === 0);
  let rtl = 0;
  let all = 0;
  for (const i of level) {
    all += i.str.length;
    if (i.rtl === true) rtl += i.str.length;
  }
  const across = 2 * rtl > all ? (a: { x: number; right: number }, b: { x: number; right: number }) => b.right - a.right : (a: { x: number }, b: { x: number }) => a.x - b.x;
  level.sort((a, b) => b.y - a.y || across({ x: a.x, right: a.x + a.width }, { x: b.x, right: b.x + b.width }));
  return buildLines(level).sort((a, b) => b.y - a.y || across(a, b));
}

/** Leading rows that are a header: those above the first row that is mostly figures (at most three). */
function headerRowCount(rows: readonly (readonly string[])[]): number {
  const figures = (row: readonly string[]): boolean => {
    const filled = row.filter((c) => c !== '');
    const numeric = filled.filter((c) => /^[-+−–(]?[$€£¥]?\s?[\d.,]+%?\)?$|^[-–—]$/u.test(c));
    return filled.length > 0 && numeric.length >= 0.5 * filled.length;
  };
  const data = rows.findIndex(figures);
  return data <= 0 ? 1 : Math.min(3, data);
}

function crosses(item: PdfTextItem, columns: readonly number[]): boolean {
  const right = item.x + item.width;
  for (let k = 1; k < columns.length - 1; k++) {
    const edge = columns[k] as number;
    if (item.x < edge - 0.5 && right > edge + 0.5) return true;
  }
  return false;
}

/** A cell's lines and rotated runs, joined into its text. */
function cellText(lines: readonly PdfLine[], rotated: readonly PdfTextItem[], join: CellJoin): string {
  const parts: string[] = [];
  if (lines.length > 0) parts.push(join(lines));
  // Rotated text (a header set upright) reads along its own baseline, in the order the page gives it.
  if (rotated.length > 0) parts.push(rotated.map((i) => i.str.trim()).filter(Boolean).join(' '));
  return parts.join(' ').replace(/\s+/g, ' ').trim();
}

/** The columns filled in some row: the others (a ruled margin, a spacer column) are dropped. */
function filledColumns(rows: readonly (readonly string[])[]): number[] {
  const width = rows[0]?.length ?? 0;
  const keep: number[] = [];
  for (let k = 0; k < width; k++) if (rows.some((r) => (r[k] ?? '') !== '')) keep.push(k);
  return keep;
}

/** A cell's text made safe inside a pipe table: pipes escaped, on one line. */
export function pipeCell(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\s+/g, ' ').trim();
}

/** One row of a pipe table. */
export function pipeRow(cells: readonly string[]): string {
  return `| ${cells.map(pipeCell).join(' | ')} |`;
}

/** The delimiter row of a pipe table of `columns` columns. */
export function delimiterRow(columns: number): string {
  return `|${' --- |'.repeat(columns)}`;
}
