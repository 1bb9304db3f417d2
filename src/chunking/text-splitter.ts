/**
 * The fallback that cuts a text too large for one chunk into spans that each fit.
 *
 * Boundary levels, largest first: paragraphs (blank lines), sentences, whitespace-separated words, dictionary
 * words (`Intl.Segmenter`, for scripts written without spaces), grapheme clusters. A segment that fits `maxSize`
 * stays whole; only a segment over it is cut at the next level down. A word too large for `maxSize` is cut into
 * runs of grapheme clusters, each the longest that fits the target, found with a few measurements per run
 * (galloping, then bisecting over cluster boundaries): one cluster alone says little about the tokens of many.
 * The segments are then packed greedily, in order, into spans of up to `targetSize`, never above `maxSize`.
 *
 * Each segment is measured once, together with the whitespace before it, and the packer adds those sizes (exact
 * for characters and words, and for tokens wherever the whitespace before a word starts its first token). Each
 * finished span is measured once more; a span the sizer finds over `maxSize` anyway gives back segments from its
 * tail until it fits. Segmentation only ever sees bounded windows (see `segment-windows.ts`).
 */
import { invalidOption } from '../config.js';
import { ChunkError } from '../errors.js';
import { sizeUpTo, type Sizer, type SpanSplitter } from '../protocols.js';
import type { Span } from '../types.js';
import { boundaryAtOrAfter, boundaryAtOrBefore, isSpaceCode, segmentWindows } from '../unicode/segment-windows.js';
import { contentDefinedLast, CUT_LOW, placeValue } from './content-cuts.js';
import { holdsBlankLine } from '../unicode/lines.js';
import { segmenterFor } from '../unicode/segmenters.js';
import { textHash } from '../unicode/text-hash.js';
import { fitKnown } from './fit.js';
import { abbreviationsFor, createAbbreviationTest, joinAfterAbbreviations, type AbbreviationTest } from './abbreviations.js';

/** What `createTextSplitter` needs: the sizer of the configured unit, and the locale of segmentation. */
export interface TextSplitterConfig {
  readonly sizer: Sizer;
  /** BCP 47 tag for sentence and word segmentation. Default `'en'`. */
  readonly locale?: string;
  /**
   * Abbreviations after which no sentence ends (each with its dot: `'Mr.'`, `'e.g.'`); initials and dotted letters
   * are always included. Default the locale's list (`abbreviations.ts`); `false` keeps every sentence end
   * `Intl.Segmenter` finds.
   */
  readonly abbreviations?: readonly string[] | false;
}

const PARAGRAPH = 0;
const SENTENCE = 1;
const SPACED_WORD = 2;
const WORD = 3;
/** Runs of grapheme clusters, each as long as fits the target (found by galloping over cluster boundaries). */
const CLUSTER_RUN = 4;
const GRAPHEME = 5;
/** A letter or a digit: a range without one holds no word. */
const WORD_CHARACTER = /[\p{L}\p{N}]/u;
/**
 * Longest run (UTF-16 units) cut into words by `Intl.Segmenter`. Its dictionary word segmentation of CJK and Thai
 * costs more per character than the rest of the pipeline together, and a run this long with no space and no
 * sentence end is not prose (CJK exported without punctuation, a list of links, a blob): its words are found by
 * the rules without dictionaries (`plainWords`).
 */
const LONGEST_WORD_SEGMENTED = 1024;
/** A word of letters, digits and marks of a script written with spaces between words (not Han or kana). */
const SPACED_SCRIPT_WORD = /(?:(?![\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}])[\p{L}\p{N}\p{M}])+/uy;

/**
 * A segment of the text: `[start, end)` trimmed; `size` measures `[gapStart, end)`, the whitespace before it
 * included; `level` is the boundary level it was cut at.
 */
interface Segment {
  readonly start: number;
  readonly end: number;
  readonly gapStart: number;
  readonly size: number;
  readonly level: number;
}

