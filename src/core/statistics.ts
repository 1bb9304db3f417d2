/** Placeholder until the chunking engine lands. */
import type { ChunkConfig } from '../config.js';
import type { Chunk, ChunkStatistics } from '../types.js';

/** Placeholder. */
export function createStatisticsAccumulator(config: ChunkConfig): { add(chunk: Chunk): void; result(): ChunkStatistics } {
  let chunks = 0;
  let total = 0;
  let min = Infinity;
  let max = 0;
  let under = 0;
  let pages = 0;
  return {
    add(c) {
      chunks++;
      total += c.size;
      min = Math.min(min, c.size);
      max = Math.max(max, c.size);
      if (c.size < config.minSize) under++;
      if (c.pageEnd !== undefined) pages = Math.max(pages, c.pageEnd);
    },
    result() {
      return { documents: 1, chunks, totalSize: total, averageSize: chunks ? total / chunks : 0, minSize: chunks ? min : 0, maxSize: max, oversized: 0, oversizedReasons: {}, undersized: under, pages, warnings: [] };
    },
  };
}
