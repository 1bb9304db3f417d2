/**
 * The PDF document assembler: pages of text items (and what they draw) in, blocks out, with offsets into the
 * extracted document text (`block-writer.ts`).
 *
 * A page goes through four steps, each a module of its own that tests can call alone: its content is read as soon as
 * it is written (`page-content.ts`: fonts, rotated text, tables, lines, figure labels), and the document learns from
 * it (font statistics, heading sizes, running lines, words); once `window` later pages are at hand, it is laid out
 * into groups (`page-groups.ts`: running headers and footers, reading order, headings from the outline or the
 * fonts), the groups are put in order (`block-sequence.ts`: a paragraph or table running on to the next page is held
 * for it), and written as blocks.
 *
 * Memory is bounded by the window of pages, one held group and the peripheral groups waiting for it.
 */
import type { Core } from '../../core.js';
import type { Block } from '../../types.js';
import { createBlockSequence, type PageGroups } from './block-sequence.js';
import { createBlockWriter } from './block-writer.js';
import { coverTitle } from './cover-title.js';
import { createFontRegistry, createPitchStats, type FontRegistry, type PitchStats } from './fonts.js';
import { createFurnitureDetector, furnitureCandidates, type FurnitureDetector } from './furniture.js';
import { looksTabular } from './graphics.js';
import { createFontStats, createSizeRanks, type FontStats, type OutlineEntry, type SizeRanks } from './headings.js';
import { createOutlineHeadings } from './outline-headings.js';
import { readPageContent, type PageContent, type PdfPageInput } from './page-content.js';
import { groupPage, type RegionCounter } from './page-groups.js';
import { judgeReadability } from './readability.js';
import { addWords } from './text.js';
import type { PdfLine, PdfTextItem } from './types.js';

export { PDF_BLOCK_SEPARATOR } from './block-writer.js';
export type { PdfPageInput } from './page-content.js';

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
  /** The title page 1 shows in its largest type (`cover-title.ts`), once page 1 is laid out; else `undefined`. */
  coverTitle(): string | undefined;
  /** Pages whose text is unreadable (fonts without a Unicode mapping): they gave no text and need OCR. */
  unreadablePages(): number[];
}

/** Most distinct words kept to check hyphenated words against. */
const VOCABULARY_CAP = 500_000;
/** A line must repeat on this many pages of the window to be a running header or footer. */
const FURNITURE_MIN_PAGES = 3;

/** Creates the assembler. Pages must be written in order. */
export function createPdfAssembler(options: PdfAssemblerOptions = {}): PdfAssembler {
  const window = options.window ?? 6;
  const doc = createDocumentKnowledge(window);
  const outline = createOutlineHeadings(options.outline ?? [], window);
  const graphics = createGraphicsPolicy(doc.fonts);
  const sequence = createBlockSequence();
  const writer = createBlockWriter(doc.knows);
  const pending: PageContent[] = [];
  const unreadable: number[] = [];
  const regions: RegionCounter = { next: 0 };
  const outlineDepth = Math.max(0, ...(options.outline ?? []).map((e) => e.depth));
  const outlineSizes = { smallest: Number.POSITIVE_INFINITY };
  const cover: { title?: string } = {};
  const layOut = (page: PageContent): PageGroups => {
    const useOutline = outline.decide(page, pending);
    if (page.number === 1) cover.title = coverTitle(page.lines, doc.stats.bodySize());
    return groupPage(
      page,
      {
        furniture: doc.furniture,
        bodySize: doc.stats.bodySize(),
        bodyFont: doc.stats.bodyFont(),
        ranks: doc.ranks,
        outlineHeadings: useOutline ? (ordered) => outline.headingsOn(page.number, ordered) : null,
        outlineDepth,
        outlineSizes,
      },
      regions,
    );
  };
  const drain = (keep: number): Block[] => {
    const out: Block[] = [];
    while (pending.length > keep) for (const placed of sequence.page(layOut(pending.shift() as PageContent))) out.push(writer.write(placed));
    return out;
  };
  return {
    needsGraphics: (page) => graphics.needsGraphics(page, outline.active()),
    write(input) {
      doc.fonts.learn(input.fonts);
      const readability = judgeReadability(input.items);
      if (readability.unreadable) unreadable.push(input.number);
      const content = readPageContent(input, readability, doc.fonts, doc.knows, doc.pitch);
      doc.learn(content);
      pending.push(content);
      return drain(window);
    },
    end() {
      const out = drain(0);
      for (const placed of sequence.end()) out.push(writer.write(placed));
      outline.end();
      return out;
    },
    warnings: () => outline.warnings(),
    coverTitle: () => cover.title,
    unreadablePages: () => [...unreadable],
  };
}

