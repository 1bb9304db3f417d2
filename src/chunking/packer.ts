/**
 * The packer: blocks (with their heading context) in, chunk drafts out, section by section.
 *
 * - A heading at a split level closes the current section; nothing is packed across it.
 * - Consecutive blocks of a section are packed into a chunk up to its budget; a block too large for any chunk is
 *   cut into spans along its levels (`cut-block.ts`).
 * - A heading never ends a chunk when content follows it in its section: it is carried into the next chunk.
 * - Each chunk is measured once, exactly, as the embedder will see it, before it leaves (`emitSpans`).
 *
 * Memory holds one chunk in the making: drafts leave as soon as they are complete. Each step is a function of the
 * packer's state (`Packer`), so that a test can run one alone.
 */
import type { ChunkConfig } from '../config.js';
import { copyWith, emptyInPlace, listOfDoubles, listOfObjects, settleFields, takeAll, type Core } from '../core.js';
import { sizeUpTo, type Sizer, type SpanSplitter } from '../protocols.js';
import { textHash } from '../unicode/text-hash.js';
import type { Block, HeadingContext } from '../types.js';
import { framedWholeSpan, wholeSpan, type BlockSpan } from './block-spans.js';
import { cutBudget } from './budget.js';
import type { ChunkMeasure } from './chunk-measure.js';
import { contentDefinedLast, CUT_WINDOW, placeValue } from './content-cuts.js';
import { cutBlock, cutSmaller, type CutContext } from './cut-block.js';
import { buildDraft, type PackedDraft } from './draft.js';
import { longestFitting } from './fit.js';
import { NO_HEADING, withHeading } from './heading-tracker.js';
import { createPendingChunk, type PendingChunk } from './pending-chunk.js';

/** The parts a packer is built from. */
export interface PackerDeps {
  readonly sizer: Sizer;
  readonly splitter: SpanSplitter;
  readonly measure: ChunkMeasure;
}

/** What the packer holds between blocks. */
export interface Packer {
  readonly config: ChunkConfig;
  readonly measure: ChunkMeasure;
  readonly cut: CutContext;
  /** The chunk in the making. */
  readonly chunk: PendingChunk;
  /** Drafts complete and not yet handed on. */
  readonly out: PackedDraft[];
  /** The section of the chunk in the making: sections are numbered from 0; -1 before the first block. */
  section: number;
  /** Whitespace at the end of the last block that none of its spans holds, carried into the next block's gap. */
  trailing: string;
  /**
   * The last spans emitted in this section, in order, as far back as a cut looks (`RECENT_SPANS`): their places
   * compete with those of the chunk in the making, so that where it ends depends on the text alone.
   */
  recent: BlockSpan[];
  /**
   * The value of the place before each of `recent` (`placeValue`), read once when its span is emitted: a cut reads
   * the places of the window before its chunk again, some four per span emitted in a document of one-letter
   * paragraphs, each a hash of the span's text.
   */
  readonly recentValues: number[];
  /** What each of `recent` adds to a run that holds the span before it: the gap before it and its size. */
  readonly recentAdded: number[];
  /** The last short block text measured, and its size (`blockSize`). */
  readonly measured: { text: string; size: number };
}

/** Most spans emitted that a cut looks back at (they are also dropped once they cover a cut's window). */
const RECENT_SPANS = 256;

/** Whether a packer state's fields were widened (`createPackerState`): once per process. */
let settled = false;

/** A packer in its first state. */
export function createPackerState(config: ChunkConfig, deps: PackerDeps): Packer {
  const { sizer, measure } = deps;
  const cut: CutContext = { sizer, measure, splitter: deps.splitter, preserveCode: config.preserveCode, preserveTables: config.preserveTables };
  const packer: Packer = { config, measure, cut, chunk: createPendingChunk(measure), out: [], section: -1, trailing: '', recent: listOfObjects(), recentValues: listOfDoubles(), recentAdded: listOfDoubles(), measured: { text: '', size: NOT_MEASURED } };
  if (!settled) {
    // The fields that hold objects widened once (`settleFields`): made again for the next document, the literals
    // widened them, and the packing code compiled over the first document (`added`, `joinedAt`) was thrown away.
    settled = true;
    settleFields(cut, { sizer: null, measure: null, splitter: null });
    settleFields(packer, { config: null, measure: null, cut: null, chunk: null, out: null, recent: null, recentValues: null, recentAdded: null, measured: null });
  }
  return packer;
}

