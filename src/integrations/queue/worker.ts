/**
 * `createChunkWorker`: a BullMQ worker that runs chunkstream's job processor. It adds nothing to BullMQ's
 * scheduling: locks, stalled-job recovery (a worker that dies loses its jobs to the others once their locks
 * lapse), retries and backoff are BullMQ's, set from the options. What it adds is what it may read (its input
 * roots), how to stop (finish the jobs in progress, or hand them back at once), a check of Redis's settings at
 * start, when the queue is finished (or was lost: `queue-watch.ts`), and the figures of what this worker did.
 */
import { Queue, WaitingError, Worker, type Job } from 'bullmq';
import { bullOptions } from './connection.js';
import type { ChunkJobData, ChunkJobResult } from './job-data.js';
import { normalizeWorkerOptions, type ChunkWorkerConfig, type ChunkWorkerOptions } from './options.js';
import { resolveInputRoots } from './input-roots.js';
import { checkRedisSettings, type RedisSettings } from './redis-check.js';
import { recordKey, type RecordClient } from './queue-record.js';
import { createQueueWatch } from './queue-watch.js';
import { createChunkProcessor } from './processor.js';

/** What one worker has done since it started. */
export interface ChunkWorkerFigures {
  /** Jobs completed here. */
  readonly completed: number;
  /** Jobs that failed here for good. */
  readonly failed: number;
  /** Attempts that failed here and went back for a retry. */
  readonly retried: number;
  /** Jobs handed back to the queue unfinished by `close({ handBack: true })`. */
  readonly handedBack: number;
  /** Chunks and input bytes of the completed jobs. */
  readonly chunks: number;
  readonly bytes: number;
  /** Time spent chunking completed jobs, in milliseconds (their `timeMs`, added). */
  readonly chunkingMs: number;
}

/** Something about a worker's settings or its Redis that an operator should know, said once at start. */
export interface ChunkWorkerWarning {
  /**
   * `INLINE_ONLY`: no input roots, so jobs naming a file will fail. From the check of Redis's settings:
   * `REDIS_EVICTION` (a `maxmemory-policy` other than `noeviction`), `REDIS_NO_AOF` (no append-only file: a restart
   * loses the jobs), `REDIS_UNCHECKED` (`INFO` refused).
   */
  readonly code: string;
  readonly message: string;
}

/** What a worker found when it started. */
export interface ChunkWorkerStart {
  /** Real paths of the input roots (links resolved); empty when the worker reads inline documents only. */
  readonly inputRoots: readonly string[];
  /** Redis's settings as `INFO` gave them; undefined when it refused. */
  readonly redis: RedisSettings | undefined;
  readonly warnings: readonly ChunkWorkerWarning[];
}

/** A running worker. */
export interface ChunkWorker {
  /** The BullMQ worker, for its events (`active`, `completed`, `failed`, `error`, `stalled`, …). */
  readonly worker: Worker<ChunkJobData, ChunkJobResult>;
  readonly config: ChunkWorkerConfig;
  /** Real paths of the input roots, resolved at creation. */
  readonly inputRoots: readonly string[];
  /** Resolves once the worker is connected and taking jobs, with what it found when it started. */
  ready(): Promise<ChunkWorkerStart>;
  /** What this worker has done so far. */
  figures(): ChunkWorkerFigures;
  /**
   * Resolves once the queue is finished: nothing waiting, running or waiting for a retry, here or on any other
   * worker. Checked every `pollMs`. A job whose worker died still counts as running until its lock lapses and a
   * worker takes it back, so this waits for recovered jobs too. Rejects with `ERR_QUEUE_LOST` when Redis lost the
   * queue's jobs while this worker ran (the queue's record it saw is gone): an empty queue is then not a done one.
   */
  untilQueueDone(pollMs?: number): Promise<void>;
  /**
   * Stops taking jobs. By default the jobs in progress are finished first; with `handBack`, they are stopped and
   * returned to the queue at once for another worker. Idempotent.
   */
  close(options?: { handBack?: boolean }): Promise<void>;
}

/** The warning of a worker without input roots. */
function inlineOnly(): ChunkWorkerWarning {
  return { code: 'INLINE_ONLY', message: 'no input roots: this worker reads inline documents only, and a job that names a file fails with ERR_INPUT_OUTSIDE_ROOTS (give inputRoots, or --input-root DIR)' };
}

/** Counts the jobs `worker` ends into `figures`. */
function countJobs(worker: Worker<ChunkJobData, ChunkJobResult>, figures: MutableFigures): void {
  worker.on('completed', (_job: Job, result: ChunkJobResult) => {
    figures.completed++;
    figures.chunks += result.chunks;
    figures.bytes += result.bytes;
    figures.chunkingMs += result.timeMs;
  });
  worker.on('failed', (job: Job | undefined) => {
    // A final failure sets finishedOn; an attempt that goes back for a retry does not.
    if (job?.finishedOn) figures.failed++;
    else figures.retried++;
  });
}

/** Figures a worker counts as its jobs end. */
type MutableFigures = { -readonly [K in keyof ChunkWorkerFigures]: number };

/** What a running worker holds: BullMQ's worker, the watch on its queue, and what closing it needs. */
interface WorkerState {
  readonly config: ChunkWorkerConfig;
  readonly worker: Worker<ChunkJobData, ChunkJobResult>;
  readonly watch: ReturnType<typeof createQueueWatch>;
  /** Aborted to hand back every job in progress. */
  readonly handingBack: AbortController;
  /** A queue handle that reads the job counts, opened by the first `untilQueueDone`. */
  observer: Queue | undefined;
  closing: Promise<void> | undefined;
}

