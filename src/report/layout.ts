/**
 * Lays a document out as a sequence of chunk bands, the geometry both report views draw. With overlap, chunks share
 * ranges, so a chunk cannot be one DOM element wrapping its whole range; instead the document is cut at every chunk
 * start: the band of a chunk runs from its start to the next chunk's start (or to the end of the text any chunk so
 * far reaches), so there is exactly one band per chunk, the document is drawn once, and shared text appears as
 * overlap pieces inside the later chunk's band.
 */
import { ChunkError } from '../errors.js';
import type { Block, Chunk } from '../types.js';

/** Where a page begins in the document text (PDF), when the caller knows it. */
export interface PageMark {
  /** 1-based page number. */
  readonly page: number;
  /** UTF-16 offset of the page's first character in the document text, or of the block the page begins inside. */
  readonly offset: number;
  /** True when the page begins somewhere inside the block at `offset` (a paragraph running across the page break). */
  readonly within?: boolean;
}

/** A run of source text inside a band or a gap. */
export interface TextFragment {
  readonly kind: 'text';
  readonly start: number;
  readonly end: number;
  /** How many chunks contain this run: 0 in a gap, 2 or more where chunks overlap. */
  readonly cover: number;
  /** Band positions of the chunks containing this run, at most `MAX_LISTED` of them. */
  readonly chunks: readonly number[];
}

/** Text a chunk adds for the embedder, drawn where it would sit in the source. */
export interface AddedFragment {
  readonly kind: 'prefix' | 'suffix';
  /** Band position of the chunk the text belongs to. */
  readonly of: number;
  readonly text: string;
}

/** A page marker. */
export interface PageFragment {
  readonly kind: 'page';
  readonly page: number;
  /** Last page of the marker when blank pages are folded into it (`pages 5–7`), else `page`. */
  readonly lastPage: number;
  /**
   * How well the marker is placed: `exact` where the page begins; `within` before the block the page begins inside;
   * `chunk` at the first chunk that starts on the page (no page starts were given, only the chunks' page numbers).
   */
  readonly place: 'exact' | 'within' | 'chunk';
}

/** A zero-width mark where a heading begins, so the outline can scroll to the heading itself. */
export interface AnchorFragment {
  readonly kind: 'anchor';
  /** Index into `LayoutOptions.anchors`. */
  readonly anchor: number;
}

/** What a band or a gap is drawn from. */
export type Fragment = TextFragment | AddedFragment | PageFragment | AnchorFragment;

/** The part of the document drawn as one chunk. */
export interface Band {
  readonly kind: 'band';
  /** Position in `ReportLayout.chunks` (chunks sorted by offset). */
  readonly position: number;
  readonly chunk: Chunk;
  readonly start: number;
  readonly end: number;
  readonly pieces: readonly Fragment[];
}

/** Text outside every chunk. Whitespace between chunks is normal; anything else was lost by the chunker. */
export interface Gap {
  readonly kind: 'gap';
  readonly start: number;
  readonly end: number;
  /** True when the gap holds only whitespace. */
  readonly blank: boolean;
  readonly pieces: readonly Fragment[];
}

/** Figures that only the layout can tell. */
export interface LayoutFigures {
  /** Characters that belong to two or more chunks. */
  readonly overlapChars: number;
  /** Non-whitespace characters outside every chunk. */
  readonly uncoveredChars: number;
  /** Characters of prefixes and suffixes. */
  readonly addedChars: number;
  /** Chunks that hold nothing but a heading. */
  readonly headingOnly: number;
  /** Characters of all chunks' text together: what an index stores. */
  readonly indexedChars: number;
  /** Characters inside at least one chunk, each counted once. `indexedChars - coveredChars` are repeats. */
  readonly coveredChars: number;
}

/** A document cut into bands and gaps, in document order. */
export interface ReportLayout {
  /** The chunks sorted by `(start, end)`, ties kept in input order; band positions index this array. */
  readonly chunks: readonly Chunk[];
  readonly items: readonly (Band | Gap)[];
  readonly figures: LayoutFigures;
}

/** Options of `layoutReport`. */
export interface LayoutOptions {
  /** Exact page starts; without them, page markers are placed at the first chunk of each page. */
  readonly pages?: readonly PageMark[] | undefined;
  /** Offsets that get an `anchor` piece (heading starts); the piece names the offset's index in this list. */
  readonly anchors?: readonly number[] | undefined;
}

