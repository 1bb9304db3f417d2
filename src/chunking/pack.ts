/**
 * Packing: the one search that picks where each span of a cut ends. The spans a descent kept (`levels.ts`) are
 * joined, in order, into runs within their budget by the fit search (`fit.ts`): estimated sizes are added up to
 * the budget's `desired`, the run is measured once as it will be seen (with its frame) and given back from its tail
 * in the rare case it is over `max`. Where the next span does not fit, the run ends where the content says
 * (`content-cuts.ts`): at a blank line before a weaker boundary, then where the hash of the text marks it, so that
 * an edit above does not move every later cut. Tables, lists, code, prose and the TextSplitter are all packed here.
 */
import { listOfObjects } from '../core.js';
import { sizeUpTo, type Sizer } from '../protocols.js';
import { holdsBlankLine } from '../unicode/lines.js';
import { createTextHasher, type TextHasher } from '../unicode/text-hash.js';
import type { Budget, CutBudget } from './budget.js';
import { contentDefinedLast, placeValue, type PlaceList } from './content-cuts.js';
import { fitKnown, type Grow } from './fit.js';
import type { LevelSpan } from './levels.js';

/** What a cut adds around its spans for the embedder (a table's header rows, a fence's opening and closing lines). */
export interface Frame {
  /** Added before every span but the first, and before the first too with `prefixFirst`. */
  readonly prefix: string;
  /** Added after every span but the last, and after the last too with `suffixLast`; every span is measured with it. */
  readonly suffix: string;
  /** The cut continues a construct the parser cut, whose opening its text lacks: its first span is framed too. */
  readonly prefixFirst: boolean;
  /** The construct goes on in the next part the parser cut: its last span is closed too. */
  readonly suffixLast: boolean;
}

/** A frame with the sizes of its prefix and suffix, each measured alone (`0` for none). */
export interface MeasuredFrame extends Frame {
  readonly prefixSize: number;
  readonly suffixSize: number;
}

/**
 * `frame` with the sizes of its prefix and suffix, its fields always made in this order. Packing reads a frame for
 * every run; a spread copy (`{ ...frame, prefixSize, suffixSize }`) got a map of its own for every block cut, and
 * `packRun` was deoptimized and compiled again as they came.
 */
export function frameWithSizes(frame: Frame, prefixSize: number, suffixSize: number): MeasuredFrame {
  return { prefix: frame.prefix, suffix: frame.suffix, prefixFirst: frame.prefixFirst, suffixLast: frame.suffixLast, prefixSize, suffixSize };
}

/** No frame: what the text levels and a list add around a span. Not frozen: a frozen object has a map of its own. */
export const NO_FRAME: MeasuredFrame = frameWithSizes({ prefix: '', suffix: '', prefixFirst: false, suffixLast: false }, 0, 0);

/** A span packing made of a run of spans. */
export interface PackedSpan {
  readonly start: number;
  readonly end: number;
  /** Its size without its frame: exact when it was measured without one, else the measure less the frame's sizes. */
  readonly size: number;
  readonly sizeExact: boolean;
  /** It gets the frame's prefix. */
  readonly framed: boolean;
  /** It holds a span the TextSplitter cut out of a block level's span. */
  readonly fallback: boolean;
  /** It is a span packed alone, without the frame. */
  readonly standsAlone: boolean;
}

/** How the spans of one family are packed. */
export interface PackRules {
  readonly text: string;
  readonly budgets: CutBudget;
  readonly frame: MeasuredFrame;
  /** Measures runs as they will be seen. */
  readonly sizer: Sizer;
  /** Size of a span that opens a run, without the whitespace before it. */
  alone(span: LevelSpan): number;
  /**
   * Size of `prefix + span`, for a span that opens a run after the frame's prefix. Given where the two need not add
   * up (a label's space joins the next word's token; a number after it does not), so that the run is estimated
   * from what its opening measures with the prefix, and an opening that fits only without the prefix is cut a
   * level down. Without it, the prefix's own size is added.
   */
  alonePrefixed?(span: LevelSpan, prefix: string): number;
  /** What `spans[k]` adds to a run that holds `spans[k - 1]`. */
  joined(spans: readonly LevelSpan[], k: number): number;
  /** Strength of the boundary before a span at `level` where no blank line comes before it (a blank line beats all). */
  strength(level: number): number;
  /**
   * The spans one level below `span`, which opens a run and does not fit its budget alone with its frame (it did
   * only with the whitespace before it: a word that is one token after a space and two without; or only without
   * the prefix); undefined when its level is the lowest. Each round goes one level deeper, so packing ends.
   */
  cutAgain?(span: LevelSpan): LevelSpan[] | undefined;
}

