/**
 * The injectable parts of a pipeline. Each is one or two methods; where a protocol has one method, a plain
 * function is accepted too and wrapped with the matching `to*` helper.
 */
import type { ChunkConfig } from './config.js';
import type { Chunk, Source, Span } from './types.js';
import { ChunkError } from './errors.js';
import { isOneGrapheme } from './unicode/segmenters.js';

/** Measures text in some unit (characters, words, tokens). Must be additive-ish and non-negative. */
export interface SizerProtocol {
  size(text: string): number;
  /**
   * Optional: the size of `text` when it is at most `limit`, otherwise any number above `limit`. Where the chunker
   * only asks whether a text fits (a paragraph before it is cut into sentences), a sizer that stops counting past
   * the limit saves measuring the rest; the built-in token sizer does.
   */
  sizeUpTo?(text: string, limit: number): number;
}
/** The `SizerProtocol`, by its shorter name. */
export type Sizer = SizerProtocol;
/** A `Sizer` or a plain `(text) => number`. */
export type SizerLike = Sizer | ((text: string) => number);

/**
 * Cuts an oversized text into spans (`{ start, end }` into `text`): in order, disjoint, each measuring at most
 * `maxSize`, with only whitespace between them. The chunker checks every span an injected splitter returns and
 * throws `ERR_PROTOCOL` for one that breaks these rules, rather than lose text or exceed the limit.
 */
export interface TextSplitterProtocol {
  split(text: string, maxSize: number, targetSize?: number): Span[];
}
/** The `TextSplitterProtocol`, by the name the chunker's parts had first. */
export type TextSplitter = TextSplitterProtocol;
/** A `TextSplitter` or a plain `(text, maxSize, targetSize?) => Span[]`. */
export type TextSplitterLike = TextSplitter | ((text: string, maxSize: number, targetSize?: number) => Span[]);

/** Keeps the heading stack: lower level = higher in the hierarchy. */
export interface HeadingTrackerProtocol {
  update(level: number, text: string): void;
  getPath(): string[];
  getLevels(): number[];
  reset(): void;
}
/** The `HeadingTrackerProtocol`, by the name the chunker's parts had first. */
export type HeadingTracker = HeadingTrackerProtocol;

/** Rewrites a bounded window of chunks of one section: fusion of small chunks, overlap. */
export interface ChunkOptimizerProtocol {
  optimize(chunks: Chunk[], config: ChunkConfig): Chunk[];
}
/** The `ChunkOptimizerProtocol`, by the name the chunker's parts had first. */
export type ChunkOptimizer = ChunkOptimizerProtocol;
/** A `ChunkOptimizer` or a plain `(chunks, config) => Chunk[]`. */
export type ChunkOptimizerLike = ChunkOptimizer | ((chunks: Chunk[], config: ChunkConfig) => Chunk[]);

/** A whole-document chunking strategy: one source in, its chunks out. */
export type Chunker = (source: Source) => Chunk[];

/** Wraps a `SizerLike` into a `Sizer` that checks what it returns. */
export function toSizer(sizer: SizerLike): Sizer {
  const measure = typeof sizer === 'function' ? sizer : sizer.size.bind(sizer);
  const checked: Sizer = { size: (text) => checkedSize(measure(text)) };
  if (typeof sizer !== 'function' && typeof sizer.sizeUpTo === 'function') {
    const upTo = sizer.sizeUpTo.bind(sizer);
    checked.sizeUpTo = (text, limit) => checkedSize(upTo(text, limit));
  }
  return checked;
}

function checkedSize(n: unknown): number {
  if (typeof n !== 'number' || !Number.isFinite(n) || n < 0) {
    throw new ChunkError('ERR_PROTOCOL', `sizer must return a finite number >= 0, got ${String(n)}`);
  }
  return n;
}

/** The size of `text` when it is at most `limit`, otherwise a number above `limit` (see `SizerProtocol.sizeUpTo`). */
export function sizeUpTo(sizer: Sizer, text: string, limit: number): number {
  // A limit that is not a finite number (NaN from a broken sizer upstream) asks for the exact size.
  return sizer.sizeUpTo === undefined || !Number.isFinite(limit) ? sizer.size(text) : sizer.sizeUpTo(text, limit);
}

/** Wraps a `TextSplitterLike` into a `TextSplitter`. */
export function toTextSplitter(splitter: TextSplitterLike): TextSplitter {
  if (typeof splitter === 'function') return { split: splitter };
  return splitter;
}

/**
 * Wraps an injected splitter so that the chunker can trust its spans: each must be `{ start, end }` with integer
 * offsets, `0 <= start < end <= text.length`, after the previous span, measuring at most `maxSize` with `sizer`
 * (or be one grapheme cluster, which cannot be cut), and only whitespace may fall outside the spans. A span that
 * breaks a rule throws `ERR_PROTOCOL` naming it: the chunker would otherwise lose text, repeat it, or exceed the
 * limit without a word.
 */
export function toCheckedTextSplitter(splitter: TextSplitterLike, sizer: Sizer): TextSplitter {
  const inner = toTextSplitter(splitter);
  if (inner === null || typeof inner !== 'object' || typeof inner.split !== 'function') {
    throw new ChunkError('ERR_PROTOCOL', 'textSplitter must be a function or an object with a split(text, maxSize) method');
  }
  return {
    split(text: string, maxSize: number, targetSize?: number): Span[] {
      const spans: unknown = targetSize === undefined ? inner.split(text, maxSize) : inner.split(text, maxSize, targetSize);
      checkSpans(spans, text, maxSize, sizer);
      return spans;
    },
  };
}

function checkSpans(spans: unknown, text: string, maxSize: number, sizer: Sizer): asserts spans is Span[] {
  const broken = (rule: string): ChunkError => new ChunkError('ERR_PROTOCOL', `textSplitter ${rule}`);
  if (!Array.isArray(spans)) throw broken(`must return an array of { start, end } spans, got ${String(spans)}`);
  let previousEnd = 0;
  spans.forEach((span: unknown, i) => {
    const { start, end } = (span ?? {}) as Partial<Span>;
    if (!Number.isInteger(start) || !Number.isInteger(end)) throw broken(`returned span ${i} without integer start and end`);
    const s = start as number;
    const e = end as number;
    if (s < previousEnd || e <= s || e > text.length) {
      throw broken(`returned span ${i} [${s}, ${e}) out of order, empty or outside the text (after ${previousEnd}, length ${text.length})`);
    }
    if (/\S/.test(text.slice(previousEnd, s))) throw broken(`left text out before span ${i}: ${JSON.stringify(text.slice(previousEnd, s).slice(0, 40))}`);
    const size = sizer.size(text.slice(s, e));
    if (size > maxSize && !isOneGrapheme(text.slice(s, e))) throw broken(`returned span ${i} measuring ${size}, above the ${maxSize} asked for`);
    previousEnd = e;
  });
  if (/\S/.test(text.slice(previousEnd))) throw broken(`left text out after its last span: ${JSON.stringify(text.slice(previousEnd).slice(0, 40))}`);
}

/** Wraps a `ChunkOptimizerLike` into a `ChunkOptimizer`. */
export function toOptimizer(optimizer: ChunkOptimizerLike): ChunkOptimizer {
  if (typeof optimizer === 'function') return { optimize: optimizer };
  return optimizer;
}
