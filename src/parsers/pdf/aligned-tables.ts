/**
 * Tables without rulings, from text alignment, within a bounded region and only when the columns are clear: a run of
 * consecutive rows (baselines) that each hold three fragments or more, none of them a line of prose, whose columns are
 * separated by vertical strips of white that no fragment of the run crosses (the "rivers" of a table set on a grid),
 * whether its columns are set flush left or, as figures are, flush right, and whose cells hold words or figures (or,
 * beside a column of words, the one mark of a column: a survey's checkboxes). A row of one or two narrow fragments
 * between two rows of the table is a cell's text wrapped onto another line: it joins the row above; one or two lines
 * of heads just above a run that opens with a row of its body are its header. The two columns of a page that no line
 * crosses (the two pages of a spread) are searched apart.
 */
import { isOneGrapheme } from '../../unicode/segmenters.js';
import { findGutter } from './columns.js';
import { lineBoxes, unionBoxes } from './runs.js';
import type { TableGrid } from './tables.js';
import type { GlyphBox, PdfLine } from './types.js';

/** Fewest consecutive rows of a table found from alignment. */
const MIN_ROWS = 4;
/** Fewest columns. */
const MIN_COLUMNS = 3;
/** A fragment wider than this share of the page's text is prose, and ends a run of rows. */
const PROSE_WIDTH = 0.4;
/** Share of a table's cells that hold text. */
const FILLED_SHARE = 0.6;
/** Share of the filled cells that hold a word or a figure of two characters or more, or a column's one mark. */
const WORDED_SHARE = 0.6;
/** Fewest points of white, in font sizes, between two columns. */
const RIVER = 0.8;
/** Most lines above a table's first row that join as its header (column heads wrapped onto two lines). */
const MAX_HEADER_LINES = 2;
/** Words from which a fragment reads as a line of prose rather than a cell (a column of a justified page holds 5–9). */
const PROSE_WORDS = 5;
/** Words in a column's middle cell from which its cells may be lines of prose. */
const PROSE_CELL_WORDS = 4;
/** Share of a column's consecutive cells whose text runs on from one to the next for the column to be prose. */
const RUN_ON_SHARE = 0.5;
/** A row's gap across a gutter no wider than this many times its widest gap beside it: the row bridges the gutter. */
const BRIDGE_GAP = 1.5;
/** Punctuation that separates or fills rather than marks: a transcript's colons, a dash for an empty cell. */
const SEPARATOR = /^[\p{Pd}:;,.|/\\]$/u;
/** A figure: digits with their signs, separators and units, and no letters (`1,200.50`, `$ 0.61`, `12%`). */
const FIGURE = /^[^\p{L}]*\p{N}[^\p{L}]*$/u;

/** A table found from alignment, and the fragments it took. */
export interface AlignedTable {
  readonly grid: TableGrid;
  readonly fragments: ReadonlySet<PdfLine>;
}

/** The rows of fragments of a page: fragments within a third of a font size of one baseline, top first. */
function rowsOf(fragments: readonly PdfLine[]): PdfLine[][] {
  const sorted = [...fragments].filter((f) => f.insert === undefined).sort((a, b) => b.y - a.y || a.x - b.x);
  const rows: PdfLine[][] = [];
  for (const f of sorted) {
    const row = rows[rows.length - 1];
    const first = row?.[0];
    if (first !== undefined && Math.abs(first.y - f.y) <= 0.35 * Math.max(first.fontSize, f.fontSize)) (row as PdfLine[]).push(f);
    else rows.push([f]);
  }
  for (const row of rows) row.sort((a, b) => a.x - b.x);
  return rows;
}

/** Finds the tables a page's fragments set on a grid without rulings. */
export function findAlignedTables(fragments: readonly PdfLine[]): AlignedTable[] {
  if (fragments.length < MIN_ROWS * MIN_COLUMNS) return [];
  let left = Infinity;
  let right = -Infinity;
  for (const f of fragments) {
    left = Math.min(left, f.x);
    right = Math.max(right, f.right);
  }
  const prose = PROSE_WIDTH * (right - left);
  return sidesOf(fragments).flatMap((side) => tablesIn(rowsOf(side), prose));
}

/**
 * The fragments of each column of a page whose gutter no fragment crosses, or all of them as one. Reading order
 * reads such columns apart, so a row of one does not go on in the other even where their baselines line up (a list
 * on the left page of a spread beside a table on the right one). A page whose title or a wide table runs across its
 * gutter is searched whole: a table's own rivers may be wide enough to pass for a gutter.
 */
