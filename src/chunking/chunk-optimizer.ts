/**
 * The default optimizer over finished chunks, for a `ChunkOptimizer` used on its own or injected into a chunker.
 *
 * The default optimizer works on drafts: it needs each chunk's section, the whitespace before it and where its
 * spans start. A chunker that hands finished chunks to an injected optimizer lends their drafts with them
 * (`lendDrafts`), so on those chunks the default optimizer runs exactly as if nothing had been injected. Chunks
 * from elsewhere are read back into drafts from what a chunk tells:
 * - a section ends where the split-level headings in force change, or where a chunk opens with a split-level heading;
 * - the whitespace between two chunks is read from the document text when it is given, else taken to be line
 *   breaks when the offsets and lines say that is all it can be; where it is not known, the chunks are kept apart
 *   (fusing or overlapping them would have to invent it);
 * - a chunk of prose may start between any two words, a list between items, anything else only at its start.
 */
import { normalizeOptions, type ChunkConfig, type ChunkOptions } from '../config.js';
import type { Sizer } from '../protocols.js';
import type { Chunk, HeadingContext, PageBox } from '../types.js';
import { finishChunk, type ChunkOwner } from './chunk-factory.js';
import { createChunkMeasure, type ChunkMeasure } from './chunk-measure.js';
import { isProse, type PackedDraft, type SpanMark } from './draft.js';
import { createDefaultOptimizer, type DraftOptimizer } from './optimizer.js';
import { createSizer } from './sizers/index.js';
import { linkNeighbours } from './neighbours.js';

/** What a chunker lends with a chunk it hands to an injected optimizer. */
interface Lent {
  readonly draft: PackedDraft;
  /** One object per chunking run: overlap continues from window to window of the same run only. */
  readonly run: object;
  readonly measure: ChunkMeasure;
}

const lent = new WeakMap<Chunk, Lent>();

/** Lends each chunk's draft, for an optimizer that can use it; `run` is the same object for all of a run's chunks. */
export function lendDrafts(chunks: readonly Chunk[], drafts: readonly PackedDraft[], run: object, measure: ChunkMeasure): void {
  chunks.forEach((chunk, i) => { lent.set(chunk, { draft: drafts[i] as PackedDraft, run, measure }); });
}

/** The drafts lent with every one of `chunks` by one run, or null when any chunk is not lent or was changed since. */
function borrow(chunks: readonly Chunk[]): { drafts: PackedDraft[]; run: object; measure: ChunkMeasure } | null {
  const first = chunks[0] === undefined ? undefined : lent.get(chunks[0]);
  if (first === undefined) return null;
  const drafts: PackedDraft[] = [];
  for (const chunk of chunks) {
    const l = lent.get(chunk);
    if (l === undefined || l.run !== first.run) return null;
    if (l.draft.text !== chunk.text || l.draft.start !== chunk.start || l.draft.end !== chunk.end) return null;
    drafts.push(l.draft);
  }
  return { drafts, run: first.run, measure: first.measure };
}

/** Optimizes finished chunks: `optimize(chunks, config, text?)`. */
export interface ChunkListOptimizer {
  /**
   * Fuses chunks below `minSize` with a neighbour of their section when the result fits, adds `overlap`, and drops
   * whitespace-only chunks; `text`, the document the chunks were cut from, lets chunks separated by more than line
   * breaks be fused. Returns new chunks, numbered from the first chunk's `index`, with their ids.
   */
  optimize(chunks: readonly Chunk[], config?: ChunkOptions | ChunkConfig, text?: string): Chunk[];
}

/** Creates the optimizer over chunks; `sizer` measures chunks not lent by a chunker (default: the config's unit). */
export function createChunkListOptimizer(sizer?: Sizer): ChunkListOptimizer {
  const runs = new WeakMap<object, DraftOptimizer>();
  // The options of the last call, their config and the chunk measure made for it: a caller passes the same options again.
  const last: { options: unknown; config: ChunkConfig | undefined; measure: ChunkMeasure | undefined } = { options: undefined, config: undefined, measure: undefined };
  const configOf = (options: ChunkOptions | ChunkConfig | undefined): ChunkConfig => {
    if (last.config === undefined || options !== last.options) {
      last.config = normalizeOptions(options as ChunkOptions | undefined);
      last.options = options;
      last.measure = undefined;
    }
    return last.config;
  };
  const measureOf = (config: ChunkConfig): ChunkMeasure => (last.measure ??= createChunkMeasure(config, sizer ?? createSizer(config)));

  return {
    optimize(chunks, options, text) {
      if (!Array.isArray(chunks)) throw new TypeError('optimize(chunks, config): chunks must be an array of chunks');
      const config = configOf(options);
      const loan = borrow(chunks);
      if (loan !== null) {
        let optimizer = runs.get(loan.run);
        if (optimizer === undefined) {
          optimizer = createDefaultOptimizer(loan.measure);
          runs.set(loan.run, optimizer);
        }
        return finishAll(optimizer.optimize(loan.drafts, config), chunks);
      }
      const measure = measureOf(config);
      const out: Chunk[] = [];
      for (const run of documentRuns(chunks)) {
        out.push(...finishAll(createDefaultOptimizer(measure).optimize(draftsOf(run, config, text), config), run));
      }
      return out;
    },
  };
}

/** The chunks in runs of one document each. */
function documentRuns(chunks: readonly Chunk[]): Chunk[][] {
  const runs: Chunk[][] = [];
  for (const chunk of chunks) {
    const run = runs.at(-1);
    if (run !== undefined && (run[0] as Chunk).documentId === chunk.documentId) run.push(chunk);
    else runs.push([chunk]);
  }
  return runs;
}

