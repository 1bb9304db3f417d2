/**
 * The semantic chunker's chunks before they are numbered: what the packer builds and the optimizer rewrites. A
 * draft carries, besides a chunk's fields, its section, the whitespace before it and where each of its spans
 * starts (for fusion and overlap); it becomes a `Chunk` once, when it is numbered (id, hash and counts).
 */
import type { BlockKind, ChunkMetadata, HeadingContext } from '../types.js';
import type { ChunkDraft } from './chunk-factory.js';
import type { ChunkMeasure } from './chunk-measure.js';
import type { BlockSpan } from './block-spans.js';

/** Where a span of a chunk starts, and what is in force there. */
export interface SpanMark {
  readonly start: number;
  readonly end: number;
  readonly heading: HeadingContext;
  /**
   * Where else than at its start a chunk may start inside this span: between any two words (prose), at the start
   * of a list item (lists), or nowhere (code, tables, HTML: a start inside would break the construct).
   */
  readonly starts: 'words' | 'items' | 'none';
  /** False when the span needs its prefix (a re-opened fence or table header): no chunk may start at it without one. */
  readonly opens: boolean;
  readonly page?: number;
}

/** A chunk of the semantic chunker before it is numbered. */
export interface PackedDraft extends ChunkDraft {
  readonly heading: HeadingContext;
  readonly prefix: string;
  readonly suffix: string;
  readonly metadata: ChunkMetadata;
  /** Sections are numbered from 0; a split-level heading starts a new one. */
  readonly section: number;
  /** Whitespace between the previous chunk's end (or the previous block) and this chunk's start. */
  readonly gapBefore: string;
  readonly spans: readonly SpanMark[];
}

const PROSE: ReadonlySet<BlockKind> = new Set(['paragraph', 'blockquote']);

/** True for the kinds of text a chunk may start anywhere in between words. */
export function isProse(kind: BlockKind): boolean {
  return PROSE.has(kind);
}

/**
 * The draft of the chunk holding `spans`, measured once as the embedder sees it. With `contextualize`, a chunk
 * whose text cannot be cut further goes without its breadcrumb when only that makes it fit.
 */
export function buildDraft(spans: readonly BlockSpan[], section: number, measure: ChunkMeasure): PackedDraft {
  const first = spans[0] as BlockSpan;
  const last = spans.at(-1) as BlockSpan;
  let text = first.text;
  for (let i = 1; i < spans.length; i++) text += (spans[i] as BlockSpan).gapBefore + (spans[i] as BlockSpan).text;
  const heading = first.heading;
  // A chunk of one span whose size was measured exactly (a span of a long block, as the splitter measured it) is
  // not measured again.
  const known = spans.length === 1 && first.sizeExact === true ? first.size : undefined;
  const { size, embedText } = measure.chunk(heading, first.prefix, text, last.suffix, true, known);
  const oversizedReason = spans.find((p) => p.oversizedReason !== undefined)?.oversizedReason;
  const oversized = oversizedReason !== undefined && size > measure.maxSize;
  const pageStart = first.page;
  // Built as one literal with every field a draft always has, the optional ones stored after it: a spread of
  // `cond ? { … } : {}` makes an object more and leaves V8's fast path, and each field stored after the literal
  // goes to a store of properties apart from the object; a heading per line makes a draft every few bytes. (A
  // draft's fields have no order anyone reads: a chunk is built field by field from it.)
  const metadata = metadataOf(spans, oversized ? oversizedReason : undefined);
  const marks = spans.map(markOf);
  const draft: { -readonly [K in keyof PackedDraft]: PackedDraft[K] } = {
    text,
    start: first.start,
    end: last.end,
    startLine: first.startLine,
    endLine: last.endLine,
    size,
    heading,
    prefix: first.prefix,
    suffix: last.suffix,
    metadata,
    section,
    gapBefore: first.gapBefore,
    spans: marks,
  };
  if (pageStart !== undefined) {
    const pageEnd = spans.reduce<number | undefined>((m, p) => (p.pageEnd === undefined ? m : Math.max(m ?? 0, p.pageEnd)), undefined);
    draft.pageStart = pageStart;
    draft.pageEnd = pageEnd ?? pageStart;
  }
  if (oversized) draft.oversized = true;
  if (embedText !== undefined) draft.embedText = embedText;
  return draft;
}