function sidesOf(fragments: readonly PdfLine[]): (readonly PdfLine[])[] {
  const gutter = findGutter(fragments);
  if (gutter === null || fragments.some((f) => f.x < gutter.end - 0.5 && f.right > gutter.start + 0.5)) return [fragments];
  const left = fragments.filter((f) => f.right <= gutter.start + 0.5);
  const right = fragments.filter((f) => f.x >= gutter.end - 0.5);
  // A table set across the columns of a page (short cells that leave the columns' gutter free) bridges it.
  return rowsOf(fragments).filter((row) => bridges(row, gutter.start)).length >= 2 ? [fragments] : [left, right];
}

/**
 * True when a row (fragments left to right) bridges a gutter at `x`: it has fragments on both sides, at least two on
 * one side, and its gap across the gutter is no wider than its gaps beside it, as the columns of one table are set.
 * The two pages of a spread leave a far wider gap across their gutter than inside either page.
 */
function bridges(row: readonly PdfLine[], x: number): boolean {
  const k = row.findIndex((f) => f.x >= x);
  if (k <= 0 || row.length < 3) return false;
  let beside = 0;
  for (let i = 1; i < row.length; i++) if (i !== k) beside = Math.max(beside, (row[i] as PdfLine).x - (row[i - 1] as PdfLine).right);
  const across = (row[k] as PdfLine).x - (row[k - 1] as PdfLine).right;
  return beside > 0 && across <= BRIDGE_GAP * beside;
}

/** Words in a fragment's text. */
function wordCount(text: string): number {
  return text.split(' ').filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
}

/** True when a row holds two lines of prose or more: a row of a page set in columns, not of a table. */
function isProseRow(row: readonly PdfLine[]): boolean {
  let lines = 0;
  for (const f of row) if (wordCount(f.text) >= PROSE_WORDS && ++lines >= 2) return true;
  return false;
}

/** The tables of the rows of one column of a page; `prose` is the width from which a fragment is a line of prose. */
function tablesIn(rows: readonly PdfLine[][], prose: number): AlignedTable[] {
  const tables: AlignedTable[] = [];
  const narrow = (row: readonly PdfLine[]): boolean => row.every((f) => f.right - f.x <= prose);
  const tabular = (row: readonly PdfLine[]): boolean => row.length >= MIN_COLUMNS && narrow(row) && !isProseRow(row);
  let start = 0;
  // The first row after the last run: the lines above a run are never a table's before it.
  let floor = 0;
  while (start < rows.length) {
    if (!tabular(rows[start] as PdfLine[])) {
      start++;
      continue;
    }
    // The run's rows, wrapped lines of a cell joined to the row above.
    const run: PdfLine[][] = [[...(rows[start] as PdfLine[])]];
    let end = start + 1;
    const wrapped = (row: readonly PdfLine[]): boolean => row.length <= 2 && narrow(row);
    while (end < rows.length && spacing(rows, end)) {
      const row = rows[end] as PdfLine[];
      if (tabular(row)) {
        run.push([...row]);
        end++;
        continue;
      }
      // Wrapped lines belong to the table when a row of it follows them (or the page ends with them).
      let next = end;
      while (next < rows.length && wrapped(rows[next] as PdfLine[]) && (next === end || spacing(rows, next))) next++;
      const follows = next < rows.length && tabular(rows[next] as PdfLine[]) && spacing(rows, next);
      if (next === end || (!follows && next < rows.length)) break;
      for (let k = end; k < next; k++) (run[run.length - 1] as PdfLine[]).push(...(rows[k] as PdfLine[]));
      end = next;
    }
    const table = run.length >= MIN_ROWS ? tableOf(run, linesAbove(rows, start, floor, narrow)) : null;
    if (table !== null) tables.push(table);
    start = end;
    floor = end;
  }
  return tables;
}

/**
 * The rows of narrow fragments just above row `start` (after `floor`), each at a line's step from the one below it,
 * at most MAX_HEADER_LINES, top first: the column heads of a table set over its first row, where they are too few to
 * make a row of it (a survey's heads over its columns of ticks alone).
 */
function linesAbove(rows: readonly PdfLine[][], start: number, floor: number, narrow: (row: readonly PdfLine[]) => boolean): PdfLine[][] {
  let k = start;
  while (k > floor && start - k < MAX_HEADER_LINES && spacing(rows, k) && narrow(rows[k - 1] as PdfLine[])) k--;
  return rows.slice(k, start);
}