interface Segmenters {
  readonly sentence: Intl.Segmenter;
  readonly word: Intl.Segmenter;
  readonly grapheme: Intl.Segmenter;
  /** Joins sentences that end with an abbreviation; null when abbreviations are off. */
  readonly abbreviation: AbbreviationTest | null;
}

/** The sentence, word and grapheme segmenters of `locale`. */
function segmentersFor(locale: string): Omit<Segmenters, 'abbreviation'> {
  try {
    return { sentence: segmenterFor(locale, 'sentence'), word: segmenterFor(locale, 'word'), grapheme: segmenterFor(locale, 'grapheme') };
  } catch {
    throw invalidOption('locale', 'must be a BCP 47 language tag such as "en" or "de-CH"', locale);
  }
}

/**
 * A `TextSplitter` whose `split(text, maxSize, targetSize = maxSize)` returns spans `{ start, end }` into `text`:
 * in order, disjoint, trimmed of whitespace, covering every non-whitespace character, each measuring at most
 * `maxSize`, never cutting a grapheme cluster. Trimming works on clusters: a whitespace character that shares a
 * cluster with a non-whitespace one (a space carrying a combining mark, a space after U+0600) stays in the span. The one exception to the size: a single grapheme cluster that
 * alone measures over `maxSize` (a long emoji sequence under a tiny limit) cannot be cut and comes back as its
 * own span; the caller measures it and flags the chunk.
 */
export function createTextSplitter(config: TextSplitterConfig): HeadTextSplitter {
  const { sizer } = config;
  if (sizer === null || typeof sizer !== 'object' || typeof sizer.size !== 'function') {
    throw invalidOption('sizer', 'must be an object with a size(text) method', sizer);
  }
  const locale = config.locale ?? 'en';
  const abbreviation = config.abbreviations === false ? null : createAbbreviationTest(config.abbreviations ?? abbreviationsFor(locale));
  const segmenters: Segmenters = { ...segmentersFor(locale), abbreviation };
  const splitSized = (text: string, maxSize: number, targetSize: number = maxSize): SizedSpan[] => {
    checkArguments(text, maxSize, targetSize);
    const paragraphs = subranges(text, 0, text.length, PARAGRAPH, segmenters);
    const target = Math.min(targetSize, maxSize);
    const segments = cutSegments(text, paragraphs, PARAGRAPH, -1, maxSize, target, sizer, segmenters);
    return pack(text, segments, maxSize, target, sizer, segmenters);
  };
  return {
    split: (text, maxSize, targetSize = maxSize) => splitSized(text, maxSize, targetSize).map(({ start, end }) => ({ start, end })),
    splitSized,
    splitHead(text: string, maxSize: number): SizedSpan | undefined {
      checkArguments(text, maxSize, maxSize);
      const paragraphs = subranges(text, 0, text.length, PARAGRAPH, segmenters);
      const segments = cutSegments(text, paragraphs, PARAGRAPH, -1, maxSize, maxSize, sizer, segmenters, maxSize);
      return pack(text, segments, maxSize, maxSize, sizer, segmenters, true)[0];
    },
  };
}

/** A span with its size, when the splitter measured it exactly (every span but a lone cluster over the limit). */
export interface SizedSpan extends Span {
  readonly size?: number;
}

/** The TextSplitter built in, which can also give the sizes of the spans it measured, and the first span alone. */
export interface HeadTextSplitter extends SpanSplitter {
  /** The spans of `split`, each with its size as measured: the chunker need not measure them again. */
  splitSized(text: string, maxSize: number, targetSize?: number): SizedSpan[];
  /**
   * The first span `splitSized(text, maxSize)` returns, found without cutting the rest of the text: the chunker
   * fills the room left in a chunk with the head of a long block, then splits the rest at the full size.
   */
  splitHead(text: string, maxSize: number): SizedSpan | undefined;
}

/** True for a splitter that gives its spans' sizes and the head of a split alone (the built-in one). */
export function isHeadTextSplitter(splitter: SpanSplitter): splitter is HeadTextSplitter {
  const methods = splitter as Partial<HeadTextSplitter>;
  return typeof methods.splitHead === 'function' && typeof methods.splitSized === 'function';
}

