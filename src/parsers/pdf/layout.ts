/**
 * One page's ordered lines → groups (headings, paragraphs, lists, code, tables). Paragraphs break at vertical gaps
 * larger than the page's usual line step, at a change of font size, and at a first-line indent from a column's
 * left margin. Lists start at a bullet or a number and take the lines of the item's text under it. Lines set in a
 * fixed-pitch font are code. A table (found from the page's drawing) stands in the line order as a placeholder.
 */
import { fontHeadingDepth, type Depth, type SizeRanks } from './headings.js';
import { pdfLine } from './shapes.js';
import type { TableGrid } from './tables.js';
import type { PdfLine } from './types.js';

/** A run of lines that becomes one block. */
export type LineGroup =
  | { readonly kind: 'heading'; readonly lines: PdfLine[]; readonly depth: Depth; readonly title?: string }
  | { readonly kind: 'paragraph'; readonly lines: PdfLine[] }
  | { readonly kind: 'list'; readonly ordered: boolean; readonly items: PdfLine[][] }
  | { readonly kind: 'code'; readonly lines: PdfLine[] }
  | { readonly kind: 'table'; readonly grid: TableGrid; readonly lines: readonly PdfLine[] };

/** What the layout of a page needs from the rest of the document. */
export interface PageContext {
  readonly bodySize: number;
  readonly bodyFont: string;
  /**
   * Headings decided beforehand (from the outline), by line index: the first line of each carries the depth, the title
   * and how many lines the heading takes. Fonts make headings only below them (`minFontDepth`).
   */
  readonly outlineHeadings?: ReadonlyMap<number, { depth: Depth; title: string; count: number }>;
  /**
   * The shallowest depth a heading found by its font may take: with an outline, below the outline's deepest level
   * (the outline holds the document's upper levels), and only from a larger size; past 6, fonts make no heading.
   * Default 1.
   */
  readonly minFontDepth?: number;
  /**
   * With an outline, the largest size a heading found by its font may be set in: that of the outline's smallest
   * headings. Without it, fonts make no heading beside an outline.
   */
  readonly maxFontHeadingSize?: number;
  /** Tables of the page, by the index their placeholder lines carry. */
  readonly tables?: readonly TableGrid[];
  /** Depths of heading sizes ranked over the document; without it, depth follows fixed ratios to the body size. */
  readonly ranks?: SizeRanks;
}

/**
 * A page context with every field set (one hidden class for every page: see `shapes.ts`), from `fields`, which may
 * leave the optional ones out.
 */
export function pageContext(fields: PageContext): PageContext {
  return {
    bodySize: fields.bodySize,
    bodyFont: fields.bodyFont,
    outlineHeadings: fields.outlineHeadings,
    minFontDepth: fields.minFontDepth,
    maxFontHeadingSize: fields.maxFontHeadingSize,
    tables: fields.tables,
    ranks: fields.ranks,
  };
}

/** Ratio to the body size from which a line is set larger (as `fontHeadingDepth` ranks heading sizes). */
const LARGER = 1.08;
/** Font sizes closer than this (points) are one size. */
const SIZE_TOLERANCE = 0.25;
/** A word of three letters or more. */
const WORD = /\p{L}{3}/u;
/** Longest title a heading below the outline may have. */
const TITLE_CHARS = 80;

/** True when a line reads as a title: a word, a capital or a number first, no stop or colon last, not too long. */
function isTitle(text: string): boolean {
  return text.length <= TITLE_CHARS && WORD.test(text) && /^[\p{Lu}\p{Lt}\p{N}]/u.test(text) && !/[.:;,]$/u.test(text);
}
const BULLET = /^[•◦▪▫‣⁃●○■□►▶➢➤✓✔∙·\uf0b7\uf0a7\uf0d8\uf076\uf0fc*–-](?:\s+|$)/u;
const ORDERED = /^(?:\(?\d{1,3}[.)]|\(?[a-zA-Z][)]|\([a-zA-Z]\)|\(?[ivxIVX]{1,4}[.)])\s+\S/u;
const ORDERED_DOT_LETTER = /^[a-z]\.\s+\S/u;

