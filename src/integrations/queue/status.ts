/**
 * `getQueueStatus`: how many jobs wait, run, wait for a retry, are done and have failed, and which files failed
 * with which code. The queue is finished (`done`) when nothing waits, runs or waits for a retry: then every job
 * has completed (its output file is in place) or failed for good.
 */
import { openQueue } from './connection.js';
import { parseFailedReason } from './failure.js';
import { normalizeStatusOptions, type QueueStatusOptions } from './options.js';

/** Job counts by state. */
export interface QueueCounts {
  /** Waiting to be taken (prioritized jobs, and since BullMQ 6 those of a paused queue, included). */
  readonly waiting: number;
  readonly active: number;
  /** Waiting for a retry after a failed attempt. */
  readonly delayed: number;
  readonly completed: number;
  readonly failed: number;
}

/** One failed job. */
export interface FailedJob {
  readonly id: string;
  readonly source: string;
  /** The `ChunkError` code, or undefined for a failure BullMQ itself recorded (a job whose workers kept dying). */
  readonly code: string | undefined;
  readonly message: string;
  readonly attemptsMade: number;
}

/** What `getQueueStatus` reports. */
export interface QueueStatus {
  readonly queue: string;
  readonly counts: QueueCounts;
  /** True when nothing waits, runs or waits for a retry. */
  readonly done: boolean;
  /** Failed jobs, newest first, at most `failedLimit`. */
  readonly failed: readonly FailedJob[];
}

/** Reads the queue's counts and failed jobs. Rejects with `ERR_QUEUE_UNAVAILABLE` when Redis does not answer. */
export async function getQueueStatus(options: QueueStatusOptions = {}): Promise<QueueStatus> {
  const config = normalizeStatusOptions(options);
  const { failedLimit } = config;
  const queue = await openQueue(config);
  try {
    const c = await queue.getJobCounts('waiting', 'prioritized', 'waiting-children', 'active', 'delayed', 'completed', 'failed');
    const counts: QueueCounts = {
      waiting: (c.waiting ?? 0) + (c.prioritized ?? 0) + (c['waiting-children'] ?? 0),
      active: c.active ?? 0,
      delayed: c.delayed ?? 0,
      completed: c.completed ?? 0,
      failed: c.failed ?? 0,
    };
    const jobs = failedLimit === 0 ? [] : await queue.getFailed(0, failedLimit - 1);
    const failed = jobs
      .filter((job) => job !== undefined && job !== null)
      .map((job) => {
        const { code, message } = parseFailedReason(job.failedReason);
        const data = job.data as { source?: unknown } | undefined;
        return { id: String(job.id), source: typeof data?.source === 'string' ? data.source : '', code, message, attemptsMade: job.attemptsMade };
      });
    return { queue: config.queue, counts, done: counts.waiting + counts.active + counts.delayed === 0, failed };
  } finally {
    await queue.close().catch(() => {});
  }
}
