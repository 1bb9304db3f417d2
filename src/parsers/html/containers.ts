/**
 * The blocks that hold other blocks: a list (items, nested lists), a table (rows of cells, its header row) and a
 * quote. Whatever an element inside them holds (paragraphs, code, a nested table) is laid out into their text,
 * the way the Markdown reader keeps a list or a quote one block. A long list or table is given in parts cut
 * between top-level items or rows, each part of a table framed by its header row for the embedder.
 */
import type { ListItemSpan, Span } from '../../types.js';
import type { DraftBlock, Region } from './document.js';
import { FlowText } from './flow-text.js';

/** A part of a construct is given once its text passes this many UTF-16 units. */
export const PART_SIZE = 32 * 1024;

/** What every container knows of itself. */
interface ContainerBase {
  readonly region: Region;
  readonly sourceStart: number;
  /** The depth of its element on the stack of open elements. */
  readonly depth: number;
  readonly images: string[];
  readonly codeLangs: string[];
  /** A table or list was laid out inside it. */
  nestedTable: boolean;
  nestedList: boolean;
  /** Parts already given: the next one continues them. */
  parts: number;
}

/** A list being read. */
export interface ListContainer extends ContainerBase {
  readonly kind: 'list';
  readonly flow: FlowText;
  readonly ordered: boolean;
  /** The open lists, outermost first, with the number of the next item. */
  readonly lists: { ordered: boolean; next: number }[];
  /** The open items, outermost first: where each starts and the items nested in it. */
  readonly open: { start: number; items: ListItemSpan[] }[];
  /** The top-level items of the current part. */
  items: ListItemSpan[];
}

/** A table being read. */
export interface TableContainer extends ContainerBase {
  readonly kind: 'table';
  /** Rows of the current part, each its cells' texts; the first row of the table is its header. */
  rows: { cells: string[] }[];
  row: { cells: string[] } | null;
  cell: FlowText | null;
  /** Tables nested in a cell: their rows and cells are laid out as text. */
  nested: number;
  /** The header and delimiter rows, once a part has been given: every later part is framed by them. */
  frame: string | null;
  /** The columns of the header row. */
  columns: number;
  /** The caption's text; `inCaption` while the `caption` element is open. */
  caption: FlowText | null;
  inCaption: boolean;
  /** Text of the current part so far (rows are joined as they end). */
  length: number;
}

/** A quote being read. */
export interface QuoteContainer extends ContainerBase {
  readonly kind: 'blockquote';
  readonly flow: FlowText;
  /** The lists open in it, outermost first, with the number of the next item: laid out as a list's items are. */
  readonly lists: { ordered: boolean; next: number }[];
}

export type Container = ListContainer | TableContainer | QuoteContainer;

function base(region: Region, sourceStart: number, depth: number): ContainerBase {
  return { region, sourceStart, depth, images: [], codeLangs: [], nestedTable: false, nestedList: false, parts: 0 };
}

export function createList(ordered: boolean, start: number, region: Region, sourceStart: number, depth: number): ListContainer {
  return { ...base(region, sourceStart, depth), kind: 'list', flow: new FlowText(), ordered, lists: [{ ordered, next: start }], open: [], items: [] };
}

export function createTable(region: Region, sourceStart: number, depth: number): TableContainer {
  return { ...base(region, sourceStart, depth), kind: 'table', rows: [], row: null, cell: null, nested: 0, frame: null, columns: 0, caption: null, inCaption: false, length: 0 };
}

export function createQuote(region: Region, sourceStart: number, depth: number): QuoteContainer {
  const flow = new FlowText();
  flow.pushIndent('> ');
  return { ...base(region, sourceStart, depth), kind: 'blockquote', flow, lists: [] };
}

/** The flow text new text of `container` goes to (a table's current cell, opened when text comes outside one). */
export function flowOf(container: Container): FlowText {
  if (container.kind !== 'table') return container.flow;
  if (container.inCaption && container.caption !== null) return container.caption;
  if (container.cell === null) {
    container.row ??= { cells: [] };
    container.cell = new FlowText();
  }
  return container.cell;
}

