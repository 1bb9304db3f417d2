/**
 * The injectable parts of a pipeline. Each is one or two methods; where a protocol has one method, a plain
 * function is accepted too and wrapped with the matching `to*` helper.
 */
import type { ChunkConfig } from './config.js';
import type { Chunk, Source, Span } from './types.js';
import { ChunkError } from './errors.js';

/** Measures text in some unit (characters, words, tokens). Must be additive-ish and non-negative. */
export interface Sizer {
  size(text: string): number;
}
/** A `Sizer` or a plain `(text) => number`. */
export type SizerLike = Sizer | ((text: string) => number);

/** Cuts an oversized text into spans (`{ start, end }` into `text`), each measuring at most `maxSize`. */
export interface TextSplitter {
  split(text: string, maxSize: number, targetSize?: number): Span[];
}
/** A `TextSplitter` or a plain `(text, maxSize, targetSize?) => Span[]`. */
export type TextSplitterLike = TextSplitter | ((text: string, maxSize: number, targetSize?: number) => Span[]);

/** Keeps the heading stack: lower level = higher in the hierarchy. */
export interface HeadingTracker {
  update(level: number, text: string): void;
  getPath(): string[];
  getLevels(): number[];
  reset(): void;
}

/** Rewrites a bounded window of chunks of one section: fusion of small chunks, overlap. */
export interface ChunkOptimizer {
  optimize(chunks: Chunk[], config: ChunkConfig): Chunk[];
}
/** A `ChunkOptimizer` or a plain `(chunks, config) => Chunk[]`. */
export type ChunkOptimizerLike = ChunkOptimizer | ((chunks: Chunk[], config: ChunkConfig) => Chunk[]);

/** A whole-document chunking strategy: one source in, its chunks out. */
export type Chunker = (source: Source) => Chunk[];

/** Wraps a `SizerLike` into a `Sizer` that checks what it returns. */
export function toSizer(sizer: SizerLike): Sizer {
  const measure = typeof sizer === 'function' ? sizer : sizer.size.bind(sizer);
  return {
    size(text: string): number {
      const n = measure(text);
      if (typeof n !== 'number' || !Number.isFinite(n) || n < 0) {
        throw new ChunkError('ERR_PROTOCOL', `sizer must return a finite number >= 0, got ${String(n)}`);
      }
      return n;
    },
  };
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
