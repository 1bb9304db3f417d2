/**
 * Groups of lines → blocks, with offsets into the extracted document text. The extracted text is every emitted
 * block's text, in order, joined by `PDF_BLOCK_SEPARATOR` (`"\n\n"`): block `i` starts two characters after block
 * `i - 1` ends, so `text.slice(b.start, b.end) === b.text` and `startLine`/`endLine` count the line breaks of that
 * text (1-based); `gapBefore` is `"\n\n"` (`''` for the first block). The writer keeps only where the next block
 * starts, never the document text.
 */
import type { Block, ListItemSpan, Span, TextBox } from '../../types.js';
import type { LineGroup } from './layout.js';
import { delimiterRow, pipeCell, pipeRow, type TableGrid } from './tables.js';
import { shiftRun, unionBoxes } from './runs.js';
import { textRun } from './shapes.js';
import { joinLinesAt, type Vocabulary } from './text.js';
import type { GlyphBox, PdfLine, TextRun } from './types.js';

/** What separates two blocks in the extracted document text. */
export const PDF_BLOCK_SEPARATOR = '\n\n';

/** A group of lines placed in the document: the pages it spans and where each next page begins in it. */
export interface PlacedGroup {
  readonly group: LineGroup;
  readonly page: number;
  readonly pageEnd: number;
  /** Index of the first line (or, for a table, grid row) of each next page, for a group run on across pages. */
  readonly breaks?: readonly number[];
  /** Set on a part of a group cut at a page break (see `block-sequence.ts`). */
  readonly part?: GroupPart;
}

/** Where a part of a group cut at a page break stands among its parts. */
export interface GroupPart {
  /** The part continues the group's previous part. */
  readonly previous: boolean;
  /** The group goes on in a next part. */
  readonly next: boolean;
  /** The table's first part, whose header rows head every part. */
  readonly head?: TableGrid;
}

/** Where a block starts in the document text. */
export interface BlockPlace {
  readonly start: number;
  readonly startLine: number;
}

/** Turns placed groups into blocks, one after the other. */
export interface BlockWriter {
  write(placed: PlacedGroup): Block;
}

/** Creates a writer whose first block starts the document; `knows` tells the words hyphenation may join. */
export function createBlockWriter(knows: Vocabulary): BlockWriter {
  const next: { start: number; startLine: number } = { start: 0, startLine: 1 };
  return {
    write(placed) {
      const block = buildBlock(placed, next, knows);
      next.start = block.end + PDF_BLOCK_SEPARATOR.length;
      next.startLine = block.endLine + 2;
      return block;
    },
  };
}

/**
 * The fields every PDF block has, for a block of `text` at `place` whose glyphs `runs` (spans of `text`) are drawn
 * in; a block without runs (a page whose area is unknown) has no boxes.
 */
function baseOf(placed: PlacedGroup, place: BlockPlace, text: string, runs: readonly TextRun[] | undefined) {
  return {
    text,
    start: place.start,
    end: place.start + text.length,
    startLine: place.startLine,
    endLine: place.startLine + countBreaks(text),
    page: placed.page,
    ...(placed.pageEnd !== placed.page ? { pageEnd: placed.pageEnd } : {}),
    gapBefore: place.start === 0 ? '' : PDF_BLOCK_SEPARATOR,
    ...(runs !== undefined && runs.length > 0 ? { boxes: runs.map((r) => textBox(r, place.start)) } : {}),
  };
}

/** Boxes are given to a hundredth of a point: finer says nothing a viewer could draw. */
const round = (v: number): number => Math.round(v * 100) / 100;

/** A run of a block's text as a box with document offsets, the block starting at `start`. */
function textBox(run: TextRun, start: number): TextBox {
  const b = run.box;
  const direction = directionOf(run);
  return {
    page: b.page,
    x: round(b.x),
    y: round(b.y),
    width: round(b.width),
    height: round(b.height),
    start: start + run.start,
    end: start + run.end,
    ...(direction !== undefined ? { direction } : {}),
  };
}