/** `'bullet'` or `'ordered'` when the line starts a list item, else null. */
export function listMarker(text: string): 'bullet' | 'ordered' | null {
  if (BULLET.test(text)) return 'bullet';
  if (ORDERED.test(text) || ORDERED_DOT_LETTER.test(text)) return 'ordered';
  return null;
}

/**
 * A bullet drawn as a glyph of a symbol font (Wingdings `l`, `n`, `q`, `v`, `Ø`, `§`): one character set as a run of
 * its own in a font the line's text is not set in, well apart from the text after it. A letter of the line's own font
 * is a word, however far justified text spaces it from the next (`A` at the start of a justified line).
 */
export function isGlyphBullet(line: PdfLine): boolean {
  if (line.textX === undefined || line.markerFont === undefined || line.markerFont === line.fontName || !/^\S\s/u.test(line.text) || /^[\p{N}]/u.test(line.text)) return false;
  // A bullet stands apart by more than a space: `A` then an italic word, `©` then a year, are text.
  return line.textX - line.x >= 0.8 * line.fontSize && line.textX - (line.markerEnd ?? line.x) >= MARKER_GAP * line.fontSize;
}

/** Font sizes between a glyph bullet and its text, at least: more than a word space. */
const MARKER_GAP = 0.5;

/** The list marker of a line: by its text, or a glyph bullet. */
function lineMarker(line: PdfLine): 'bullet' | 'ordered' | null {
  return listMarker(line.text) ?? (isGlyphBullet(line) ? 'bullet' : null);
}

/** A line whose glyph bullet is written as `•`: the extracted text says what the page shows. */
function withBullet(line: PdfLine): PdfLine {
  return listMarker(line.text) === null && isGlyphBullet(line) ? pdfLine({ ...line, text: `•${line.text.slice(1)}` }) : line;
}

/** Where the text of a list item starts after its marker. */
function itemTextX(line: PdfLine): number {
  if (line.textX !== undefined) return line.textX;
  const marker = /^\S+\s+/u.exec(line.text)?.[0].length ?? 0;
  return line.x + ((line.right - line.x) * marker) / Math.max(1, line.text.length);
}

interface Geometry {
  /** Usual baseline step divided by font size. */
  readonly step: number;
  /** Left margin of each region, or NaN when the region's lines share none. */
  readonly margins: ReadonlyMap<number, number>;
  readonly widths: ReadonlyMap<number, number>;
}

/** Measures the usual line step and the left margin and width of each region. */
function measure(lines: readonly PdfLine[]): Geometry {
  const ratios: number[] = [];
  const lefts = new Map<number, Map<number, number>>();
  const extents = new Map<number, [number, number, number]>();
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as PdfLine;
    let xs = lefts.get(line.region);
    if (xs === undefined) lefts.set(line.region, (xs = new Map()));
    const x = Math.round(line.x);
    xs.set(x, (xs.get(x) ?? 0) + 1);
    const e = extents.get(line.region);
    if (e === undefined) extents.set(line.region, [line.x, line.right, 1]);
    else extents.set(line.region, [Math.min(e[0], line.x), Math.max(e[1], line.right), e[2] + 1]);
    const prev = lines[i - 1];
    if (prev !== undefined && prev.region === line.region && Math.abs(prev.fontSize - line.fontSize) < 0.3) {
      const r = (prev.y - line.y) / line.fontSize;
      if (r > 0.8 && r < 2.2) ratios.push(r);
    }
  }
  ratios.sort((a, b) => a - b);
  const step = ratios.length >= 3 ? (ratios[Math.floor(ratios.length * 0.4)] as number) : 1.25;
  const margins = new Map<number, number>();
  const widths = new Map<number, number>();
  for (const [region, xs] of lefts) {
    const [, , count] = extents.get(region) as [number, number, number];
    let best = NaN;
    let bestCount = 0;
    for (const [x, n] of xs) {
      // Near-identical margins (a point apart) are one margin.
      const near = n + (xs.get(x - 1) ?? 0) + (xs.get(x + 1) ?? 0);
      if (near > bestCount || (near === bestCount && x < best)) [best, bestCount] = [x, near];
    }
    margins.set(region, count >= 3 && bestCount >= Math.max(2, 0.3 * count) ? best : NaN);
    const [left, right] = extents.get(region) as [number, number, number];
    widths.set(region, right - left);
  }
  return { step, margins, widths };
}