/** True when row `k` follows row `k - 1` at about a line's step (a paragraph gap ends a table). */
function spacing(rows: readonly PdfLine[][], k: number): boolean {
  const a = (rows[k - 1] as PdfLine[])[0] as PdfLine;
  const b = (rows[k] as PdfLine[])[0] as PdfLine;
  return a.y - b.y <= 2.4 * Math.max(a.fontSize, b.fontSize);
}

/**
 * The grid of a run of rows, or null when its columns are not clear (too few rivers run through all of it). When the
 * run opens with a row of its body, the lines `above` it (top first) nearest it whose fragments each sit over one
 * column of the grid are its header row, their cells joined top to bottom.
 */
function tableOf(rows: readonly PdfLine[][], above: readonly PdfLine[][]): AlignedTable | null {
  // The white strips every row leaves: the complement of the union of all fragments' extents.
  const spans = rows.flat().map((f) => [f.x, f.right] as [number, number]).sort((a, b) => a[0] - b[0]);
  let size = 0;
  for (const row of rows) for (const f of row) size = Math.max(size, f.fontSize);
  const rivers: number[] = [];
  let reach = (spans[0] as [number, number])[1];
  for (const [x0, x1] of spans.slice(1)) {
    if (x0 - reach >= RIVER * size) rivers.push((x0 + reach) / 2);
    reach = Math.max(reach, x1);
  }
  if (rivers.length < MIN_COLUMNS - 1) return null;
  const cells = rows.map((row) => cellsOf(row, rivers));
  // Clear columns are filled in most rows (a river between two sparse columns is a coincidence of short words), and
  // most cells hold a word or a figure.
  const filled = cells[0]?.map((_, k) => cells.filter((r) => r[k] !== '').length) ?? [];
  if (filled.filter((n) => n >= 0.5 * rows.length).length < MIN_COLUMNS) return null;
  const nonEmpty = cells.flat().filter((c) => c !== '');
  if (nonEmpty.length < FILLED_SHARE * cells.length * (rivers.length + 1)) return null;
  if (!worded(cells) || proseColumns(cells) >= 2) return null;
  const body = rows.flat();
  const head = opensWithBody(cells) ? headOf(above, rivers, Math.min(...body.map((f) => f.x)), Math.max(...body.map((f) => f.right))) : [];
  const all = [...head, ...body];
  const box = {
    x0: Math.min(...all.map((f) => f.x)),
    x1: Math.max(...all.map((f) => f.right)),
    y0: Math.min(...all.map((f) => f.y)) - 0.3 * size,
    y1: Math.max(...all.map((f) => f.y + Math.max(size, f.fontSize))),
  };
  const grid = head.length === 0 ? cells : [cellsOf(head, rivers), ...cells];
  const cellBoxes = [...(head.length === 0 ? [] : [head]), ...rows].map((row) => cellGlyphs(row, rivers));
  const boxes = all.every((f) => f.runs !== undefined) ? { cellBoxes } : {};
  return { grid: { box, rows: grid, headerRows: 1, fontSize: size, ...boxes }, fragments: new Set(all) };
}

/** Where the cells of a row of fragments are drawn, each fragment to the cell under its centre (as `cellsOf`). */
function cellGlyphs(row: readonly PdfLine[], rivers: readonly number[]): GlyphBox[][] {
  const cells = Array.from({ length: rivers.length + 1 }, (): PdfLine[] => []);
  for (const f of row) {
    const centre = (f.x + f.right) / 2;
    let k = 0;
    while (k < rivers.length && centre > (rivers[k] as number)) k++;
    (cells[k] as PdfLine[]).push(f);
  }
  return cells.map((cell) => unionBoxes(lineBoxes(cell)));
}

/** The cells of a row of fragments between the rivers, each fragment by its centre; lines of one cell top first. */
function cellsOf(row: readonly PdfLine[], rivers: readonly number[]): string[] {
  const cells: string[] = new Array<string>(rivers.length + 1).fill('');
  for (const f of [...row].sort((a, b) => b.y - a.y || a.x - b.x)) {
    const centre = (f.x + f.right) / 2;
    let k = 0;
    while (k < rivers.length && centre > (rivers[k] as number)) k++;
    cells[k] = cells[k] === '' ? f.text : `${cells[k]} ${f.text}`;
  }
  return cells;
}

/**
 * True when the first row of a grid is a row of its body, not its header: in some clear column (filled in most rows)
 * it holds what that column holds in every row, the column's mark or a figure in a column of figures, where a header
 * would name the column. Only then are lines above the grid its header; above a grid that opens with its header they
 * are the text before it.
 */
