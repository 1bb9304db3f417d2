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
  const order = input.map((_, i) => i);
  order.sort((a, b) => (input[a] as Chunk).start - (input[b] as Chunk).start || (input[a] as Chunk).end - (input[b] as Chunk).end || a - b);
  const chunks = order.map((i) => input[i] as Chunk);
  const n = chunks.length;
  const len = text.length;
  const pages = (options.pages ?? []).filter((p) => Number.isInteger(p.offset) && p.offset >= 0 && (p.offset < len || p.offset === 0));

  // Every offset where something changes: chunk starts and ends, page starts, the two ends of the text.
  const points = new Set<number>([0, len]);
  const startsAt = new Map<number, number[]>();
  const endsAt = new Map<number, number[]>();
  chunks.forEach((c, k) => {
    points.add(c.start);
    points.add(c.end);
    if (c.end > c.start) {
      (startsAt.get(c.start) ?? startsAt.set(c.start, []).get(c.start)!).push(k);
      (endsAt.get(c.end) ?? endsAt.set(c.end, []).get(c.end)!).push(k);
    }
  });
  const pagesAt = new Map<number, PageMark[]>();
  for (const p of pages) {
    points.add(p.offset);
    (pagesAt.get(p.offset) ?? pagesAt.set(p.offset, []).get(p.offset)!).push(p);
  }
  const anchorsAt = new Map<number, number[]>();
  (options.anchors ?? []).forEach((offset, i) => {
    if (!Number.isInteger(offset) || offset < 0 || offset > len) return;
    points.add(offset);
    (anchorsAt.get(offset) ?? anchorsAt.set(offset, []).get(offset)!).push(i);
  });
  const cuts = [...points].sort((a, b) => a - b);

  // Item ranges: band k runs from its start to the next start or the reach of the chunks so far.
  const items: { kind: 'band' | 'gap'; position: number; start: number; end: number; pieces: Fragment[] }[] = [];
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

  // The runs between consecutive cuts, with the chunks containing each. Chunks enter `active` in band order
  // (starts are sorted), so its first entries are the lowest positions without sorting.
  const runs: { start: number; end: number; cover: number; chunks: number[] }[] = [];
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

  let overlapChars = 0;
  let coveredChars = 0;
  let uncoveredChars = 0;
  let addedChars = 0;
  let lastPage = 0;
  const placePages = (pieces: Fragment[], at: number): void => {
    const marks = pagesAt.get(at);
    if (marks === undefined) return;
    for (const p of marks) pieces.push({ kind: 'page', page: p.page, lastPage: p.page, place: p.within ? 'within' : 'exact' });
    pagesAt.delete(at);
  };
  const placeAnchors = (pieces: Fragment[], at: number): void => {
    const marks = anchorsAt.get(at);
    if (marks === undefined) return;
    for (const anchor of marks) pieces.push({ kind: 'anchor', anchor });
    anchorsAt.delete(at);
  };
  let r = 0;
  for (const it of items) {
    placePages(it.pieces, it.start);
    placeAnchors(it.pieces, it.start);
    if (it.kind === 'band') {
      const c = chunks[it.position] as Chunk;
      if (pages.length === 0 && c.pageStart !== undefined && c.pageStart > lastPage) {
        // Pages with no chunk start of their own (blank pages) fold into the marker: "pages 5–7".
        it.pieces.push({ kind: 'page', page: Math.min(lastPage + 1, c.pageStart), lastPage: c.pageStart, place: 'chunk' });
      }
      if (c.pageStart !== undefined) lastPage = Math.max(lastPage, c.pageEnd ?? c.pageStart);
      if (c.prefix) {
        it.pieces.push({ kind: 'prefix', of: it.position, text: c.prefix });
        addedChars += c.prefix.length;
      }
      if (c.end === c.start && c.suffix) {
        it.pieces.push({ kind: 'suffix', of: it.position, text: c.suffix });
        addedChars += c.suffix.length;
      }
    }
    for (; r < runs.length && (runs[r] as (typeof runs)[number]).start < it.end; r++) {
      const run = runs[r] as (typeof runs)[number];
      placePages(it.pieces, run.start);
      placeAnchors(it.pieces, run.start);
      const prev = it.pieces.at(-1);
      if (prev?.kind === 'text' && prev.end === run.start && prev.cover === run.cover && sameList(prev.chunks, run.chunks)) {
        it.pieces[it.pieces.length - 1] = { ...prev, end: run.end };
      } else {
        it.pieces.push({ kind: 'text', start: run.start, end: run.end, cover: run.cover, chunks: run.chunks });
      }
      if (run.cover >= 2) overlapChars += run.end - run.start;
      if (run.cover >= 1) coveredChars += run.end - run.start;
      if (run.cover === 0) uncoveredChars += countNonWhitespace(text, run.start, run.end);
      for (const k of endsAt.get(run.end) ?? []) {
        const c = chunks[k] as Chunk;
        if (c.suffix) {
          it.pieces.push({ kind: 'suffix', of: k, text: c.suffix });
          addedChars += c.suffix.length;
        }
      }
    }
  }

  const out = items.map((it) =>
    it.kind === 'band'
      ? ({ kind: 'band', position: it.position, chunk: chunks[it.position] as Chunk, start: it.start, end: it.end, pieces: it.pieces } satisfies Band)
      : ({ kind: 'gap', start: it.start, end: it.end, blank: countNonWhitespace(text, it.start, it.end) === 0, pieces: it.pieces } satisfies Gap),
  );
  return {
    chunks,
    items: out,
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

function sameList(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

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