/** Why a line does not continue the line before it: a hard break, a column or page change, or none. */
type Break = 'hard' | 'region' | 'none';

function breakBefore(lines: readonly PdfLine[], i: number, g: Geometry): Break {
  const line = lines[i] as PdfLine;
  const prev = lines[i - 1];
  if (prev === undefined || prev.region !== line.region) return 'region';
  if (prev.insert !== undefined || line.insert !== undefined) return 'hard';
  const size = Math.max(prev.fontSize, line.fontSize);
  if (Math.abs(prev.fontSize - line.fontSize) > 0.1 * size) return 'hard';
  const dy = prev.y - line.y;
  if (dy <= 0 || dy > g.step * 1.3 * line.fontSize + 0.5) return 'hard';
  const margin = g.margins.get(line.region) ?? NaN;
  if (!Number.isNaN(margin) && Math.abs(prev.x - margin) <= 1.5) {
    const indent = line.x - margin;
    if (indent >= 0.5 * line.fontSize && indent <= 8 * line.fontSize) return 'hard';
  }
  return 'none';
}

/** True when `line` follows `prev` at the usual line step, in the same size: only an indent could set it apart. */
function closeBelow(prev: PdfLine, line: PdfLine, g: Geometry): boolean {
  if (prev.region !== line.region || prev.insert !== undefined || line.insert !== undefined) return false;
  if (Math.abs(prev.fontSize - line.fontSize) > 0.1 * Math.max(prev.fontSize, line.fontSize)) return false;
  const dy = prev.y - line.y;
  return dy > 0 && dy <= g.step * 1.3 * line.fontSize + 0.5;
}

