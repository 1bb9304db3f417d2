/**
 * The order blocks leave the PDF reader in. A page's last paragraph or table is held back until the next page shows
 * whether it runs on (a paragraph continued over the page break, a table whose rows go on); the page's peripheral
 * groups (footnotes, a masthead, rotated text) come after its body, so that they never cut such a paragraph.
 */
import type { PlacedGroup } from './block-writer.js';
import { continuesParagraph, type LineGroup, type PageLayout } from './layout.js';
import type { TableGrid } from './tables.js';
import type { PdfLine } from './types.js';

/** A paragraph held open for the next page stops running on past this many lines, so that memory stays bounded. */
const MAX_OPEN_LINES = 400;
/** A table held open for the next page stops running on past this many rows; the next part repeats its header. */
const MAX_OPEN_ROWS = 2_000;

/** One page's groups, as the sequence takes them. */
export interface PageGroups {
  readonly number: number;
  readonly layout: PageLayout;
  /** The page's peripheral groups, read after its body. */
  readonly aside: readonly LineGroup[];
}

/** Orders the groups of pages written one after the other. */
export interface BlockSequence {
  /** Takes a page's groups; returns the groups whose place is settled, in order. */
  page(page: PageGroups): PlacedGroup[];
  /** Returns what is still held back, once the last page is written. */
  end(): PlacedGroup[];
}

/** Creates an empty sequence. */
export function createBlockSequence(): BlockSequence {
  /** The group held for the next page, and the peripheral groups of the page it ends on, which wait for it. */
  const held: { open: PlacedGroup | null; peripheral: PlacedGroup[] } = { open: null, peripheral: [] };
  return {
    page(page) {
      const out: PlacedGroup[] = [];
      const groups = page.layout.groups;
      let u = 0;
      const open = held.open;
      if (open !== null && groups.length > 0) {
        const runsOn = page.layout.firstContinues ? runOn(open, groups[0] as LineGroup, page.layout.firstMargin) : null;
        if (runsOn !== null) {
          // The open group runs on: the previous page's peripheral groups go first, then the group grows.
          out.push(...held.peripheral.splice(0));
          const breaks = [...(open.breaks ?? [])];
          for (let n = open.pageEnd + 1; n <= page.number; n++) breaks.push(runsOn.at);
          held.open = { group: runsOn.group, page: open.page, pageEnd: page.number, breaks };
          u = 1;
        }
        if (u < groups.length) {
          out.push(held.open as PlacedGroup);
          held.open = null;
        }
      }
      if (held.open === null || u === 0) out.push(...held.peripheral.splice(0));
      for (; u < groups.length; u++) {
        const next: PlacedGroup = { group: groups[u] as LineGroup, page: page.number, pageEnd: page.number };
        if (u === groups.length - 1) held.open = next;
        else out.push(next);
      }
      const aside = page.aside.map((group): PlacedGroup => ({ group, page: page.number, pageEnd: page.number }));
      if (held.open === null) out.push(...aside);
      else held.peripheral.push(...aside);
      return out;
    },
    end() {
      const out = held.open === null ? [] : [held.open];
      held.open = null;
      out.push(...held.peripheral.splice(0));
      return out;
    },
  };
}

/** The open group grown by `first`, when `first` runs it on; null when it does not. */
function runOn(open: PlacedGroup, first: LineGroup, margin: number): { group: LineGroup; at: number } | null {
  const group = open.group;
  if (group.kind === 'paragraph' && first.kind === 'paragraph' && group.lines.length < MAX_OPEN_LINES) {
    const last = group.lines[group.lines.length - 1] as PdfLine;
    if (!continuesParagraph(last, first.lines[0] as PdfLine, margin)) return null;
    return { group: { kind: 'paragraph', lines: [...group.lines, ...first.lines] }, at: group.lines.length };
  }
  if (group.kind === 'table' && first.kind === 'table' && group.grid.rows.length < MAX_OPEN_ROWS) {
    const grid = joinTables(group.grid, first.grid);
    if (grid === null) return null;
    return { group: { kind: 'table', grid, lines: group.lines }, at: group.grid.rows.length };
  }
  return null;
}

/**
 * The rows of `next` appended to `table` when `next` continues it on the next page: the same number of columns; a
 * header row printed again at the top of the page is dropped. Null when `next` is another table.
 */
function joinTables(table: TableGrid, next: TableGrid): TableGrid | null {
  const width = table.rows[0]?.length ?? 0;
  if ((next.rows[0]?.length ?? 0) !== width) return null;
  const header = table.rows.slice(0, table.headerRows).map((r) => r.join('\u0000'));
  let rows = next.rows;
  while (rows.length > 0 && header.includes((rows[0] as readonly string[]).join('\u0000'))) rows = rows.slice(1);
  const box = { x0: Math.min(table.box.x0, next.box.x0), y0: next.box.y0, x1: Math.max(table.box.x1, next.box.x1), y1: table.box.y1 };
  return { ...table, box, rows: [...table.rows, ...rows] };
}
