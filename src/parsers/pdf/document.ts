/**
 * The PDF document assembler: pages of text items (and what they draw) in, blocks out, with offsets into the
 * extracted document text.
 *
 * The extracted document text is the text of every emitted block, in order, joined by `PDF_BLOCK_SEPARATOR`
 * (`"\n\n"`): block `i` starts two characters after block `i - 1` ends, so `text.slice(b.start, b.end) === b.text`
 * and `startLine`/`endLine` count the line breaks of that text (1-based); `gapBefore` is `"\n\n"` (`''` for the first
 * block). Offsets are computed as blocks are emitted; the assembler never holds the document text.
 *
 * A page goes through: font names (one font loaded twice is one font), unreadable fonts dropped (a page that is
 * mostly junk gives no text and is counted for OCR), rotated text set apart, ruled tables found and their runs
 * placed into cells, lines and figure labels, running headers and footers, reading order (tables and images cut the
 * page into bands), then groups. Footnotes, mastheads and rotated text are the page's peripheral blocks: they come
 * after its body, so that a paragraph running on from one page to the next is never cut by them.
 *
 * Memory is bounded by a window of pages: a page is laid out once `window` later pages have been written, so that
 * running headers and footers can be recognised from their neighbours. The last paragraph or table of a page is
 * held back until the next page shows whether it runs on.
 */
import type { Block, ListItemSpan, Span } from '../../types.js';
import type { Core } from '../../core.js';
import { orderLines } from './columns.js';
import { createFontRegistry } from './fonts.js';
import { repairLigatureWords } from './ligatures.js';
import { createFurnitureDetector, furnitureCandidates } from './furniture.js';
import { createFontStats, createSizeRanks, matchTitle, type Depth, type OutlineEntry } from './headings.js';
import { continuesParagraph, layoutPage, type LineGroup } from './layout.js';
import { buildLines } from './lines.js';
import { judgeReadability } from './readability.js';
import { levelled, pageDirection, splitRotated, turnGraphics, turnItems } from './rotation.js';
import { looksTabular } from './graphics.js';
import { findAlignedTables } from './aligned-tables.js';
import { findRuledTables } from './ruled-tables.js';
import { delimiterRow, fillRuledTable, pipeRow, type TableGrid } from './tables.js';
import { addWords, joinLines, joinLinesAt } from './text.js';
import type { PdfBox, PdfGraphics, PdfLine, PdfTextItem } from './types.js';

/** What separates two blocks in the extracted document text. */
export const PDF_BLOCK_SEPARATOR = '\n\n';

/** One page of text items, as the PDF reader hands it over. */
export interface PdfPageInput {
  /** 1-based page number. */
  readonly number: number;
  /** The page's runs; the assembler takes them over (it sets their font's face on them). */
  readonly items: readonly PdfTextItem[];
  /** What the page draws, when it was read (tables, figures). */
  readonly graphics?: PdfGraphics;
  /** Names of fonts first seen on this page, by id. */
  readonly fonts?: Readonly<Record<string, string>>;
  /** Right-to-left words the items spell backwards (a ligature's letters swapped by pdf.js), with their spelling. */
  readonly reversedWords?: ReadonlyMap<string, string>;
}

/** Options of `createPdfAssembler`. */
export interface PdfAssemblerOptions {
  /**
   * Outline entries resolved to pages. When enough of them are found in the text of their pages, they are the
   * headings and fonts make none; an outline that matches nothing (a single bookmark named after a file) is ignored.
   */
  readonly outline?: readonly OutlineEntry[];
  /** Pages on each side of a page used as evidence for running headers and footers. Default 6. */
  readonly window?: number;
}

/** The assembler core, with the warnings it gathered. */
export interface PdfAssembler extends Core<PdfPageInput, Block> {
  /**
   * True when what a page draws is worth reading before the page is written (its operator list costs about as much
   * as its text): the page has no text (a scan?), its text looks like a table, or it brings fonts whose names would
   * tell bold headings and one font loaded twice apart, while headings come from fonts.
   */
  needsGraphics(page: { readonly number?: number; readonly items: readonly PdfTextItem[] }): boolean;
  warnings(): string[];
  /** Pages whose text is unreadable (fonts without a Unicode mapping): they gave no text and need OCR. */
  unreadablePages(): number[];
}