function checkArguments(text: unknown, maxSize: unknown, targetSize: unknown): void {
  if (typeof text !== 'string') {
    throw new ChunkError('ERR_INVALID_INPUT', `TextSplitter.split needs a string, got ${typeof text}`);
  }
  if (typeof maxSize !== 'number' || Number.isNaN(maxSize) || maxSize <= 0) {
    throw invalidOption('maxSize', 'must be a number > 0', maxSize);
  }
  if (typeof targetSize !== 'number' || Number.isNaN(targetSize) || targetSize <= 0) {
    throw invalidOption('targetSize', 'must be a number > 0', targetSize);
  }
}

/**
 * Cuts `text` into the largest segments that fit `maxSize`, going down a level only for a segment that does not.
 * `ranges` are cut at `level`; `gapStart` is where the whitespace before the first of them begins.
 *
 * With `enough`, cutting stops once the segments between the first and the last measure more than `enough`
 * together: the first span packed from them at a target of at most `enough` is then the one all the segments give.
 * (It ends before the segment that takes the sum past `enough`, and the segment after that one is there for the
 * packer's look at what follows. Only the last segment may still change: a cluster run at a window's edge is taken
 * back and grown by the next range.)
 */
function cutSegments(
  text: string,
  ranges: readonly Span[],
  level: number,
  gapStart: number,
  maxSize: number,
  targetSize: number,
  sizer: Sizer,
  segmenters: Segmenters,
  enough: number = Number.POSITIVE_INFINITY,
): Segment[] {
  const segments: Segment[] = [];
  let lastEnd = gapStart;
  /** Sum of the sizes of `segments[1 .. length - 2]`: what `enough` is compared with. */
  let inner = 0;
  let done = false;
  const push = (segment: Segment): void => {
    if (segments.length >= 2) inner += (segments[segments.length - 1] as Segment).size;
    segments.push(segment);
    if (inner > enough) done = true;
  };
  const pop = (): Segment => {
    const last = segments.pop() as Segment;
    if (segments.length >= 2) inner -= (segments[segments.length - 1] as Segment).size;
    return last;
  };

  const addClusterRuns = (start: number, end: number): void => {
    // A run that ended the previous range right where this one starts (a long unbroken run cut into windows
    // above) is taken back and grown, so window edges do not leave short runs behind.
    const previous = segments[segments.length - 1];
    if (previous !== undefined && previous.end === start && previous.level >= CLUSTER_RUN) {
      pop();
      start = previous.start;
      lastEnd = previous.gapStart;
    }
    const bounds = clusterBounds(text, start, end, segmenters.grapheme);
    const clusters = bounds.length - 1;
    let i = 0;
    while (i < clusters && !done) {
      const gap = lastEnd < 0 ? bounds[i]! : lastEnd;
      // Runs are only compared with the target: the sizer may stop counting past it.
      const measure = (count: number): number => sizeUpTo(sizer, text.slice(gap, bounds[i + count]!), targetSize);
      // Largest count of clusters whose run measures at most the target; one cluster at least, to advance.
      let good = 1;
      let goodSize = measure(1);
      // A cluster over the target alone is taken all the same, with its exact size.
      if (goodSize > targetSize) goodSize = sizer.size(text.slice(gap, bounds[i + 1]!));
      if (goodSize <= targetSize) {
        let bad = 0;
        while (good < clusters - i) {
          const next = Math.min(good * 2, clusters - i);
          const size = measure(next);
          if (size <= targetSize) {
            good = next;
            goodSize = size;
          } else {
            bad = next;
            break;
          }
        }
        while (bad > good + 1) {
          const mid = (good + bad) >> 1;
          const size = measure(mid);
          if (size <= targetSize) {
            good = mid;
            goodSize = size;
          } else {
            bad = mid;
          }
        }
      }
      const level = good === 1 ? GRAPHEME : CLUSTER_RUN;
      push({ start: bounds[i]!, end: bounds[i + good]!, gapStart: gap, size: goodSize, level });
      lastEnd = bounds[i + good]!;
      i += good;
    }
  };

  const add = (start: number, end: number, level: number, knownSize?: number): void => {
    if (level === CLUSTER_RUN) {
      addClusterRuns(start, end);
      return;
    }
    const gap = lastEnd < 0 ? start : lastEnd;
    // A segment is kept with its size only when it fits (or cannot be cut): past `maxSize` the sizer may stop.
    const size = knownSize ?? (level === GRAPHEME ? sizer.size(text.slice(gap, end)) : sizeUpTo(sizer, text.slice(gap, end), maxSize));
    // A sizer that returns NaN fails `size <= maxSize` and gets its text cut down to clusters.
    if (size <= maxSize || level === GRAPHEME) {
      push({ start, end, gapStart: gap, size, level });
      lastEnd = end;
      return;
    }
    if (level + 1 === WORD && !WORD_CHARACTER.test(text.slice(start, end))) {
      // Without a letter or a digit there is no word to keep whole (a run of `>` or `=`): word segmentation would
      // only give each character on its own, at the segmenter's cost per character.
      add(start, end, CLUSTER_RUN);
      return;
    }
    // The ranges below are cut as they are found, and finding them stops once the head is `done`: the head of a
    // long block needs its first sentences, not a segmentation of the whole block.
    eachSubrange(text, start, end, level + 1, segmenters, (s, e) => {
      // A range as large as this one is the only one (ranges are disjoint): the level does not cut it, and its size
      // is known not to fit. A cluster is measured again, since it is kept whatever its size.
      const known = s === start && e === end && level + 1 !== GRAPHEME ? size : undefined;
      add(s, e, level + 1, known);
      return !done;
    });
  };

  for (const range of ranges) {
    if (done) break;
    add(range.start, range.end, level);
  }
  return segments;
}