/**
 * Creates the packer core. With `contextOf` (`createHeadingContexts`) it finds each block's heading context itself,
 * and the blocks need not carry one: the heading stage copies every block to attach it, and a document of
 * one-letter paragraphs is a block every three bytes. Without it, a block's own `heading` counts.
 */
export function createPacker(config: ChunkConfig, deps: PackerDeps, contextOf?: (block: Block) => HeadingContext): Core<Block, PackedDraft> {
  const packer = createPackerState(config, deps);
  return {
    write(block) {
      packBlock(packer, block, contextOf === undefined ? undefined : contextOf(block));
      return takeAll(packer.out);
    },
    end() {
      flush(packer, false);
      return takeAll(packer.out);
    },
  };
}

/** Packs one block, under `heading` (by default its own, if any): whole into the chunk in the making when it fits there, else cut. */
export function packBlock(packer: Packer, input: Block, heading: HeadingContext = input.heading ?? NO_HEADING): void {
  const { config, measure } = packer;
  const block = openBlock(packer, input);
  if (block.kind === 'heading' && config.splitLevels.includes(block.depth)) startSection(packer, block.depth);
  const room = measure.budget(heading).max;
  // A block past the room is cut, and its size is not kept: the sizer may stop counting there.
  const size = blockSize(packer, block.text, room);
  // A part of a construct the parser cut carries its frame (a table header, a fence line) when kept whole.
  const whole = block.continuation === undefined ? wholeSpan(block, size, heading) : framedWholeSpan(block, size, config.preserveTables, heading);
  const framed = (whole.prefix === '' && whole.suffix === '') || size > room ? size : packer.cut.sizer.size(whole.prefix + block.text + whole.suffix);
  if (framed <= room && !strandsHeadings(packer, whole)) addSpan(packer, whole);
  else cutAndAdd(packer, block, whole);
}

/**
 * Starts a section at a split-level heading of `depth`. The section before ends with its last chunk, and no cut
 * will look back at its spans: they are not remembered. A section that holds only its headings so far, each
 * shallower than this one (`# Guide` right before `## Install`), has no text of its own: its headings open this
 * section's first chunk rather than standing alone as a chunk that says nothing but a title.
 */
function startSection(packer: Packer, depth: number): void {
  if (!opensSubsection(packer.chunk.spans, depth)) flush(packer, false, false);
  packer.section++;
  emptyInPlace(packer.recent);
  emptyInPlace(packer.recentValues);
  emptyInPlace(packer.recentAdded);
}

/** True when `spans` are headings only, the last shallower than `depth`: a heading of `depth` is their subsection. */
function opensSubsection(spans: readonly BlockSpan[], depth: number): boolean {
  const last = spans.at(-1);
  return last !== undefined && (last.depth ?? depth) < depth && spans.every((span) => span.isHeading);
}

/** Texts up to this length are remembered by `blockSize`: V8 copies slices this short, so none holds its batch. */
const MEASURED_LENGTH = 12;
/**
 * What `blockSize` remembers before it has measured a text. A small integer, not Infinity: a field that once held
 * a double keeps its sizes as heap numbers, and every block span made from them turned the spans' `size` field to
 * doubles, which deoptimized each function that had read spans before (`wholeSpan`, `addRecentSpans`, the cut).
 */
const NOT_MEASURED = -1;

/**
 * The size of a block's text, or a size past `room` when it is larger. A short text the same as the last one
 * measured (one-letter paragraphs, a heading per line) is not measured again.
 */
