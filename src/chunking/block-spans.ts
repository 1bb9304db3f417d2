/**
 * Block spans: what the packer puts into chunks. A block that fits is one span; a block too large is cut into
 * spans (`cut-block.ts`). A span is an exact slice of its block, with what it holds (kinds, languages, images,
 * pages) narrowed from its block's, and the text it gets around it for the embedder (`prefix`, `suffix`), never
 * part of the slice.
 */
import type { Sizer } from '../protocols.js';
import type { Block, BlockKind, HeadingContext, Span } from '../types.js';
import { copyWith } from '../core.js';
import { countLineEndings } from '../unicode/lines.js';
import { continuationFrame } from './block-levels.js';

/** A span of a block, as the packer puts it into a chunk. */
export interface BlockSpan {
  /** Exact source slice. */
  readonly text: string;
  readonly start: number;
  readonly end: number;
  /** Whitespace between the previous span and this one (exact source text). */
  readonly gapBefore: string;
  readonly startLine: number;
  readonly endLine: number;
  /** Size of `text` alone. */
  readonly size: number;
  /**
   * True when `size` is the sizer's own measure of `text` (measured, or kept from the built-in splitter's exact
   * measure of the same span), not a sum the packer estimated: a chunk of this span alone need not be measured again.
   */
  readonly sizeExact?: boolean;
  /** Added before `text` for the embedder (a repeated table header, a re-opened fence): the span must start a chunk. */
  readonly prefix: string;
  /** Added after `text` (a closing fence): the span must end a chunk. */
  readonly suffix: string;
  readonly heading: HeadingContext;
  readonly kind: BlockKind;
  /** True for a heading block (headings go with what follows them). */
  readonly isHeading: boolean;
  /** Depth of a heading span. */
  readonly depth?: number;
  /** True when the span is part of a block that was cut. */
  readonly isSplit: boolean;
  /**
   * True for a span of a cut block after its first: the place before it lies inside the block. The place before
   * the first is between blocks, as before the block kept whole, so a chunk ends there as readily whether an edit
   * left the block whole or made it one to cut (two lists merged when the paragraph between them goes).
   */
  readonly continuesBlock?: boolean;
  /** Set when the span exceeds the limit on purpose (an element kept whole on request). */
  readonly oversizedReason?: string;
  /** Set when a table row or list item had to go through the TextSplitter. */
  readonly fallback?: 'text-splitter';
  readonly languages: readonly string[];
  readonly images: readonly string[];
  readonly hasCode: boolean;
  readonly hasTable: boolean;
  readonly hasList: boolean;
  readonly hasFormula: boolean;
  readonly page?: number;
  readonly pageEnd?: number;
}

/** A span under construction (a `BlockSpan` whose fields are still being stored). */
type MutableSpan = { -readonly [K in keyof BlockSpan]: BlockSpan[K] };

/** The languages or images of a span that has none: shared, as most spans have none (spans are never changed). */
const NONE: readonly string[] = Object.freeze([]);

/**
 * The one span of a block that is kept whole. Its rare fields (pages) are stored after the literal, not spread into
 * it (`...(cond ? { depth } : {})` made an object more per block), and a span without languages or images shares
 * one empty list: a document of one-letter paragraphs makes a span every three bytes.
 */
export function wholeSpan(block: Block, size: number, heading = block.heading as HeadingContext): BlockSpan {
  const f = block.features;
  const span: MutableSpan = {
    text: block.text,
    start: block.start,
    end: block.end,
    gapBefore: block.gapBefore ?? '',
    startLine: block.startLine,
    endLine: block.endLine,
    size,
    prefix: '',
    suffix: '',
    heading,
    kind: block.kind,
    isHeading: block.kind === 'heading',
    isSplit: false,
    languages: block.kind === 'code' ? [block.lang ?? ''] : (f?.codeLangs ?? NONE),
    images: f?.images ?? NONE,
    hasCode: block.kind === 'code' || (f?.codeLangs?.length ?? 0) > 0,
    hasTable: block.kind === 'table' || f?.table === true,
    hasList: block.kind === 'list' || f?.list === true,
    hasFormula: block.kind === 'math' || f?.math === true,
    // In the literal, undefined but for a heading: stored after it, a heading's depth grew a store of properties
    // apart from the object, and a heading per line makes a span every four bytes.
    depth: block.kind === 'heading' ? block.depth : undefined,
  };
  if (block.page !== undefined) {
    span.page = block.page;
    span.pageEnd = block.pageEnd ?? block.page;
  }
  return span;
}