const SENTENCE_END = /[.!?:]["'”’)\]]*$/u;

/** True when `line` may open a paragraph continued from an earlier column or page. */
export function continuesParagraph(previous: PdfLine, line: PdfLine, lineMargin: number): boolean {
  if (Math.abs(previous.fontSize - line.fontSize) > 0.1 * Math.max(previous.fontSize, line.fontSize)) return false;
  if (!Number.isNaN(lineMargin) && line.x - lineMargin >= 0.5 * line.fontSize) return false;
  if (listMarker(line.text) !== null) return false;
  return !SENTENCE_END.test(previous.text) || /^\p{Ll}/u.test(line.text);
}

/** A page laid out: its groups, and whether the first group may continue the previous page's last one. */
export interface PageLayout {
  readonly groups: LineGroup[];
  /** The first group is a paragraph (or list) that may be the continuation of the last one of the previous page. */
  readonly firstContinues: boolean;
  /** Left margin of the first line's column (NaN when unknown), for `continuesParagraph`. */
  readonly firstMargin: number;
}

/**
 * The texts set twice or more on a page: labels (`Signed on as ALICE` over two screenshots, a button's caption), never
 * headings, whatever their font.
 */
function repeatedTexts(lines: readonly PdfLine[]): Set<string> {
  const seen = new Set<string>();
  const repeated = new Set<string>();
  for (const l of lines) {
    if (l.insert !== undefined) continue;
    if (seen.has(l.text)) repeated.add(l.text);
    else seen.add(l.text);
  }
  return repeated;
}

/** True when a group is a figure's labels. */
function isLabels(group: LineGroup | undefined): boolean {
  return group?.kind === 'paragraph' && group.lines.every((l) => l.figure === true);
}

/**
 * Joins the paragraphs that run on from one column (or region) to the next. A figure's labels read between the two
 * parts of such a paragraph (a figure at the foot of a column, or inside it) are no part of it: they come after the
 * joined paragraph, as a floating figure does.
 */
function joinRunOns(groups: readonly LineGroup[], continuations: readonly boolean[], margins: ReadonlyMap<number, number>): LineGroup[] {
  const merged: LineGroup[] = [];
  const floats: LineGroup[] = [];
  for (let u = 0; u < groups.length; u++) {
    const group = groups[u] as LineGroup;
    const prev = merged[merged.length - 1];
    if (prev?.kind === 'paragraph' && !isLabels(prev) && isLabels(group)) {
      floats.push(group);
      continue;
    }
    if (u > 0 && continuations[u] === true && group.kind === 'paragraph' && prev?.kind === 'paragraph' && !isLabels(group) && !isLabels(prev)) {
      const first = group.lines[0] as PdfLine;
      const last = prev.lines[prev.lines.length - 1] as PdfLine;
      if (continuesParagraph(last, first, margins.get(first.region) ?? NaN)) {
        merged[merged.length - 1] = { kind: 'paragraph', lines: [...prev.lines, ...group.lines] };
        continue;
      }
    }
    merged.push(...floats.splice(0), group);
  }
  merged.push(...floats);
  return merged;
}

/** A heading found at a line: its depth, its title when an outline gives one, and how many lines it takes. */
interface HeadingAt {
  depth: Depth;
  title?: string;
  count: number;
}

/** One page being laid out: its lines and what is known of them, and the groups read so far. */
interface PageReader {
  readonly lines: readonly PdfLine[];
  readonly ctx: PageContext;
  readonly g: Geometry;
  /** The break before each line. */
  readonly breaks: readonly Break[];
  /** Texts set twice or more on the page (labels, never headings). */
  readonly labels: ReadonlySet<string>;
  readonly groups: LineGroup[];
  /** Whether each group may run on from the one before it (it opens a new column or region). */
  readonly continuations: boolean[];
}

/** Lays out the ordered lines of one page into groups. */
export function layoutPage(lines: readonly PdfLine[], ctx: PageContext): PageLayout {
  const g = measure(lines);
  // Pushed one by one rather than made by `lines.map`: V8's optimised `map` makes a holey array where the
  // interpreter's is packed, and the code reading `breaks` was thrown away for each new kind it met.
  const breaks: Break[] = [];
  for (let i = 0; i < lines.length; i++) breaks.push(breakBefore(lines, i, g));
  const page: PageReader = { lines, ctx, g, breaks, labels: repeatedTexts(lines), groups: [], continuations: [] };
  for (let i = 0; i < lines.length; ) i = readGroup(page, i);
  // Paragraphs that run on from one column to the next are joined here; across pages, by the caller.
  const merged = joinRunOns(page.groups, page.continuations, g.margins);
  const first = lines[0];
  return {
    groups: merged,
    firstContinues: page.continuations[0] === true && (merged[0]?.kind === 'paragraph' || merged[0]?.kind === 'table'),
    firstMargin: first === undefined ? NaN : (g.margins.get(first.region) ?? NaN),
  };
}

/** Reads the group that starts at line `i` (a table, heading, code, list or paragraph); returns the line after it. */
function readGroup(page: PageReader, i: number): number {
  const line = page.lines[i] as PdfLine;
  if (line.insert !== undefined) return readInsert(page, i, line.insert);
  const heading = headingAt(page, i, false);
  if (heading !== null) return readHeading(page, i, heading);
  if (line.monospace) return readCode(page, i);
  const marker = lineMarker(line);
  if (marker !== null) return readList(page, i, marker);
  return readParagraph(page, i);
}

/** Adds a group, and whether it may run on from the one before. */
function addGroup(page: PageReader, group: LineGroup, continues: boolean): void {
  page.groups.push(group);
  page.continuations.push(continues);
}

/** The heading at line `k`, or null: from the outline when there is one, else from the line's font. */
function headingAt(page: PageReader, k: number, previousIsHeading: boolean): HeadingAt | null {
  const { ctx } = page;
  const line = page.lines[k] as PdfLine;
  if (line.insert !== undefined) return null;
  const outlined = ctx.outlineHeadings?.get(k);
  if (outlined !== undefined) return outlined;
  // Headings come from the text's flow: a figure's labels, and a label repeated on the page, are none.
  const least = ctx.minFontDepth ?? 1;
  if (least > 6 || line.figure === true || page.labels.has(line.text)) return null;
  // Below an outline, only a size larger than the body's and no larger than the outline's headings makes a
  // heading, and only of words (a formula set large, `γ α`, is none): a bold or italic line at the body size is
  // emphasis there, and a title larger than every heading of the outline is the cover's.
  if (ctx.outlineHeadings !== undefined) {
    const most = ctx.maxFontHeadingSize ?? 0;
    if (line.fontSize < LARGER * ctx.bodySize || line.fontSize > most + SIZE_TOLERANCE || !WORD.test(line.text)) return null;
  }
  const depth = fontHeadingDepth(line, {
    bodySize: ctx.bodySize,
    bodyFont: ctx.bodyFont,
    startsBlock: page.breaks[k] !== 'none' || previousIsHeading,
    columnWidth: page.g.widths.get(line.region) ?? line.right - line.x,
    ranks: ctx.ranks,
  });
  return depth === null ? null : { depth: Math.max(depth, least) as Depth, count: 1 };
}

/** Reads a table set in at line `i` (an insert of another kind, or a table not found, adds nothing). */
function readInsert(page: PageReader, i: number, insert: number): number {
  const grid = insert >= 0 ? page.ctx.tables?.[insert] : undefined;
  if (grid !== undefined) addGroup(page, { kind: 'table', grid, lines: [page.lines[i] as PdfLine] }, page.breaks[i] === 'region');
  return i + 1;
}

/**
 * Reads a heading at line `i`: the outline's, or the font's with the lines after it in the same style (a title set
 * on two lines); a font's heading of four lines or more, a long text, or one that does not read as a title below
 * an outline, is a paragraph set large instead.
 */
function readHeading(page: PageReader, i: number, heading: HeadingAt): number {
  const { lines } = page;
  let end = i + heading.count;
  if (heading.title === undefined) {
    end = fontHeadingEnd(page, i, end, heading.depth);
    let length = 0;
    for (let k = i; k < end; k++) length += (lines[k] as PdfLine).text.length;
    // Below an outline, a heading the fonts make must read as a title (not a sentence of a cover page).
    const untitled = page.ctx.outlineHeadings !== undefined && !isTitle(lines.slice(i, end).map((l) => l.text).join(' '));
    if (end - i >= 4 || length > 200 || untitled) {
      // Four lines or more (or a long text) in a larger font are a paragraph set large, not a heading.
      end = i + 1;
      while (end < lines.length && page.breaks[end] === 'none') end++;
      addGroup(page, { kind: 'paragraph', lines: lines.slice(i, end) }, false);
      return end;
    }
  }
  // One literal, the title undefined when the font decided, rather than a spread copy with a title added: a hidden
  // class V8 keeps and shares.
  addGroup(page, { kind: 'heading', lines: lines.slice(i, end), depth: heading.depth, title: heading.title }, false);
  return end;
}

/**
 * Where a heading without a title at line `i` ends, its lines read up to `from`: consecutive lines of one heading
 * style make one heading (up to four).
 */
function fontHeadingEnd(page: PageReader, i: number, from: number, depth: Depth): number {
  const { lines } = page;
  const fontName = (lines[i] as PdfLine).fontName;
  let end = from;
  while (end < lines.length && page.breaks[end] === 'none' && end - i < 4) {
    const h = headingAt(page, end, true);
    if (h === null || h.title !== undefined || h.depth !== depth || (lines[end] as PdfLine).fontName !== fontName) break;
    end++;
  }
  return end;
}

/** Reads code at line `i`: a run of lines in a fixed-pitch font; a blank line inside it (a larger step) does not end it. */
function readCode(page: PageReader, i: number): number {
  const { lines, g } = page;
  let end = i + 1;
  while (end < lines.length) {
    const next = lines[end] as PdfLine;
    const prev = lines[end - 1] as PdfLine;
    if (!next.monospace || next.insert !== undefined || next.region !== prev.region || headingAt(page, end, false) !== null) break;
    if (prev.y - next.y > 2.6 * g.step * next.fontSize || prev.y <= next.y) break;
    end++;
  }
  addGroup(page, { kind: 'code', lines: lines.slice(i, end) }, false);
  return end;
}

/** Reads a list at line `i`: items with the same kind of marker, each its marker's line and the lines it wraps onto. */
function readList(page: PageReader, i: number, marker: 'bullet' | 'ordered'): number {
  const { lines, g } = page;
  const items: PdfLine[][] = [];
  let k = i;
  while (k < lines.length) {
    const start = lines[k] as PdfLine;
    if (items.length > 0) {
      // The next item may follow after a small gap (lists with spacing), in the same column.
      const prev = lines[k - 1] as PdfLine;
      if (lineMarker(start) !== marker || start.region !== prev.region || headingAt(page, k, false) !== null) break;
      if (prev.y - start.y > 2.6 * g.step * start.fontSize || Math.abs(start.x - items[0]![0]!.x) > 2 * start.fontSize) break;
    }
    const end = listItemEnd(page, k);
    items.push([withBullet(start), ...lines.slice(k + 1, end)]);
    k = end;
  }
  addGroup(page, { kind: 'list', ordered: marker === 'ordered', items }, page.breaks[i] === 'region');
  return k;
}

/** Where the list item whose marker is on line `k` ends: after the lines its text wraps onto. */
function listItemEnd(page: PageReader, k: number): number {
  const { lines, g } = page;
  const start = lines[k] as PdfLine;
  const hang = itemTextX(start);
  let end = k + 1;
  while (end < lines.length) {
    const next = lines[end] as PdfLine;
    const prev = lines[end - 1] as PdfLine;
    if (lineMarker(next) !== null || next.insert !== undefined || next.monospace) break;
    if (page.ctx.outlineHeadings?.has(end) === true || headingAt(page, end, false) !== null) break;
    const right = page.breaks[end] === 'none' && next.x >= start.x + 0.3 * next.fontSize;
    // The item's text wraps at its own indent (a hanging indent), which reads as a first-line indent.
    const hanging = closeBelow(prev, next, g) && Math.abs(next.x - hang) <= 0.6 * next.fontSize;
    // Or it wraps back to the left of the bullet, while the sentence runs on.
    const outdented = closeBelow(prev, next, g) && next.x < start.x - 0.3 * next.fontSize && !SENTENCE_END.test(prev.text);
    if (!right && !hanging && !outdented) break;
    end++;
  }
  return end;
}

/**
 * Reads a paragraph at line `i`: up to a break, code, a heading or a list marker. It may run on from the column
 * before when it opens a column, which `joinRunOns` decides by its text (no sentence end, or a lower-case start).
 */
function readParagraph(page: PageReader, i: number): number {
  const { lines } = page;
  let end = i + 1;
  while (
    end < lines.length &&
    page.breaks[end] === 'none' &&
    !(lines[end] as PdfLine).monospace &&
    headingAt(page, end, false) === null &&
    lineMarker(lines[end] as PdfLine) === null
  ) {
    end++;
  }
  addGroup(page, { kind: 'paragraph', lines: lines.slice(i, end) }, page.breaks[i] === 'region');
  return end;
}