/** Strength of a boundary after a blank line: above every level's. */
export const BLANK_LINE_STRENGTH = 5;

const ONE_BY_ONE: Grow = { kind: 'one-by-one' };

/**
 * Packs `spans` into runs, each within its budget with its frame: greedily by estimate, the end chosen by content,
 * each run measured once. With `firstOnly`, only the first run is made.
 */
export function packSpans(spans: readonly LevelSpan[], rules: PackRules, firstOnly = false): PackedSpan[] {
  const out = listOfObjects<PackedSpan>();
  let all = spans;
  const hasher = createTextHasher(rules.text);
  let reads = spanReads(all, hasher);
  let i = 0;
  let boundary = -1;
  while (i < all.length) {
    const opening = all[i] as LevelSpan;
    if (opening.standsAlone) {
      out.push({ start: opening.start, end: opening.end, size: opening.size, sizeExact: true, framed: false, fallback: opening.fallback, standsAlone: true });
      i++;
      continue;
    }
    const start = runStart(opening, out.length, rules);
    const below = start.alone + start.framing <= budgetAt(rules, out.length).max ? undefined : rules.cutAgain?.(opening);
    if (below !== undefined) {
      // concat, not splice(...below): a spread of many thousands of arguments overflows the stack.
      all = all.slice(0, i).concat(below, all.slice(i + 1));
      reads = spanReads(all, hasher);
      boundary = -1;
      continue;
    }
    if (boundary < i) boundary = nextStandingAlone(all, i);
    const run = packRun(all, i, boundary - 1, start, rules, reads);
    out.push(run.span);
    if (firstOnly) break;
    i = run.last + 1;
  }
  return out;
}

/**
 * What the runs of a packing read of each span, kept by its index once read (NaN before): a run looks back at the
 * places of the runs before it, so each span's place would be read several times, each a hash of its text and the
 * measure of the whitespace before it.
 */
interface SpanReads {
  /** What the span adds to a run that holds the span before it (`PackRules.joined`). */
  readonly joined: Float64Array;
  /** The value of the place before the span (`valueBefore` of `content-cuts.ts`). */
  readonly values: Float64Array;
  /** Hashes the places of the text, which all spans cut. */
  readonly hasher: TextHasher;
}

function spanReads(spans: readonly LevelSpan[], hasher: TextHasher): SpanReads {
  return { joined: new Float64Array(spans.length).fill(Number.NaN), values: new Float64Array(spans.length).fill(Number.NaN), hasher };
}

/** `rules.joined(spans, k)`, read once. */
function joinedAt(reads: SpanReads, spans: readonly LevelSpan[], k: number, rules: PackRules): number {
  let size = reads.joined[k] as number;
  if (Number.isNaN(size)) {
    size = rules.joined(spans, k);
    reads.joined[k] = size;
  }
  return size;
}

/** The value of the place before `spans[k]`, read once. */
function valueAt(reads: SpanReads, spans: readonly LevelSpan[], k: number, rules: PackRules): number {
  let value = reads.values[k] as number;
  if (Number.isNaN(value)) {
    value = placeValue(strengthBefore(spans[k] as LevelSpan, rules), reads.hasher.hashAt((spans[k] as LevelSpan).start));
    reads.values[k] = value;
  }
  return value;
}

/**
 * The places before `spans[first]` back to `before` (a negative position), nearest first, into `into`: what
 * `content-cuts.ts` would read through `added` and `valueBefore` (every span's place is eligible), read from the
 * spans' reads directly. A run looks back at some hundred places of the run before it.
 */
function readEarlierSpans(first: number, before: number, into: PlaceList, packing: { spans: readonly LevelSpan[]; rules: PackRules; reads: SpanReads }): void {
  const { spans, rules, reads } = packing;
  let position = 0;
  for (let k = first - 1; k >= 0; k--) {
    position -= k === 0 ? rules.alone(spans[0] as LevelSpan) : joinedAt(reads, spans, k, rules);
    if (position < before) return;
    into.positions[into.count] = position;
    into.values[into.count] = valueAt(reads, spans, k, rules);
    into.count++;
  }
}

/** The index of the first span at or after `from` packed alone, or the number of spans. */
function nextStandingAlone(spans: readonly LevelSpan[], from: number): number {
  let k = from;
  while (k < spans.length && !(spans[k] as LevelSpan).standsAlone) k++;
  return k;
}

