/** Running statistics of a chunking run, in bounded memory (no chunk is kept). */
import type { Chunk, ChunkStatistics } from '../types.js';
import { countedWarning, readCountedWarning } from '../warnings.js';

/** What the statistics need of the configuration. */
export interface StatisticsConfig {
  readonly minSize: number;
}

/** Accumulates chunk sizes into `ChunkStatistics`. */
export function createStatisticsAccumulator(config: StatisticsConfig) {
  // The running figures, in one object: min and max of the sizes, their total, and the counts.
  const sizes = { chunks: 0, totalSize: 0, minSize: Infinity, maxSize: 0, oversized: 0, undersized: 0 };
  const reasons: Record<string, number> = {};
  const documents = new Set<string>();
  return {
    /** Counts one chunk. */
    add(chunk: Chunk): void {
      sizes.chunks++;
      documents.add(chunk.documentId);
      sizes.totalSize += chunk.size;
      sizes.minSize = Math.min(sizes.minSize, chunk.size);
      sizes.maxSize = Math.max(sizes.maxSize, chunk.size);
      if (chunk.oversized) {
        sizes.oversized++;
        const reason = chunk.metadata.oversizedReason ?? 'unknown';
        reasons[reason] = (reasons[reason] ?? 0) + 1;
      }
      if (chunk.size < config.minSize) sizes.undersized++;
    },
    /** The statistics so far. */
    result(extra: Partial<ChunkStatistics> = {}): ChunkStatistics {
      const { chunks, totalSize } = sizes;
      return withDocumentedNames({
        documents: Math.max(documents.size, extra.documents ?? 0),
        chunks,
        totalSize,
        averageSize: chunks === 0 ? 0 : totalSize / chunks,
        minSize: chunks === 0 ? 0 : sizes.minSize,
        maxSize: sizes.maxSize,
        oversized: sizes.oversized,
        oversizedReasons: { ...reasons },
        undersized: sizes.undersized,
        warnings: [],
        ...extra,
      });
    },
  };
}

/** The statistics with the aliases the chunker's documentation names (`totalChunks`, `avgSize`, …) set from their fields. */
export function withDocumentedNames(s: Omit<ChunkStatistics, 'totalChunks' | 'avgSize' | 'oversizedCount' | 'undersizedCount'>): ChunkStatistics {
  return { ...s, totalChunks: s.chunks, avgSize: s.averageSize, oversizedCount: s.oversized, undersizedCount: s.undersized };
}

/**
 * Counts the parser's warnings carried by blocks (`Block.warnings`), for the statistics of a run: each warning once
 * with the number of blocks it concerns, and a counted warning (`what (×n)`, see `warnings.ts`) once with its
 * counts added up.
 */
export function createWarningTally() {
  const counts = new Map<string, number>();
  const counted = new Map<string, number>();
  return {
    /** Counts the warnings of one block. */
    note(warnings: readonly string[] | undefined): void {
      if (warnings === undefined) return;
      for (const w of warnings) {
        const c = readCountedWarning(w);
        if (c !== undefined) counted.set(c.what, (counted.get(c.what) ?? 0) + c.count);
        else counts.set(w, (counts.get(w) ?? 0) + 1);
      }
    },
    /** Each warning once: with the number of blocks it concerns, or its total count. */
    list(): string[] {
      return [...[...counts].map(([w, n]) => `${w} (${n} block${n === 1 ? '' : 's'})`), ...[...counted].map(([what, n]) => countedWarning(what, n))];
    },
  };
}