function opensWithBody(cells: readonly (readonly string[])[]): boolean {
  return (cells[0] ?? []).some((cell, k) => {
    const column = cells.map((row) => row[k] ?? '');
    if (cell === '' || column.filter((c) => c !== '').length < 0.5 * cells.length) return false;
    return isMarkColumn(column) || column.every((c) => c === '' || FIGURE.test(c));
  });
}

/**
 * The fragments of the lines `above` a grid (top first) that make its header: the nearest lines whose fragments each
 * stand over the grid, between `x0` and `x1` (overlapping them: a head may be wider than the narrow column under it,
 * centred over it or set from its left edge), and over one column of it, across no river. A line that does not is the
 * text before the table, and so is all above it.
 */
function headOf(above: readonly PdfLine[][], rivers: readonly number[], x0: number, x1: number): PdfLine[] {
  const fits = (f: PdfLine): boolean => f.x < x1 && f.right > x0 && !rivers.some((r) => r > f.x && r < f.right);
  let k = above.length;
  while (k > 0 && (above[k - 1] as PdfLine[]).every(fits)) k--;
  return above.slice(k).flat();
}

/** Two letters or digits, wherever they are in a text. */
const TWO_WORD_CHARS = /[\p{L}\p{N}][^\p{L}\p{N}]*[\p{L}\p{N}]/u;

/** True when a cell holds a word or a figure: two letters or digits or more (found by one search, not counted). */
function isWorded(cell: string): boolean {
  return TWO_WORD_CHARS.test(cell);
}

/**
 * True when a column holds one mark in every cell it fills (a checkbox glyph, an asterisk, a tick): one and the same
 * grapheme throughout, other than punctuation that separates.
 */
function isMarkColumn(column: readonly string[]): boolean {
  const filled = column.filter((c) => c !== '');
  const mark = filled[0];
  return mark !== undefined && isOneGrapheme(mark) && !SEPARATOR.test(mark) && filled.every((c) => c === mark);
}

/**
 * True when most filled cells of a grid hold a word or a figure, a column of marks counting as worded beside a column
 * of words (a survey's checkboxes and ticks against its labels). The labels of a plot do not pass: single digits that
 * vary from row to row, and its points drawn as one symbol beside them but no words; nor do a transcript's line
 * numbers and its colons.
 */
function worded(cells: readonly (readonly string[])[]): boolean {
  const columns = (cells[0] ?? []).map((_, k) => cells.map((row) => row[k] ?? ''));
  const labels = columns.some((column) => column.filter(isWorded).length >= WORDED_SHARE * cells.length);
  let filled = 0;
  let words = 0;
  for (const column of columns) {
    const full = column.filter((c) => c !== '');
    filled += full.length;
    words += labels && isMarkColumn(column) ? full.length : full.filter(isWorded).length;
  }
  return words >= WORDED_SHARE * filled;
}

/** Text that ends a sentence or a clause where a cell may end: a stop, a colon or semicolon, a closing bracket. */
const CELL_END = /[.!?:;)\]]["'”’]?$/u;

/**
 * The columns of a grid whose cells read as lines of prose: lines of several words (the middle cell holds four or
 * more) whose text runs on from each row into the next (a word hyphenated at the line's end, or a line without a stop
 * followed by one that starts in lower case), as the lines of a column of justified prose do. A table's cells each
 * say their own thing (a column of lower-case option names runs on by that test, but its cells are a word or two),
 * and a cell wrapped onto a second line is joined to its row.
 */
function proseColumns(cells: readonly (readonly string[])[]): number {
  let prose = 0;
  for (let k = 0; k < (cells[0]?.length ?? 0); k++) {
    const counts = cells.map((row) => wordCount(row[k] ?? '')).sort((a, b) => a - b);
    if ((counts[Math.floor(counts.length / 2)] ?? 0) < PROSE_CELL_WORDS) continue;
    let pairs = 0;
    let runOn = 0;
    for (let r = 1; r < cells.length; r++) {
      const above = (cells[r - 1] as readonly string[])[k] ?? '';
      const below = (cells[r] as readonly string[])[k] ?? '';
      if (above === '' || below === '') continue;
      pairs++;
      if (/\p{L}-$/u.test(above) || (!CELL_END.test(above) && /^\p{Ll}/u.test(below))) runOn++;
    }
    if (pairs >= 2 && runOn >= RUN_ON_SHARE * pairs) prose++;
  }
  return prose;
}