/**
 * Finishes the drafts of one document's chunks, numbered from the first chunk's index, with the document's title
 * and linked to each other; the first and the last keep the outer neighbours the chunks given had.
 */
function finishAll(drafts: readonly PackedDraft[], chunks: readonly Chunk[]): Chunk[] {
  const first = chunks[0];
  if (first === undefined) return [];
  const title = first.documentTitle;
  const owner: ChunkOwner = { documentId: first.documentId, origin: first.origin, ...(title !== undefined ? { document: { title, settled: true } } : {}) };
  const finished = drafts.map((draft, i) => finishChunk(draft, owner, first.index + i));
  const outer = { prevId: first.prevId, nextId: chunks.at(-1)?.nextId };
  return linkNeighbours(withBoxes(finished, chunks), outer);
}

/**
 * The optimized chunks with the boxes (PDF) of the chunks given that each covers whole. Without the blocks, a box
 * cannot be cut where an overlap begins inside a chunk, so the text an overlap repeats has no boxes of its own.
 */
function withBoxes(finished: Chunk[], chunks: readonly Chunk[]): Chunk[] {
  if (!chunks.some((c) => c.boxes !== undefined)) return finished;
  let first = 0;
  return finished.map((chunk) => {
    while (first < chunks.length && (chunks[first] as Chunk).start < chunk.start) first++;
    const boxes: PageBox[] = [];
    for (let i = first; i < chunks.length && (chunks[i] as Chunk).end <= chunk.end; i++) boxes.push(...((chunks[i] as Chunk).boxes ?? []));
    return boxes.length === 0 ? chunk : { ...chunk, boxes };
  });
}

/** One document's chunks read back into drafts. */
function draftsOf(chunks: readonly Chunk[], config: ChunkConfig, text: string | undefined): PackedDraft[] {
  let section = 0;
  return chunks.map((chunk, i) => {
    const before = chunks[i - 1];
    let gapBefore = '';
    if (before !== undefined) {
      const gap = gapBetween(before, chunk, text);
      const sameSection = gap !== null && !opensSection(chunk, config) && sectionKey(before.heading, config) === sectionKey(chunk.heading, config);
      if (sameSection) gapBefore = gap;
      else section++;
    }
    return {
      text: chunk.text,
      start: chunk.start,
      end: chunk.end,
      startLine: chunk.startLine,
      endLine: chunk.endLine,
      size: chunk.size,
      heading: chunk.heading,
      prefix: chunk.prefix,
      suffix: chunk.suffix,
      ...(chunk.pageStart !== undefined ? { pageStart: chunk.pageStart, pageEnd: chunk.pageEnd ?? chunk.pageStart } : {}),
      metadata: chunk.metadata,
      ...(chunk.oversized ? { oversized: true } : {}),
      ...(chunk.embedText !== undefined ? { embedText: chunk.embedText } : {}),
      section,
      gapBefore,
      spans: marksOf(chunk),
    };
  });
}

/**
 * The whitespace between two chunks, or null when it is not known: from `text` when given, else line breaks when
 * there are exactly as many characters between the chunks as lines. Overlapping chunks have none.
 */
function gapBetween(a: Chunk, b: Chunk, text: string | undefined): string | null {
  if (a.end >= b.start) return '';
  if (text !== undefined && b.start <= text.length) {
    const gap = text.slice(a.end, b.start);
    return /^\s*$/.test(gap) ? gap : null;
  }
  const length = b.start - a.end;
  return length === b.startLine - a.endLine ? '\n'.repeat(length) : null;
}

/** True when a chunk opens with a heading at a split level: the first chunk of a section. */
function opensSection(chunk: Chunk, config: ChunkConfig): boolean {
  const level = chunk.heading.levels.at(-1);
  return chunk.metadata.kinds[0] === 'heading' && level !== undefined && config.splitLevels.includes(level);
}

/** The split-level headings in force: chunks of one section share them. */
function sectionKey(heading: HeadingContext, config: ChunkConfig): string {
  let last = -1;
  heading.levels.forEach((level, i) => {
    if (config.splitLevels.includes(level)) last = i;
  });
  return JSON.stringify(heading.path.slice(0, last + 1));
}

/**
 * Where another chunk may start inside this one: a chunk opening with a heading gives it a mark of its own up to
 * the first blank line, and the rest may start between words if it is all prose, between items if it is all
 * lists. A framed chunk (a re-opened fence, a repeated table header) gives none.
 */
function marksOf(chunk: Chunk): SpanMark[] {
  const page = chunk.pageStart === undefined ? {} : { page: chunk.pageStart };
  const mark = (start: number, starts: SpanMark['starts'], opens: boolean): SpanMark => ({ start, end: chunk.end, heading: chunk.heading, starts, opens, ...page });
  if (chunk.prefix !== '') return [mark(chunk.start, 'none', false)];
  const kinds = chunk.metadata.kinds;
  const body = kinds[0] === 'heading' ? kinds.slice(1) : kinds;
  const starts = body.length === 0 ? 'none' : body.every(isProse) ? 'words' : body.every((k) => k === 'list') ? 'items' : 'none';
  if (kinds[0] !== 'heading') return [mark(chunk.start, starts, true)];
  const blank = /\n[ \t]*\r?\n\s*/.exec(chunk.text);
  if (blank === null || body.length === 0) return [mark(chunk.start, 'none', true)];
  const rest = chunk.start + blank.index + blank[0].length;
  return [{ ...mark(chunk.start, 'none', true), end: rest }, mark(rest, starts, true)];
}
