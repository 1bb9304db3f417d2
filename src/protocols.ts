/**
 * The injectable parts of a pipeline. Each is one or two methods; where a protocol has one method, a plain
 * function is accepted too and wrapped with the matching `to*` helper.
 */
import type { ChunkConfig } from './config.js';
import type { Chunk, Source, Span } from './types.js';
import { ChunkError } from './errors.js';

/** Measures text in some unit (characters, words, tokens). Must be additive-ish and non-negative. */
export interface SizerProtocol {
  size(text: string): number;
  /**
   * Optional: the size of `text` when it is at most `limit`, otherwise any number above `limit`. Where the chunker
   * only asks whether a text fits (a paragraph before it is cut into sentences), a sizer that stops counting past
   * the limit saves measuring the rest; the built-in token sizer does.
   */
  sizeUpTo?(text: string, limit: number): number;
  /**
   * Optional: units every input costs the embedder whatever its text, left out of `size` so that sizes of parts
   * add up: the special tokens a Hugging Face tokenizer's post-processor adds ([CLS] and [SEP], BOS/EOS). The
   * chunker keeps room for them under `maxSize` and counts them in every chunk's `size`. Default 0.
   */
  readonly overhead?: number;
}
/** The `SizerProtocol`, by its shorter name. */
export type Sizer = SizerProtocol;
/** A `Sizer` or a plain `(text) => number`. */
export type SizerLike = Sizer | ((text: string) => number);

/**
 * Cuts an oversized text into pieces, each measuring at most `maxSize`, in order, with only whitespace between
 * them. A piece is a span `{ start, end }` into `text`, or the text of that span as a string (`text.slice(start,
 * end)`, as a splitter written for the design's `split(text, max_size) -> list[str]` returns it): the chunker finds
 * each string again at its exact offsets. It checks every piece an injected splitter returns and throws
 * `ERR_PROTOCOL` naming one that is not the next piece of the text, rather than lose or repeat text; a piece above
 * `maxSize` is cut again by the built-in splitter (counted in the statistics' warnings).
 */
export interface TextSplitterProtocol {
  split(text: string, maxSize: number, targetSize?: number): readonly (Span | string)[];
}
/** The `TextSplitterProtocol`, by the name the chunker's parts had first. */
export type TextSplitter = TextSplitterProtocol;
/** A `TextSplitter` or a plain `(text, maxSize, targetSize?) => pieces` function. */
export type TextSplitterLike = TextSplitter | ((text: string, maxSize: number, targetSize?: number) => readonly (Span | string)[]);
/** A splitter the chunker can trust: spans only, each checked (the built-in one, or an injected one behind the check). */
export interface SpanSplitter {
  split(text: string, maxSize: number, targetSize?: number): Span[];
}

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
  const overhead = typeof sizer === 'function' ? undefined : sizer.overhead;
  if (overhead === undefined || overhead === 0) return checked;
  if (!Number.isInteger(overhead) || overhead < 0) throw new ChunkError('ERR_PROTOCOL', `sizer overhead must be an integer >= 0, got ${String(overhead)}`);
  return { ...checked, overhead };
}

function checkedSize(n: unknown): number {
  if (typeof n !== 'number' || !Number.isFinite(n) || n < 0) {
    throw new ChunkError('ERR_PROTOCOL', `sizer must return a finite number >= 0, got ${String(n)}`);
  }
  return n;
}

/** What every input costs `sizer` beside its text (see `SizerProtocol.overhead`). */
export function overheadOf(sizer: Sizer): number {
  return sizer.overhead ?? 0;
}

/**
 * `sizer` with its overhead counted in every size: for the parts of the chunker that measure whole chunks only
 * (the simpler strategies), where sizes are compared to `maxSize` as they are.
 */
export function withOverhead(sizer: Sizer): Sizer {
  const overhead = overheadOf(sizer);
  if (overhead === 0) return sizer;
  const upTo = sizer.sizeUpTo?.bind(sizer);
  return {
    size: (text) => sizer.size(text) + overhead,
    ...(upTo !== undefined ? { sizeUpTo: (text: string, limit: number) => upTo(text, limit - overhead) + overhead } : {}),
  };
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

/** Wraps a `ChunkOptimizerLike` into a `ChunkOptimizer`. */
export function toOptimizer(optimizer: ChunkOptimizerLike): ChunkOptimizer {
  if (typeof optimizer === 'function') return { optimize: optimizer };
  return optimizer;
}
