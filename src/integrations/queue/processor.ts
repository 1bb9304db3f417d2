/**
 * The job processor: one job, one file, chunked by the command line's own per-file path (`processFile`), so a
 * worker writes byte for byte what `chunkstream FILE` prints. A file the job names is opened only under the
 * worker's input roots (`input-roots.ts`). Its lines go to `OUT/<output>` under a temporary name, renamed into
 * place when the file is done and the job's lock is confirmed still this run's (`publish`); then the job completes
 * with the file's figures. A failure becomes a failed job whose reason starts with the error's code; codes a retry
 * cannot fix are marked unrecoverable, so BullMQ does not spend the job's attempts on them.
 */
import { type FileHandle, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import { UnrecoverableError, WaitingError } from 'bullmq';
import { isChunkError } from '../../errors.js';
import { writeText } from '../../files/output.js';
import { DEFAULT_BATCH_BYTES, describeError, processFile, type FileBatch, type FileError, type FileReport, type OpenedInput } from '../../files/process-file.js';
import type { InputFile } from '../../files/inputs.js';
import { formatFailedReason, isFinalErrorCode } from './failure.js';
import { openConfined, resolveInputRoots } from './input-roots.js';
import { readJobData, type ChunkJobResult, type ReadJobData } from './job-data.js';
import { openJobOutput, removeStaleTemps, type JobOutput, type JobRun } from './job-output.js';

/** What the processor needs of a BullMQ job (a `Job` has it all). */
export interface ChunkJobLike {
  readonly id?: string | undefined;
  readonly data: unknown;
  /** Which run of the job this is (BullMQ's `Job.attemptsStarted`: retries and recoveries count). */
  readonly attemptsStarted?: number;
  /** Hands the job back to the queue (BullMQ's `Job.moveToWait`); used when the worker is stopped mid-job. */
  moveToWait?(token?: string): Promise<unknown>;
  /**
   * Extends the job's lock if `token` still holds it (BullMQ's `Job.extendLock`: 1, or 0 when another run holds
   * it); checked before the output is renamed into place.
   */
  extendLock?(token: string, duration: number): Promise<number>;
}

/** Settings of `createChunkProcessor`. */
export interface ChunkProcessorOptions {
  /** Folder the output files go into. */
  readonly outDir: string;
  /** Name written into every result. */
  readonly workerId: string;
  /**
   * Folders whose files jobs may name; their real paths are resolved here, once (`ERR_INVALID_OPTION` for one that
   * is not a folder). Default none: only inline documents are read, and a job naming a file fails with
   * `ERR_INPUT_OUTSIDE_ROOTS`, for good.
   */
  readonly inputRoots?: readonly string[];
  /** The worker's lock duration (ms): the lock is extended by this much before the output is renamed. Default 30000. */
  readonly lockDuration?: number;
}

/** BullMQ's default lock duration, and the worker's. */
const DEFAULT_LOCK_MS = 30_000;

/** A BullMQ processor: `(job, token, signal)` → the job's result. Aborting `signal` hands the job back. */
export type ChunkProcessor = (job: ChunkJobLike, token?: string, signal?: AbortSignal) => Promise<ChunkJobResult>;

/** The error a failed file ends its job with: `CODE message`, unrecoverable when a retry cannot help. */
export function jobError(error: FileError): Error {
  const reason = formatFailedReason(error.code, error.message);
  return isFinalErrorCode(error.code) ? new UnrecoverableError(reason) : new Error(reason);
}

/** The document a job reads, and how to let go of it. */
interface JobInput {
  readonly input: InputFile | OpenedInput;
  cleanup(): Promise<void>;
}

/** Opens the file a job names, under the input roots; a refusal or a read error becomes the job's error. */
async function openNamed(data: ReadJobData, roots: readonly string[]): Promise<JobInput> {
  const path = data.path as string;
  let handle: FileHandle;
  try {
    handle = await openConfined(path, roots);
  } catch (error) {
    throw jobError(isChunkError(error) ? { code: error.code, message: error.message } : describeError(error));
  }
  const input: OpenedInput = { path, source: data.source, format: data.format, bytes: data.bytes, handle };
  // The read stream closes the handle once it is read; this covers a run that ends before reading it.
  return { input, cleanup: () => handle.close().catch(() => {}) };
}

/** Copies a job's inline document to a temporary file, the input every format's reader takes. */
async function copyInline(data: ReadJobData): Promise<JobInput> {
  try {
    const dir = await mkdtemp(join(tmpdir(), 'chunkstream-job-'));
    const path = join(dir, 'input');
    await writeFile(path, Buffer.from(data.content as string, 'base64'));
    return { input: { path, source: data.source, format: data.format, bytes: data.bytes }, cleanup: () => rm(dir, { recursive: true, force: true }) };
  } catch (error) {
    throw jobError({ code: 'ERR_WRITE', message: `Cannot copy the inline document to a temporary file: ${(error as Error).message}` });
  }
}

/** Which run of the job this is, when BullMQ says (it counts retries and recoveries). */
function jobRun(job: ChunkJobLike): JobRun | undefined {
  const started = job.attemptsStarted;
  return job.id !== undefined && started !== undefined && Number.isInteger(started) && started > 0 ? { jobId: job.id, run: started } : undefined;
}

/** The job error of an output that could not be written; a full file system is named as such. */
function cannotWrite(target: string, error: unknown): Error {
  const e = error as NodeJS.ErrnoException;
  const full = e?.code === 'ENOSPC' || e?.code === 'EDQUOT';
  const reason = full ? `its file system is full (${e.code}); nothing was left in place` : (e?.message ?? String(error));
  return jobError({ code: 'ERR_WRITE', message: `Cannot write ${target}: ${reason}` });
}

/** The error of a run whose output was discarded because the job is no longer its own. */
function lockLost(target: string, reason: string): Error {
  return jobError({ code: 'ERR_WRITE', message: `Discarded this run's ${target}: ${reason}; the worker that holds the job writes it` });
}

/** Chunks `input` into `output`; resolves with the file's figures, or rejects with the job's error. */
async function chunkInto(input: InputFile | OpenedInput, data: ReadJobData, output: Promise<JobOutput>, target: string, signal: AbortSignal | undefined): Promise<FileReport> {
  const state: { writeFailure: unknown } = { writeFailure: undefined };
  const config = { chunkOptions: data.chunkOptions, parseOptions: data.parseOptions, batchBytes: DEFAULT_BATCH_BYTES };
  const sink = async (batch: FileBatch): Promise<void> => {
    try {
      await writeText((await output).stream, batch.bytes);
    } catch (error) {
      state.writeFailure = error;
      throw error;
    }
  };
  let result: Awaited<ReturnType<typeof processFile>>;
  try {
    result = await processFile(input, config, sink, signal);
  } catch (error) {
    // A failing sink makes the stream pipeline tear down its stages, and it may reject with their AbortError
    // rather than the sink's error: the write failure is what happened.
    if (state.writeFailure !== undefined && !signal?.aborted) throw cannotWrite(target, state.writeFailure);
    throw error;
  }
  if (state.writeFailure !== undefined) throw cannotWrite(target, state.writeFailure);
  if (result.error) throw jobError(result.error);
  return result.report;
}

/**
 * Ends a write stream and resolves once its data is written to the file; rejects when a write failed, even one
 * that failed between two writes and tore the stream down unheard (a full disk).
 */
function finishWriting(stream: Writable): Promise<void> {
  return new Promise((resolve, reject) => {
    if (stream.writableFinished) return resolve();
    if (stream.destroyed) return reject(stream.errored ?? new Error('output stream closed before it was finished'));
    stream.once('error', reject);
    stream.end((error?: Error | null) => (error ? reject(error) : resolve()));
  });
}

/**
 * Puts a complete output in place, fenced by the job's lock: the file is written to the end first, then the lock
 * is confirmed (and extended, so that it outlasts the rename), then the file is renamed. A run cut off from Redis
 * for longer than its lock finds the lock held by another run (its token no longer matches) and discards its
 * file; and a run that confirmed its lock just before it was cut off finds its temporary file removed by the run
 * that took the job over (`removeStaleTemps`), so its rename fails rather than land over the newer output.
 */
async function publish(file: JobOutput, target: string, confirmLock: () => Promise<boolean>): Promise<void> {
  try {
    await finishWriting(file.stream);
  } catch (error) {
    throw cannotWrite(target, error);
  }
  let held: boolean;
  try {
    held = await confirmLock();
  } catch (error) {
    throw lockLost(target, `its lock could not be confirmed (${(error as Error).message})`);
  }
  if (!held) throw lockLost(target, 'the job passed to another worker while this one was cut off from Redis for longer than its lock');
  try {
    await file.commit();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw lockLost(target, 'a later run of the job removed its temporary file');
    throw cannotWrite(target, error);
  }
}

/** The job's result: where its chunks went and the file's figures. */
function jobResult(data: ReadJobData, r: FileReport, workerId: string): ChunkJobResult {
  return {
    source: data.source,
    output: data.output,
    chunks: r.chunks,
    totalSize: r.totalSize,
    minSize: r.minSize,
    maxSize: r.maxSize,
    oversized: r.oversized,
    undersized: r.undersized,
    pages: r.pages,
    bytes: r.bytes,
    timeMs: Math.round(r.timeMs * 1000) / 1000,
    worker: workerId,
    ...(r.warnings !== undefined ? { warnings: r.warnings } : {}),
  };
}

/** Reads a job's data; malformed data becomes the job's (unrecoverable) error. */
function readData(job: ChunkJobLike, inputRoots: readonly string[]): ReadJobData {
  try {
    return readJobData(job.data, { inputRoots });
  } catch (error) {
    if (isChunkError(error)) throw jobError({ code: error.code, message: error.message });
    throw error;
  }
}

/**
 * Creates the processor that `createChunkWorker` runs; pass it to a BullMQ `Worker` of your own to run chunkstream
 * jobs beside other work: `new Worker(queueName, createChunkProcessor({ outDir, workerId, inputRoots, lockDuration }), opts)`.
 */
export function createChunkProcessor(options: ChunkProcessorOptions): ChunkProcessor {
  const { outDir, workerId } = options;
  const roots = resolveInputRoots(options.inputRoots ?? []);
  const lockMs = options.lockDuration ?? DEFAULT_LOCK_MS;
  // Three declared parameters: BullMQ passes the abort signal only to processors that take one.
  return async function processChunkJob(job: ChunkJobLike, token?: string, signal?: AbortSignal): Promise<ChunkJobResult> {
    const data = readData(job, roots);
    const target = join(outDir, data.output);
    const run = jobRun(job);
    let output: Promise<JobOutput> | undefined;
    let source: JobInput | undefined;
    try {
      source = data.path !== undefined ? await openNamed(data, roots) : await copyInline(data);
      if (run) await removeStaleTemps(target, run);
      // The output file opens while the input is parsed: one wait on the disk fewer per job.
      output = openJobOutput(target, run);
      output.catch(() => {});
      const report = await chunkInto(source.input, data, output, target, signal);
      const confirmLock = async (): Promise<boolean> => token === undefined || job.extendLock === undefined || (await job.extendLock(token, lockMs)) === 1;
      // A file without chunks still gets its (empty) output: one file per input.
      await publish(await output, target, confirmLock);
      return jobResult(data, report, workerId);
    } catch (error) {
      await output?.then((file) => file.discard()).catch(() => {});
      // Only a stop asked for through the signal hands the job back; an AbortError of a stream torn down by a
      // failure is that failure.
      if (!signal?.aborted) throw error;
      // Stopped mid-job: give the job back now rather than after its lock expires. If that fails (the lock is
      // already gone), the stalled-job check returns it all the same.
      if (token !== undefined && job.moveToWait) await job.moveToWait(token).catch(() => {});
      throw new WaitingError();
    } finally {
      await source?.cleanup().catch(() => {});
    }
  };
}