/**
 * Page starts from a PDF's blocks: each page starts at its first block. A page whose first text lies inside a block
 * that began on an earlier page (a paragraph running across the break) is marked `within` that block, since no
 * offset inside a block is known to start it.
 */
export function pageMarks(blocks: Iterable<Block>): PageMark[] {
  const marks: PageMark[] = [];
  let seen = 0;
  for (const b of blocks) {
    if (b.page === undefined) continue;
    if (b.page > seen) marks.push({ page: b.page, offset: b.start });
    const last = b.pageEnd ?? b.page;
    for (let page = Math.max(seen, b.page) + 1; page <= last; page++) marks.push({ page, offset: b.start, within: true });
    seen = Math.max(seen, last);
  }
  return marks;
}

/** Overlap runs name at most this many chunks, so a pathological input stays linear. */
export const MAX_LISTED = 4;

/** True when a chunk holds nothing but a heading: a lonely heading cut off from its content. */
export function isHeadingOnly(chunk: Chunk): boolean {
  const kinds = chunk.metadata?.kinds;
  return kinds !== undefined && kinds.length === 1 && kinds[0] === 'heading';
}

/** Throws `ERR_INVALID_INPUT` unless every chunk is an exact slice of `text`. */
function checkChunks(chunks: readonly Chunk[], text: string): void {
  for (const c of chunks) {
    const ok = Number.isInteger(c.start) && Number.isInteger(c.end) && c.start >= 0 && c.start <= c.end && c.end <= text.length;
    if (!ok) {
      throw new ChunkError('ERR_INVALID_INPUT', `Chunk ${c.id} has range [${c.start}, ${c.end}), outside the document text (length ${text.length})`, {
        offset: c.start,
      });
    }
    if (typeof c.text === 'string' && c.text !== text.slice(c.start, c.end)) {
      throw new ChunkError(
        'ERR_INVALID_INPUT',
        `Chunk ${c.id} text is not documentText.slice(${c.start}, ${c.end}): pass the text its offsets point into (for a PDF, the extracted text)`,
        { offset: c.start },
      );
    }
  }
}

/** Cuts `text` into one band per chunk and the gaps between them. Throws `ERR_INVALID_INPUT` on chunks that are not slices of `text`. */
export function layoutReport(input: readonly Chunk[], text: string, options: LayoutOptions = {}): ReportLayout {
  checkChunks(input, text);
  const chunks = sortChunks(input);
  const len = text.length;
  const pages = (options.pages ?? []).filter((p) => Number.isInteger(p.offset) && p.offset >= 0 && (p.offset < len || p.offset === 0));
  const marks = indexMarks(chunks, pages, options.anchors ?? [], len);
  const fill: Filling = {
    text,
    chunks,
    marks,
    runs: coverRuns(marks),
    next: 0,
    lastPage: 0,
    foldPages: pages.length === 0,
    counts: { overlapChars: 0, uncoveredChars: 0, addedChars: 0, coveredChars: 0 },
  };
  const items = itemRanges(chunks, len);
  for (const item of items) fillItem(fill, item);
  const { overlapChars, uncoveredChars, addedChars, coveredChars } = fill.counts;
  return {
    chunks,
    items: items.map((it) => finishItem(it, chunks, text)),
    figures: {
      overlapChars,
      uncoveredChars,
      addedChars,
      headingOnly: chunks.filter(isHeadingOnly).length,
      indexedChars: chunks.reduce((sum, c) => sum + (c.end - c.start), 0),
      coveredChars,
    },
  };
}

/** The chunks sorted by `(start, end)`, ties kept in input order. */
function sortChunks(input: readonly Chunk[]): Chunk[] {
  const order = input.map((_, i) => i);
  order.sort((a, b) => (input[a] as Chunk).start - (input[b] as Chunk).start || (input[a] as Chunk).end - (input[b] as Chunk).end || a - b);
  return order.map((i) => input[i] as Chunk);
}

/** Every offset where something changes, and what happens there. */
interface Marks {
  /** Chunk starts and ends, page starts, anchors and the two ends of the text, sorted. */
  readonly cuts: readonly number[];
  /** Band positions of the non-empty chunks starting (ending) at each offset. */
  readonly startsAt: ReadonlyMap<number, number[]>;
  readonly endsAt: ReadonlyMap<number, number[]>;
  /** Page starts and anchors not placed yet, by offset (each is deleted once placed). */
  readonly pagesAt: Map<number, PageMark[]>;
  readonly anchorsAt: Map<number, number[]>;
}

