/**
 * The PDF document assembler: pages of text items in, blocks out, with offsets into the extracted document text.
 *
 * The extracted document text is the text of every emitted block, in order, joined by `PDF_BLOCK_SEPARATOR`
 * (`"\n\n"`): block `i` starts two characters after block `i - 1` ends, so `text.slice(b.start, b.end) === b.text`
 * and `startLine`/`endLine` count the line breaks of that text (1-based); `gapBefore` is `"\n\n"` (`''` for the first
 * block). Offsets are computed as blocks are emitted;
 * the assembler never holds the document text.
 *
 * Memory is bounded by a window of pages: a page is laid out once `window` later pages have been written, so that
 * running headers and footers can be recognised from their neighbours. The last paragraph of a page is held back
 * until the next page shows whether it runs on.
 */
import type { Block, ListItemSpan } from '../../types.js';
import type { Core } from '../../core.js';
import { orderLines } from './columns.js';
import { createFurnitureDetector, furnitureCandidates } from './furniture.js';
import { createFontStats, matchTitle, type Depth, type OutlineEntry } from './headings.js';
import { continuesParagraph, layoutPage, type Unit } from './layout.js';
import { buildLines } from './lines.js';
import { addWords, joinLines, joinLinesAt } from './text.js';
import type { PdfLine, PdfTextItem } from './types.js';

/** What separates two blocks in the extracted document text. */
export const PDF_BLOCK_SEPARATOR = '\n\n';

/** One page of text items, as the PDF reader hands it over. */
export interface PdfPageInput {
  /** 1-based page number. */
  readonly number: number;
  readonly items: readonly PdfTextItem[];
}

/** Options of `createPdfAssembler`. */
export interface PdfAssemblerOptions {
  /** Outline entries resolved to pages. When non-empty, they are the headings and fonts make none. */
  readonly outline?: readonly OutlineEntry[];
  /** Pages on each side of a page used as evidence for running headers and footers. Default 6. */
  readonly window?: number;
}

/** The assembler core, with the warnings it gathered. */
export interface PdfAssembler extends Core<PdfPageInput, Block> {
  warnings(): string[];
}

/** Most distinct words kept to check hyphenated words against. */
const VOCABULARY_CAP = 500_000;
/** A paragraph held open for the next page stops running on past this many lines, so that memory stays bounded. */
const MAX_OPEN_LINES = 400;
/** A line must repeat on this many pages of the window to be a running header or footer. */
const FURNITURE_MIN_PAGES = 3;

interface OpenUnit {
  unit: Unit;
  page: number;
  pageEnd: number;
  /** Index of the first line of each next page, for a paragraph run on across pages. */
  breaks?: number[];
}

/** Creates the assembler. Pages must be written in order. */
export function createPdfAssembler(options: PdfAssemblerOptions = {}): PdfAssembler {
  const window = options.window ?? 6;
  const furniture = createFurnitureDetector({ window, minPages: FURNITURE_MIN_PAGES });
  const stats = createFontStats();
  const vocabulary = new Set<string>();
  const knows = (word: string): boolean => vocabulary.has(word);
  const outline = new Map<number, OutlineEntry[]>();
  for (const entry of options.outline ?? []) {
    const list = outline.get(entry.page);
    if (list === undefined) outline.set(entry.page, [entry]);
    else list.push(entry);
  }
  const outlineMode = outline.size > 0;
  let carried: OutlineEntry[] = [];
  const missing: string[] = [];
  const pending: { number: number; lines: PdfLine[] }[] = [];
  let open: OpenUnit | null = null;
  let offset = 0;
  let line = 1;
  let region = 0;

  const emit = (o: OpenUnit): Block => {
    const start = offset;
    const gapBefore = start === 0 ? '' : PDF_BLOCK_SEPARATOR;
    const base = { start, page: o.page, ...(o.pageEnd !== o.page ? { pageEnd: o.pageEnd } : {}), gapBefore };
    let block: Block;
    const u = o.unit;
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

  const processPage = (page: { number: number; lines: PdfLine[] }): Block[] => {
    const kept = page.lines.filter((l) => !furniture.isFurniture(page.number, l));
    const ordered = orderLines(kept, region);
    if (ordered.length > 0) region = (ordered[ordered.length - 1] as PdfLine).region + 1;
    const layout = layoutPage(ordered, {
      bodySize: stats.bodySize(),
      bodyFont: stats.bodyFont(),
      ...(outlineMode ? { outlineHeadings: headingsFor(page.number, ordered) } : {}),
    });
    const units = layout.units;
    const out: Block[] = [];
    let u = 0;
    if (open !== null && units.length > 0) {
      const first = units[0] as Unit;
      if (layout.firstContinues && open.unit.kind === 'paragraph' && first.kind === 'paragraph' && open.unit.lines.length < MAX_OPEN_LINES) {
        const last = open.unit.lines[open.unit.lines.length - 1] as PdfLine;
        if (continuesParagraph(last, first.lines[0] as PdfLine, layout.firstMargin)) {
          // One break per page after the first; a page without text between adds a break at the same place.
          const breaks = [...(open.breaks ?? [])];
          for (let n = open.pageEnd + 1; n <= page.number; n++) breaks.push(open.unit.lines.length);
          open = { unit: { kind: 'paragraph', lines: [...open.unit.lines, ...first.lines] }, page: open.page, pageEnd: page.number, breaks };
          u = 1;
        }
      }
      if (u < units.length) {
        out.push(emit(open));
        open = null;
      }
    }
    for (; u < units.length; u++) {
      const unit = units[u] as Unit;
      const next: OpenUnit = { unit, page: page.number, pageEnd: page.number };
      if (u === units.length - 1) open = next;
      else out.push(emit(next));
    }
    return out;
  };

  return {
    write(input) {
      const fragments = buildLines(input.items);
      furniture.record(input.number, furnitureCandidates(fragments));
      for (const f of fragments) stats.add(f);
      if (vocabulary.size < VOCABULARY_CAP) addWords(vocabulary, fragments.map((f) => f.text).join('\n'));
      pending.push({ number: input.number, lines: fragments });
      const out: Block[] = [];
      while (pending.length > window) out.push(...processPage(pending.shift() as { number: number; lines: PdfLine[] }));
      return out;
    },
    end() {
      const out: Block[] = [];
      while (pending.length > 0) out.push(...processPage(pending.shift() as { number: number; lines: PdfLine[] }));
      if (open !== null) out.push(emit(open));
      open = null;
      missing.push(...carried.map((e) => e.title));
      carried = [];
      return out;
    },
    warnings() {
      if (missing.length === 0) return [];
      const shown = missing.slice(0, 5).map((t) => JSON.stringify(t)).join(', ');
      return [`${missing.length} outline entr${missing.length === 1 ? 'y was' : 'ies were'} not found in the page text: ${shown}${missing.length > 5 ? ', …' : ''}`];
    },
  };
}
