/**
 * The text levels every block shares, coarse to fine: paragraphs (blank lines), sentences, whitespace-separated
 * words, dictionary words (`Intl.Segmenter`, for scripts written without spaces), runs of grapheme clusters,
 * grapheme clusters. A span that fits stays whole; only one over the room is cut at the next level down. A word too
 * large is cut into runs of clusters, each the longest that fits the budget's `desired`, found with a few
 * measurements per run (galloping, then bisecting over cluster boundaries): one cluster alone says little about
 * the tokens of many.
 *
 * Each span is measured once, together with the whitespace before it, which packing adds up (exact for characters
 * and words, and for tokens wherever the whitespace before a word starts its first token). Segmentation only
 * ever sees bounded windows (`segment-windows.ts`), and stops once the spans found are enough for what is asked.
 */
import { sizeUpTo, type Sizer } from '../protocols.js';
import type { Span } from '../types.js';
import { boundaryAtOrAfter, boundaryAtOrBefore, isSpaceCode, segmentWindows, unwrappedLines } from '../unicode/segment-windows.js';
import { joinAfterAbbreviations, type AbbreviationTest } from './abbreviations.js';
import { budget, type Budget } from './budget.js';
import { SHORT_TEXT, shortSizesOf, shortSizeUpTo } from './sizers/short-sizes.js';
import { gallop } from './fit.js';
import { createDescent, createSpanList, levelSpan, type Descent, type Levels, type LevelSpan } from './levels.js';
import { BLANK_LINE_STRENGTH, frameWithSizes, NO_FRAME, packSpans, type Frame, type MeasuredFrame, type PackedSpan, type PackRules } from './pack.js';

/** The text levels, coarse to fine. */
export const PARAGRAPH = 0;
export const SENTENCE = 1;
export const SPACED_WORD = 2;
export const WORD = 3;
/** Runs of grapheme clusters, each as long as fits the budget (found by galloping over cluster boundaries). */
export const CLUSTER_RUN = 4;
export const GRAPHEME = 5;

/** A letter or a digit: a range without one holds no word. */
const WORD_CHARACTER = /[\p{L}\p{N}]/u;
/**
 * Longest run (UTF-16 units) cut into words by `Intl.Segmenter`. Its dictionary word segmentation of CJK and Thai
 * costs more per character than the rest of the pipeline together, and a run this long with no space and no
 * sentence end is not prose (CJK exported without punctuation, a list of links, a blob): its words are found by
 * the rules without dictionaries (`plainWords`).
 */
const LONGEST_WORD_SEGMENTED = 1024;
/** Text below the combining marks (U+0300), where every edge of a whitespace-separated word is a cluster boundary. */
const BELOW_MARKS = /^[\u0000-\u02ff]*$/;
/** A word of letters, digits and marks of a script written with spaces between words (not Han or kana). */
const SPACED_SCRIPT_WORD = /(?:(?![\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}])[\p{L}\p{N}\p{M}])+/uy;

/** The segmenters of a locale. */
export interface Segmenters {
  readonly sentence: Intl.Segmenter;
  readonly word: Intl.Segmenter;
  readonly grapheme: Intl.Segmenter;
  /** Joins sentences that end with an abbreviation; null when abbreviations are off. */
  readonly abbreviation: AbbreviationTest | null;
}

/** What cutting a text at the text levels needs. */
export interface TextCut {
  readonly text: string;
  readonly sizer: Sizer;
  readonly segmenters: Segmenters;
  /** Spans are cut to fit `max`, packed up to `desired`; runs of clusters are cut to `desired`. */
  readonly budget: Budget;
  /**
   * What the embedder sees around every span (a turn's speaker label as prefix): spans are cut to the room it
   * leaves, and every run is measured with it by the one fit search. Default none.
   */
  readonly frame?: Frame;
}

/**
 * Cuts `text` into spans, in order, trimmed of whitespace, each measuring at most `budget.max` with its frame (but
 * for a lone grapheme cluster over it, which cannot be cut), packed up to `budget.desired`. With `firstOnly`, only
 * the first span is made, and only the text it needs is segmented.
 */