/** The budget of the run packing makes as its `index`th. */
function budgetAt(rules: PackRules, index: number): Budget {
  return index === 0 ? rules.budgets.first : rules.budgets.rest;
}

/** How a run starts: its place among the runs, its prefix, and what its opening span and its frame measure. */
interface RunStart {
  /** The run's index among the runs of the packing. */
  readonly index: number;
  /** The frame's prefix, or `''` for a run without it. */
  readonly prefix: string;
  /** Size of the opening span without the whitespace before it. */
  readonly alone: number;
  /** What the frame adds to the run, estimated: its prefix (with the opening span where the rules measure that) and suffix. */
  readonly framing: number;
  /** Exact size of the opening span as a run alone with its frame, where that is known without measuring it again. */
  readonly whole: number | undefined;
}

/** The start of the `index`th run, opened by `span`. */
function runStart(span: LevelSpan, index: number, rules: PackRules): RunStart {
  const { frame } = rules;
  const prefix = index > 0 || frame.prefixFirst ? frame.prefix : '';
  const alone = rules.alone(span);
  if (prefix === '' || rules.alonePrefixed === undefined) {
    const framing = (prefix === '' ? 0 : frame.prefixSize) + frame.suffixSize;
    return { index, prefix, alone, framing, whole: prefix === '' && frame.suffix === '' ? alone : undefined };
  }
  const prefixed = rules.alonePrefixed(span, prefix);
  return { index, prefix, alone, framing: prefixed - alone + frame.suffixSize, whole: frame.suffix === '' ? prefixed : undefined };
}

/** The run that `start` opens at `spans[from]`, ending at `spans[last]` at the latest. */
function packRun(spans: readonly LevelSpan[], from: number, last: number, start: RunStart, rules: PackRules, reads: SpanReads): { span: PackedSpan; last: number } {
  const { frame, text, sizer } = rules;
  const { prefix, alone, framing } = start;
  const budget = budgetAt(rules, start.index);
  const bare = prefix === '' && frame.suffix === '';
  const desired = budget.desired - framing;
  const added = (k: number): number => (k === from ? alone : k === 0 ? rules.alone(spans[0] as LevelSpan) : joinedAt(reads, spans, k, rules));
  // Every field written, always in this order: a search of one shape keeps `fitRun` and `growOneByOne` (inlined here)
  // from being deoptimized and compiled again, as they were when each search was a spread copy with a map of its own.
  const found = fitKnown({
    first: from,
    last,
    final: true,
    added,
    // A run of one span is measured exactly (its size is kept); a longer one only up to the budget, past which it shrinks.
    exact: (to) => {
      const seen = prefix + text.slice((spans[from] as LevelSpan).start, (spans[to] as LevelSpan).end) + frame.suffix;
      return to === from ? sizer.size(seen) : sizeUpTo(sizer, seen, budget.max);
    },
    budget: { desired, max: budget.max },
    grow: ONE_BY_ONE,
    single: start.whole,
    allowEmpty: undefined,
    // The places of the runs before this one compete too: where a run ends then depends on the text alone.
    choose: (first, end) =>
      contentDefinedLast(
        // The fields in the order the packer's run has them (`contentDefinedKeep`): runs of one shape keep scanRun from
        // being deoptimized when the other kind comes.
        {
          first,
          last: end,
          added,
          valueBefore: (k) => valueAt(reads, spans, k, rules),
          mayEndBefore: undefined,
          earliest: 0,
          readEarlier: (before, into) => readEarlierSpans(first, before, into, { spans, rules, reads }),
        },
        desired,
      ),
  });
  const end = found.last;
  let fallback = false;
  for (let k = from; k <= end; k++) fallback ||= (spans[k] as LevelSpan).fallback;
  const span: PackedSpan = {
    start: (spans[from] as LevelSpan).start,
    end: (spans[end] as LevelSpan).end,
    size: Math.max(0, (found.size as number) - (prefix === '' ? 0 : frame.prefixSize) - frame.suffixSize),
    sizeExact: bare,
    framed: prefix !== '',
    fallback,
    standsAlone: false,
  };
  return { span, last: end };
}

/** How good a place the start of `span` is to end a run before: after a blank line, then by its level. */
function strengthBefore(span: LevelSpan, rules: PackRules): number {
  return holdsBlankLine(rules.text, span.gapStart, span.start) ? BLANK_LINE_STRENGTH : rules.strength(span.level);
}