/** Where a chunk may start in a span. */
function markOf(p: BlockSpan): SpanMark {
  const starts = p.prefix !== '' ? 'none' : isProse(p.kind) ? 'words' : p.kind === 'list' ? 'items' : 'none';
  const mark: { -readonly [K in keyof SpanMark]: SpanMark[K] } = { start: p.start, end: p.end, heading: p.heading, starts, opens: p.prefix === '' };
  if (p.page !== undefined) mark.page = p.page;
  return mark;
}

/** The languages or images of a chunk that has none: one frozen list shared, as `EMPTY_METADATA`'s are. */
const NONE: readonly string[] = Object.freeze([]);

/**
 * The union of what the spans of a chunk contain. The flags are kept in locals and the lists made only when a span
 * has something for them: a heading per line makes a chunk every few bytes, most with no language and no image.
 */
function metadataOf(spans: readonly BlockSpan[], oversizedReason: string | undefined): ChunkMetadata {
  // A chunk holds at least one span: a list of one kind made as a literal is as long as it needs to be.
  const kinds: BlockKind[] = [(spans[0] as BlockSpan).kind];
  let languages: string[] | undefined;
  let images: string[] | undefined;
  let hasCode = false;
  let hasTable = false;
  let hasList = false;
  let hasFormula = false;
  let isSplit = false;
  let fallback = false;
  // Loops by index: `for…of` over a span's lists, most of them one frozen empty list (`NONE`), made an iterator
  // and its results for each, a third of what this function allocated.
  for (let s = 0; s < spans.length; s++) {
    const p = spans[s] as BlockSpan;
    if (!kinds.includes(p.kind)) kinds.push(p.kind);
    for (let k = 0; k < p.languages.length; k++) {
      const l = p.languages[k] as string;
      if (l !== '' && !(languages ??= []).includes(l)) languages.push(l);
    }
    for (let k = 0; k < p.images.length; k++) {
      const i = p.images[k] as string;
      if (!(images ??= []).includes(i)) images.push(i);
    }
    hasCode ||= p.hasCode;
    hasTable ||= p.hasTable;
    hasList ||= p.hasList;
    hasFormula ||= p.hasFormula;
    isSplit ||= p.isSplit;
    fallback ||= p.fallback !== undefined;
  }
  const hasImage = images !== undefined && images.length > 0;
  // Optional fields stored after the literal, not spread into it (see `buildDraft`).
  const metadata: { -readonly [K in keyof ChunkMetadata]: ChunkMetadata[K] } = { hasCode, hasTable, hasList, hasImage, hasFormula, isSplit, kinds, languages: languages ?? NONE, images: images ?? NONE };
  if (oversizedReason !== undefined) metadata.oversizedReason = oversizedReason;
  if (fallback) metadata.fallback = 'text-splitter';
  return metadata;
}

/** The metadata of two chunks made one. */
export function mergeMetadata(a: ChunkMetadata, b: ChunkMetadata): ChunkMetadata {
  const union = <T>(x: readonly T[], y: readonly T[]) => [...x, ...y.filter((v) => !x.includes(v))];
  const fallback = a.fallback ?? b.fallback;
  return {
    hasCode: a.hasCode || b.hasCode,
    hasTable: a.hasTable || b.hasTable,
    hasList: a.hasList || b.hasList,
    hasImage: a.hasImage || b.hasImage,
    hasFormula: a.hasFormula || b.hasFormula,
    isSplit: a.isSplit || b.isSplit,
    kinds: union(a.kinds, b.kinds),
    languages: union(a.languages, b.languages),
    images: union(a.images, b.images),
    ...(fallback !== undefined ? { fallback } : {}),
  };
}
