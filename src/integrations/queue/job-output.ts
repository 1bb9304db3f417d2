/**
 * A job's output file, written under a temporary name beside its target and renamed into place once the file is
 * chunked to the end. Each run of a job has its own temporary name: the same job can run twice at once (a worker
 * whose lock lapsed while it kept going, and the worker the job was handed to), even in one process, and each
 * run must write its own file. Only the run that holds the job renames its file into place: the processor
 * confirms the lock before the rename, and a new run removes the temporary files of the runs before it, so that
 * a late run's rename fails instead of landing over the newer output.
 */
import { createHash, randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { openAtomic, type AtomicFile } from '../../files/output.js';

/** An output file being written. */
export type JobOutput = AtomicFile;

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

/**
 * Opens `target` for atomic writing (its folder is created). With `run`, the temporary name is that run's own;
 * without, it is made unique with the process id and a random part.
 */
export function openJobOutput(target: string, run?: JobRun): Promise<JobOutput> {
  return openAtomic(target, run ? runTemp(target, run.jobId, run.run) : join(dirname(target), `.${basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`));
}
