/**
 * Cutting a block into spans: down the block's own levels as far as it needs (`block-levels.ts`), then packed by
 * the one search (`pack.ts`). A block without levels of its own, and a span of a block's lowest level that does not
 * fit even alone, goes to the TextSplitter: the built-in one runs the same engine over the text levels
 * (`text-levels.ts`); an injected one is checked at its protocol boundary (`protocols.ts`). The same cut, at a
 * smaller budget, makes a span smaller when the packer finds a chunk over its room (`cutSmaller`).
 */
import { sizeUpTo, type Sizer, type SpanSplitter } from '../protocols.js';
import type { Block, Span } from '../types.js';
import { blockLevels, trimEnd, trimStart, type BlockLevels, type BlockNode } from './block-levels.js';
import { blockSource, framedWholeSpan, toBlockSpans, type BlockSpan, type SpanSource } from './block-spans.js';
import { cutBudget, type CutBudget } from './budget.js';
import { isProse } from './draft.js';
import type { Measure } from './fit.js';
import { createDescent, createSpanList, levelSpan, type Levels, type LevelSpan, type SpanList } from './levels.js';
import { frameWithSizes, packSpans, type Frame, type MeasuredFrame, type PackedSpan, type PackRules } from './pack.js';
import { isHeadTextSplitter, type SizedSpan } from './text-splitter.js';

/** What cutting a block needs. */
export interface CutContext {
  readonly sizer: Sizer;
  /** The run's cached measure (gaps between spans are looked up, not measured again). */
  readonly measure: Measure;
  readonly splitter: SpanSplitter;
  readonly preserveCode: boolean;
  readonly preserveTables: boolean;
}

/** Level of the spans the TextSplitter cuts out of a span of a block's lowest level. */
const SPLITTER_PART = -1;
/** A span with spans under it longer than this many times a chunk's room (in UTF-16 units) is not measured whole. */
const UNMEASURED_SPAN = 64;

/**
 * Cuts a block that does not fit `budgets.first` into spans, each within its budget with its frame. A fenced code
 * block kept whole on request is one span, flagged oversized.
 */
export function cutBlock(block: Block, budgets: CutBudget, ctx: CutContext): BlockSpan[] {
  if (block.kind === 'code' && ctx.preserveCode && block.fence !== null) {
    return [{ ...framedWholeSpan(block, ctx.sizer.size(block.text), ctx.preserveTables), oversizedReason: 'preserveCode: fenced code kept whole' }];
  }
  const levels = blockLevels(block, budgets.rest.max, { preserveTables: ctx.preserveTables, frameSize: (text) => ctx.sizer.size(text) });
  const spans = levels.spans.length === 0 ? [] : cutByLevels(block, levels, budgets, ctx);
  return spans.length > 0 ? spans : cutText(blockSource(block), budgets, ctx, block.features?.math === true);
}

/** Cuts a block down its own levels and packs what it finds; no spans when the levels hold no text. */
function cutByLevels(block: Block, levels: BlockLevels, budgets: CutBudget, ctx: CutContext): BlockSpan[] {
  const text = block.text;
  const frame = measureFrame(levels.frame, ctx);
  // A span fits when it does alone between the prefix and the suffix.
  const room = budgets.rest.max - (frame.prefix === '' && frame.suffix === '' ? 0 : ctx.sizer.size(frame.prefix + frame.suffix));
  const list = createSpanList();
  const descent = createDescent(blockLevelFamily(text, levels, budgets.rest.max, frame, ctx), room, list);
  for (const node of levels.spans) descent.visit(node.start, node.end, 0, node);
  if (list.spans.length === 0) return [];
  const spans = withHeadAndTail(list.spans, levels, { text, frame, room, max: budgets.rest.max }, ctx);
  const packed = packSpans(spans, blockPackRules(text, budgets, frame, ctx));
  return blockSpansOf(block, packed, levels, ctx.sizer);
}

/** A frame with its prefix and suffix measured. */
function measureFrame(frame: Frame, ctx: CutContext): MeasuredFrame {
  return frameWithSizes(frame, frame.prefix === '' ? 0 : ctx.measure.size(frame.prefix), frame.suffix === '' ? 0 : ctx.measure.size(frame.suffix));
}