function blockSize(packer: Packer, text: string, room: number): number {
  const { measured } = packer;
  // The size read and compared for every block, before the texts are: read and compared only once a text repeats,
  // it had no type feedback when the packer core was first compiled, and the first repeat threw the core back to
  // the interpreter (`--trace-deopt-verbose`: "Insufficient type feedback" here, over the corpus's first pass).
  const { text: seenText, size: seenSize } = measured;
  const seenFits = seenSize !== NOT_MEASURED && seenSize <= room;
  if (seenFits && text === seenText) return seenSize;
  const size = sizeUpTo(packer.cut.sizer, text, room);
  if (text.length <= MEASURED_LENGTH && size <= room) {
    measured.text = text;
    measured.size = size;
  }
  return size;
}

/** The block with the whitespace the last block left over. */
function openBlock(packer: Packer, input: Block): Block {
  let block = input;
  if (packer.trailing !== '') {
    block = copyWith(block, { gapBefore: packer.trailing + (block.gapBefore ?? '') });
    packer.trailing = '';
  }
  if (packer.section === -1) packer.section = 0;
  return block;
}

/**
 * Emits the chunk in the making; with `carry`, trailing headings stay behind to open the next chunk. `remember`
 * as for `emitSpans`.
 */
export function flush(packer: Packer, carry: boolean, remember = true): void {
  const { chunk } = packer;
  if (chunk.spans.length === 0) return;
  const kept = carry ? chunk.takeTrailingHeadings() : [];
  if (chunk.spans.length > 0) emitSpans(packer, chunk.spans, remember);
  chunk.start(kept);
}

/** Adds one span that fits a chunk on its own: to the chunk in the making, or to a new one. */
export function addSpan(packer: Packer, span: BlockSpan): void {
  const { chunk, measure } = packer;
  if (chunk.spans.length === 0) {
    chunk.start([span]);
    return;
  }
  const last = chunk.spans.at(-1) as BlockSpan;
  const budget = measure.budget(chunk.heading());
  const framed = chunk.estimateWith(span) + (span.suffix === '' ? 0 : packer.cut.sizer.size(span.suffix));
  // A re-opened fence or table header must open a chunk, a closing fence must end one, and an element kept
  // whole over the limit stands alone.
  const mustBreak = span.prefix !== '' || last.suffix !== '' || span.oversizedReason !== undefined || last.oversizedReason !== undefined;
  if (!mustBreak && (framed <= budget.desired || (chunk.onlyHeadings() && framed <= budget.max))) {
    chunk.push(span);
    return;
  }
  const keep = mustBreak ? chunk.spans.length : contentDefinedKeep(packer, chunk.spans, span, budget.desired);
  if (keep < chunk.spans.length) {
    const kept = chunk.spans.slice(keep);
    emitSpans(packer, chunk.spans.slice(0, keep));
    chunk.start(kept);
    addSpan(packer, span);
    return;
  }
  startChunkWith(packer, span);
}

/**
 * Emits the chunk in the making and starts the next with `span`. Headings carried over open it when the span fits
 * with them (an element kept whole takes them regardless); otherwise they go alone.
 */
function startChunkWith(packer: Packer, span: BlockSpan): void {
  const { chunk } = packer;
  flush(packer, true);
  if (chunk.spans.length > 0) {
    if (span.oversizedReason !== undefined || (span.prefix === '' && chunk.estimateWith(span) <= packer.measure.budget(chunk.heading()).max)) {
      chunk.push(span);
      return;
    }
    flush(packer, false);
  }
  chunk.start([span]);
}

/**
 * True when adding `span` whole would leave headings alone: it will not join the chunk in the making, and it
 * does not fit in a chunk together with the headings that end it. Such a block is cut instead, so that its
 * first part goes with its headings.
 */
export function strandsHeadings(packer: Packer, span: BlockSpan): boolean {
  const { chunk, measure } = packer;
  const current = chunk.spans;
  if (current.length === 0 || !(current.at(-1) as BlockSpan).isHeading) return false;
  const budget = measure.budget(chunk.heading());
  if (chunk.estimateWith(span) <= (chunk.onlyHeadings() ? budget.max : budget.desired)) return false;
  return span.size > (roomAfterHeadings(packer, span.gapBefore) as number);
}

