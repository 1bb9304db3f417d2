/**
 * Pieces: the atomic units the packer puts into chunks. A block that fits becomes one piece; a block too large is
 * cut along its own structure (table rows, code lines, list items) or, failing that, by the TextSplitter. A piece
 * may carry text added for the embedder (`prefix`, `suffix`) that is never part of the source slice.
 */
import type { Sizer, SpanSplitter } from '../protocols.js';
import { isProse } from './draft.js';
import { contentDefinedLast, CUT_LOW, placeValue } from './content-cuts.js';
import { textHash } from '../unicode/text-hash.js';
import { fitKnown, type Measure } from './fit.js';
import { isHeadTextSplitter, type SizedSpan } from './text-splitter.js';
import type { Block, BlockKind, HeadingContext, Span } from '../types.js';
import { countLineEndings, holdsBlankLine } from '../unicode/lines.js';

/** One unit of packing. */
export interface Piece {
  /** Exact source slice. */
  readonly text: string;
  readonly start: number;
  readonly end: number;
  /** Whitespace between the previous piece and this one (exact source text). */
  readonly gapBefore: string;
  readonly startLine: number;
  readonly endLine: number;
  /** Size of `text` alone. */
  readonly size: number;
  /**
   * True when `size` is the sizer's own measure of `text` (measured, or kept from the built-in splitter's exact
   * measure of the same span), not a sum the packer estimated: a chunk of this piece alone need not be measured again.
   */
  readonly sizeExact?: boolean;
  /** Added before `text` for the embedder (a repeated table header, a re-opened fence): the piece must start a chunk. */
  readonly prefix: string;
  /** Added after `text` (a closing fence): the piece must end a chunk. */
  readonly suffix: string;
  readonly heading: HeadingContext;
  readonly kind: BlockKind;
  /** True for a heading block (headings go with what follows them). */
  readonly isHeading: boolean;
  /** Depth of a heading piece. */
  readonly depth?: number;
  /** True when the piece is part of a block that was cut. */
  readonly isSplit: boolean;
  /** Set when the piece exceeds the limit on purpose (an element kept whole on request). */
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

/** What cutting a block needs. */
export interface CutContext {
  readonly sizer: Sizer;
  /** The run's cached measure (gaps between units are looked up, not measured again). */
  readonly measure: Measure;
  readonly splitter: SpanSplitter;
  readonly preserveCode: boolean;
  readonly preserveTables: boolean;
}

/** Budgets for the pieces of one block: the first may have less room (it joins a chunk already begun). */
export interface Budget {
  readonly first: number;
  readonly rest: number;
}

/** The one piece of a block that is kept whole. */
export function wholePiece(block: Block, size: number): Piece {
  const f = block.features;
  const heading = block.heading as HeadingContext;
  return {
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
    ...(block.kind === 'heading' ? { depth: block.depth } : {}),
    isSplit: false,
    languages: block.kind === 'code' ? [block.lang ?? ''] : (f?.codeLangs ?? []),
    images: f?.images ?? [],
    hasCode: block.kind === 'code' || (f?.codeLangs?.length ?? 0) > 0,
    hasTable: block.kind === 'table' || f?.table === true,
    hasList: block.kind === 'list' || f?.list === true,
    hasFormula: block.kind === 'math' || f?.math === true,
    ...pages(block),
  };
}

function pages(block: Block): { page?: number; pageEnd?: number } {
  if (block.page === undefined) return {};
  return { page: block.page, pageEnd: block.pageEnd ?? block.page };
}

/** What pieces are cut from: a block, or a piece cut again; `whole` is its own piece, whose fields its parts narrow. */
interface PieceSource {
  readonly text: string;
  readonly start: number;
  readonly startLine: number;
  readonly kind: BlockKind;
  readonly page?: number;
  readonly pageBreaks?: readonly number[];
  readonly whole: Piece;
}

/** A block as a source of pieces. */
function blockSource(block: Block): PieceSource {
  return { text: block.text, start: block.start, startLine: block.startLine, kind: block.kind, page: block.page, pageBreaks: block.pageBreaks, whole: wholePiece(block, 0) };
}

/**
 * A span of a source (offsets relative to its text) turned into a piece that starts on `startLine`, narrowing the
 * fields of the source's whole piece.
 */
function subPiece(source: PieceSource, span: Span, previousEnd: number, first: boolean, startLine: number, ctx: CutContext, extra: Partial<Piece>): Piece {
  const { whole } = source;
  const text = source.text.slice(span.start, span.end);
  const images = whole.images.filter((src) => src !== '' && text.includes(src));
  return {
    ...whole,
    text,
    start: source.start + span.start,
    end: source.start + span.end,
    // The first piece keeps the gap before the source, and the whitespace the cut trimmed from its front after it
    // (an indented code line re-cut as text starts past its indentation).
    gapBefore: first ? whole.gapBefore + source.text.slice(0, span.start) : source.text.slice(previousEnd, span.start),
    startLine,
    endLine: startLine + countLineEndings(text),
    size: extra.size ?? ctx.sizer.size(text),
    sizeExact: extra.size === undefined,
    isSplit: true,
    images,
    hasCode: source.kind === 'code' || (whole.hasCode && /^\s*(```|~~~)/m.test(text)),
    hasFormula: whole.hasFormula && text.includes('$'),
    ...spanPages(source, source.start + span.start, source.start + span.end),
    ...extra,
  };
}

/** The pages of the first and last characters of `[start, end)` inside a PDF block that runs across pages. */
function spanPages(source: PieceSource, start: number, end: number): { page?: number; pageEnd?: number } {
  if (source.page === undefined || source.pageBreaks === undefined) return {};
  const pageAt = (offset: number): number => {
    let page = source.page as number;
    for (const at of source.pageBreaks ?? []) if (offset >= at) page++;
    return page;
  };
  return { page: pageAt(start), pageEnd: pageAt(Math.max(start, end - 1)) };
}

/** Turns relative spans into pieces with the right gaps, counting lines as it goes (never from the source's start). */
function spansToPieces(source: PieceSource, spans: readonly Span[], ctx: CutContext, extra: (i: number) => Partial<Piece> = () => ({})): Piece[] {
  const pieces: Piece[] = [];
  let previousEnd = 0;
  let line = source.startLine;
  spans.forEach((span, i) => {
    line += countLineEndings(source.text, previousEnd, span.start);
    const piece = subPiece(source, span, previousEnd, i === 0, line, ctx, extra(i));
    pieces.push(piece);
    line = piece.endLine;
    previousEnd = span.end;
  });
  return pieces;
}

/**
 * `piece` cut again with the TextSplitter into parts of at most `limit` with its frame: what the packer does when
 * a chunk measured exactly is over (a sizer that does not add up, a breadcrumb) and its last piece must shrink.
 * The parts are plain text at the piece's place: the frame (a fence) goes to the first and last of them, they
 * keep the piece's kind, and a part of anything but prose is marked as a fallback.
 */
export function recutPiece(piece: Piece, limit: number, ctx: CutContext): Piece[] {
  const frame = piece.prefix === '' && piece.suffix === '' ? 0 : ctx.sizer.size(piece.prefix + piece.suffix);
  const smaller = Math.max(1, Math.min(piece.size - 1, limit - frame - 1));
  const plain: Piece = {
    ...piece,
    size: 0,
    prefix: '',
    suffix: '',
    kind: 'paragraph',
    isHeading: false,
    isSplit: false,
    languages: [],
    images: [],
    hasCode: false,
    hasTable: false,
    hasList: false,
    hasFormula: false,
  };
  delete (plain as { depth?: number }).depth;
  delete (plain as { oversizedReason?: string }).oversizedReason;
  delete (plain as { fallback?: string }).fallback;
  const source: PieceSource = { text: piece.text, start: piece.start, startLine: piece.startLine, kind: 'paragraph', page: piece.page, whole: plain };
  const parts = spansToPieces(source, splitWithFirstBudget(piece.text, { first: smaller, rest: smaller }, ctx), ctx);
  return parts.map((p, i) => ({
    ...p,
    kind: piece.kind,
    prefix: i === 0 ? piece.prefix : '',
    suffix: i === parts.length - 1 ? piece.suffix : '',
    // Prose cut smaller is still prose; a row, an item or a line cut by the TextSplitter is a fallback.
    ...(isProse(piece.kind) ? {} : { fallback: 'text-splitter' as const }),
    isSplit: true,
  }));
}

/**
 * Cuts a block that does not fit `budget.first` into pieces, each within its budget (prefix and suffix counted),
 * along the block's own structure.
 */
export function cutBlock(block: Block, budget: Budget, ctx: CutContext): Piece[] {
  switch (block.kind) {
    case 'table':
      return cutTable(block, budget, ctx);
    case 'code':
      if (ctx.preserveCode && block.fence !== null) {
        return [{ ...framedWholePiece(block, ctx.sizer.size(block.text), ctx), oversizedReason: 'preserveCode: fenced code kept whole' }];
      }
      return cutLines(block, budget, ctx, block.fence === null ? null : fenceLines(block, block.fence));
    case 'math': {
      const fence = mathFence(block);
      return cutLines(block, budget, ctx, fence === undefined ? null : fenceLines(block, fence));
    }
    case 'list':
      return cutList(block, budget, ctx);
    default:
      return cutText(block, { start: 0, end: block.text.length }, budget, ctx);
  }
}

/** Cuts a span of a block's text with the TextSplitter, keeping inline formulas whole where possible. */
function cutText(block: Block, span: Span, budget: Budget, ctx: CutContext, extra: Partial<Piece> = {}): Piece[] {
  const text = block.text.slice(span.start, span.end);
  // The first piece is measured against the tighter budget; the splitter packs the rest against the wider one.
  const spans = splitWithFirstBudget(text, budget, ctx);
  const protectedSpans = block.features?.math ? inlineMathSpans(text) : [];
  const adjusted: readonly SizedSpan[] = protectedSpans.length > 0 ? avoidCutsInside(text, spans, protectedSpans, budget, ctx) : spans;
  return spansToPieces(
    blockSource(block),
    adjusted.map((s) => ({ start: s.start + span.start, end: s.end + span.start })),
    ctx,
    // The built-in splitter measured its spans already, exactly; a span moved to keep a formula whole is measured again.
    (i) => {
      const size = adjusted[i]?.size;
      return size === undefined ? extra : { ...extra, size, sizeExact: true };
    },
  );
}

/** Splits `text` so that the first span fits `budget.first` and the others `budget.rest`. */
function splitWithFirstBudget(text: string, budget: Budget, ctx: CutContext): SizedSpan[] {
  const splitter = ctx.splitter;
  const sized = isHeadTextSplitter(splitter);
  const split = (t: string, max: number): SizedSpan[] => (sized ? splitter.splitSized(t, max) : splitter.split(t, max));
  if (budget.first >= budget.rest) return split(text, budget.rest);
  const firstBudget = Math.max(1, budget.first);
  // Only the first span of this split is kept: the built-in splitter finds it without cutting the whole text.
  const head = sized ? splitter.splitHead(text, firstBudget) : split(text, firstBudget)[0];
  if (head === undefined) return [];
  const rest = split(text.slice(head.end), budget.rest).map((s) => ({ ...s, start: s.start + head.end, end: s.end + head.end }));
  return [head, ...rest];
}

/** `$…$` and `$$…$$` spans on one line (inline formulas). */
function inlineMathSpans(text: string): Span[] {
  const spans: Span[] = [];
  for (const m of text.matchAll(/\$\$[^$\n]+\$\$|\$[^$\s][^$\n]*?\$/g)) spans.push({ start: m.index, end: m.index + m[0].length });
  return spans;
}

/**
 * Moves every cut that falls inside a formula to the formula's start (or end), when the pieces still fit. The piece
 * measured to tell whether it fits keeps its size; only the other one of the two is measured again.
 */
function avoidCutsInside(text: string, spans: readonly SizedSpan[], formulas: Span[], budget: Budget, ctx: CutContext): SizedSpan[] {
  const out = spans.map((s) => ({ ...s }));
  // Formulas are in order and apart, so their ends rise too: the first one that ends past a cut is the one that
  // may cross it, and the cuts only move forward.
  let f = 0;
  for (let i = 0; i + 1 < out.length; i++) {
    const left = out[i] as { start: number; end: number; size?: number };
    const right = out[i + 1] as { start: number; end: number; size?: number };
    while (f < formulas.length && (formulas[f] as Span).end <= left.end) f++;
    const inside = formulas[f];
    if (inside === undefined || inside.start >= right.start) continue;
    const limit = i === 0 ? budget.first : budget.rest;
    const rightFromFormula = inside.start > left.start ? ctx.sizer.size(text.slice(inside.start, right.end)) : Number.NaN;
    if (rightFromFormula <= budget.rest) {
      left.end = trimEnd(text, left.start, inside.start);
      right.start = inside.start;
      delete left.size;
      right.size = rightFromFormula;
      continue;
    }
    const leftToFormulaEnd = inside.end < right.end ? ctx.sizer.size(text.slice(left.start, inside.end)) : Number.NaN;
    if (leftToFormulaEnd <= limit) {
      left.end = inside.end;
      right.start = trimStart(text, inside.end, right.end);
      left.size = leftToFormulaEnd;
      delete right.size;
    }
  }
  return out.filter((s) => s.end > s.start);
}

function trimEnd(text: string, start: number, end: number): number {
  while (end > start && /\s/.test(text[end - 1] as string)) end--;
  return end;
}

function trimStart(text: string, start: number, end: number): number {
  while (start < end && /\s/.test(text[start] as string)) start++;
  return start;
}

/** The known size of a packed unit, as a piece field. */
function sizeOf(unit: Part | undefined): { size?: number } {
  return unit?.size === undefined ? {} : { size: unit.size };
}

/** Lines of a block's text as spans without their line endings. */
function lineSpans(text: string, from = 0, to = text.length): Span[] {
  const lines: Span[] = [];
  let start = from;
  while (start < to) {
    let nl = text.indexOf('\n', start);
    if (nl === -1 || nl >= to) nl = to;
    let end = nl;
    if (end > start && text.charCodeAt(end - 1) === 13) end--;
    lines.push({ start, end });
    start = nl + 1;
  }
  return lines;
}

/** A part of a block (a row, a group of code lines, a list item): its span in the block's text. */
interface Part {
  span: Span;
  fallback?: boolean;
  /** Size of the span's text alone, when it is already known (each piece of text is measured once). */
  size?: number;
}

/** How the pieces of one block are framed and limited. */
interface Frame {
  /** Added before every piece but the first (and before the first too with `prefixFirst`). */
  readonly prefix: string;
  /** Added after every piece but the last. */
  readonly suffix: string;
  /** The first piece gets the prefix too: the block is a part that continues a construct, whose frame it lacks. */
  readonly prefixFirst?: boolean;
}

/**
 * Packs units greedily into pieces within their budgets. Sizes are estimated by adding the units' sizes (each
 * measured once) and the gaps between them; each finished piece is then measured once, exactly, with its frame,
 * and shrunk from its tail in the rare case the estimate was short.
 */
function packUnits(text: string, units: Part[], budget: Budget, frame: Frame, ctx: CutContext): Part[] {
  const prefixSize = frame.prefix === '' ? 0 : ctx.measure.size(frame.prefix);
  const suffixSize = frame.suffix === '' ? 0 : ctx.measure.size(frame.suffix);
  const sizes = units.map((u) => u.size ?? ctx.measure.size(text.slice(u.span.start, u.span.end)));
  const gapSizes = units.map((u, i) => (i === 0 ? 0 : ctx.measure.gap(text.slice((units[i - 1] as Part).span.end, u.span.start))));
  const out: Part[] = [];
  let i = 0;
  while (i < units.length) {
    const first = i;
    const framed = out.length > 0 || frame.prefixFirst === true;
    const framing = (framed ? prefixSize : 0) + suffixSize;
    const cap = out.length === 0 ? budget.first : budget.rest;
    // The suffix is counted for every piece: the last one has no suffix but carries the closing line instead.
    const found = fitKnown({
      first,
      last: units.length - 1,
      added: (k) => (k === first ? (sizes[k] as number) : (gapSizes[k] as number) + (sizes[k] as number)),
      estimateLimit: cap - framing,
      exact: (to) => ctx.measure.size((framed ? frame.prefix : '') + text.slice((units[first] as Part).span.start, (units[to] as Part).span.end) + frame.suffix),
      limit: cap,
      grow: { kind: 'units' },
      // Where the next unit does not fit, the piece ends where the content says, so that an edit above does not
      // move every later cut of the block.
      choose: (start, last) =>
        contentDefinedLast(
          {
            first: start,
            last,
            added: (k) => (k === start ? (sizes[k] as number) : (gapSizes[k] as number) + (sizes[k] as number)),
            // Before a unit that follows a blank line rather than one that does not, then where the hash says.
            valueBefore: (k) => {
              const at = (units[k] as Part).span.start;
              const gapStart = k === 0 ? at : (units[k - 1] as Part).span.end;
              return placeValue(holdsBlankLine(text, gapStart, at) ? 1 : 0, textHash(text, at));
            },
          },
          CUT_LOW * (cap - framing),
        ),
    });
    const j = found.last;
    const measured = found.size as number;
    const fallback = units.slice(i, j + 1).some((u) => u.fallback === true);
    // The piece's own size, from the measure just taken: an estimate the packer verifies when the chunk is built.
    const size = Math.max(0, measured - framing);
    out.push({ span: { start: (units[i] as Part).span.start, end: (units[j] as Part).span.end }, size, ...(fallback ? { fallback } : {}) });
    i = j + 1;
  }
  return out;
}

/**
 * Cuts a span that does not fit even alone with the TextSplitter, so that each part fits `limit` together with
 * the frame; the parts are marked as a fallback.
 */
function splitUnit(text: string, span: Span, limit: number, frame: Frame, ctx: CutContext): Part[] {
  const sub = text.slice(span.start, span.end);
  const frameSize = (frame.prefix === '' ? 0 : ctx.sizer.size(frame.prefix)) + (frame.suffix === '' ? 0 : ctx.sizer.size(frame.suffix));
  let room = Math.max(1, limit - frameSize);
  for (let attempt = 0; attempt < 8; attempt++) {
    const parts = ctx.splitter.split(sub, room);
    const worst = Math.max(0, ...parts.map((p) => ctx.sizer.size(frame.prefix + sub.slice(p.start, p.end) + frame.suffix) - limit));
    if (worst === 0 || room === 1) return parts.map((p) => ({ span: { start: span.start + p.start, end: span.start + p.end }, fallback: true }));
    room = Math.max(1, room - worst);
  }
  return ctx.splitter.split(sub, room).map((p) => ({ span: { start: span.start + p.start, end: span.start + p.end }, fallback: true }));
}

/** The opening and closing lines of a fenced block, and the strings that re-open and close a piece of it. */
interface FenceLines {
  /** The opening line, or null in a part that continues a fence the parser cut (its text starts inside). */
  readonly open: Span | null;
  readonly close: Span | null;
  readonly prefix: string;
  readonly suffix: string;
  /** The first piece is re-opened too: the part's text lacks the opening line. */
  readonly reopen: boolean;
  /** The last piece is closed too: the fence goes on in the next part. */
  readonly closeLast: boolean;
}

/** The `$$` of a display formula (from the opening line, or the frame of a part that continues one). */
function mathFence(block: Block): string | undefined {
  return /^[ \t]*(\${2,})/.exec(block.continuation?.frame ?? block.text)?.[1];
}

function fenceLines(block: Block, fence: string): FenceLines {
  const text = block.text;
  const continuation = block.continuation;
  const reopen = continuation?.previous === true && continuation.frame !== undefined;
  const lines = lineSpans(text);
  const open = reopen ? null : (lines[0] as Span);
  const last = lines.at(-1) as Span;
  const lastText = text.slice(last.start, last.end).trim();
  const closed = lines.length > (reopen ? 0 : 1) && lastText.length >= fence.length && [...lastText].every((c) => c === fence[0]);
  const openLine = (reopen ? (continuation.frame as string) : text.slice((open as Span).start, (open as Span).end)).replace(/^[ \t]+/, '');
  return { open, close: closed ? last : null, prefix: `${openLine}\n`, suffix: `\n${fence}`, reopen, closeLast: continuation?.next === true && !closed };
}

/**
 * What a block cut by the parser needs around it for the embedder when it is kept whole: a part that continues a
 * table gets the table's header as `prefix`, one that continues a fence its opening line; a fence that goes on in
 * the next part is closed by `suffix`.
 */
function continuationFrame(block: Block, ctx: CutContext): { prefix: string; suffix: string } {
  const c = block.continuation;
  if (c === undefined) return { prefix: '', suffix: '' };
  if (block.kind === 'table') return { prefix: c.previous && c.frame !== undefined && ctx.preserveTables ? `${c.frame}\n` : '', suffix: '' };
  const fence = block.kind === 'code' ? block.fence : block.kind === 'math' ? mathFence(block) : undefined;
  if (fence === undefined || fence === null) return { prefix: '', suffix: '' };
  const lines = fenceLines(block, fence);
  return { prefix: lines.reopen ? lines.prefix : '', suffix: lines.closeLast ? lines.suffix : '' };
}

/** The one piece of a block kept whole, with the frame a part of a cut construct needs (see `continuationFrame`). */
export function framedWholePiece(block: Block, size: number, ctx: CutContext): Piece {
  const frame = continuationFrame(block, ctx);
  const whole = wholePiece(block, size);
  return frame.prefix === '' && frame.suffix === '' ? whole : { ...whole, ...frame };
}

/**
 * Cuts a code or math block between lines, blank lines first. With a fence, every piece but the first is re-opened
 * with the opening fence line as `prefix`, and every piece but the last is closed with the fence as `suffix`, so
 * that each piece is a valid block on its own.
 */
function cutLines(block: Block, budget: Budget, ctx: CutContext, fenceLines: FenceLines | null): Piece[] {
  const text = block.text;
  // A frame that would take half a chunk (a fence of 40 backticks) leaves no room for code: cut without it.
  const framed = fenceLines !== null && ctx.sizer.size(fenceLines.prefix + fenceLines.suffix) * 2 <= budget.rest;
  const fence = framed ? fenceLines : null;
  const frame: Frame = fence ? { prefix: fence.prefix, suffix: fence.suffix, prefixFirst: fence.reopen } : { prefix: '', suffix: '' };
  const closeLast = fence?.closeLast ?? false;
  const bodyStart = fence?.open ? Math.min(text.length, fence.open.end + (text[fence.open.end] === '\r' ? 2 : 1)) : 0;
  const bodyEnd = fence?.close ? fence.close.start : text.length;
  const unframed = fenceLines !== null && fence === null;
  // Runs of lines between blank lines are the preferred units; a run too large falls back to its lines, and a
  // line too large to the TextSplitter.
  const runs: Span[][] = [[]];
  for (const line of lineSpans(text, bodyStart, bodyEnd)) {
    if (text.slice(line.start, line.end).trim() === '') {
      if ((runs.at(-1) as Span[]).length > 0) runs.push([]);
    } else (runs.at(-1) as Span[]).push(line);
  }
  // A run is measured whole (an exact size packs best); only a run too large is measured line by line. A run
  // far longer than any chunk could hold is not measured whole at all.
  const room = budget.rest - (frame.prefix === '' && frame.suffix === '' ? 0 : ctx.sizer.size(frame.prefix + frame.suffix));
  const units: Part[] = [];
  for (const run of runs) {
    if (run.length === 0) continue;
    const whole = { start: (run[0] as Span).start, end: (run.at(-1) as Span).end };
    const size = whole.end - whole.start > budget.rest * 64 ? Infinity : ctx.sizer.size(text.slice(whole.start, whole.end));
    if (size <= room) {
      units.push({ span: whole, size });
      continue;
    }
    for (const line of run) {
      const lineSize = ctx.sizer.size(text.slice(line.start, line.end));
      units.push(...(lineSize <= room ? [{ span: line, size: lineSize }] : splitUnit(text, line, budget.rest, frame, ctx)));
    }
  }
  if (units.length === 0) return [framedWholePiece(block, ctx.sizer.size(text), ctx)];
  // The opening line travels with the first unit and the closing line with the last (measured again, once).
  units[0] = { ...(units[0] as Part), span: { start: 0, end: (units[0] as Part).span.end }, size: undefined };
  const lastUnit = units.at(-1) as Part;
  units[units.length - 1] = { ...lastUnit, span: { start: lastUnit.span.start, end: text.length }, size: undefined };
  const packed = packUnits(text, units, budget, frame, ctx);
  const n = packed.length;
  return spansToPieces(blockSource(block), packed.map((p) => p.span), ctx, (i) => ({
    ...sizeOf(packed[i]),
    prefix: i > 0 || frame.prefixFirst === true ? frame.prefix : '',
    suffix: i < n - 1 || closeLast ? frame.suffix : '',
    ...(packed[i]?.fallback || unframed ? { fallback: 'text-splitter' as const } : {}),
  }));
}

/**
 * Cuts a table between rows. Every piece after the first gets the header and delimiter rows as `prefix`. A row that
 * does not fit even alone goes through the TextSplitter, and its pieces are marked (they get no header: a part of a
 * row is not a row). A part that continues a table the parser cut holds data rows only: every piece of it, the
 * first too, gets the table's header (`continuation.frame`).
 */
function cutTable(block: Extract<Block, { kind: 'table' }>, budget: Budget, ctx: CutContext): Piece[] {
  const rel = (s: Span): Span => ({ start: s.start - block.start, end: s.start === s.end ? s.start - block.start : s.end - block.start });
  const continued = block.continuation?.previous === true ? block.continuation.frame : undefined;
  const rows = block.rows.map(rel);
  const delimiter = rel(block.delimiterRow);
  const header = rows[0] as Span;
  const headerText = continued ?? `${block.text.slice(header.start, header.end)}\n${block.text.slice(delimiter.start, delimiter.end)}`;
  const frame: Frame = { prefix: ctx.preserveTables ? `${headerText}\n` : '', suffix: '', prefixFirst: continued !== undefined };
  const units: Part[] = [];
  const tableHead = continued === undefined ? { start: 0, end: Math.max(delimiter.end, header.end) } : null;
  const groups: Part[][] = [];
  const prefixSize = frame.prefix === '' ? 0 : ctx.sizer.size(frame.prefix);
  for (const row of continued === undefined ? rows.slice(1) : rows) {
    const size = ctx.sizer.size(block.text.slice(row.start, row.end));
    if (prefixSize + size <= budget.rest) units.push({ span: row, size });
    else {
      // An oversized row is cut alone: the rows before and after it are packed on their own.
      groups.push(units.splice(0));
      groups.push(splitUnit(block.text, row, budget.rest, { prefix: '', suffix: '' }, ctx));
    }
  }
  groups.push(units.splice(0));
  const out: { span: Span; prefix: string; fallback?: boolean }[] = [];
  for (const group of groups) {
    if (group.length === 0) continue;
    if (group[0]?.fallback) {
      for (const u of group) out.push({ span: u.span, prefix: '', fallback: true });
      continue;
    }
    if (tableHead !== null && out.length === 0) group[0] = { span: { start: tableHead.start, end: (group[0] as Part).span.end } };
    const opening = out.length === 0 && tableHead !== null;
    // Rows after a row the TextSplitter cut get the header too: they are measured with it.
    const packed = out.length === 0 ? packUnits(block.text, group, budget, frame, ctx) : packUnits(block.text, group, { first: budget.rest, rest: budget.rest }, { ...frame, prefixFirst: true }, ctx);
    packed.forEach((p, i) => { out.push({ span: p.span, prefix: opening && i === 0 ? '' : frame.prefix }); });
  }
  if (out.length === 0) out.push({ span: { start: 0, end: block.text.length }, prefix: tableHead === null ? frame.prefix : '' });
  // The first piece of a whole table always holds the header and delimiter rows.
  if (tableHead !== null && (out[0] as { span: Span }).span.start !== 0) out.unshift({ span: tableHead, prefix: '' });
  return spansToPieces(blockSource(block), out.map((p) => p.span), ctx, (i) => ({
    prefix: out[i]?.prefix ?? '',
    ...(out[i]?.fallback ? { fallback: 'text-splitter' as const } : {}),
  }));
}

/**
 * Cuts a list between top-level items, then between nested items; never inside an item's first line. An item
 * part that does not fit goes through the TextSplitter, marked.
 */
function cutList(block: Extract<Block, { kind: 'list' }>, budget: Budget, ctx: CutContext): Piece[] {
  const none: Frame = { prefix: '', suffix: '' };
  const rel = (s: Span): Span => ({ start: s.start - block.start, end: s.end - block.start });
  const measure = (span: Span) => ctx.sizer.size(block.text.slice(span.start, span.end));
  const units: Part[] = [];
  const addSpan = (span: Span, known?: number) => {
    if (span.end <= span.start) return;
    const size = known ?? measure(span);
    units.push(...(size <= budget.rest ? [{ span, size }] : splitUnit(block.text, span, budget.rest, none, ctx)));
  };
  const addItem = (item: (typeof block.items)[number]): void => {
    const span = rel(item);
    const size = measure(span);
    if (size <= budget.rest || item.items.length === 0) {
      addSpan(span, size);
      return;
    }
    // The item's own text, each nested item, and any text between or after them (a paragraph between two
    // nested lists belongs to the item too).
    let cursor = span.start;
    for (const nested of item.items) {
      const n = rel(nested);
      addSpan({ start: trimStart(block.text, cursor, n.start), end: trimEnd(block.text, cursor, n.start) });
      addItem(nested);
      cursor = n.end;
    }
    addSpan({ start: trimStart(block.text, cursor, span.end), end: span.end });
  };
  for (const item of block.items) addItem(item);
  if (units.length === 0) return cutText(block, { start: 0, end: block.text.length }, budget, ctx);
  const packed = packUnits(block.text, units, budget, none, ctx);
  return spansToPieces(blockSource(block), packed.map((p) => p.span), ctx, (i) => ({ ...sizeOf(packed[i]), ...(packed[i]?.fallback ? { fallback: 'text-splitter' as const } : {}) }));
}
