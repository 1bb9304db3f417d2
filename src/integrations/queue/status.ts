/**
 * `getQueueStatus`: how many jobs wait, run, wait for a retry, are done and have failed, which files failed
 * with which code, and, given the jobs that were enqueued, which of them Redis no longer holds. The queue is finished (`done`) when nothing waits, runs or waits for a retry: then every job
 * has completed (its output file is in place) or failed for good.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Queue } from 'bullmq';
import { openQueue } from './connection.js';
import { parseFailedReason } from './failure.js';
import { normalizeStatusOptions, type ExpectedJob, type QueueStatusOptions } from './options.js';
import { missingKeys, readRecord, recordKey, type QueueRecord } from './queue-record.js';

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

/** A job that was enqueued and that Redis no longer holds. */
export interface VanishedJob extends ExpectedJob {
  /** With `outDir`: true when its output file is in place (an output in place is complete), false when not. */
  readonly outputInPlace?: boolean;
}

/** What `getQueueStatus` reports. */
export interface QueueStatus {
  readonly queue: string;
  readonly counts: QueueCounts;
  /** True when nothing waits, runs or waits for a retry, and no job of `jobs` vanished. */
  readonly done: boolean;
  /** Failed jobs, newest first, at most `failedLimit`. */
  readonly failed: readonly FailedJob[];
  /** The queue's record (`queue-record.ts`): undefined when nothing was enqueued, or Redis lost the queue. */
  readonly record: QueueRecord | undefined;
  /** With `jobs`: those Redis no longer holds, in their order. Empty without `jobs`. */
  readonly vanished: readonly VanishedJob[];
}

/** The jobs of `expected` that Redis no longer holds, marked with whether their output is in place. */
async function vanishedJobs(queue: Queue, expected: readonly ExpectedJob[], outDir: string | undefined): Promise<VanishedJob[]> {
  const client = await queue.getBackend().client;
  const byKey = new Map(expected.map((job) => [queue.toKey(job.id), job]));
  const missing = new Set(await missingKeys(client, [...byKey.keys()]));
  const out: VanishedJob[] = [];
  for (const [key, job] of byKey) {
    if (!missing.has(key)) continue;
    out.push(outDir === undefined ? { ...job } : { ...job, outputInPlace: existsSync(join(outDir, job.output)) });
  }
  return out;
}

/**
 * Reads the queue's counts and failed jobs, and with `jobs` which of them vanished. Rejects with
 * `ERR_QUEUE_UNAVAILABLE` when Redis does not answer.
 */
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
    const record = await readRecord(await queue.getBackend().client, recordKey(queue.toKey));
    const vanished = config.jobs === undefined ? [] : await vanishedJobs(queue, config.jobs, config.outDir);
    const done = counts.waiting + counts.active + counts.delayed === 0 && vanished.length === 0;
    return { queue: config.queue, counts, done, failed, record, vanished };
  } finally {
    await queue.close().catch(() => {});
  }
}