export function cutTextLevels(cut: TextCut, firstOnly = false): PackedSpan[] {
  const frame = measuredFrame(cut);
  const inFrame = frame === NO_FRAME ? cut : { ...cut, budget: roomInFrame(cut.budget, frame, cut.sizer) };
  const list = createSpanList(-1, firstOnly ? cut.budget.max : Number.POSITIVE_INFINITY);
  const descent = createDescent(textLevels(inFrame), inFrame.budget.max, list);
  for (const range of subranges(cut.text, 0, cut.text.length, PARAGRAPH, cut.segmenters)) {
    if (list.done) break;
    descent.visit(range.start, range.end, PARAGRAPH, undefined);
  }
  return packSpans(list.spans, textPackRules(inFrame, frame, cut.budget), firstOnly);
}

/** The cut's frame with its prefix and suffix measured; `NO_FRAME` when it adds nothing. */
function measuredFrame(cut: TextCut): MeasuredFrame {
  const frame = cut.frame;
  if (frame === undefined || (frame.prefix === '' && frame.suffix === '')) return NO_FRAME;
  const size = (text: string): number => (text === '' ? 0 : cut.sizer.size(text));
  return frameWithSizes(frame, size(frame.prefix), size(frame.suffix));
}

/**
 * The budget of the spans inside `frame`: what it leaves of `outer`. The prefix is measured without the whitespace
 * it ends with, which the span after it is measured with (spans are measured with the whitespace before them): a
 * label's space is one token with the word after it.
 */
function roomInFrame(outer: Budget, frame: MeasuredFrame, sizer: Sizer): Budget {
  const trimmed = frame.prefix.trimEnd();
  const framing = (trimmed === '' ? 0 : sizer.size(trimmed)) + frame.suffixSize;
  return budget(outer.desired - framing, outer.max - framing);
}

/** The text levels as a family the descent walks. */
function textLevels(cut: TextCut): Levels<undefined> {
  const { text, sizer } = cut;
  const short = shortSizesOf(sizer);
  return {
    measure(_start, end, gapStart, level, _node, room) {
      if (level === GRAPHEME) return sizer.size(text.slice(gapStart, end));
      // A word with the space before it is short, and said again and again: its size is remembered.
      if (end - gapStart <= SHORT_TEXT) return shortSizeUpTo(short, sizer, text, gapStart, end, room);
      return sizeUpTo(sizer, text.slice(gapStart, end), room);
    },
    keepsWhole: (level) => level === GRAPHEME,
    cutBelow(start, end, level, size, _node, descent) {
      const next = level + 1;
      // Without a letter or a digit there is no word to keep whole (a run of `>` or `=`): word segmentation would
      // only give each character on its own, at the segmenter's cost per character.
      if (next === WORD && !WORD_CHARACTER.test(text.slice(start, end))) {
        cutClusterRuns(start, end, descent, cut);
        return;
      }
      if (next === SPACED_WORD && BELOW_MARKS.test(text.slice(Math.max(0, start - 1), end + 1))) {
        visitPlainWords(text, start, end, size, descent);
        return;
      }
      // The ranges below are cut as they are found, and finding them stops once the list is done: the head of a
      // long block needs its first sentences, not a segmentation of the whole block.
      eachSubrange(text, start, end, next, cut.segmenters, (s, e) => {
        // A range as large as this one is the only one (ranges are disjoint): the level does not cut it, and its
        // size is known not to fit. A cluster is measured again, since it is kept whatever its size.
        enter(s, e, next, descent, cut, s === start && e === end && next !== GRAPHEME ? size : undefined);
        return !descent.list.done;
      });
    },
  };
}

/**
 * Visits the whitespace-separated words of `[start, end)` at `SPACED_WORD`, in order, until the list is done: what
 * `eachSubrange` gives there when no character of the range or next to it is U+0300 or above. Below the combining
 * marks no character joins a cluster with its neighbour but CR with LF, both whitespace: every word edge is a
 * cluster boundary, so no range is moved out or joined, and the trimmer's work per word (a closure, two boundary
 * checks, a range held back) is skipped. A paragraph that is one long sentence is a span per word.
 */
