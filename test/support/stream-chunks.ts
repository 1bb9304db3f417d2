/**
 * The streamed side of "stream ≡ sync": Markdown written to `parse()` → `chunk()` in the pieces given, the chunks
 * collected, for the properties to compare with `chunkText` on the whole text.
 */
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ChunkOptions } from '../../src/config.js';
import { chunk } from '../../src/stream/chunk.js';
import { parse } from '../../src/stream/parse.js';
import type { Chunk } from '../../src/types.js';

/** The chunks of Markdown written in `pieces` (one write each) through the stream stages. */
export async function streamMarkdownChunks(pieces: Uint8Array[], options: ChunkOptions): Promise<Chunk[]> {
  const out: Chunk[] = [];
  await pipeline(
    Readable.from(pieces, { objectMode: true }),
    parse({ format: 'markdown', batchSize: 1024 }),
    chunk(options),
    new Writable({ objectMode: true, write: (c, _e, cb) => (out.push(c), cb()) }),
  );
  return out;
}