/** Adds `value` to the list of `key` in `map`. */
function addTo<T>(map: Map<number, T[]>, key: number, value: T): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}

/** The offsets where chunks start and end, pages begin and anchors sit, and what each offset holds. */
function indexMarks(chunks: readonly Chunk[], pages: readonly PageMark[], anchors: readonly number[], len: number): Marks {
  const points = new Set<number>([0, len]);
  const marks = { startsAt: new Map<number, number[]>(), endsAt: new Map<number, number[]>(), pagesAt: new Map<number, PageMark[]>(), anchorsAt: new Map<number, number[]>() };
  chunks.forEach((c, k) => {
    points.add(c.start);
    points.add(c.end);
    if (c.end > c.start) {
      addTo(marks.startsAt, c.start, k);
      addTo(marks.endsAt, c.end, k);
    }
  });
  for (const p of pages) {
    points.add(p.offset);
    addTo(marks.pagesAt, p.offset, p);
  }
  anchors.forEach((offset, i) => {
    if (!Number.isInteger(offset) || offset < 0 || offset > len) return;
    points.add(offset);
    addTo(marks.anchorsAt, offset, i);
  });
  return { cuts: [...points].sort((a, b) => a - b), ...marks };
}

/** A band or a gap while its pieces are collected. */
interface ItemDraft {
  kind: 'band' | 'gap';
  position: number;
  start: number;
  end: number;
  pieces: Fragment[];
}

/** Item ranges: band k runs from its start to the next start or the reach of the chunks so far; gaps lie between. */
function itemRanges(chunks: readonly Chunk[], len: number): ItemDraft[] {
  const n = chunks.length;
  const items: ItemDraft[] = [];
  if (n === 0) items.push({ kind: 'gap', position: -1, start: 0, end: len, pieces: [] });
  else if (chunks[0]!.start > 0) items.push({ kind: 'gap', position: -1, start: 0, end: chunks[0]!.start, pieces: [] });
  let reach = 0;
  for (let k = 0; k < n; k++) {
    const c = chunks[k] as Chunk;
    reach = Math.max(reach, c.end);
    const next = k + 1 < n ? (chunks[k + 1] as Chunk).start : len;
    items.push({ kind: 'band', position: k, start: c.start, end: Math.min(next, reach), pieces: [] });
    if (reach < next) items.push({ kind: 'gap', position: -1, start: reach, end: next, pieces: [] });
  }
  return items;
}

/** A run of text between two consecutive cuts: how many chunks contain it, and the first of them. */
interface CoverRun {
  readonly start: number;
  readonly end: number;
  readonly cover: number;
  readonly chunks: number[];
}

/**
 * The runs between consecutive cuts, with the chunks containing each. Chunks enter `active` in band order (starts
 * are sorted), so its first entries are the lowest positions without sorting.
 */
function coverRuns({ cuts, startsAt, endsAt }: Marks): CoverRun[] {
  const runs: CoverRun[] = [];
  const active = new Set<number>();
  for (let j = 0; j + 1 < cuts.length; j++) {
    const at = cuts[j] as number;
    for (const k of endsAt.get(at) ?? []) active.delete(k);
    for (const k of startsAt.get(at) ?? []) active.add(k);
    const listed: number[] = [];
    for (const k of active) {
      if (listed.length === MAX_LISTED) break;
      listed.push(k);
    }
    runs.push({ start: at, end: cuts[j + 1] as number, cover: active.size, chunks: listed });
  }
  return runs;
}

/** What filling the items with their pieces goes through, and the figures it counts. */
interface Filling {
  readonly text: string;
  readonly chunks: readonly Chunk[];
  readonly marks: Marks;
  readonly runs: readonly CoverRun[];
  /** The first run not placed yet. */
  next: number;
  /** The last page a chunk so far reaches. */
  lastPage: number;
  /** No page starts were given: page markers are placed at the first chunk of each page. */
  readonly foldPages: boolean;
  readonly counts: { -readonly [K in 'overlapChars' | 'uncoveredChars' | 'addedChars' | 'coveredChars']: number };
}