/** Most distinct words kept to check hyphenated words against. */
const VOCABULARY_CAP = 500_000;
/** A paragraph held open for the next page stops running on past this many lines, so that memory stays bounded. */
const MAX_OPEN_LINES = 400;
/** A table held open for the next page stops running on past this many rows; the next part repeats its header. */
const MAX_OPEN_ROWS = 2_000;
/** A line must repeat on this many pages of the window to be a running header or footer. */
const FURNITURE_MIN_PAGES = 3;
/** Share of the outline entries at hand that must be found in their pages' text for the outline to give headings. */
const OUTLINE_MIN_SHARE = 0.5;
/**
 * Most pages read only to learn the names of the fonts they bring, and the pages they may be among. A page's
 * operator list was measured at more than twice the cost of its text (some 75 ms against 30 on a 14-page paper), so
 * names are looked up only where a document's fonts mostly first appear: its first pages.
 */
const FONT_LOOKUPS = 3;
const FONT_LOOKUP_PAGES = 10;
/** Share of a page's characters that fonts not yet named must hold to be worth looking up. */
const UNNAMED_SHARE = 0.05;
/** Text of a line that is only a stray mark or two. */
const STRAY = /^[.,;:·'"`´_~\-–—]{1,2}$/u;
/** Fewest outline entries for an outline to give headings: one or two bookmarks (a file name, a title) are a stub. */
const OUTLINE_MIN_ENTRIES = 3;
/** Outline entries at hand before the outline is judged. */
const OUTLINE_EVIDENCE = 3;
/** A footnote or masthead is set at most this share of the body size. */
const SMALL_TEXT = 0.9;

interface OpenGroup {
  group: LineGroup;
  page: number;
  pageEnd: number;
  /** Index of the first line (or, for a table, row) of each next page, for a group run on across pages. */
  breaks?: number[];
}

/** A page waiting for the pages after it. */
interface PendingPage {
  readonly number: number;
  readonly lines: PdfLine[];
  readonly tables: TableGrid[];
  /** Rotated text of the page, turned level, as lines. */
  readonly rotated: PdfLine[];
  /** Where the page paints images: they cut the reading order. */
  readonly images: readonly PdfBox[];
}

/** Creates the assembler. Pages must be written in order. */
export function createPdfAssembler(options: PdfAssemblerOptions = {}): PdfAssembler {
  const window = options.window ?? 6;
  const furniture = createFurnitureDetector({ window, minPages: FURNITURE_MIN_PAGES });
  const stats = createFontStats();
  const ranks = createSizeRanks();
  const fonts = createFontRegistry();
  const vocabulary = new Set<string>();
  const knows = (word: string): boolean => vocabulary.has(word);
  const outline = new Map<number, OutlineEntry[]>();
  for (const entry of options.outline ?? []) {
    const list = outline.get(entry.page);
    if (list === undefined) outline.set(entry.page, [entry]);
    else list.push(entry);
  }
  /** Whether the outline gives the headings: undecided until pages with entries are at hand. */
  const entryTotal = options.outline?.length ?? 0;
  let outlineMode: boolean | null = entryTotal >= OUTLINE_MIN_ENTRIES ? null : false;
  let outlineVerdict: string | null =
    entryTotal > 0 && entryTotal < OUTLINE_MIN_ENTRIES ? `The outline has only ${entryTotal} entr${entryTotal === 1 ? 'y' : 'ies'}: headings come from fonts` : null;
  let carried: OutlineEntry[] = [];
  const missing: string[] = [];
  const unreadable: number[] = [];
  const pending: PendingPage[] = [];
  let open: OpenGroup | null = null;
  /** Peripheral groups of the page the open group ends on: emitted once it is known whether that group runs on. */
  let openPeripheral: OpenGroup[] = [];
  let offset = 0;
  let line = 1;
  let region = 0;

  const emit = (o: OpenGroup): Block => {
    const start = offset;
    const gapBefore = start === 0 ? '' : PDF_BLOCK_SEPARATOR;
    const base = { start, page: o.page, ...(o.pageEnd !== o.page ? { pageEnd: o.pageEnd } : {}), gapBefore };
    let block: Block;
    const u = o.group;
    if (u.kind === 'list') {
      const items: ListItemSpan[] = [];
      const texts: string[] = [];
      let at = start;
      for (const item of u.items) {
        // An item is one line of the list text: its own lines are joined with spaces.
        const text = joinLines(item, knows, false);
        items.push({ start: at, end: at + text.length, items: [] });
        texts.push(text);
        at += text.length + 1;
      }
      const text = texts.join('\n');
      block = { kind: 'list', text, ...base, end: start + text.length, ...lines(text), ordered: u.ordered, items };
    } else if (u.kind === 'heading') {
      const text = joinLines(u.lines, knows, false);
      block = { kind: 'heading', text, ...base, end: start + text.length, ...lines(text), depth: u.depth, title: u.title ?? text };
    } else if (u.kind === 'table') {
      block = tableBlock(u.grid, start, o.breaks, base);
    } else if (u.kind === 'code') {
      const text = codeText(u.lines);
      block = { kind: 'code', text, ...base, end: start + text.length, ...lines(text), lang: null, meta: null, fence: null };
    } else {
      const { text, starts } = joinLinesAt(u.lines, knows);
      const pageBreaks = o.breaks?.map((line) => start + (starts[line] as number));
      block = { kind: 'paragraph', text, ...base, end: start + text.length, ...lines(text), ...(pageBreaks !== undefined ? { pageBreaks } : {}) };
    }
    offset = block.end + PDF_BLOCK_SEPARATOR.length;
    line = block.endLine + 2;
    return block;
  };
  const lines = (text: string): { startLine: number; endLine: number } => {
    let breaks = 0;
    for (let k = text.indexOf('\n'); k !== -1; k = text.indexOf('\n', k + 1)) breaks++;
    return { startLine: line, endLine: line + breaks };
  };
  const tableBlock = (grid: TableGrid, start: number, breaks: number[] | undefined, base: object): Block => {
    const width = grid.rows[0]?.length ?? 0;
    const header = headerCells(grid);
    const body = grid.rows.slice(grid.headerRows);
    const rowTexts = [pipeRow(header), ...body.map(pipeRow)];
    const delimiter = delimiterRow(width);
    const rows: Span[] = [];
    let at = start;
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
    const pageBreaks = breaks?.map((row) => (rows[Math.max(1, row - grid.headerRows + 1)] ?? rows[rows.length - 1] as Span).start);
    return {
      kind: 'table',
      text,
      ...base,
      start,
      end: start + text.length,
      ...lines(text),
      rows,
      delimiterRow: delimiterSpan,
      ...(pageBreaks !== undefined ? { pageBreaks } : {}),
    } as Block;
  };

  /** The outline's headings on a page, once the outline is known to match. */
  const headingsFor = (page: number, ordered: readonly PdfLine[]): Map<number, { depth: Depth; title: string; count: number }> => {
    const found = new Map<number, { depth: Depth; title: string; count: number }>();
    const taken = new Set<number>();
    const entries = [...carried, ...(outline.get(page) ?? [])];
    const stillCarried: OutlineEntry[] = [];
    for (const entry of entries) {
      const match = matchTitle(entry.title, ordered, taken);
      if (match === null) {
        // The entry may point just above its heading, at the end of the previous page.
        if (entry.page === page) stillCarried.push(entry);
        else missing.push(entry.title);
        continue;
      }
      found.set(match.index, { depth: entry.depth, title: entry.title, count: match.count });
      for (let k = 0; k < match.count; k++) taken.add(match.index + k);
    }
    carried = stillCarried;
    return found;
  };

  /**
   * Decides whether the outline gives the headings: enough of the entries of the pages at hand (this one and those
   * after it in the window) must be found in their page's text. The verdict waits for three entries at hand (or all
   * of a shorter outline); until then the outline is trusted, as most are.
   */
  const entryCount = options.outline?.length ?? 0;
  const decideOutline = (page: PendingPage): boolean => {
    if (outlineMode !== null) return outlineMode;
    let tried = 0;
    let found = 0;
    for (const p of [page, ...pending]) {
      for (const entry of outline.get(p.number) ?? []) {
        tried++;
        const next = pending.find((q) => q.number === p.number + 1);
        if (matchTitle(entry.title, p.lines) !== null || (next !== undefined && matchTitle(entry.title, next.lines) !== null)) found++;
      }
    }
    if (tried < Math.min(OUTLINE_EVIDENCE, entryCount) && pending.length > 0) return true;
    if (tried === 0) return false;
    outlineMode = found >= OUTLINE_MIN_SHARE * tried;
    if (!outlineMode) {
      outlineVerdict = `The outline does not match the page text (${found} of the ${tried} entries on pages ${page.number}–${page.number + window} found): headings come from fonts`;
    }
    return outlineMode;
  };

  const processPage = (page: PendingPage): Block[] => {
    // A line of a stray mark or two (a dot left from a figure) bridges gaps that tell paragraphs and headings apart.
    const kept = page.lines.filter((l) => !furniture.isFurniture(page.number, l) && !STRAY.test(l.text));
    const bodySize = stats.bodySize();
    const { body, peripheral } = splitPeripheral(kept, bodySize);
    const inserts: PdfLine[] = [...page.tables.map((t, i) => placeholder(t.box, i, t.fontSize)), ...page.images.map((b) => placeholder(b, -1, 0))];
    const ordered = orderLines([...body, ...inserts], region);
    if (ordered.length > 0) region = (ordered[ordered.length - 1] as PdfLine).region + 1;
    const useOutline = decideOutline(page);
    const layout = layoutPage(ordered, {
      bodySize,
      bodyFont: stats.bodyFont(),
      tables: page.tables,
      ranks,
      ...(useOutline ? { outlineHeadings: headingsFor(page.number, ordered) } : {}),
    });
    // Peripheral text (footnotes, a masthead; rotated text) is laid out on its own, top to bottom: never headings.
    const byTop = (a: PdfLine, b: PdfLine): number => b.y - a.y || a.x - b.x;
    const aside = [
      ...[...peripheral].sort(byTop).map((l) => ({ ...l, region })),
      ...[...page.rotated].sort(byTop).map((l) => ({ ...l, region: region + 1 })),
    ];
    region += 2;
    const asideGroups: LineGroup[] = aside.length === 0 ? [] : layoutPage(aside, { bodySize, bodyFont: stats.bodyFont(), outlineHeadings: new Map() }).groups;
    const groups = layout.groups;
    const out: Block[] = [];
    let u = 0;
    if (open !== null && groups.length > 0) {
      const first = groups[0] as LineGroup;
      const runsOn = layout.firstContinues ? continuation(open, first, layout.firstMargin) : null;
      if (runsOn !== null) {
        // The open group runs on: the previous page's peripheral blocks go first, then the group grows.
        for (const p of openPeripheral) out.push(emit(p));
        openPeripheral = [];
        const breaks = [...(open.breaks ?? [])];
        for (let n = open.pageEnd + 1; n <= page.number; n++) breaks.push(runsOn.at);
        open = { group: runsOn.group, page: open.page, pageEnd: page.number, breaks };
        u = 1;
      }
      if (u < groups.length) {
        out.push(emit(open));
        open = null;
      }
    }
    if (open === null || u === 0) {
      for (const p of openPeripheral) out.push(emit(p));
      openPeripheral = [];
    }
    for (; u < groups.length; u++) {
      const group = groups[u] as LineGroup;
      const next: OpenGroup = { group, page: page.number, pageEnd: page.number };
      if (u === groups.length - 1) open = next;
      else out.push(emit(next));
    }
    const peripheralUnits = asideGroups.map((group): OpenGroup => ({ group, page: page.number, pageEnd: page.number }));
    if (open === null) for (const p of peripheralUnits) out.push(emit(p));
    else openPeripheral.push(...peripheralUnits);
    return out;
  };

  /** The open group grown by `first`, when `first` runs it on; null when it does not. */
  const continuation = (o: OpenGroup, first: LineGroup, margin: number): { group: LineGroup; at: number } | null => {
    if (o.group.kind === 'paragraph' && first.kind === 'paragraph' && o.group.lines.length < MAX_OPEN_LINES) {
      const last = o.group.lines[o.group.lines.length - 1] as PdfLine;
      if (!continuesParagraph(last, first.lines[0] as PdfLine, margin)) return null;
      return { group: { kind: 'paragraph', lines: [...o.group.lines, ...first.lines] }, at: o.group.lines.length };
    }
    if (o.group.kind === 'table' && first.kind === 'table' && o.group.grid.rows.length < MAX_OPEN_ROWS) {
      const grid = joinTables(o.group.grid, first.grid);
      if (grid === null) return null;
      return { group: { kind: 'table', grid, lines: o.group.lines }, at: o.group.grid.rows.length };
    }
    return null;
  };

  const asked = new Set<string>();
  let lookups = 0;

  return {
    needsGraphics(page: { readonly number?: number; readonly items: readonly PdfTextItem[] }) {
      const chars = new Map<string, number>();
      let total = 0;
      for (const item of page.items) {
        const n = visibleLength(item.str);
        if (n === 0) continue;
        total += n;
        chars.set(item.fontName, (chars.get(item.fontName) ?? 0) + n);
      }
      // Right-to-left text may hold ligatures that pdf.js spells backwards; only the glyphs tell which.
      if (total === 0 || looksTabular(page.items) || page.items.some((i) => i.rtl === true)) return true;
      // With an outline, headings come from it, and what fonts are named matters little.
      if (outlineMode !== false || lookups >= FONT_LOOKUPS || (page.number ?? 0) > FONT_LOOKUP_PAGES) return false;
      let unnamed = 0;
      for (const [id, n] of chars) if (!asked.has(id) && !fonts.named(id)) unnamed += n;
      if (unnamed < UNNAMED_SHARE * total) return false;
      lookups++;
      for (const id of chars.keys()) asked.add(id);
      return true;
    },
    write(input) {
      fonts.learn(input.fonts);
      const readability = judgeReadability(input.items);
      if (readability.unreadable) unreadable.push(input.number);
      const items: PdfTextItem[] = [];
      if (!readability.unreadable) {
        for (const item of input.items) {
          if (readability.junkFonts.has(item.fontName)) continue;
          const face = fonts.face(item.fontName);
          // The items were made for this page alone: they take their font's face in place rather than as copies.
          const mutable = item as { fontName: string; monospace?: boolean; bold?: boolean };
          mutable.fontName = face.key;
          mutable.monospace = face.monospace ?? item.monospace ?? false;
          if (face.bold) mutable.bold = true;
          if (input.reversedWords !== undefined && item.rtl === true) (item as { str: string }).str = repairLigatureWords(item.str, input.reversedWords);
          items.push(item);
        }
      }
      // A page whose text is drawn turned (for a page turned back in its viewer) is read in the frame of its text.
      const turn = pageDirection(items);
      const graphics = input.graphics === undefined ? undefined : turnGraphics(input.graphics, turn);
      const { level, rotated } = splitRotated(turnItems(items, turn));
      const tables: TableGrid[] = [];
      const taken = new Set<number>();
      const all = [...level, ...rotated];
      if (graphics !== undefined && graphics.rules.length >= 4) {
        for (const table of findRuledTables(graphics.rules)) {
          const { grid, used } = fillRuledTable(table, all, (cell) => joinLines(cell, knows, false));
          if (grid === null) continue;
          tables.push(grid);
          for (const index of used) taken.add(index);
        }
      }
      const levelFree = level.filter((_, i) => !taken.has(i));
      const rotatedFree = rotated.filter((_, i) => !taken.has(level.length + i));
      const plain = buildLines(levelFree);
      // A box that holds most of the page's text is a page image (a scan under its OCR text) or a frame, not a figure.
      const boxes = figureBoxes(graphics).filter((box) => plain.filter((l) => inside(l, box)).length <= 0.5 * plain.length);
      const figures = boxes.filter((box) => !tables.some((t) => overlaps(t.box, box)));
      const marked = plain.map((l) => (figures.some((box) => inside(l, box)) ? { ...l, figure: true } : l));
      // Tables without rulings, from the alignment of the text left outside tables and figures.
      const aligned = findAlignedTables(marked.filter((l) => l.figure !== true));
      const alignedUsed = new Set<PdfLine>();
      for (const table of aligned) {
        for (const f of table.fragments) alignedUsed.add(f);
        const head = tables.findIndex((t) => heads(t, table.grid));
        if (head === -1) tables.push(table.grid);
        else tables[head] = { ...(tables[head] as TableGrid), rows: [...(tables[head] as TableGrid).rows, ...table.grid.rows], box: spanOf((tables[head] as TableGrid).box, table.grid.box) };
      }
      const fragments = marked.filter((l) => !alignedUsed.has(l));
      const turned = buildLines(levelled(rotatedFree));
      const images = (graphics?.images ?? []).filter((img) => boxes.includes(img));
      furniture.record(input.number, furnitureCandidates(fragments));
      for (const f of fragments) {
        if (f.figure === true) continue;
        stats.add(f);
      }
      const body = stats.bodySize();
      for (const f of fragments) if (f.figure !== true) ranks.add(f, body);
      if (vocabulary.size < VOCABULARY_CAP) addWords(vocabulary, fragments.map((f) => f.text).join('\n'));
      pending.push({ number: input.number, lines: fragments, tables, rotated: turned, images });
      const out: Block[] = [];
      while (pending.length > window) out.push(...processPage(pending.shift() as PendingPage));
      return out;
    },
    end() {
      const out: Block[] = [];
      while (pending.length > 0) out.push(...processPage(pending.shift() as PendingPage));
      if (open !== null) out.push(emit(open));
      open = null;
      for (const p of openPeripheral) out.push(emit(p));
      openPeripheral = [];
      missing.push(...carried.map((e) => e.title));
      carried = [];
      return out;
    },
    warnings() {
      const out: string[] = [];
      if (outlineVerdict !== null) out.push(outlineVerdict);
      if (missing.length > 0) {
        const shown = missing.slice(0, 5).map((t) => JSON.stringify(t)).join(', ');
        out.push(`${missing.length} outline entr${missing.length === 1 ? 'y was' : 'ies were'} not found in the page text: ${shown}${missing.length > 5 ? ', …' : ''}`);
      }
      return out;
    },
    unreadablePages: () => [...unreadable],
  };
}

/** Characters of a string other than whitespace, counted without making a trimmed copy. */
function visibleLength(str: string): number {
  let n = 0;
  for (let i = 0; i < str.length; i++) {
    const c = str.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 10 && c !== 13 && c !== 0xa0) n++;
  }
  return n;
}