/**
 * A block's own levels as a family the descent walks: a span is measured alone (one with spans under it and far
 * longer than any chunk could hold is not measured at all), and one that does not fit goes down to the spans under
 * it or, at the lowest level, to the TextSplitter.
 */
function blockLevelFamily(text: string, levels: BlockLevels, rest: number, frame: MeasuredFrame, ctx: CutContext): Levels<BlockNode> {
  // A part of a row stands alone without the frame; a part of a line is packed with its neighbours, in the frame.
  const partRoom = levels.partsStandAlone ? rest : rest - frame.prefixSize - frame.suffixSize;
  return {
    // Measured only up to the room: a span past it is cut, whatever it measures (a row of a wide table, 24 KB,
    // was counted whole before the TextSplitter cut it).
    measure: (start, end, _gapStart, _level, node, room) => (node.below !== undefined && end - start > rest * UNMEASURED_SPAN ? Number.POSITIVE_INFINITY : sizeUpTo(ctx.sizer, text.slice(start, end), room)),
    keepsWhole: () => false,
    cutBelow(start, end, level, size, node, descent) {
      if (node.below === undefined) {
        splitterParts(text, { start, end }, partRoom, levels.partsStandAlone, descent.list, ctx);
        return;
      }
      for (const child of node.below) descent.visit(child.start, child.end, level + 1, child, child.start === start && child.end === end ? size : undefined);
    },
  };
}

/**
 * The parts the TextSplitter cuts `range` into, each to fit `room` (1 at least), added to `list` marked as a
 * fallback. A part over its budget once framed (a sizer that does not add up) is cut smaller by the packer, which
 * measures every chunk before it leaves.
 */
function splitterParts(text: string, range: Span, room: number, standsAlone: boolean, list: SpanList, ctx: CutContext): void {
  const sub = text.slice(range.start, range.end);
  const splitter = ctx.splitter;
  const parts: readonly SizedSpan[] = isHeadTextSplitter(splitter) ? splitter.splitSized(sub, Math.max(1, room)) : splitter.split(sub, Math.max(1, room));
  for (const part of parts) {
    const start = range.start + part.start;
    const end = range.start + part.end;
    const size = part.size ?? ctx.sizer.size(text.slice(start, end));
    list.push(levelSpan(start, end, list.gapStart(start), SPLITTER_PART, size, true, standsAlone));
  }
}

/** Where a block's spans are cut: its text, its frame, the room a span has in it, and the largest a chunk may be. */
interface SpanPlace {
  readonly text: string;
  readonly frame: MeasuredFrame;
  readonly room: number;
  readonly max: number;
}

/**
 * The spans with the text that travels with the first and the last (a table's header rows, a fence's opening and
 * closing lines, the blank lines between them and the code). A first span that stands alone cannot take the
 * header: the header is then a span of its own, so that the first span of a table still holds it. Nor is a span
 * grown past what a chunk holds with its frame: the descent measured it without that text, and packing cannot
 * give back what is inside one span. The opening line is then a span of its own before it, the closing line one
 * after it, and blank lines between them and the code are gaps (whitespace alone at the block's ends goes before
 * the next block).
 */
function withHeadAndTail(spans: readonly LevelSpan[], levels: BlockLevels, place: SpanPlace, ctx: CutContext): LevelSpan[] {
  const { text } = place;
  const out = [...spans];
  const measured = (start: number, end: number): number => ctx.measure.size(text.slice(start, end));
  const first = out[0] as LevelSpan;
  const grownFirst = levels.head === undefined || first.standsAlone ? undefined : grown(first, 0, first.end, place, ctx);
  if (grownFirst !== undefined) out[0] = grownFirst;
  else if (levels.head !== undefined && levels.head > 0) {
    // A header before a row that stands alone is kept as it was; an opening line leaves its line end to the gap.
    const head = first.standsAlone ? levels.head : trimEnd(text, 0, levels.head);
    if (!first.standsAlone) out[0] = levelSpan(first.start, first.end, head, first.level, first.size, first.fallback, false);
    out.unshift(levelSpan(0, head, 0, SPLITTER_PART, measured(0, head), false, first.standsAlone));
  }
  if (!levels.tail) return out;
  const last = out.at(-1) as LevelSpan;
  const grownLast = grown(last, last.start, text.length, place, ctx);
  if (grownLast !== undefined) out[out.length - 1] = grownLast;
  else {
    const tail = trimStart(text, last.end, text.length);
    if (tail < text.length) out.push(levelSpan(tail, text.length, last.end, SPLITTER_PART, measured(tail, text.length)));
  }
  return out;
}