export function visitPlainWords(text: string, start: number, end: number, size: number, descent: Descent<undefined>): void {
  let at = start;
  for (;;) {
    while (at < end && isSpaceCode(text.charCodeAt(at))) at++;
    if (at >= end) return;
    let wordEnd = at + 1;
    while (wordEnd < end && !isSpaceCode(text.charCodeAt(wordEnd))) wordEnd++;
    // A word as large as the range is the only one: its size is known not to fit (see `cutBelow`).
    descent.visit(at, wordEnd, SPACED_WORD, undefined, at === start && wordEnd === end ? size : undefined);
    if (descent.list.done) return;
    at = wordEnd;
  }
}

/** Takes `[start, end)` at `level` into the descent: runs of clusters are found by measuring, other levels visited. */
function enter(start: number, end: number, level: number, descent: Descent<undefined>, cut: TextCut, known?: number): void {
  if (level === CLUSTER_RUN) cutClusterRuns(start, end, descent, cut);
  else descent.visit(start, end, level, undefined, known);
}

/**
 * Cuts `[start, end)` into runs of grapheme clusters, each the longest that measures at most `budget.desired`
 * (one cluster at least, kept whatever it measures). A run that ended the previous range right where this one
 * starts (a long unbroken run cut into windows above) is taken back and grown, so window edges leave no short runs.
 */
function cutClusterRuns(start: number, end: number, descent: Descent<undefined>, cut: TextCut): void {
  const { list } = descent;
  const { text, sizer } = cut;
  const target = cut.budget.desired;
  const previous = list.spans[list.spans.length - 1];
  if (previous !== undefined && previous.end === start && previous.level >= CLUSTER_RUN) {
    list.pop();
    start = previous.start;
  }
  const bounds = clusterBounds(text, start, end, cut.segmenters.grapheme);
  const clusters = bounds.length - 1;
  let i = 0;
  while (i < clusters && !list.done) {
    const gapStart = list.gapStart(bounds[i] as number);
    // Runs are only compared with the target: the sizer may stop counting past it.
    const runSize = (count: number): number => sizeUpTo(sizer, text.slice(gapStart, bounds[i + count]), target);
    const run = { count: 1, size: runSize(1) };
    // A cluster over the target alone is taken all the same, with its exact size.
    if (run.size > target) run.size = sizer.size(text.slice(gapStart, bounds[i + 1]));
    else {
      run.count = gallop(clusters - i, (count) => {
        const size = runSize(count);
        if (size > target) return false;
        run.size = size;
        return true;
      });
    }
    list.push(levelSpan(bounds[i] as number, bounds[i + run.count] as number, gapStart, run.count === 1 ? GRAPHEME : CLUSTER_RUN, run.size));
    i += run.count;
  }
}

/**
 * How the text levels' spans are packed: sizes measured with the whitespace before them, runs within `outer` with
 * `frame`; `cut` is the cut inside the frame, which a span cut again goes down.
 */
function textPackRules(cut: TextCut, frame: MeasuredFrame, outer: Budget): PackRules {
  const { text, sizer } = cut;
  return {
    text,
    budgets: { first: outer, rest: outer },
    frame,
    sizer,
    // A span that opens a run goes without the whitespace before it; after a prefix, it is measured with it.
    alone: (span) => (span.gapStart === span.start ? span.size : sizer.size(text.slice(span.start, span.end))),
    alonePrefixed: (span, prefix) => sizer.size(prefix + text.slice(span.start, span.end)),
    joined: (spans, k) => (spans[k] as LevelSpan).size,
    strength: (level) => BLANK_LINE_STRENGTH - Math.max(SENTENCE, level),
    cutAgain: (span) => (span.level >= GRAPHEME ? undefined : cutLevelBelow(span, cut)),
  };
}