/** A line without text that stands in the reading order for a table (its index) or an image (-1). */
function placeholder(box: PdfBox, insert: number, fontSize: number): PdfLine {
  return { text: '', x: box.x0, y: box.y1, right: box.x1, fontSize, fontName: '', fontShare: 1, monospace: false, cells: 1, chars: 0, region: 0, insert };
}

/** The header row of a table: its header rows joined column by column. */
function headerCells(grid: TableGrid): string[] {
  const head = grid.rows.slice(0, Math.max(1, grid.headerRows));
  return (grid.rows[0] ?? []).map((_, k) => head.map((r) => r[k] ?? '').filter((t) => t !== '').join(' '));
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

/**
 * Code lines, their indentation kept: a fixed-pitch line further right than the first is indented by as many
 * characters (measured from the first line, so that the block starts with its text, as every block does).
 */
function codeText(lines: readonly PdfLine[]): string {
  const left = (lines[0] as PdfLine).x;
  return lines
    .map((l) => {
      const width = 0.6 * l.fontSize;
      const indent = width > 0 ? Math.max(0, Math.round((l.x - left) / width)) : 0;
      return ' '.repeat(Math.min(indent, 40)) + l.text;
    })
    .join('\n');
}

/**
 * Footnotes and mastheads: small text at the foot of a column that starts with a note mark, after a gap; small text
 * above the body at the top of the page. They are read after the page's body instead of inside it.
 */
function splitPeripheral(lines: readonly PdfLine[], bodySize: number): { body: PdfLine[]; peripheral: PdfLine[] } {
  if (bodySize <= 0 || lines.length < 4) return { body: [...lines], peripheral: [] };
  let top = -Infinity;
  let bottom = Infinity;
  for (const l of lines) {
    top = Math.max(top, l.y);
    bottom = Math.min(bottom, l.y);
  }
  const height = top - bottom;
  const small = (l: PdfLine): boolean => l.fontSize <= SMALL_TEXT * bodySize && l.insert === undefined;
  const peripheral = new Set<PdfLine>();
  // Footnotes: the lowest lines of the page in small type, starting at a mark, set apart from the body above.
  const byHeight = [...lines].sort((a, b) => a.y - b.y);
  let k = 0;
  while (k < byHeight.length && small(byHeight[k] as PdfLine) && (byHeight[k] as PdfLine).y <= bottom + 0.35 * height) k++;
  const run = byHeight.slice(0, k).reverse();
  const first = run.findIndex((l) => /^(?:\d{1,3}|[*†‡§¶]|[¹²³⁴⁵⁶⁷⁸⁹⁰]+)(?:\s|\p{Lu})/u.test(l.text));
  if (first !== -1 && k < byHeight.length) {
    const above = byHeight[k] as PdfLine;
    const start = run[first] as PdfLine;
    if (above.y - start.y > 1.6 * Math.max(above.fontSize, start.fontSize)) for (const l of run.slice(first)) peripheral.add(l);
  }
  // A masthead: at most three lines in small type at the very top, set apart from what follows.
  const fromTop = [...lines].sort((a, b) => b.y - a.y);
  let m = 0;
  while (m < fromTop.length && m < 4 && small(fromTop[m] as PdfLine)) m++;
  if (m > 0 && m <= 3 && m < fromTop.length) {
    const last = fromTop[m - 1] as PdfLine;
    const next = fromTop[m] as PdfLine;
    if (last.y - next.y > 1.6 * Math.max(last.fontSize, next.fontSize) && !small(next)) for (const l of fromTop.slice(0, m)) peripheral.add(l);
  }
  if (peripheral.size === 0) return { body: [...lines], peripheral: [] };
  return { body: lines.filter((l) => !peripheral.has(l)), peripheral: lines.filter((l) => peripheral.has(l)) };
}

/** Least area (square points) of a figure: smaller drawings are rules, marks and decorations. */
const FIGURE_AREA = 2_500;
/** Drawings within this distance (points) of one another are one figure. */
const FIGURE_GAP = 6;

/** The boxes of a page's figures: images, and vector drawings merged where they touch, large enough to hold labels. */
function figureBoxes(graphics: PdfGraphics | undefined): PdfBox[] {
  if (graphics === undefined) return [];
  const boxes: PdfBox[] = [];
  for (const d of graphics.drawings) {
    let box = d;
    for (let k = boxes.length - 1; k >= 0; k--) {
      const other = boxes[k] as PdfBox;
      if (box.x0 > other.x1 + FIGURE_GAP || other.x0 > box.x1 + FIGURE_GAP || box.y0 > other.y1 + FIGURE_GAP || other.y0 > box.y1 + FIGURE_GAP) continue;
      box = { x0: Math.min(box.x0, other.x0), y0: Math.min(box.y0, other.y0), x1: Math.max(box.x1, other.x1), y1: Math.max(box.y1, other.y1) };
      boxes.splice(k, 1);
    }
    boxes.push(box);
    if (boxes.length > 500) break;
  }
  return [...boxes, ...graphics.images].filter((b) => (b.x1 - b.x0) * (b.y1 - b.y0) >= FIGURE_AREA);
}

/**
 * True when a ruled table is the header of a table found below it from alignment: it ends just above, holds only
 * header rows, and has as many columns.
 */
function heads(ruled: TableGrid, aligned: TableGrid): boolean {
  const gap = ruled.box.y0 - aligned.box.y1;
  return gap >= -2 && gap <= 3 * aligned.fontSize && ruled.rows.length <= ruled.headerRows + 1 && (ruled.rows[0]?.length ?? 0) === (aligned.rows[0]?.length ?? -1);
}

function spanOf(a: PdfBox, b: PdfBox): PdfBox {
  return { x0: Math.min(a.x0, b.x0), y0: Math.min(a.y0, b.y0), x1: Math.max(a.x1, b.x1), y1: Math.max(a.y1, b.y1) };
}

function overlaps(a: PdfBox, b: PdfBox): boolean {
  return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
}

/** True when a line lies inside a box (its baseline and its extent, within a point). */
function inside(line: PdfLine, box: PdfBox): boolean {
  return line.x >= box.x0 - 1 && line.right <= box.x1 + 1 && line.y >= box.y0 - 1 && line.y <= box.y1 + 1;
}