/** The features of a container's block. */
function featuresOf(container: Container): DraftBlock['features'] {
  const features = {
    ...(container.images.length > 0 ? { images: [...container.images] } : {}),
    ...(container.codeLangs.length > 0 ? { codeLangs: [...container.codeLangs] } : {}),
    ...(container.nestedTable ? { table: true } : {}),
    ...(container.nestedList && container.kind !== 'list' ? { list: true } : {}),
  };
  return Object.keys(features).length > 0 ? features : undefined;
}

/** The continuation of a part: it follows the parts before, and more come when `next`. */
function continuation(container: Container, next: boolean, cut: 'item' | 'row', frame?: string): DraftBlock['continuation'] {
  if (container.parts === 0 && !next) return undefined;
  return { previous: container.parts > 0, next, ...(container.parts > 0 ? { cut, ...(frame !== undefined ? { frame } : {}) } : {}) };
}

// Lists.

/** A list item starts: a new line with its marker. */
export function startItem(list: ListContainer, name: string): void {
  const marker = writeMarker(list.flow, list.lists, name);
  list.open.push({ start: list.flow.text.length - marker, items: [] });
}

/**
 * Writes the marker of the next item of the innermost open list (`1. `, `- `, or an indent for a `dd`) on a new
 * line, and indents the item's later lines under it; returns the marker's length.
 */
function writeMarker(flow: FlowText, lists: { ordered: boolean; next: number }[], name: string): number {
  const current = lists.at(-1) as { ordered: boolean; next: number };
  const marker = name === 'dd' ? '  ' : current.ordered ? `${current.next++}. ` : '- ';
  flow.newLine();
  flow.writeMarkup(marker);
  flow.pushIndent(' '.repeat(marker.length));
  return marker.length;
}

/** A list item ends. */
export function endItem(list: ListContainer): void {
  const item = list.open.pop();
  if (item === undefined) return;
  list.flow.popIndent();
  const span: ListItemSpan = { start: item.start, end: Math.max(item.start, list.flow.text.length), items: item.items };
  const parent = list.open.at(-1);
  if (parent !== undefined) parent.items.push(span);
  else list.items.push(span);
}

/** The part of `list` read so far, when it has passed the part size at a top-level item boundary. */
export function takeListPart(list: ListContainer, sourceEnd: number): DraftBlock | null {
  if (list.open.length > 0 || list.flow.text.length <= PART_SIZE || list.items.length === 0) return null;
  return listDraft(list, sourceEnd, true);
}

/** The list's draft (a part when more follows); the flow starts again empty. */
export function listDraft(list: ListContainer, sourceEnd: number, more: boolean): DraftBlock | null {
  const text = list.flow.text.trimEnd();
  const draft: DraftBlock | null =
    text.trim() === ''
      ? null
      : {
          kind: 'list',
          text,
          sourceStart: list.sourceStart,
          sourceEnd,
          region: list.region,
          ordered: list.ordered,
          items: list.items.map((item) => clampItem(item, text.length)),
          ...withFeatures(featuresOf(list)),
          ...withContinuation(continuation(list, more, 'item')),
          ...(list.parts > 0 ? { gap: '\n' } : {}),
        };
  list.parts += draft === null ? 0 : 1;
  list.flow.text = '';
  list.flow.anchors.length = 0;
  list.flow.settle();
  list.items = [];
  return draft;
}

function clampItem(item: ListItemSpan, length: number): ListItemSpan {
  return { start: Math.min(item.start, length), end: Math.min(item.end, length), items: item.items.map((i) => clampItem(i, length)) };
}

// Tables.

/** `|` in a cell would end it: escaped, as GFM reads `\|`. */
function pipeCell(text: string): string {
  return text.replace(/\s+/g, ' ').trim().replaceAll('|', '\\|');
}

function pipeRow(cells: readonly string[], columns: number): string {
  const padded = cells.length >= columns ? cells : [...cells, ...Array.from({ length: columns - cells.length }, () => '')];
  return `| ${padded.map(pipeCell).join(' | ')} |`;
}

function delimiterRow(columns: number): string {
  return `|${' --- |'.repeat(Math.max(1, columns))}`;
}