/** How a run's glyphs are laid in its box, when not from left to right (see `TextBox.direction`). */
function directionOf(run: TextRun): TextBox['direction'] {
  const turn = (((run.angle ?? 0) % 360) + 360) % 360;
  if (Math.abs(turn - 90) <= 3) return 'up';
  if (Math.abs(turn - 270) <= 3) return 'down';
  return run.rtl === true ? 'rtl' : undefined;
}

function countBreaks(text: string): number {
  let breaks = 0;
  for (let k = text.indexOf('\n'); k !== -1; k = text.indexOf('\n', k + 1)) breaks++;
  return breaks;
}

/** The block of a placed group starting at `place`, marked as a part when the group was cut at a page break. */
export function buildBlock(placed: PlacedGroup, place: BlockPlace, knows: Vocabulary): Block {
  const block = blockOf(placed, place, knows);
  const part = placed.part;
  if (part === undefined) return block;
  const table = block.kind === 'table';
  const frame = table && part.previous && part.head !== undefined ? tableFrame(part.head) : undefined;
  return { ...block, continuation: { previous: part.previous, next: part.next, cut: table ? 'row' : 'line', ...(frame !== undefined ? { frame } : {}) } };
}

function blockOf(placed: PlacedGroup, place: BlockPlace, knows: Vocabulary): Block {
  const u = placed.group;
  if (u.kind === 'list') return listBlock(placed, place, u.items, u.ordered, knows);
  if (u.kind === 'heading') {
    const { text, runs } = joinLinesAt(u.lines, knows, false);
    return { kind: 'heading', ...baseOf(placed, place, text, runs), depth: u.depth, title: u.title ?? text };
  }
  if (u.kind === 'table') return tableBlock(placed, place, u.grid);
  if (u.kind === 'code') {
    const { text, runs } = codeText(u.lines);
    return { kind: 'code', ...baseOf(placed, place, text, runs), lang: null, meta: null, fence: null };
  }
  const { text, starts, runs } = joinLinesAt(u.lines, knows);
  const pageBreaks = placed.breaks?.map((line) => place.start + (starts[line] as number));
  return { kind: 'paragraph', ...baseOf(placed, place, text, runs), ...(pageBreaks !== undefined ? { pageBreaks } : {}) };
}

/** A list: each item one line of the list text, its own lines joined with spaces. */
function listBlock(placed: PlacedGroup, place: BlockPlace, lines: readonly PdfLine[][], ordered: boolean, knows: Vocabulary): Block {
  const items: ListItemSpan[] = [];
  const texts: string[] = [];
  const runs: TextRun[] = [];
  let boxed = true;
  let at = place.start;
  for (const item of lines) {
    const joined = joinLinesAt(item, knows, false);
    items.push({ start: at, end: at + joined.text.length, items: [] });
    texts.push(joined.text);
    if (joined.runs === undefined) boxed = false;
    else for (const run of joined.runs) runs.push(shiftRun(run, at - place.start));
    at += joined.text.length + 1;
  }
  return { kind: 'list', ...baseOf(placed, place, texts.join('\n'), boxed ? runs : undefined), ordered, items };
}

/** The header and delimiter rows of a table, which head the parts that continue it. */
function tableFrame(head: TableGrid): string {
  return `${pipeRow(headerCells(head))}\n${delimiterRow(head.rows[0]?.length ?? 0)}`;
}

/**
 * A table as a pipe table: its header row, the delimiter row, then its body rows; the pages its rows begin. A part
 * that continues a table cut at a page break holds its body rows only (its header is the continuation's frame).
 */
