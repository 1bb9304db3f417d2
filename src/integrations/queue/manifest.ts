/**
 * The enqueue manifest: one JSON line per job added (`chunkstream enqueue --manifest FILE` appends them), kept
 * outside Redis so that what Redis loses can still be named. `chunkstream status --manifest FILE` reads it back and
 * lists the jobs Redis no longer holds.
 */
import { ChunkError } from '../../errors.js';
import type { EnqueueResult } from './enqueue.js';
import type { ExpectedJob } from './options.js';

/** One line of a manifest. */
export interface ManifestEntry extends ExpectedJob {
  readonly queue: string;
  /** The queue's epoch when the job was added (`EnqueueResult.epoch`). */
  readonly epoch: string | undefined;
  /** The file the job names, when it does not carry its document. */
  readonly path?: string;
}

/** The manifest lines of an enqueue into `queue`, each ending with a newline. */
export function formatManifest(result: EnqueueResult, queue: string): string {
  return result.jobs
    .map((job) => {
      const entry: ManifestEntry = { queue, epoch: result.epoch, id: job.id, source: job.source, output: job.output, ...(job.path === undefined ? {} : { path: job.path }) };
      return `${JSON.stringify(entry)}\n`;
    })
    .join('');
}

/**
 * Reads a manifest's lines (blank lines skipped), keeping those of `queue`. Throws `ERR_INVALID_INPUT` naming the
 * line that is not a manifest entry.
 */
export function parseManifest(text: string, queue: string): ManifestEntry[] {
  const entries: ManifestEntry[] = [];
  text.split('\n').forEach((line, index) => {
    if (line.trim() === '') return;
    let entry: Partial<ManifestEntry> | null;
    try {
      entry = JSON.parse(line) as Partial<ManifestEntry> | null;
    } catch {
      entry = null;
    }
    if (typeof entry !== 'object' || entry === null || typeof entry.id !== 'string' || typeof entry.source !== 'string' || typeof entry.output !== 'string' || typeof entry.queue !== 'string') {
      throw new ChunkError('ERR_INVALID_INPUT', `Line ${index + 1} of the manifest is not a job written by chunkstream enqueue --manifest: ${line.slice(0, 200)}`);
    }
    if (entry.queue === queue) entries.push(entry as ManifestEntry);
  });
  return entries;
}
