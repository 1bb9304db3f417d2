/**
 * The chunk in the making: its spans, and an estimate of its size (each span measured once, added with the gaps
 * between them, and the prefix of a span that opens it). The packer fills it and empties it into drafts.
 */
import type { HeadingContext } from '../types.js';
import type { BlockSpan } from './block-spans.js';
import type { Measure } from './fit.js';

/** The chunk in the making. */
export interface PendingChunk {
  readonly spans: readonly BlockSpan[];
  /** The estimate of its size. */
  readonly estimate: number;
  /** The heading context of the chunk: its first span's. */
  heading(): HeadingContext;
  /** Starts the chunk over with `spans`. */
  start(spans: BlockSpan[]): void;
  /** The estimate with `span` added. */
  estimateWith(span: BlockSpan): number;
  push(span: BlockSpan): void;
  /** Removes the headings that end the chunk and returns them. */
  takeTrailingHeadings(): BlockSpan[];
  /** True when it holds headings only (or nothing). */
  onlyHeadings(): boolean;
}

/** An empty chunk in the making, estimated with `measure`. */
export function createPendingChunk(measure: Measure): PendingChunk {
  const state = { spans: [] as BlockSpan[], estimate: 0 };
  const estimateWith = (span: BlockSpan): number => state.estimate + measure.gap(span.gapBefore) + span.size;
  return {
    get spans() {
      return state.spans;
    },
    get estimate() {
      return state.estimate;
    },
    heading: () => (state.spans[0] as BlockSpan).heading,
    start(spans) {
      state.spans = spans;
      state.estimate = spans.length > 0 && (spans[0] as BlockSpan).prefix !== '' ? measure.size((spans[0] as BlockSpan).prefix) : 0;
      spans.forEach((span, i) => {
        state.estimate += (i === 0 ? 0 : measure.gap(span.gapBefore)) + span.size;
      });
    },
    estimateWith,
    push(span) {
      state.estimate = estimateWith(span);
      state.spans.push(span);
    },
    takeTrailingHeadings() {
      let k = state.spans.length;
      while (k > 0 && (state.spans[k - 1] as BlockSpan).isHeading) k--;
      const kept = state.spans.slice(k);
      state.spans = state.spans.slice(0, k);
      return kept;
    },
    onlyHeadings: () => state.spans.every((span) => span.isHeading),
  };
}