/** What the document has taught so far: its fonts, their sizes, its running lines and its words. */
interface DocumentKnowledge {
  readonly fonts: FontRegistry;
  readonly pitch: PitchStats;
  readonly stats: FontStats;
  readonly ranks: SizeRanks;
  readonly furniture: FurnitureDetector;
  /** True when a word (or hyphenated compound) was seen whole in the document. */
  readonly knows: (word: string) => boolean;
  /** Learns from a page as soon as it is read. */
  learn(page: PageContent): void;
}

/**
 * A class rather than an object of closures: `learn` runs for every page and `knows` for every word a line break
 * may have cut, and closures made anew for each document were compiled anew for each (see `createFurnitureDetector`).
 */
class PagesLearned implements DocumentKnowledge {
  readonly fonts: FontRegistry = createFontRegistry();
  readonly pitch: PitchStats = createPitchStats();
  readonly stats: FontStats = createFontStats();
  readonly ranks: SizeRanks = createSizeRanks();
  readonly furniture: FurnitureDetector;
  readonly #vocabulary = new Set<string>();
  readonly knows = (word: string): boolean => this.#vocabulary.has(word);

  constructor(window: number) {
    this.furniture = createFurnitureDetector({ window, minPages: FURNITURE_MIN_PAGES });
  }

  learn(page: PageContent): void {
    this.furniture.record(page.number, furnitureCandidates(page.lines));
    // Figure labels say nothing of the body's fonts.
    for (const f of page.lines) if (f.figure !== true) this.stats.add(f);
    const body = this.stats.bodySize();
    for (const f of page.lines) if (f.figure !== true) this.ranks.add(f, body);
    if (this.#vocabulary.size < VOCABULARY_CAP) addWords(this.#vocabulary, linesText(page.lines));
  }
}

function createDocumentKnowledge(window: number): DocumentKnowledge {
  return new PagesLearned(window);
}

/**
 * The lines' texts, a line each. Joined here rather than by `lines.map(…).join('\n')`: V8's optimised `map` makes a
 * holey array where the interpreter's is packed, and `learn` was thrown away and compiled again as the kinds changed.
 */
function linesText(lines: readonly PdfLine[]): string {
  let text = '';
  for (let i = 0; i < lines.length; i++) text += i === 0 ? (lines[i] as PdfLine).text : `\n${(lines[i] as PdfLine).text}`;
  return text;
}

/**
 * Most pages read only to learn the names of the fonts they bring, and the pages they may be among. A page's
 * operator list was measured at more than twice the cost of its text (some 75 ms against 30 on a 14-page paper), so
 * names are looked up only where a document's fonts mostly first appear: its first pages.
 */
const FONT_LOOKUPS = 3;
const FONT_LOOKUP_PAGES = 10;
/** Share of a page's characters that fonts not yet named must hold to be worth looking up. */
const UNNAMED_SHARE = 0.05;

/** Decides which pages' drawings are read (see `PdfAssembler.needsGraphics`). */
function createGraphicsPolicy(fonts: FontRegistry) {
  const asked = new Set<string>();
  const state = { lookups: 0 };
  return {
    needsGraphics(page: { readonly number?: number; readonly items: readonly PdfTextItem[] }, outlineActive: boolean): boolean {
      // Right-to-left text may hold ligatures that pdf.js spells backwards; only the glyphs tell which.
      if (!page.items.some((i) => visibleLength(i.str) > 0) || looksTabular(page.items) || page.items.some((i) => i.rtl === true)) return true;
      // With an outline, headings come from it, and what fonts are named matters little. Checked before the
      // characters are counted by font, which past the first pages no page needs.
      if (outlineActive || state.lookups >= FONT_LOOKUPS || (page.number ?? 0) > FONT_LOOKUP_PAGES) return false;
      const chars = new Map<string, number>();
      let total = 0;
      for (const item of page.items) {
        const n = visibleLength(item.str);
        if (n === 0) continue;
        total += n;
        chars.set(item.fontName, (chars.get(item.fontName) ?? 0) + n);
      }
      let unnamed = 0;
      for (const [id, n] of chars) if (!asked.has(id) && !fonts.named(id)) unnamed += n;
      if (unnamed < UNNAMED_SHARE * total) return false;
      state.lookups++;
      for (const id of chars.keys()) asked.add(id);
      return true;
    },
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

