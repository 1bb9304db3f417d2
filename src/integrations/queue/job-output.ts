/**
 * A job's output file, written under a temporary name beside its target and renamed into place once the file is
 * chunked to the end. The temporary name carries the process and a random part: the same job can run twice at
 * once (a worker whose lock lapsed while it kept going, and the worker the job was handed to), even in one
 * process, and each run must write its own file. Both write the same bytes, so whichever rename comes last
 * leaves the same file.
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Writable } from 'node:stream';

/** An output file being written. */
export interface JobOutput {
  readonly stream: Writable;
  /** Ends the stream and renames the file into place. */
  commit(): Promise<void>;
  /** Drops the temporary file. */
  discard(): Promise<void>;
}

/** `.NAME.` — the start of every temporary name of `target`. */
function tempPrefix(target: string): string {
  return `.${basename(target)}.`;
}

/**
 * Removes the temporary files an earlier run of the same job left (a worker killed mid-write never cleans up).
 * A run still going elsewhere loses its temporary file and with it its rename; it has lost the job's lock too,
 * since the job is running here, so its result would not count anyway.
 */
export async function removeStaleTemps(target: string): Promise<void> {
  const prefix = tempPrefix(target);
  let names: string[];
  try {
    names = await readdir(dirname(target));
  } catch {
    return;
  }
  for (const name of names) {
    if (name.startsWith(prefix) && name.endsWith('.tmp')) await rm(join(dirname(target), name), { force: true });
  }
}

function endStream(stream: Writable): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (stream.destroyed || stream.writableFinished) return resolve();
    stream.once('error', reject);
    stream.end(() => resolve());
  });
}

/** Opens `target` for atomic writing (its folder is created). */
export async function openJobOutput(target: string): Promise<JobOutput> {
  await mkdir(dirname(target), { recursive: true });
  const temp = join(dirname(target), `${tempPrefix(target)}${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const stream = createWriteStream(temp);
  await new Promise<void>((resolve, reject) => {
    stream.once('open', () => resolve());
    stream.once('error', reject);
  });
  let settled = false;
  return {
    stream,
    async commit() {
      if (settled) return;
      settled = true;
      await endStream(stream);
      await rename(temp, target);
    },
    async discard() {
      if (settled) return;
      settled = true;
      stream.destroy();
      await rm(temp, { force: true });
    },
  };
}