/**
 * `span` grown to `[start, end)`, or undefined when it would no longer fit a chunk alone with its frame. It is
 * measured with the frame only when its size alone is over the room its level had: rarely.
 */
function grown(span: LevelSpan, start: number, end: number, place: SpanPlace, ctx: CutContext): LevelSpan | undefined {
  if (start === span.start && end === span.end) return span;
  const size = ctx.measure.size(place.text.slice(start, end));
  const { frame } = place;
  // The first span goes without the prefix unless the block continues a construct; any other may open a run.
  const prefix = start > 0 || frame.prefixFirst ? frame.prefix : '';
  if (size > place.room && ctx.sizer.size(prefix + place.text.slice(start, end) + frame.suffix) > place.max) return undefined;
  return levelSpan(start, end, Math.min(span.gapStart, start), span.level, size, span.fallback, span.standsAlone);
}

/** How a block's own spans are packed: in its frame, their gaps looked up apart, cut after blank lines by hash. */
function blockPackRules(text: string, budgets: CutBudget, frame: MeasuredFrame, ctx: CutContext): PackRules {
  return {
    text,
    budgets,
    frame,
    sizer: ctx.sizer,
    alone: (span) => span.size,
    // Stored though absent, in the text levels' order (`textPackRules`): rules of one shape keep packRun from being
    // deoptimized when the other kind comes.
    alonePrefixed: undefined,
    joined: (spans, k) => ctx.measure.gap(text.slice((spans[k] as LevelSpan).gapStart, (spans[k] as LevelSpan).start)) + (spans[k] as LevelSpan).size,
    // A block's own boundaries are all alike: only a blank line before one makes it a better place to cut.
    strength: () => 0,
    cutAgain: undefined,
  };
}

/** The block spans of the packed spans: the frame where it goes, sizes as packing measured them. */
function blockSpansOf(block: Block, packed: readonly PackedSpan[], levels: BlockLevels, sizer: Sizer): BlockSpan[] {
  const { frame } = levels;
  const last = packed.length - 1;
  return toBlockSpans(blockSource(block), packed, sizer, (i) => {
    const span = packed[i] as PackedSpan;
    const framed = !span.standsAlone;
    return {
      size: span.size,
      sizeExact: span.sizeExact,
      prefix: framed && span.framed ? frame.prefix : '',
      suffix: framed && (i < last || frame.suffixLast) ? frame.suffix : '',
      ...(span.fallback || levels.fallback ? { fallback: 'text-splitter' as const } : {}),
    };
  });
}

/** Cuts all of a source's text with the TextSplitter, keeping inline formulas whole where possible (`formulas`). */
function cutText(source: SpanSource, budgets: CutBudget, ctx: CutContext, formulas: boolean): BlockSpan[] {
  const text = source.text;
  // The first span is measured against the tighter budget; the splitter packs the rest against the wider one.
  const spans = splitWithFirstBudget(text, budgets, ctx);
  const protectedSpans = formulas ? inlineMathSpans(text) : [];
  const adjusted: readonly SizedSpan[] = protectedSpans.length > 0 ? avoidCutsInside(text, spans, protectedSpans, budgets, ctx) : spans;
  // The built-in splitter measured its spans already, exactly; a span moved to keep a formula whole is measured again.
  return toBlockSpans(source, adjusted, ctx.sizer, (i) => {
    const size = adjusted[i]?.size;
    return size === undefined ? {} : { size, sizeExact: true };
  });
}