/**
 * The room a span has after the headings that end the chunk in the making: the budget of the first of them, less
 * their sizes, the gaps between them and `gapBefore` the span; undefined when the chunk ends in no heading.
 */
function roomAfterHeadings(packer: Packer, gapBefore: string): number | undefined {
  const { chunk, measure } = packer;
  const spans = chunk.spans;
  let k = spans.length;
  let used = measure.gap(gapBefore);
  while (k > 0 && (spans[k - 1] as BlockSpan).isHeading) {
    k--;
    used += (spans[k] as BlockSpan).size + (k < spans.length - 1 ? measure.gap((spans[k + 1] as BlockSpan).gapBefore) : 0);
  }
  return k === spans.length ? undefined : measure.budget((spans[k] as BlockSpan).heading).max - used;
}

/**
 * Cuts a block too large for one chunk, under the heading context of `whole` (its span kept whole); its first span
 * is cut to the room the headings ending the chunk in the making leave.
 */
export function cutAndAdd(packer: Packer, input: Block, whole: BlockSpan): void {
  const { chunk } = packer;
  // The cut reads the heading from the block: a copy that carries it, made only here (`createPacker`).
  const block = input.heading === whole.heading ? input : withHeading(input, whole.heading);
  const rest = packer.measure.budget(whole.heading).max;
  const first = chunk.spans.length === 0 ? rest : roomForFirstSpan(packer, whole, rest);
  const spans = cutBlock(block, cutBudget(first, rest), packer.cut);
  const lastEnd = spans.at(-1)?.end ?? block.end;
  // Whitespace that ends the block but no span (the splitter trims its spans) goes before the next block.
  packer.trailing = lastEnd < block.end ? block.text.slice(lastEnd - block.start) : '';
  spans.forEach((span, i) => {
    if (i === 0 && chunk.spans.length > 0 && span.prefix === '' && span.oversizedReason === undefined) addFirstSpan(packer, span);
    else addSpan(packer, span);
  });
}

/**
 * Adds the first span of a cut block, cut to follow the headings that end the chunk in the making: to that chunk
 * when it fits there, else to the next, which those headings open.
 */
function addFirstSpan(packer: Packer, span: BlockSpan): void {
  const { chunk, measure } = packer;
  if (!chunk.onlyHeadings() && chunk.estimateWith(span) > measure.budget(chunk.heading()).max) flush(packer, true);
  if (chunk.spans.length === 0) chunk.start([span]);
  else chunk.push(span);
}

/**
 * The room for the first span of a block cut after the chunk in the making: what the headings that end that chunk
 * leave (`rest` when it ends in none), whatever comes before them. The span joins that chunk only when it fits
 * there whole (`addFirstSpan`). Cut to fill the room the chunk left, it would make every later cut in the block
 * depend on where that chunk began, and an edit above would move them all (a long YAML history comment in Node's
 * fs.md moved four chunks when a paragraph above it was deleted); cut this way, the block's cuts depend on the
 * block and its headings alone, and an edit above changes at most which chunk its first span goes to.
 */
function roomForFirstSpan(packer: Packer, whole: BlockSpan, rest: number): number {
  const { chunk } = packer;
  const last = chunk.spans.at(-1) as BlockSpan;
  if (last.suffix !== '' || last.oversizedReason !== undefined) flush(packer, true);
  const room = roomAfterHeadings(packer, whole.gapBefore);
  return room === undefined ? rest : Math.max(1, Math.min(rest, room));
}

/** The draft of `spans`, measured once as the embedder sees it. */
function build(packer: Packer, spans: readonly BlockSpan[]): PackedDraft {
  return buildDraft(spans, packer.section, packer.measure);
}

/**
 * Adds `spans`, emitted, to the spans a cut may look back at, and keeps as many as cover the widest window, in
 * order. The list is changed in place: a chunk of one-letter paragraphs emitted some fifty spans, and copying the
 * list of 256 for each was a tenth of what the packer allocated.
 */
