/**
 * A page's content → its groups, once the pages around it are known: running headers and footers dropped, footnotes
 * and a masthead set apart, the rest put in reading order (tables and images standing in it as placeholders) and
 * laid out into groups; the peripheral lines (footnotes, masthead, rotated text) are laid out on their own, top to
 * bottom, and never make headings.
 */
import type { PageGroups } from './block-sequence.js';
import { orderLines } from './columns.js';
import { pdfLine } from './shapes.js';
import type { FurnitureDetector } from './furniture.js';
import type { SizeRanks } from './headings.js';
import { layoutPage, pageContext, type LineGroup } from './layout.js';
import type { OutlineHeading } from './outline-headings.js';
import { holdsNoProse, inside, type PageContent } from './page-content.js';
import type { PdfBox, PdfLine } from './types.js';

/** A `minFontDepth` past the deepest heading: fonts make no heading. */
const NO_FONT_HEADINGS = 7;
/** Text of a line that is only a stray mark or two. */
const STRAY = /^[.,;:·'"`´_~\-–—]{1,2}$/u;
/** A footnote or masthead is set at most this share of the body size. */
const SMALL_TEXT = 0.9;

/** What laying out a page needs from the document. */
export interface GroupingContext {
  readonly furniture: FurnitureDetector;
  readonly bodySize: number;
  readonly bodyFont: string;
  readonly ranks: SizeRanks;
  /** The outline's headings on the page (its ordered lines given), when the outline gives the headings. */
  readonly outlineHeadings: ((ordered: readonly PdfLine[]) => Map<number, OutlineHeading>) | null;
  /** The outline's deepest level, when the outline gives the headings: fonts make headings only below it. */
  readonly outlineDepth: number;
  /** The smallest size the outline's headings are set in so far (Infinity before the first): fonts make none larger. */
  readonly outlineSizes: { smallest: number };
}

/** Reading regions are numbered through the document: the next free number. */
export interface RegionCounter {
  next: number;
}

/** Lays out one page into its body groups and its peripheral groups. */
export function groupPage(page: PageContent, ctx: GroupingContext, regions: RegionCounter): PageGroups {
  // A line of a stray mark or two (a dot left from a figure) bridges gaps that tell paragraphs and headings apart.
  const kept = page.lines.filter((l) => !ctx.furniture.isFurniture(page.number, l) && !STRAY.test(l.text));
  const { body, peripheral } = splitPeripheral(kept, ctx.bodySize);
  const ordered = readingOrder(body, page, regions);
  const outlined = ctx.outlineHeadings?.(ordered);
  if (outlined !== undefined) for (const k of outlined.keys()) ctx.outlineSizes.smallest = Math.min(ctx.outlineSizes.smallest, (ordered[k] as PdfLine).fontSize);
  const below = outlined !== undefined && Number.isFinite(ctx.outlineSizes.smallest) ? ctx.outlineSizes.smallest : undefined;
  const layout = layoutPage(
    ordered,
    pageContext({
      bodySize: ctx.bodySize,
      bodyFont: ctx.bodyFont,
      tables: page.tables,
      ranks: ctx.ranks,
      outlineHeadings: outlined,
      minFontDepth: outlined !== undefined ? ctx.outlineDepth + 1 : undefined,
      maxFontHeadingSize: below,
    }),
  );
  const aside = asideGroups(peripheral, page.rotated, ctx, regions);
  return { number: page.number, layout, aside };
}

/**
 * The body lines of a page in reading order, tables and figures standing in it as placeholders. A figure's labels
 * are read right after it, top to bottom, rather than in the columns its drawing cuts through: a figure set across
 * two columns is read where it stands, between the text above it and the text below.
 */
function readingOrder(body: readonly PdfLine[], page: PageContent, regions: RegionCounter): PdfLine[] {
  // The arrays are pushed to rather than made by `map`, whose optimised form makes holey arrays where the
  // interpreter's are packed: this function was thrown away and compiled again for each kind it met.
  const labels: PdfLine[][] = [];
  const gathers: boolean[] = [];
  const inserts: PdfLine[] = [];
  for (const [i, t] of page.tables.entries()) inserts.push(placeholder(t.box, i, t.fontSize));
  for (const [k, box] of page.figures.entries()) {
    labels.push([]);
    // Lines over an image may be a column's text set on a background: only a figure of labels gathers its lines.
    gathers.push(holdsNoProse(box, body));
    inserts.push(placeholder(box, -1 - k, 0));
  }
  const text: PdfLine[] = [];
  for (const l of body) {
    const k = l.figure === true ? page.figures.findIndex((box, i) => gathers[i] === true && inside(l, box)) : -1;
    if (k === -1) text.push(l);
    else (labels[k] as PdfLine[]).push(l);
  }
  const ordered = orderLines([...text, ...inserts], regions.next);
  if (ordered.length > 0) regions.next = (ordered[ordered.length - 1] as PdfLine).region + 1;
  if (labels.every((l) => l.length === 0)) return ordered;
  const out: PdfLine[] = [];
  for (const line of ordered) {
    out.push(line);
    const own = line.insert !== undefined && line.insert < 0 ? labels[-1 - line.insert] : undefined;
    if (own === undefined || own.length === 0) continue;
    const read = orderLines(own, regions.next);
    regions.next = (read[read.length - 1] as PdfLine).region + 1;
    out.push(...read);
  }
  return out;
}

/** Peripheral text (footnotes, a masthead; rotated text) laid out on its own, top to bottom: never headings. */
function asideGroups(peripheral: readonly PdfLine[], rotated: readonly PdfLine[], ctx: GroupingContext, regions: RegionCounter): LineGroup[] {
  const byTop = (a: PdfLine, b: PdfLine): number => b.y - a.y || a.x - b.x;
  const region = regions.next;
  const aside = [...[...peripheral].sort(byTop).map((l) => pdfLine({ ...l, region })), ...[...rotated].sort(byTop).map((l) => pdfLine({ ...l, region: region + 1 }))];
  regions.next += 2;
  if (aside.length === 0) return [];
  return layoutPage(aside, pageContext({ bodySize: ctx.bodySize, bodyFont: ctx.bodyFont, minFontDepth: NO_FONT_HEADINGS })).groups;
}

/** A line without text that stands in the reading order for a table (its index) or a figure (-1 - its index). */
function placeholder(box: PdfBox, insert: number, fontSize: number): PdfLine {
  return pdfLine({ text: '', x: box.x0, y: box.y1, right: box.x1, fontSize, fontName: '', fontShare: 1, monospace: false, cells: 1, chars: 0, region: 0, insert });
}

/**
 * Footnotes and mastheads: small text at the foot of a column that starts with a note mark, after a gap; small text
 * above the body at the top of the page. They are read after the page's body instead of inside it.
 */
export function splitPeripheral(lines: readonly PdfLine[], bodySize: number): { body: PdfLine[]; peripheral: PdfLine[] } {
  if (bodySize <= 0 || lines.length < 4) return { body: [...lines], peripheral: [] };
  const peripheral = new Set<PdfLine>([...footnotes(lines, bodySize), ...masthead(lines, bodySize)]);
  if (peripheral.size === 0) return { body: [...lines], peripheral: [] };
  return { body: lines.filter((l) => !peripheral.has(l)), peripheral: lines.filter((l) => peripheral.has(l)) };
}

function isSmall(l: PdfLine, bodySize: number): boolean {
  return l.fontSize <= SMALL_TEXT * bodySize && l.insert === undefined;
}

/** The lowest lines of the page in small type, starting at a note mark, set apart from the body above. */
function footnotes(lines: readonly PdfLine[], bodySize: number): PdfLine[] {
  let top = -Infinity;
  let bottom = Infinity;
  for (const l of lines) {
    top = Math.max(top, l.y);
    bottom = Math.min(bottom, l.y);
  }
  const height = top - bottom;
  const byHeight = [...lines].sort((a, b) => a.y - b.y);
  let k = 0;
  while (k < byHeight.length && isSmall(byHeight[k] as PdfLine, bodySize) && (byHeight[k] as PdfLine).y <= bottom + 0.35 * height) k++;
  const run = byHeight.slice(0, k).reverse();
  const first = run.findIndex((l) => /^(?:\d{1,3}|[*†‡§¶]|[¹²³⁴⁵⁶⁷⁸⁹⁰]+)(?:\s|\p{Lu})/u.test(l.text));
  if (first === -1 || k >= byHeight.length) return [];
  const above = byHeight[k] as PdfLine;
  const start = run[first] as PdfLine;
  return above.y - start.y > 1.6 * Math.max(above.fontSize, start.fontSize) ? run.slice(first) : [];
}

/** At most three lines in small type at the very top of the page, set apart from what follows. */
function masthead(lines: readonly PdfLine[], bodySize: number): PdfLine[] {
  const fromTop = [...lines].sort((a, b) => b.y - a.y);
  let m = 0;
  while (m < fromTop.length && m < 4 && isSmall(fromTop[m] as PdfLine, bodySize)) m++;
  if (m === 0 || m > 3 || m >= fromTop.length) return [];
  const last = fromTop[m - 1] as PdfLine;
  const next = fromTop[m] as PdfLine;
  return last.y - next.y > 1.6 * Math.max(last.fontSize, next.fontSize) && !isSmall(next, bodySize) ? fromTop.slice(0, m) : [];
}
