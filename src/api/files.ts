/** `chunkFiles()`: many files, one result each, going on past failures. */
import { chunkFile } from './chunk.js';
import type { ChunkOptions, ParseOptions } from '../config.js';
import { toChunkError, type ChunkError } from '../errors.js';
import { abortError } from '../stream/to-transform.js';
import type { Chunk, ChunkStatistics } from '../types.js';

/** Options of `chunkFiles()`: those of `chunk()` and `parse()`. `documentId` and `origin` are set to each path. */
export type ChunkFilesOptions = Omit<ChunkOptions, 'documentId' | 'origin'> & Omit<ParseOptions, 'signal'>;

/** A file that was chunked to the end. */
export interface ChunkFileSuccess {
  readonly path: string;
  readonly chunks: Chunk[];
  readonly statistics: ChunkStatistics;
}

/** A file that failed: `error` is a `ChunkError` (`ERR_READ` when the file could not be read). */
export interface ChunkFileFailure {
  readonly path: string;
  readonly error: ChunkError;
}

/** What `chunkFiles()` yields for each path. */
export type ChunkFileOutcome = ChunkFileSuccess | ChunkFileFailure;

/**
 * Chunks files one after the other, yielding `{ path, chunks, statistics }` or `{ path, error }` for each, in the
 * order of `paths`. A failing file does not stop the iteration; aborting `options.signal` does, with an `AbortError`.
 * Each file's chunks have `documentId` and `origin` set to its path, so ids stay unique across files.
 *
 * ```ts
 * for await (const r of chunkFiles(['a.md', 'b.pdf'], { maxSize: 400 })) {
 *   if ('error' in r) console.error(`${r.path}: ${r.error.code}`);
 *   else await store.add(toDocuments(r.chunks));
 * }
 * ```
 */
export async function* chunkFiles(
  paths: Iterable<string> | AsyncIterable<string>,
  options: ChunkFilesOptions = {},
): AsyncGenerator<ChunkFileOutcome, void, undefined> {
  const signal = options.signal;
  for await (const path of paths) {
    if (signal?.aborted) throw abortError(signal);
    try {
      const result = await chunkFile(path, { ...options, documentId: path, origin: path });
      yield { path, chunks: result.chunks, statistics: result.statistics };
    } catch (error) {
      if ((error instanceof Error && error.name === 'AbortError') || signal?.aborted) throw signal?.aborted ? abortError(signal) : error;
      // File-system errors carry a syscall (open, read): the file could not be read.
      const code = typeof (error as { syscall?: unknown })?.syscall === 'string' ? 'ERR_READ' : 'ERR_INTERNAL';
      yield { path, error: toChunkError(error, code, { source: path }) as ChunkError };
    }
  }
}