/** The spans one level below `span`, from where the whitespace before it starts. */
function cutLevelBelow(span: LevelSpan, cut: TextCut): LevelSpan[] {
  const list = createSpanList(span.gapStart);
  const descent = createDescent(textLevels(cut), cut.budget.max, list);
  for (const range of subranges(cut.text, span.start, span.end, span.level + 1, cut.segmenters)) enter(range.start, range.end, span.level + 1, descent, cut);
  return list.spans as LevelSpan[];
}

/** The trimmed, non-empty ranges of `[start, end)` at `level`, in order, each starting and ending between clusters. */
export function subranges(text: string, start: number, end: number, level: number, segmenters: Segmenters): Span[] {
  const out: Span[] = [];
  eachSubrange(text, start, end, level, segmenters, (s, e) => {
    out.push({ start: s, end: e });
    return true;
  });
  return out;
}

/**
 * Calls `visit` with each range `subranges` gives, in order, as soon as it is final; when `visit` returns false,
 * no more ranges are looked for.
 */
function eachSubrange(text: string, start: number, end: number, level: number, segmenters: Segmenters, visit: (start: number, end: number) => boolean): void {
  if (level === CLUSTER_RUN) {
    // Runs are found by measuring (`cutClusterRuns`): the range goes down whole.
    visit(start, end);
    return;
  }
  const ranges = createRangeTrimmer(text, segmenters.grapheme, visit);
  findRanges(text, start, end, level, segmenters, ranges);
  ranges.release();
}

/**
 * Trims the ranges a level finds and hands them on: the last one is held back, since the next one may overlap it
 * (edges moved out to whole clusters) and join it.
 */
interface RangeTrimmer {
  /** Takes the next range; `checkEdges` when its edges may fall inside a cluster even untrimmed. */
  add(start: number, end: number, checkEdges: boolean): void;
  /** Hands on the range held back. */
  release(): void;
  /** True once `visit` asked for no more. */
  stopped(): boolean;
}

function createRangeTrimmer(text: string, graphemes: Intl.Segmenter, visit: (start: number, end: number) => boolean): RangeTrimmer {
  const state = { stopped: false, heldStart: -1, heldEnd: -1 };
  const release = (): void => {
    if (state.heldStart !== -1 && !state.stopped) state.stopped = !visit(state.heldStart, state.heldEnd);
    state.heldStart = -1;
  };
  return {
    // Trimming moves an edge next to whitespace, where a combining mark (after) or a prepended mark (before) may
    // hold the cluster together: such an edge moves out to the cluster's own edge, and the cluster stays whole.
    add(s, e, checkEdges) {
      if (state.stopped) return;
      const s0 = s;
      const e0 = e;
      while (s < e && isSpaceCode(text.charCodeAt(s))) s++;
      while (e > s && isSpaceCode(text.charCodeAt(e - 1))) e--;
      if (s >= e) return;
      if (checkEdges || s !== s0) s = boundaryAtOrBefore(text, s, graphemes);
      if (checkEdges || e !== e0) e = boundaryAtOrAfter(text, e, graphemes);
      if (state.heldStart !== -1 && s < state.heldEnd) {
        state.heldEnd = Math.max(state.heldEnd, e);
        return;
      }
      release();
      state.heldStart = s;
      state.heldEnd = e;
    },
    release,
    stopped: () => state.stopped,
  };
}

/** Finds the ranges of `[start, end)` at `level` (above the runs of clusters) and adds them to `ranges`. */
function findRanges(text: string, start: number, end: number, level: number, segmenters: Segmenters, ranges: RangeTrimmer): void {
  const g = segmenters.grapheme;
  const checked = (s: number, e: number): void => ranges.add(s, e, true);
  switch (level) {
    case PARAGRAPH:
      return eachParagraph(text, start, end, ranges);
    case SENTENCE:
      // Sentence and word rules attach a format character (U+0600, a prepended mark) to what comes before it,
      // grapheme rules to what comes after: the edges are checked like trimmed ones.
      if (segmenters.abbreviation === null) return segmentWindows(text, start, end, segmenters.sentence, g, checked, ranges.stopped, unwrappedLines);
      return eachSentenceJoined(text, start, end, segmenters, ranges);
    case SPACED_WORD:
      return eachSpacedWord(text, start, end, ranges);
    case WORD:
      if (end - start > LONGEST_WORD_SEGMENTED) return plainWords(text, start, end, g, (s, e) => ranges.add(s, e, false), ranges.stopped);
      return segmentWindows(text, start, end, segmenters.word, g, checked, ranges.stopped);
    default:
      return segmentWindows(text, start, end, g, g, (s, e) => ranges.add(s, e, false), ranges.stopped);
  }
}

