/**
 * The job processor: one job, one file, chunked by the command line's own per-file path (`processFile`), so a
 * worker writes byte for byte what `chunkstream FILE` prints. Its lines go to `OUT/<output>` under a temporary
 * name, renamed into place when the file is done; then the job completes with the file's figures. A failure
 * becomes a failed job whose reason starts with the error's code; codes a retry cannot fix are marked
 * unrecoverable, so BullMQ does not spend the job's attempts on them.
 */
import { type FileHandle, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UnrecoverableError, WaitingError } from 'bullmq';
import { isChunkError } from '../../errors.js';
import { writeText } from '../../files/output.js';
import { DEFAULT_BATCH_CHARS, describeError, processFile, type FileError, type OpenedInput } from '../../files/process-file.js';
import type { InputFile } from '../../files/inputs.js';
import { formatFailedReason, isFinalErrorCode } from './failure.js';
import { openConfined, resolveInputRoots } from './input-roots.js';
import { readJobData, type ChunkJobResult, type ReadJobData } from './job-data.js';
import { openJobOutput, removeStaleTemps, type JobOutput } from './job-output.js';

/** What the processor needs of a BullMQ job (a `Job` has it all). */
export interface ChunkJobLike {
  readonly id?: string | undefined;
  readonly data: unknown;
  /** Which run of the job this is (BullMQ's `Job.attemptsStarted`: retries and recoveries count). */
  readonly attemptsStarted?: number;
  /** Hands the job back to the queue (BullMQ's `Job.moveToWait`); used when the worker is stopped mid-job. */
  moveToWait?(token?: string): Promise<unknown>;
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
}

/** A BullMQ processor: `(job, token, signal)` → the job's result. Aborting `signal` hands the job back. */
export type ChunkProcessor = (job: ChunkJobLike, token?: string, signal?: AbortSignal) => Promise<ChunkJobResult>;

/** The error a failed file ends its job with: `CODE message`, unrecoverable when a retry cannot help. */
export function jobError(error: FileError): Error {
  const reason = formatFailedReason(error.code, error.message);
  return isFinalErrorCode(error.code) ? new UnrecoverableError(reason) : new Error(reason);
}

function isAbort(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError';
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

/**
 * Creates the processor that `createChunkWorker` runs; pass it to a BullMQ `Worker` of your own to run chunkstream
 * jobs beside other work: `new Worker(queueName, createChunkProcessor({ outDir, workerId }), opts)`.
 */
export function createChunkProcessor(options: ChunkProcessorOptions): ChunkProcessor {
  const { outDir, workerId } = options;
  const roots = resolveInputRoots(options.inputRoots ?? []);
  // Three declared parameters: BullMQ passes the abort signal only to processors that take one.
  return async function processChunkJob(job: ChunkJobLike, token?: string, signal?: AbortSignal): Promise<ChunkJobResult> {
    let data: ReadJobData;
    try {
      data = readJobData(job.data);
    } catch (error) {
      if (isChunkError(error)) throw jobError({ code: error.code, message: error.message });
      throw error;
    }
    const target = join(outDir, data.output);
    const cannotWrite = (error: unknown): Error => jobError({ code: 'ERR_WRITE', message: `Cannot write ${target}: ${(error as Error).message}` });
    let opening: Promise<JobOutput> | undefined;
    let writeFailure: unknown;
    let source: JobInput | undefined;
    try {
      source = data.path !== undefined ? await openNamed(data, roots) : await copyInline(data);
      const run = job.id !== undefined && Number.isInteger(job.attemptsStarted) && (job.attemptsStarted as number) > 0 ? { jobId: job.id, run: job.attemptsStarted as number } : undefined;
      if (run) await removeStaleTemps(target, run);
      // The output file opens while the input is opened and parsed: one wait on the disk fewer per job.
      opening = openJobOutput(target, run);
      opening.catch(() => {});
      const output = opening;
      const { input } = source;
      const config = { chunkOptions: data.chunkOptions, parseOptions: data.parseOptions, batchChars: DEFAULT_BATCH_CHARS };
      const result = await processFile(
        input,
        config,
        async (batch) => {
          try {
            await writeText((await output).stream, batch.lines);
          } catch (error) {
            writeFailure = error;
            throw error;
          }
        },
        signal,
      );
      if (writeFailure !== undefined) throw cannotWrite(writeFailure);
      if (result.error) throw jobError(result.error);
      try {
        // A file without chunks still gets its (empty) output: one file per input.
        await (await output).commit();
      } catch (error) {
        throw cannotWrite(error);
      }
      const r = result.report;
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
      };
    } catch (error) {
      await opening?.then((file) => file.discard()).catch(() => {});
      if (!isAbort(error) && !signal?.aborted) throw error;
      // Stopped mid-job: give the job back now rather than after its lock expires. If that fails (the lock is
      // already gone), the stalled-job check returns it all the same.
      if (token !== undefined && job.moveToWait) await job.moveToWait(token).catch(() => {});
      throw new WaitingError();
    } finally {
      await source?.cleanup().catch(() => {});
    }
  };
}