/** A cell ends: its text joins the row. */
export function endCell(table: TableContainer): void {
  if (table.cell === null) return;
  table.row ??= { cells: [] };
  table.row.cells.push(table.cell.text);
  table.cell = null;
}

/** A row ends: it joins the table. */
export function endRow(table: TableContainer): void {
  endCell(table);
  const row = table.row;
  table.row = null;
  if (row === null || row.cells.length === 0) return;
  if (table.rows.length === 0 && table.frame === null) table.columns = row.cells.length;
  table.rows.push(row);
  table.length += row.cells.reduce((sum, cell) => sum + cell.length + 3, 2);
}

/** The part of `table` read so far, once it has passed the part size (cut between rows). */
export function takeTablePart(table: TableContainer, sourceEnd: number): DraftBlock | null {
  if (table.length <= PART_SIZE || table.rows.length < 2) return null;
  return tableDraft(table, sourceEnd, true);
}

/** The table's draft (a part when more follows): pipe rows, the first the header, the delimiter row after it. */
export function tableDraft(table: TableContainer, sourceEnd: number, more: boolean): DraftBlock | null {
  const rows = table.rows;
  table.rows = [];
  table.length = 0;
  if (rows.length === 0) return null;
  const lines: string[] = [];
  const spans: Span[] = [];
  let at = 0;
  const add = (line: string, isRow: boolean): void => {
    if (lines.length > 0) at += 1;
    if (isRow) spans.push({ start: at, end: at + line.length });
    lines.push(line);
    at += line.length;
  };
  const columns = Math.max(table.columns, 1);
  let delimiter: Span = { start: 0, end: 0 };
  const first = table.frame === null;
  rows.forEach((row, i) => {
    add(pipeRow(row.cells, columns), true);
    if (i === 0 && first) {
      add(delimiterRow(columns), false);
      delimiter = { start: at - (lines.at(-1) as string).length, end: at };
    }
  });
  const frame = table.frame ?? undefined;
  const draft: DraftBlock = {
    kind: 'table',
    text: lines.join('\n'),
    sourceStart: table.sourceStart,
    sourceEnd,
    region: table.region,
    rows: spans,
    delimiterRow: delimiter,
    ...withFeatures(featuresOf(table)),
    ...withContinuation(continuation(table, more, 'row', frame)),
    ...(table.parts > 0 ? { gap: '\n' } : {}),
  };
  if (first) table.frame = `${lines[0]}\n${lines[1]}`;
  table.parts++;
  return draft;
}

// Quotes.

/** A list starts in a quote: its items will be numbered or marked as a list's, on lines of their own. */
export function startQuoteList(quote: QuoteContainer, ordered: boolean, start: number): void {
  quote.nestedList = true;
  quote.lists.push({ ordered, next: start });
  quote.flow.lineBreak();
}

/** A list of a quote ends: what follows a nested list is a new line of its item, after the outermost a new paragraph. */
export function endQuoteList(quote: QuoteContainer): void {
  quote.lists.pop();
  if (quote.lists.length > 0) quote.flow.lineBreak();
  else quote.flow.paragraphBreak();
}

/** An item of a quote's list starts: its marker, and its lines indented under it. */
export function startQuoteItem(quote: QuoteContainer, name: string): void {
  writeMarker(quote.flow, quote.lists, name);
}

/** An item of a quote's list ends: the next one starts a line of its own, as in a tight list. */
export function endQuoteItem(quote: QuoteContainer): void {
  quote.flow.popIndent();
  quote.flow.lineBreak();
}

/** The quote's draft. */
export function quoteDraft(quote: QuoteContainer, sourceEnd: number): DraftBlock | null {
  const text = quote.flow.text.trimEnd();
  if (text.replace(/^>/gm, '').trim() === '') return null;
  return { kind: 'blockquote', text, sourceStart: quote.sourceStart, sourceEnd, region: quote.region, ...withFeatures(featuresOf(quote)) };
}

function withFeatures(features: DraftBlock['features']): { features?: NonNullable<DraftBlock['features']> } {
  return features === undefined ? {} : { features };
}

function withContinuation(c: DraftBlock['continuation']): { continuation?: NonNullable<DraftBlock['continuation']> } {
  return c === undefined ? {} : { continuation: c };
}
