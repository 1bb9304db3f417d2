/**
 * One run of the chunker as the HTML report draws it: its layout over the document, its figures and settings, and
 * the facts its page script reads. A report has one view; a comparison has one per setting, all over the same text.
 */
import type { Chunk, ChunkStatistics, PageBox } from '../types.js';
import { isHeadingOnly, layoutReport, type PageMark, type ReportLayout } from './layout.js';
import type { ChunkFacts, ViewChunkFacts } from './page-data.js';
import type { ReportSettings } from './settings.js';
import { reportFigures, type ReportFigures } from './summary.js';

/** A run prepared for drawing. */
export interface ReportView {
  /** Position among the report's views; view 0 keeps the plain element ids (`c12`, `doc`). */
  readonly index: number;
  /** Short name in a comparison (`A`, `B`); empty in a single report. */
  readonly tag: string;
  /** What the run's settings were called (the `--compare` argument); empty in a single report. */
  readonly label: string;
  readonly settings: ReportSettings;
  readonly layout: ReportLayout;
  readonly figures: ReportFigures;
}

/** What a view needs to be prepared. */
export interface ViewInput {
  readonly chunks: readonly Chunk[];
  readonly statistics?: Partial<ChunkStatistics> | undefined;
  readonly settings: ReportSettings;
  readonly tag?: string;
  readonly label?: string;
}

/** Lays out a run over the document and computes its figures. Throws `ERR_INVALID_INPUT` for chunks that are not slices of `text`. */
export function prepareView(index: number, input: ViewInput, text: string, pages: readonly PageMark[] | undefined, anchors: readonly number[]): ReportView {
  const layout = layoutReport(input.chunks, text, { pages, anchors });
  const figures = reportFigures(layout.chunks, input.statistics, layout.figures, input.settings.maxSize, input.settings.minSize);
  return { index, tag: input.tag ?? '', label: input.label ?? '', settings: input.settings, layout, figures };
}

/** Opening words shown in the chunk list: about this many characters, cut at a word. */
const OPENING_CHARS = 64;

/** The first words of a chunk's text on one line, so list rows under the same heading can be told apart. */
export function openingWords(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= OPENING_CHARS) return flat;
  const cut = flat.lastIndexOf(' ', OPENING_CHARS);
  return `${flat.slice(0, cut > OPENING_CHARS / 2 ? cut : OPENING_CHARS)}…`;
}

/** Prefix of a view's element ids: none for the first view, so single reports keep `#c12` links. */
export function idPrefix(view: number): string {
  return view === 0 ? '' : `v${view}-`;
}

/** True when a chunk is flagged oversized or measures above the limit. */
export function isAboveMax(c: Chunk, maxSize: number | undefined): boolean {
  return c.oversized === true || (maxSize !== undefined && c.size > maxSize);
}

/** True when a chunk measures below `minSize`, the chunker's own test for `statistics.undersized`. */
export function isUndersized(c: Chunk, minSize: number | undefined): boolean {
  return minSize !== undefined && c.size < minSize;
}

/** Metadata flags worth a chip, in display order; the first three are problems the report links to. */
function chunkFlags(c: Chunk, settings: ReportSettings): string[] {
  const m = c.metadata;
  const flags: string[] = [];
  if (c.oversized) flags.push('oversized');
  else if (isAboveMax(c, settings.maxSize)) flags.push('above max');
  if (isHeadingOnly(c)) flags.push('heading only');
  if (isUndersized(c, settings.minSize)) flags.push('undersized');
  if (m?.isSplit) flags.push('split');
  if (m?.hasCode) flags.push('code');
  if (m?.hasTable) flags.push('table');
  if (m?.hasList) flags.push('list');
  if (m?.hasImage) flags.push('image');
  if (m?.hasFormula) flags.push('formula');
  if (m?.fallback) flags.push('fallback');
  return flags;
}

/** An index into a table of shared strings, adding the string when it is new. */
function interner(): { table: string[]; index(value: string): number } {
  const table: string[] = [];
  const seen = new Map<string, number>();
  return {
    table,
    index(value) {
      let at = seen.get(value);
      if (at === undefined) {
        at = table.push(value) - 1;
        seen.set(value, at);
      }
      return at;
    },
  };
}

/**
 * The box around a chunk's boxes on each page it is drawn on, in page order, to a point: what the report shows, so
 * that a reader can find the chunk on the page (the chunk's own boxes, one per line, are in its JSON).
 */
export function pageBoxes(boxes: readonly PageBox[]): [number, number, number, number, number][] {
  const byPage = new Map<number, { x0: number; y0: number; x1: number; y1: number }>();
  for (const b of boxes) {
    const u = byPage.get(b.page);
    if (u === undefined) byPage.set(b.page, { x0: b.x, y0: b.y, x1: b.x + b.width, y1: b.y + b.height });
    else Object.assign(u, { x0: Math.min(u.x0, b.x), y0: Math.min(u.y0, b.y), x1: Math.max(u.x1, b.x + b.width), y1: Math.max(u.y1, b.y + b.height) });
  }
  return [...byPage]
    .sort((a, b) => a[0] - b[0])
    .map(([page, u]) => [page, Math.floor(u.x0), Math.floor(u.y0), Math.ceil(u.x1) - Math.floor(u.x0), Math.ceil(u.y1) - Math.floor(u.y0)]);
}

/** The facts of every chunk of a view, in band order, with the breadcrumb and heading tables they index. */
export function chunkFacts(view: ReportView): ViewChunkFacts {
  const chunks = view.layout.chunks;
  const crumbs = interner();
  const heads = interner();
  const facts = chunks.map((c, k) => {
    const path = c.heading?.path ?? [];
    const crumb = crumbs.index(c.heading?.breadcrumb ?? '');
    const head = heads.index(path.length > 0 ? (path.at(-1) as string) : '(before the first heading)');
    const f: ChunkFacts = {
      id: c.id,
      size: c.size,
      start: c.start,
      end: c.end,
      startLine: c.startLine,
      endLine: c.endLine,
      chars: c.charCount ?? c.end - c.start,
      words: c.wordCount ?? 0,
      crumb,
      head,
      open: openingWords(c.text ?? ''),
    };
    if (c.index !== k) f.index = c.index;
    if (c.pageStart !== undefined) f.pageStart = c.pageStart;
    if (c.pageEnd !== undefined) f.pageEnd = c.pageEnd;
    if (c.boxes !== undefined && c.boxes.length > 0) f.boxes = pageBoxes(c.boxes);
    const flags = chunkFlags(c, view.settings);
    if (flags.length > 0) f.flags = flags;
    if (c.metadata?.kinds?.length) f.kinds = c.metadata.kinds;
    if (c.metadata?.languages?.length) f.languages = c.metadata.languages;
    if (c.prefix) f.prefix = c.prefix.length;
    if (c.suffix) f.suffix = c.suffix.length;
    const prev = k > 0 ? (chunks[k - 1] as Chunk) : undefined;
    const shared = prev === undefined ? 0 : Math.max(0, Math.min(prev.end, c.end) - c.start);
    if (shared > 0) f.overlapPrev = shared;
    if (c.metadata?.oversizedReason !== undefined) f.reason = c.metadata.oversizedReason;
    return f;
  });
  return { crumbs: crumbs.table, heads: heads.table, chunks: facts };
}