/** The paragraphs of `[start, end)`: the text between blank lines (two line ends with only blanks between them). */
function eachParagraph(text: string, start: number, end: number, ranges: RangeTrimmer): void {
  // A regex of its own per call: a `g` regex keeps its place in `lastIndex`.
  const blankLine = /\n[^\S\n]*\n/g;
  blankLine.lastIndex = start;
  let from = start;
  for (let m = blankLine.exec(text); m !== null && m.index + m[0].length <= end && !ranges.stopped(); m = blankLine.exec(text)) {
    ranges.add(from, m.index, true);
    from = m.index + m[0].length;
  }
  ranges.add(from, end, true);
}

/**
 * The whitespace-separated words of `[start, end)` (the runs `/\S+/` finds), scanned by character code: a regex
 * match per word allocated its array, and a wide table is a word every four characters.
 */
function eachSpacedWord(text: string, start: number, end: number, ranges: RangeTrimmer): void {
  let at = start;
  while (!ranges.stopped()) {
    while (at < end && isSpaceCode(text.charCodeAt(at))) at++;
    if (at >= end) return;
    let wordEnd = at + 1;
    while (wordEnd < end && !isSpaceCode(text.charCodeAt(wordEnd))) wordEnd++;
    ranges.add(at, wordEnd, true);
    at = wordEnd;
  }
}

/** The sentences of `[start, end)`, a sentence that ends with an abbreviation joined to the next. */
function eachSentenceJoined(text: string, start: number, end: number, segmenters: Segmenters, ranges: RangeTrimmer): void {
  const sentences = joinAfterAbbreviations(text, segmenters.abbreviation as AbbreviationTest, (s, e) => ranges.add(s, e, true));
  segmentWindows(text, start, end, segmenters.sentence, segmenters.grapheme, sentences.add, ranges.stopped, unwrappedLines);
  sentences.end();
}

/**
 * Calls `emit` for the words of `[start, end)` by the default rules of word segmentation, without the dictionaries
 * that `Intl.Segmenter` uses for CJK and Thai: a run of letters, digits and marks of a script written with spaces
 * is a word, and every other grapheme cluster (an ideograph, a kana, a punctuation mark, a symbol) is one alone.
 */
function plainWords(text: string, start: number, end: number, graphemes: Intl.Segmenter, emit: (start: number, end: number) => void, stopped: () => boolean): void {
  let at = start;
  while (at < end && !stopped()) {
    SPACED_SCRIPT_WORD.lastIndex = at;
    const next = Math.min(boundaryAtOrAfter(text, SPACED_SCRIPT_WORD.test(text) ? SPACED_SCRIPT_WORD.lastIndex : at + 1, graphemes), end);
    emit(at, next);
    at = next;
  }
}

/**
 * Boundaries of the grapheme clusters of `[start, end)`, both ends included. A range at this level holds no
 * whitespace-only cluster (whitespace was cut at the word levels above).
 */
function clusterBounds(text: string, start: number, end: number, graphemes: Intl.Segmenter): number[] {
  const bounds: number[] = [];
  if (/^[\x00-\x0c\x0e-\xff]*$/.test(text.slice(start, end))) {
    // Latin-1 without CR: one cluster per code unit.
    for (let i = start; i <= end; i++) bounds.push(i);
    return bounds;
  }
  segmentWindows(text, start, end, graphemes, graphemes, (s) => bounds.push(s));
  bounds.push(end);
  return bounds;
}
