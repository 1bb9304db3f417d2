/** Placeholder until the chunking engine lands. */
import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import type { ChunkOptions, ParseOptions } from './config.js';
import { normalizeOptions } from './config.js';
import { createStatisticsAccumulator } from './core/statistics.js';
import { collect } from './sinks/collect.js';
import { chunk } from './stream/chunk.js';
import { parse } from './stream/parse.js';
import type { Chunk, ChunkingResult } from './types.js';

/** Placeholder. */
export async function chunkFile(
  path: string,
  options: ChunkOptions & Omit<ParseOptions, 'signal'> = {},
): Promise<ChunkingResult & { text: string; format: 'markdown' | 'pdf' | 'transcript' }> {
  const { format, fatal, maxBufferBytes, batchSize, workers, maxPdfBytes, password, ...rest } = options;
  const p: ParseOptions = { format, fatal, maxBufferBytes, batchSize, workers, maxPdfBytes, password, signal: options.signal };
  for (const k of Object.keys(p) as (keyof ParseOptions)[]) if (p[k] === undefined) delete p[k];
  const chunks = (await pipeline(createReadStream(path), parse(p), chunk(rest), collect)) as Chunk[];
  const stats = createStatisticsAccumulator(normalizeOptions(rest));
  for (const c of chunks) stats.add(c);
  return { chunks, statistics: stats.result(), text: '', format: 'markdown' };
}