/** What spans are cut from: a block, or a span cut again; `whole` is its own span, whose fields its parts narrow. */
export interface SpanSource {
  readonly text: string;
  readonly start: number;
  readonly startLine: number;
  readonly kind: BlockKind;
  readonly page?: number;
  readonly pageBreaks?: readonly number[];
  readonly whole: BlockSpan;
}

/** A block as a source of spans. */
export function blockSource(block: Block): SpanSource {
  return { text: block.text, start: block.start, startLine: block.startLine, kind: block.kind, page: block.page, pageBreaks: block.pageBreaks, whole: wholeSpan(block, 0) };
}

/**
 * `[range.start, range.end)` of a source (offsets relative to its text) as a block span that starts on
 * `startLine`, narrowing the fields of the source's whole span.
 */
function subSpan(source: SpanSource, range: Span, previousEnd: number, first: boolean, startLine: number, sizer: Sizer, extra: Partial<BlockSpan>): BlockSpan {
  const { whole } = source;
  const text = source.text.slice(range.start, range.end);
  const images = whole.images.length === 0 ? NONE : whole.images.filter((src) => src !== '' && text.includes(src));
  return copyWith(whole, {
    text,
    start: source.start + range.start,
    end: source.start + range.end,
    // The first span keeps the gap before the source, and the whitespace the cut trimmed from its front after it
    // (an indented code line re-cut as text starts past its indentation).
    gapBefore: first ? whole.gapBefore + source.text.slice(0, range.start) : source.text.slice(previousEnd, range.start),
    startLine,
    endLine: startLine + countLineEndings(text),
    size: extra.size ?? sizer.size(text),
    sizeExact: extra.size === undefined,
    isSplit: true,
    continuesBlock: !first || whole.continuesBlock === true,
    images,
    hasCode: source.kind === 'code' || (whole.hasCode && /^\s*(```|~~~)/m.test(text)),
    hasFormula: whole.hasFormula && text.includes('$'),
    ...spanPages(source, source.start + range.start, source.start + range.end),
    ...extra,
  });
}

/** The pages of the first and last characters of `[start, end)` inside a PDF block that runs across pages. */
function spanPages(source: SpanSource, start: number, end: number): { page?: number; pageEnd?: number } {
  if (source.page === undefined || source.pageBreaks === undefined) return {};
  const pageAt = (offset: number): number => {
    let page = source.page as number;
    for (const at of source.pageBreaks ?? []) if (offset >= at) page++;
    return page;
  };
  return { page: pageAt(start), pageEnd: pageAt(Math.max(start, end - 1)) };
}

/**
 * Ranges of a source (offsets relative to its text) as block spans with the right gaps, counting lines as it goes
 * (never from the source's start); `extra` gives fields of span `i` (its size, when it is known, and its frame).
 */
export function toBlockSpans(source: SpanSource, ranges: readonly Span[], sizer: Sizer, extra: (i: number) => Partial<BlockSpan> = () => ({})): BlockSpan[] {
  const out: BlockSpan[] = [];
  let previousEnd = 0;
  let line = source.startLine;
  ranges.forEach((range, i) => {
    line += countLineEndings(source.text, previousEnd, range.start);
    const span = subSpan(source, range, previousEnd, i === 0, line, sizer, extra(i));
    out.push(span);
    line = span.endLine;
    previousEnd = range.end;
  });
  return out;
}

/** The one span of a block kept whole, with the frame a part of a cut construct needs (see `continuationFrame`). */
export function framedWholeSpan(block: Block, size: number, preserveTables: boolean, heading = block.heading as HeadingContext): BlockSpan {
  const frame = continuationFrame(block, preserveTables);
  const whole = wholeSpan(block, size, heading);
  return frame.prefix === '' && frame.suffix === '' ? whole : copyWith(whole, frame);
}