/** Splits `text` so that the first span fits `budgets.first` and the others `budgets.rest`. */
function splitWithFirstBudget(text: string, budgets: CutBudget, ctx: CutContext): SizedSpan[] {
  const splitter = ctx.splitter;
  const sized = isHeadTextSplitter(splitter);
  const split = (t: string, max: number): SizedSpan[] => (sized ? splitter.splitSized(t, max) : splitter.split(t, max));
  const first = budgets.first.max;
  const rest = budgets.rest.max;
  if (first >= rest) return split(text, rest);
  const firstBudget = Math.max(1, first);
  // Only the first span of this split is kept: the built-in splitter finds it without cutting the whole text.
  const head = sized ? splitter.splitHead(text, firstBudget) : split(text, firstBudget)[0];
  if (head === undefined) return [];
  const tail = split(text.slice(head.end), rest).map((s) => ({ ...s, start: s.start + head.end, end: s.end + head.end }));
  return [head, ...tail];
}

/** `$…$` and `$$…$$` spans on one line (inline formulas). */
function inlineMathSpans(text: string): Span[] {
  const spans: Span[] = [];
  for (const m of text.matchAll(/\$\$[^$\n]+\$\$|\$[^$\s][^$\n]*?\$/g)) spans.push({ start: m.index, end: m.index + m[0].length });
  return spans;
}

/**
 * Moves every cut that falls inside a formula to the formula's start (or end), when the spans still fit. The span
 * measured to tell whether it fits keeps its size; only the other one of the two is measured again.
 */
function avoidCutsInside(text: string, spans: readonly SizedSpan[], formulas: Span[], budgets: CutBudget, ctx: CutContext): SizedSpan[] {
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
    const max = i === 0 ? budgets.first.max : budgets.rest.max;
    const rightFromFormula = inside.start > left.start ? ctx.sizer.size(text.slice(inside.start, right.end)) : Number.NaN;
    if (rightFromFormula <= budgets.rest.max) {
      left.end = trimEnd(text, left.start, inside.start);
      right.start = inside.start;
      delete left.size;
      right.size = rightFromFormula;
      continue;
    }
    const leftToFormulaEnd = inside.end < right.end ? ctx.sizer.size(text.slice(left.start, inside.end)) : Number.NaN;
    if (leftToFormulaEnd <= max) {
      left.end = inside.end;
      right.start = trimStart(text, inside.end, right.end);
      left.size = leftToFormulaEnd;
      delete right.size;
    }
  }
  return out.filter((s) => s.end > s.start);
}

/**
 * `span` cut again, at the text levels, into spans of at most `room` with its frame: what the packer does when a
 * chunk measured exactly is over (a sizer that does not add up, a breadcrumb) and one span of it must shrink. The
 * spans are plain text at the span's place: the frame (a fence) goes to the first and last of them, they keep the
 * span's kind, and a span of anything but prose is marked as a fallback.
 */
export function cutSmaller(span: BlockSpan, room: number, ctx: CutContext): BlockSpan[] {
  const frame = span.prefix === '' && span.suffix === '' ? 0 : ctx.sizer.size(span.prefix + span.suffix);
  const smaller = Math.max(1, Math.min(span.size - 1, room - frame - 1));
  const parts = cutText(plainSource(span), cutBudget(smaller, smaller), ctx, false);
  return parts.map((p, i) => ({
    ...p,
    kind: span.kind,
    prefix: i === 0 ? span.prefix : '',
    suffix: i === parts.length - 1 ? span.suffix : '',
    // Prose cut smaller is still prose; a row, an item or a line cut by the TextSplitter is a fallback.
    ...(isProse(span.kind) ? {} : { fallback: 'text-splitter' as const }),
    isSplit: true,
  }));
}

/** `span` as plain text to cut again: its place and heading, none of what its kind held. */
function plainSource(span: BlockSpan): SpanSource {
  const { depth: _depth, oversizedReason: _oversized, fallback: _fallback, ...rest } = span;
  const plain: BlockSpan = {
    ...rest,
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
  return { text: span.text, start: span.start, startLine: span.startLine, kind: 'paragraph', page: span.page, whole: plain };
}
