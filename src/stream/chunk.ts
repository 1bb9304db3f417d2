/** `chunk()`: the semantic chunk stage as one Transform (trackHeadings → split → optimize). */
import type { Transform } from 'node:stream';
import { normalizeOptions, type ChunkOptions } from '../config.js';
import { createChunkCore, resolveDeps, type ChunkDeps } from '../chunking/chunker.js';
import type { ChunkStatistics } from '../types.js';
import { toTransform } from './to-transform.js';

/** The chunk stream; `statistics()` gives the figures so far (complete once the stream has ended). */
export interface ChunkStream extends Transform {
  statistics(): ChunkStatistics;
}

/**
 * Creates the chunk stage: `Block` objects in (from `parse()`), `Chunk` objects out. Output is identical to
 * `chunkText` on the same document, whatever the write sizes upstream. With the option `parents`, the stream emits
 * a `'parent'` event with each `ParentRecord` before the chunks it holds (`result.parents` of `chunkText`).
 *
 * ```ts
 * await pipeline(createReadStream('guide.md'), parse(), chunk({ maxSize: 512 }), toJsonl(), process.stdout);
 * ```
 */
export function chunk(options?: ChunkOptions, deps?: ChunkDeps): ChunkStream {
  const config = normalizeOptions(options);
  // Each parent is emitted as a 'parent' event before the chunks it holds are pushed.
  const target: { stream?: ChunkStream } = {};
  const core = createChunkCore(config, resolveDeps(config, deps), { parent: (p) => target.stream?.emit('parent', p) });
  const stream = toTransform(core, { signal: config.signal }) as ChunkStream;
  target.stream = stream;
  stream.statistics = () => core.statistics();
  return stream;
}