function tableBlock(placed: PlacedGroup, place: BlockPlace, grid: TableGrid): Block {
  if (placed.part?.previous === true) {
    const rowTexts = grid.rows.map(pipeRow);
    const rows: Span[] = [];
    let at = place.start;
    for (const row of rowTexts) {
      rows.push({ start: at, end: at + row.length });
      at += row.length + 1;
    }
    const pageBreaks = placed.breaks?.map((row) => (rows[row] ?? (rows[rows.length - 1] as Span)).start);
    const text = rowTexts.join('\n');
    const runs = grid.cellBoxes === undefined ? undefined : cellRuns(rows, grid.rows, grid.cellBoxes, place.start);
    return { kind: 'table', ...baseOf(placed, place, text, runs), rows, delimiterRow: { start: place.start, end: place.start }, ...(pageBreaks !== undefined ? { pageBreaks } : {}) };
  }
  const width = grid.rows[0]?.length ?? 0;
  const rowTexts = [pipeRow(headerCells(grid)), ...grid.rows.slice(grid.headerRows).map(pipeRow)];
  const delimiter = delimiterRow(width);
  const rows: Span[] = [];
  let at = place.start;
  rows.push({ start: at, end: at + (rowTexts[0] as string).length });
  at += (rowTexts[0] as string).length + 1;
  const delimiterSpan = { start: at, end: at + delimiter.length };
  at += delimiter.length + 1;
  for (const row of rowTexts.slice(1)) {
    rows.push({ start: at, end: at + row.length });
    at += row.length + 1;
  }
  const text = [rowTexts[0], delimiter, ...rowTexts.slice(1)].join('\n');
  // A break is the index of the grid row each next page begins with; the header rows are not body rows.
  const pageBreaks = placed.breaks?.map((row) => (rows[Math.max(1, row - grid.headerRows + 1)] ?? (rows[rows.length - 1] as Span)).start);
  const boxes = grid.cellBoxes;
  // The header row of the text is the grid's header rows joined column by column: a cell's box holds theirs.
  const head = Math.max(1, grid.headerRows);
  const headBoxes = (grid.rows[0] ?? []).map((_, k) => unionBoxes((boxes ?? []).slice(0, head).flatMap((r) => r[k] ?? [])));
  const runs = boxes === undefined ? undefined : cellRuns(rows, [headerCells(grid), ...grid.rows.slice(grid.headerRows)], [headBoxes, ...boxes.slice(grid.headerRows)], place.start);
  return { kind: 'table', ...baseOf(placed, place, text, runs), rows, delimiterRow: delimiterSpan, ...(pageBreaks !== undefined ? { pageBreaks } : {}) };
}

/**
 * The runs of a table's text rows (document spans, each `pipeRow` of its cells): each cell's span in its row, drawn
 * in that cell's boxes, as spans of the block's text.
 */
function cellRuns(rows: readonly Span[], cells: readonly (readonly string[])[], boxes: readonly (readonly (readonly GlyphBox[])[])[], start: number): TextRun[] {
  const runs: TextRun[] = [];
  rows.forEach((row, i) => {
    // `| a | b |`: a cell's text starts two characters in, and three after the end of the cell before it.
    let at = row.start - start + 2;
    (cells[i] ?? []).forEach((cell, k) => {
      const length = pipeCell(cell).length;
      for (const box of boxes[i]?.[k] ?? []) if (length > 0) runs.push(textRun(at, at + length, box, undefined, undefined));
      at += length + 3;
    });
  });
  return runs;
}

/** The header row of a table: its header rows joined column by column. */
export function headerCells(grid: TableGrid): string[] {
  const head = grid.rows.slice(0, Math.max(1, grid.headerRows));
  return (grid.rows[0] ?? []).map((_, k) => head.map((r) => r[k] ?? '').filter((t) => t !== '').join(' '));
}

/**
 * Code lines, their indentation kept: a fixed-pitch line further right than the first is indented by as many
 * characters (measured from the first line, so that the block starts with its text, as every block does).
 */
function codeText(lines: readonly PdfLine[]): { text: string; runs?: TextRun[] } {
  const left = (lines[0] as PdfLine).x;
  const texts: string[] = [];
  const runs: TextRun[] = [];
  let at = 0;
  for (const l of lines) {
    const width = 0.6 * l.fontSize;
    const indent = width > 0 ? Math.min(40, Math.max(0, Math.round((l.x - left) / width))) : 0;
    for (const run of l.runs ?? []) runs.push(shiftRun(run, at + indent));
    texts.push(' '.repeat(indent) + l.text);
    at += indent + l.text.length + 1;
  }
  return { text: texts.join('\n'), ...(lines.every((l) => l.runs !== undefined) ? { runs } : {}) };
}