/**
 * Creates a worker on the queue and starts it. Throws `ERR_INVALID_OPTION` for a bad option (an input root that
 * is not a folder included), `ERR_MISSING_DEPENDENCY` when `ioredis` is not installed.
 */
export function createChunkWorker(options: ChunkWorkerOptions): ChunkWorker {
  const config = normalizeWorkerOptions(options);
  const inputRoots = resolveInputRoots(config.inputRoots);
  const runJob = createChunkProcessor({ outDir: config.outDir, workerId: config.workerId, inputRoots, lockDuration: config.lockDuration });
  const figures: MutableFigures = { completed: 0, failed: 0, retried: 0, handedBack: 0, chunks: 0, bytes: 0, chunkingMs: 0 };
  // Aborted to hand back every job in progress. BullMQ's own cancelAllJobs would miss a job taken but not yet
  // started (its 'active' event comes first), so each run listens to this too.
  const handingBack = new AbortController();
  // Three declared parameters: BullMQ passes the abort signal only to processors that take one.
  const processor = async (job: Job<ChunkJobData, ChunkJobResult>, token?: string, signal?: AbortSignal): Promise<ChunkJobResult> => {
    try {
      return await runJob(job, token, signal ? AbortSignal.any([signal, handingBack.signal]) : handingBack.signal);
    } catch (error) {
      if (error instanceof WaitingError) figures.handedBack++;
      throw error;
    }
  };
  const worker = startBullWorker(config, processor);
  const client = (): Promise<RecordClient> => worker.getBackend().client;
  const watch = createQueueWatch(config.queue, client, recordKey(worker.toKey));
  // After each reconnection: a Redis that came back empty lost the queue. Said through BullMQ's 'error' event, once.
  worker.getBackend().on('ready', () => void watch.check().catch((error: unknown) => worker.emit('error', error as Error)));
  countJobs(worker, figures);
  const state: WorkerState = { config, worker, watch, handingBack, observer: undefined, closing: undefined };
  return {
    worker,
    config,
    inputRoots,
    ready: async () => {
      await worker.waitUntilReady();
      const { settings, warnings } = await checkRedisSettings(await worker.getBackend().client);
      await watch.check().catch(() => {});
      return { inputRoots, redis: settings, warnings: [...(inputRoots.length === 0 ? [inlineOnly()] : []), ...warnings] };
    },
    figures: () => ({ ...figures }),
    untilQueueDone: (pollMs = 500) => untilQueueDone(state, pollMs),
    close: ({ handBack = false } = {}) => closeWorker(state, handBack),
  };
}

/** BullMQ's worker over the processor, with the worker's settings, started. */
function startBullWorker(config: ChunkWorkerConfig, processor: (job: Job<ChunkJobData, ChunkJobResult>, token?: string, signal?: AbortSignal) => Promise<ChunkJobResult>): Worker<ChunkJobData, ChunkJobResult> {
  const worker = new Worker<ChunkJobData, ChunkJobResult>(config.queue, processor, {
    ...bullOptions(config, false),
    name: config.workerId,
    concurrency: config.concurrency,
    lockDuration: config.lockDuration,
    stalledInterval: config.stalledInterval,
    maxStalledCount: config.maxStalledCount,
  });
  // Without a listener an 'error' event (Redis gone for a while) would throw; BullMQ reconnects by itself.
  worker.on('error', () => {});
  return worker;
}

/** Resolves once the queue has nothing waiting, running or delayed; rejects with `ERR_QUEUE_LOST` when Redis lost it. */
async function untilQueueDone(state: WorkerState, pollMs: number): Promise<void> {
  if (state.observer === undefined) {
    state.observer = new Queue(state.config.queue, bullOptions(state.config, false));
    state.observer.on('error', () => {});
  }
  for (;;) {
    const c = await state.observer.getJobCounts('waiting', 'prioritized', 'waiting-children', 'active', 'delayed');
    // Read after the counts: a loss that emptied the queue shows here before the counts are trusted.
    await state.watch.check();
    const lost = state.watch.lost();
    if (lost !== undefined) throw lost;
    if (Object.values(c).every((n) => n === 0)) return;
    await drainedOrTimeout(state.worker, pollMs);
  }
}

/**
 * Resolves when this worker finds the queue empty, or after `pollMs`: a job of another worker (or one whose worker
 * died and that waits for its lock to lapse) ends without an event here.
 */
function drainedOrTimeout(worker: Worker<ChunkJobData, ChunkJobResult>, pollMs: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const wake = (): void => {
      clearTimeout(timer);
      worker.off('drained', wake);
      resolve();
    };
    const timer = setTimeout(wake, pollMs);
    worker.on('drained', wake);
  });
}

/** Closes the worker once (a second call gives the first one's promise), first handing back the jobs in progress if asked. */
function closeWorker(state: WorkerState, handBack: boolean): Promise<void> {
  // Each processor sees its signal abort, returns its job to the queue and ends with BullMQ's WaitingError.
  if (handBack && !state.handingBack.signal.aborted) state.handingBack.abort(new Error('worker stopped'));
  state.closing ??= (async () => {
    await state.worker.close();
    await state.observer?.close().catch(() => {});
  })();
  return state.closing;
}