/** The trimmed, non-empty ranges of `[start, end)` at `level`, in order, each starting and ending between clusters. */
function subranges(text: string, start: number, end: number, level: number, segmenters: Segmenters): Span[] {
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
  const g = segmenters.grapheme;
  let stopped = false;
  // The last range found is held back: the next one may overlap it (edges moved out to whole clusters) and join it.
  let heldStart = -1;
  let heldEnd = -1;
  const release = (): void => {
    if (heldStart !== -1 && !stopped) stopped = !visit(heldStart, heldEnd);
    heldStart = -1;
  };
  // Trimming moves an edge next to whitespace, where a combining mark (after) or a prepended mark (before) may
  // hold the cluster together: such an edge moves out to the cluster's own edge, and the cluster stays whole.
  const push = (s: number, e: number, checkEdges: boolean): void => {
    if (stopped) return;
    const s0 = s;
    const e0 = e;
    while (s < e && isSpaceCode(text.charCodeAt(s))) s++;
    while (e > s && isSpaceCode(text.charCodeAt(e - 1))) e--;
    if (s >= e) return;
    if (checkEdges || s !== s0) s = boundaryAtOrBefore(text, s, g);
    if (checkEdges || e !== e0) e = boundaryAtOrAfter(text, e, g);
    if (heldStart !== -1 && s < heldEnd) {
      heldEnd = Math.max(heldEnd, e);
    } else {
      release();
      heldStart = s;
      heldEnd = e;
    }
  };
  const isStopped = (): boolean => stopped;
  switch (level) {
    case PARAGRAPH: {
      const blankLine = /\n[^\S\n]*\n/g;
      blankLine.lastIndex = start;
      let from = start;
      for (let m = blankLine.exec(text); m !== null && m.index + m[0].length <= end && !stopped; m = blankLine.exec(text)) {
        push(from, m.index, true);
        from = m.index + m[0].length;
      }
      push(from, end, true);
      break;
    }
    case SENTENCE:
      // Sentence and word rules attach a format character (U+0600, a prepended mark) to what comes before it,
      // grapheme rules to what comes after: the edges are checked like trimmed ones.
      if (segmenters.abbreviation === null) {
        segmentWindows(text, start, end, segmenters.sentence, g, (s, e) => push(s, e, true), isStopped);
      } else {
        const sentences = joinAfterAbbreviations(text, segmenters.abbreviation, (s, e) => push(s, e, true));
        segmentWindows(text, start, end, segmenters.sentence, g, sentences.add, isStopped);
        sentences.end();
      }
      break;
    case SPACED_WORD: {
      const run = /\S+/g;
      run.lastIndex = start;
      for (let m = run.exec(text); m !== null && m.index < end && !stopped; m = run.exec(text)) {
        push(m.index, Math.min(m.index + m[0].length, end), true);
      }
      break;
    }
    case WORD:
      if (end - start > LONGEST_WORD_SEGMENTED) {
        plainWords(text, start, end, g, (s, e) => push(s, e, false), isStopped);
        break;
      }
      segmentWindows(text, start, end, segmenters.word, g, (s, e) => push(s, e, true), isStopped);
      break;
    case CLUSTER_RUN:
      // Runs are found by measuring, in `cutSegments`: the range goes down whole.
      visit(start, end);
      break;
    default:
      segmentWindows(text, start, end, g, g, (s, e) => push(s, e, false), isStopped);
  }
  release();
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

/**
 * Packs consecutive segments into spans of up to `targetSize` by the sum of their sizes, then measures each span
 * once; one the sizer finds over `maxSize` keeps the longest prefix of its segments that fits (one segment at least,
 * so every span advances).
 */
function pack(text: string, segments: Segment[], maxSize: number, targetSize: number, sizer: Sizer, segmenters: Segmenters, firstOnly = false): SizedSpan[] {
  const spans: SizedSpan[] = [];
  let i = 0;
  while (i < segments.length) {
    const first = segments[i]!;
    // The first segment of a span goes without the whitespace before it.
    const alone = first.gapStart === first.start ? first.size : sizer.size(text.slice(first.start, first.end));
    if (!(alone <= maxSize) && first.level < GRAPHEME) {
      // It fitted with the whitespace before it but not alone (a word that is one token after a space and two
      // without): cut it at the next level down, in place. Each round goes one level deeper, so this ends.
      const below = subranges(text, first.start, first.end, first.level + 1, segmenters);
      const recut = cutSegments(text, below, first.level + 1, first.gapStart, maxSize, targetSize, sizer, segmenters);
      // concat, not splice(...recut): a spread of many thousands of arguments overflows the stack.
      segments = segments.slice(0, i).concat(recut, segments.slice(i + 1));
      continue;
    }
    const from = i;
    const found = fitKnown({
      first: from,
      last: segments.length - 1,
      added: (k) => (k === from ? alone : segments[k]!.size),
      estimateLimit: targetSize,
      // Exact when it fits: only then is the span's size kept.
      exact: (to) => sizeUpTo(sizer, text.slice(segments[from]!.start, segments[to]!.end), maxSize),
      limit: maxSize,
      grow: { kind: 'units' },
      measureSingle: false,
      // Where the next segment does not fit, the span ends where the content says, so that an edit above does
      // not move every later cut of the text.
      choose: (start, last) =>
        contentDefinedLast(
          {
            first: start,
            last,
            added: (k) => (k === start ? alone : segments[k]!.size),
            valueBefore: (k) => placeValue(boundaryStrength(text, segments[k]!), textHash(text, segments[k]!.start)),
          },
          CUT_LOW * targetSize,
        ),
    });
    // A span of one segment measures what the segment does alone; a longer one was measured (exactly, if it fits).
    const size = found.last === from ? alone : found.size;
    spans.push({ start: first.start, end: segments[found.last]!.end, ...(size !== undefined && size <= maxSize ? { size } : {}) });
    if (firstOnly) break;
    i = found.last + 1;
  }
  return spans;
}

/** How strong the boundary before a segment is: after a blank line, then by the level it was cut at. */
function boundaryStrength(text: string, segment: Segment): number {
  if (holdsBlankLine(text, segment.gapStart, segment.start)) return GRAPHEME - PARAGRAPH;
  return GRAPHEME - Math.max(SENTENCE, segment.level);
}
