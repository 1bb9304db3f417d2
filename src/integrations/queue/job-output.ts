/**
 * A job's output file, written under a temporary name beside its target and renamed into place once the file is
 * chunked to the end. Each run of a job has its own temporary name: the same job can run twice at once (a worker
 * whose lock lapsed while it kept going, and the worker the job was handed to), even in one process, and each
 * run must write its own file. Both write the same bytes, so whichever rename comes last leaves the same file.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
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

/** Which run of which job writes a file: BullMQ counts the runs of a job (`attemptsStarted`), recoveries included. */
export interface JobRun {
  readonly jobId: string;
  /** 1 for the first run, 2 for the run after a retry or a recovery, and so on. */
  readonly run: number;
}

/** A job id as it may appear in a file name (BullMQ ids are numbers, but a custom id can hold anything). */
function safeId(jobId: string): string {
  return /^[A-Za-z0-9_-]{1,64}$/.test(jobId) ? jobId : createHash('sha256').update(jobId).digest('hex').slice(0, 16);
}

/** The temporary name of one run of a job: `.NAME.JOB.RUN.tmp`, beside the target. */
function runTemp(target: string, jobId: string, run: number): string {
  return join(dirname(target), `.${basename(target)}.${safeId(jobId)}.${run}.tmp`);
}

/**
 * Removes the temporary files that earlier runs of the same job may have left (a worker killed mid-write never
 * cleans up). Their names are known from the run count, so this is a few unlinks, not a listing of a folder
 * that may hold millions of outputs. A run still going elsewhere loses its temporary file and with it its
 * rename; it has lost the job's lock too, since the job is running here, so its result would not count anyway.
 */
export async function removeStaleTemps(target: string, run: JobRun): Promise<void> {
  // Runs beyond the last few are not looked for: a job that lost its worker that often has failed long before.
  for (let k = Math.max(1, run.run - 16); k < run.run; k++) await rm(runTemp(target, run.jobId, k), { force: true });
}

function endStream(stream: Writable): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (stream.destroyed || stream.writableFinished) return resolve();
    stream.once('error', reject);
    stream.end(() => resolve());
  });
}

/** A write stream on `path`, once the file is open. */
function openStream(path: string): Promise<Writable> {
  return new Promise((resolve, reject) => {
    const stream = createWriteStream(path);
    stream.once('open', () => resolve(stream));
    stream.once('error', reject);
  });
}

/**
 * Opens `target` for atomic writing (its folder is created). With `run`, the temporary name is that run's own;
 * without, it is made unique with the process id and a random part.
 */
export async function openJobOutput(target: string, run?: JobRun): Promise<JobOutput> {
  const temp = run ? runTemp(target, run.jobId, run.run) : join(dirname(target), `.${basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  // The folder usually exists (a tree of outputs fills up): try the open first, and make the folder only when it is missing.
  let stream: Writable;
  try {
    stream = await openStream(temp);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    await mkdir(dirname(target), { recursive: true });
    stream = await openStream(temp);
  }
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
