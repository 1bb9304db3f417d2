/**
 * The order blocks leave the PDF reader in. A page's last paragraph or table is held back until the next page shows
 * whether it runs on (a paragraph continued over the page break, a table whose rows go on); the page's peripheral
 * groups (footnotes, a masthead, rotated text) come after its body, so that they never cut such a paragraph.
 */
import type { PlacedGroup } from './block-writer.js';
import { continuesParagraph, type LineGroup, type PageLayout } from './layout.js';
import { appendRows, rowsFrom, type TableGrid } from './tables.js';
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

/**
 * Creates an empty sequence. Blocks leave it in page order: no block of a page comes before a block of an earlier
 * page, whatever is held back. A group running on from page to page grows while nothing comes between; when the
 * page it ends on has peripheral groups, which must come before the next page's text, the group is cut at the page
 * break: its next part is a block of its own that continues it (a table's next part repeats its header).
 */
export function createBlockSequence(): BlockSequence {
  /** The group held for the next page, and the peripheral groups of the page it ends on, which wait for it. */
  const held: { open: PlacedGroup | null; waiting: PlacedGroup[] } = { open: null, waiting: [] };
  /** Emits the held group (saying whether a part of it follows) and what waited for it. */
  const settle = (out: PlacedGroup[], goesOn: boolean): void => {
    const open = held.open;
    if (open !== null) out.push(goesOn ? { ...open, part: { ...open.part, previous: open.part?.previous ?? false, next: true } } : open);
    held.open = null;
    out.push(...held.waiting.splice(0));
  };
  return {
    page(page) {
      const out: PlacedGroup[] = [];
      const groups = page.layout.groups;
      let u = 0;
      const open = held.open;
      if (open !== null && groups.length > 0 && page.layout.firstContinues) {
        const first = groups[0] as LineGroup;
        const runsOn = runOn(open, first, page.layout.firstMargin);
        if (runsOn !== null && (held.waiting.length === 0 || open.page === open.pageEnd)) {
          // What waits comes from the page the group starts on: it goes first, then the group grows.
          out.push(...held.waiting.splice(0));
          const breaks = [...(open.breaks ?? [])];
          for (let n = open.pageEnd + 1; n <= page.number; n++) breaks.push(runsOn.at);
          held.open = grown(open, runsOn.group, page.number, breaks);
          u = 1;
        } else if (runsOn !== null) {
          const part = partOf(open, first);
          settle(out, part !== null);
          if (part !== null) held.open = { group: part, page: page.number, pageEnd: page.number, part: { previous: true, next: false, head: open.part?.head ?? headOf(open.group) } };
          u = 1;
        }
      }
      // A page that does not run the held group on (or holds no text) settles it.
      if (u === 0 || u < groups.length) settle(out, false);
      for (; u < groups.length; u++) {
        const next: PlacedGroup = { group: groups[u] as LineGroup, page: page.number, pageEnd: page.number };
        if (u === groups.length - 1) held.open = next;
        else out.push(next);
      }
      const aside = page.aside.map((group): PlacedGroup => ({ group, page: page.number, pageEnd: page.number }));
      if (held.open === null) out.push(...aside);
      else held.waiting.push(...aside);
      return out;
    },
    end() {
      const out: PlacedGroup[] = [];
      settle(out, false);
      return out;
    },
  };
}

/**
 * `open` run on to page `pageEnd`. Built as one literal of fixed fields rather than as `{ ...open, … }`: a spread
 * copy gets a hidden class of its own that V8 cannot share, so every group run on had a new one, and the layout code
 * that reads groups was compiled again and again for them.
 */
function grown(open: PlacedGroup, group: LineGroup, pageEnd: number, breaks: readonly number[]): PlacedGroup {
  return { group, page: open.page, pageEnd, breaks, part: open.part };
}

/** The header of a table group (its grid's header rows), for the parts that continue it. */
function headOf(group: LineGroup): TableGrid | undefined {
  return group.kind === 'table' ? group.grid : undefined;
}

/**
 * The group `first` makes as the next part of `open`: a table's header printed again on the new page dropped. Null
 * when nothing is left of it (the page printed the header alone).
 */
function partOf(open: PlacedGroup, first: LineGroup): LineGroup | null {
  if (open.group.kind !== 'table' || first.kind !== 'table') return first;
  const { cellBoxes: _boxes, ...grid } = first.grid;
  const rest = rowsFrom(first.grid, repeatedHeader(open.part?.head ?? open.group.grid, first.grid));
  return rest.rows.length === 0 ? null : { ...first, grid: { ...grid, ...rest, headerRows: 0 } };
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
    const grid = joinTables(group.grid, first.grid, open.part?.head ?? group.grid);
    if (grid === null) return null;
    return { group: { kind: 'table', grid, lines: group.lines }, at: group.grid.rows.length };
  }
  return null;
}

/**
 * The rows of `next` appended to `table` when `next` continues it on the next page: the same number of columns; a
 * header row of `head` (the table's first part) printed again at the top of the page is dropped. Null when `next`
 * is another table.
 */
function joinTables(table: TableGrid, next: TableGrid, head: TableGrid): TableGrid | null {
  const width = table.rows[0]?.length ?? 0;
  if ((next.rows[0]?.length ?? 0) !== width) return null;
  const box = { x0: Math.min(table.box.x0, next.box.x0), y0: next.box.y0, x1: Math.max(table.box.x1, next.box.x1), y1: table.box.y1 };
  const rest = rowsFrom(next, repeatedHeader(head, next));
  return appendRows(table, rest.rows, rest.cellBoxes, box);
}

/** How many rows at the top of `next` are the header rows of `head` (the table's first part) printed again. */
function repeatedHeader(head: TableGrid, next: TableGrid): number {
  const header = head.rows.slice(0, head.headerRows).map((r) => r.join('\u0000'));
  let k = 0;
  while (k < next.rows.length && header.includes((next.rows[k] as readonly string[]).join('\u0000'))) k++;
  return k;
}