/** Places the page markers and anchors at offset `at` not placed yet. */
function placeMarks(fill: Filling, pieces: Fragment[], at: number): void {
  const { pagesAt, anchorsAt } = fill.marks;
  const pages = pagesAt.get(at);
  if (pages !== undefined) {
    for (const p of pages) pieces.push({ kind: 'page', page: p.page, lastPage: p.page, place: p.within ? 'within' : 'exact' });
    pagesAt.delete(at);
  }
  const anchors = anchorsAt.get(at);
  if (anchors !== undefined) {
    for (const anchor of anchors) pieces.push({ kind: 'anchor', anchor });
    anchorsAt.delete(at);
  }
}

/** Adds added text (a prefix or a suffix) to an item's pieces and counts it. */
function addAdded(fill: Filling, pieces: Fragment[], kind: 'prefix' | 'suffix', of: number, text: string): void {
  pieces.push({ kind, of, text });
  fill.counts.addedChars += text.length;
}

/** Fills an item with its pieces: the marks at its start, its chunk's page marker and prefix, then its runs of text. */
function fillItem(fill: Filling, it: ItemDraft): void {
  placeMarks(fill, it.pieces, it.start);
  if (it.kind === 'band') openBand(fill, it);
  for (; fill.next < fill.runs.length && (fill.runs[fill.next] as CoverRun).start < it.end; fill.next++) {
    placeRun(fill, it.pieces, fill.runs[fill.next] as CoverRun);
  }
}

/** The pieces a band opens with: a page marker where its chunk begins a page (no page starts given), its prefix, an empty chunk's suffix. */
function openBand(fill: Filling, it: ItemDraft): void {
  const c = fill.chunks[it.position] as Chunk;
  if (fill.foldPages && c.pageStart !== undefined && c.pageStart > fill.lastPage) {
    // Pages with no chunk start of their own (blank pages) fold into the marker: "pages 5–7".
    it.pieces.push({ kind: 'page', page: Math.min(fill.lastPage + 1, c.pageStart), lastPage: c.pageStart, place: 'chunk' });
  }
  if (c.pageStart !== undefined) fill.lastPage = Math.max(fill.lastPage, c.pageEnd ?? c.pageStart);
  if (c.prefix) addAdded(fill, it.pieces, 'prefix', it.position, c.prefix);
  if (c.end === c.start && c.suffix) addAdded(fill, it.pieces, 'suffix', it.position, c.suffix);
}

/** Places a run of text (joined to the text piece before it when the same chunks hold both), counts it, then the suffixes of the chunks ending with it. */
function placeRun(fill: Filling, pieces: Fragment[], run: CoverRun): void {
  placeMarks(fill, pieces, run.start);
  const prev = pieces.at(-1);
  if (prev?.kind === 'text' && prev.end === run.start && prev.cover === run.cover && sameList(prev.chunks, run.chunks)) {
    pieces[pieces.length - 1] = { ...prev, end: run.end };
  } else {
    pieces.push({ kind: 'text', start: run.start, end: run.end, cover: run.cover, chunks: run.chunks });
  }
  if (run.cover >= 2) fill.counts.overlapChars += run.end - run.start;
  if (run.cover >= 1) fill.counts.coveredChars += run.end - run.start;
  if (run.cover === 0) fill.counts.uncoveredChars += countNonWhitespace(fill.text, run.start, run.end);
  for (const k of fill.marks.endsAt.get(run.end) ?? []) {
    const c = fill.chunks[k] as Chunk;
    if (c.suffix) addAdded(fill, pieces, 'suffix', k, c.suffix);
  }
}

/** The band or gap an item draft becomes. */
function finishItem(it: ItemDraft, chunks: readonly Chunk[], text: string): Band | Gap {
  return it.kind === 'band'
    ? ({ kind: 'band', position: it.position, chunk: chunks[it.position] as Chunk, start: it.start, end: it.end, pieces: it.pieces } satisfies Band)
    : ({ kind: 'gap', start: it.start, end: it.end, blank: countNonWhitespace(text, it.start, it.end) === 0, pieces: it.pieces } satisfies Gap);
}

/** Whether two lists of band positions are equal. */
function sameList(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** Characters of `text[start, end)` that are not whitespace. */
function countNonWhitespace(text: string, start: number, end: number): number {
  let n = 0;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    // ASCII whitespace fast path; other characters go through the regex so NBSP and friends count as blank.
    if (c === 32 || (c >= 9 && c <= 13)) continue;
    if (c < 128 || !/\s/.test(text[i] as string)) n++;
  }
  return n;
}