function addRecentSpans(packer: Packer, spans: readonly BlockSpan[]): void {
  const { recent: all, recentValues: values, recentAdded: added } = packer;
  for (const span of spans) {
    all.push(span);
    values.push(placeValueOf(span));
    added.push(packer.measure.gap(span.gapBefore) + span.size);
  }
  const window = CUT_WINDOW * packer.config.maxSize;
  let from = Math.max(0, all.length - RECENT_SPANS);
  let covered = 0;
  for (let k = all.length - 1; k > from; k--) {
    covered += (all[k] as BlockSpan).size;
    if (covered > window) from = k;
  }
  if (from > 0) {
    // Moved by hand: `copyWithin` takes V8's generic path (a property lookup per element), and a chunk of one-letter
    // paragraphs moved the list of 256 for every forty spans, half a microsecond per block.
    for (let k = from; k < all.length; k++) {
      all[k - from] = all[k] as BlockSpan;
      values[k - from] = values[k] as number;
      added[k - from] = added[k] as number;
    }
    // Popped rather than cut by setting `length`, which calls into the runtime and lets the store go.
    for (let k = 0; k < from; k++) {
      all.pop();
      values.pop();
      added.pop();
    }
  }
}

/** True when a draft measures over the limit without being kept whole on request. */
function isOver(packer: Packer, draft: PackedDraft): boolean {
  return draft.size > packer.measure.maxSize && !(draft.oversized ?? false);
}

/**
 * Emits the drafts of `spans`, each measured once as the embedder sees it. In the rare case the exact size is
 * over (the estimate adds sizes that do not quite add up), the longest run of spans that fits goes and the rest
 * moves to the next chunk; the run never ends with headings alone, so when nothing after them fits, the first
 * span after them is cut smaller instead (`emitWithHeadings`), and a single span over is cut smaller. With
 * `remember` (the default), the spans join those a later cut in the section looks back at.
 */
export function emitSpans(packer: Packer, spans: readonly BlockSpan[], remember = true): void {
  // Not when the section ends with them: a heading per line ends one at every block, and each span remembered
  // costs a hash of its text.
  if (remember) addRecentSpans(packer, spans);
  let rest = spans;
  while (rest.length > 0) {
    const whole = build(packer, rest);
    if (!isOver(packer, whole)) {
      packer.out.push(whole);
      return;
    }
    rest = emitLongestFitting(packer, rest, whole.heading);
  }
}

/** Emits the longest run of `spans` that fits (see `emitSpans`); returns what is left, cut smaller where needed. */
function emitLongestFitting(packer: Packer, spans: readonly BlockSpan[], heading: HeadingContext): readonly BlockSpan[] {
  // The run must hold the leading headings and a span after them.
  let lead = 0;
  while (lead < spans.length - 1 && (spans[lead] as BlockSpan).isHeading) lead++;
  const fits = (last: number): boolean => !isOver(packer, build(packer, spans.slice(0, last + 1)));
  const last = longestFitting(lead, spans.length - 1, fits);
  if (fits(last)) {
    packer.out.push(build(packer, spans.slice(0, last + 1)));
    return spans.slice(last + 1);
  }
  if (lead > 0) return emitWithHeadings(packer, spans, lead, heading);
  // One span whose framed size is over (non-additive sizer, breadcrumb): cut it smaller.
  const smaller = cutSmaller(spans[0] as BlockSpan, packer.measure.room(heading), packer.cut);
  if (smaller.length > 1) return [...smaller, ...spans.slice(1)];
  packer.out.push(build(packer, spans.slice(0, 1)));
  return spans.slice(1);
}

/**
 * Emits the `lead` headings at the front of `rest` with as much of the span after them as fits, cutting that
 * span to the room they leave; returns what is left. When the headings fill a chunk on their own, the last of
 * them is cut instead: its first part goes with the headings before it, and the rest of it opens the next chunk
 * with content.
 */
function emitWithHeadings(packer: Packer, rest: readonly BlockSpan[], lead: number, heading: HeadingContext): readonly BlockSpan[] {
  const { measure, cut } = packer;
  let spans = rest;
  for (;;) {
    const headings = spans.slice(0, lead);
    const headingsSize = cut.sizer.size(headings.map((p, i) => (i === 0 ? '' : p.gapBefore) + p.text).join(''));
    const room = measure.room(heading) - headingsSize - measure.gap((spans[lead] as BlockSpan).gapBefore);
    if (room < 1) {
      const lastHeading = headings.at(-1) as BlockSpan;
      const parts = cutSmaller(lastHeading, Math.max(1, Math.floor(lastHeading.size / 2)), cut);
      if (parts.length >= 2) {
        packer.out.push(build(packer, [...headings.slice(0, -1), parts[0] as BlockSpan]));
        return [...parts.slice(1), ...spans.slice(lead)];
      }
    } else {
      const smaller = cutSmaller(spans[lead] as BlockSpan, room, cut);
      if (smaller.length >= 2) {
        spans = [...headings, ...smaller, ...spans.slice(lead + 1)];
        const draft = build(packer, spans.slice(0, lead + 1));
        if (isOver(packer, draft)) continue;
        packer.out.push(draft);
        return spans.slice(lead + 1);
      }
    }
    // Nothing smaller can be cut: the headings and the span go as they are.
    packer.out.push(build(packer, spans.slice(0, lead + 1)));
    return spans.slice(lead + 1);
  }
}

/**
 * How many of `spans` to keep in the chunk that `next` does not fit, chosen by content (`content-cuts.ts`): the
 * chunk ends in no heading, and keeps at least `CUT_LOW` of `limit` unless a place before that tops its window;
 * the places of the spans emitted before it in the section (`recent`) compete with its own. A boundary before a
 * heading is stronger the shallower the heading, then one between blocks, then one inside a block.
 * `spans.length` keeps them all.
 */
function contentDefinedKeep(packer: Packer, spans: readonly BlockSpan[], next: BlockSpan, limit: number): number {
  const { recent, recentValues, recentAdded, measure } = packer;
  // Indices run over the recent spans, then the chunk's, then `next`.
  const first = recent.length;
  const at = (k: number): BlockSpan => (k < first ? (recent[k] as BlockSpan) : k - first === spans.length ? next : (spans[k - first] as BlockSpan));
  const prefix = spans[0]?.prefix ? measure.size((spans[0] as BlockSpan).prefix) : 0;
  const last = contentDefinedLast(
    {
      first,
      last: first + spans.length - 1,
      added: (k) => (k === first ? prefix : k === 0 ? 0 : measure.gap(at(k).gapBefore)) + at(k).size,
      valueBefore: (k) => (k < first ? (recentValues[k] as number) : placeValueOf(at(k))),
      mayEndBefore: (k) => k === 0 || !at(k - 1).isHeading,
      earliest: 0,
      // The recent spans' places, as the three above read them, from the lists kept beside them.
      readEarlier: (from, into) => {
        let position = 0;
        for (let k = first - 1; k >= 0; k--) {
          position -= k === 0 ? (recent[0] as BlockSpan).size : (recentAdded[k] as number);
          if (position < from) break;
          if (k === 0 || !(recent[k - 1] as BlockSpan).isHeading) {
            into.positions[into.count] = position;
            into.values[into.count] = recentValues[k] as number;
            into.count++;
          }
        }
      },
    },
    limit,
    { early: true },
  );
  return last + 1 - first;
}

/** The value of the place before `span`: its strength, then a hash of its text. */
function placeValueOf(span: BlockSpan): number {
  return placeValue(cutStrength(span), textHash(span.text));
}

/**
 * How good a place the start of `span` is for a chunk to start: before a heading, between blocks (before a block
 * kept whole or the first span of one cut), inside one.
 */
function cutStrength(span: BlockSpan): number {
  if (span.isHeading) return 8 - (span.depth ?? 6);
  return span.continuesBlock === true ? 0 : 1;
}
