/**
 * BullMQ connections from a normalized config. A worker keeps reconnecting for as long as it runs (BullMQ's own
 * policy: a Redis restart must not end a fleet of workers), while a one-shot call (`enqueueFiles`, the status)
 * gives up after a few seconds with `ERR_QUEUE_UNAVAILABLE` instead of waiting forever on a server that is not there.
 */
import { createRequire } from 'node:module';
import { Queue, type ConnectionOptions } from 'bullmq';
import { ChunkError } from '../../errors.js';
import type { QueueConnectionConfig } from './options.js';

/** Set once `ioredis` was found where BullMQ looks for it. */
let ioredisFound = false;

/**
 * Throws `ERR_MISSING_DEPENDENCY` when BullMQ cannot load `ioredis`. Since BullMQ 6, `ioredis` is an optional peer
 * dependency that BullMQ `require`s only when it is given connection options rather than a client; without it, the
 * failure would surface as an endless 'error' event, or as "Cannot reach Redis". Resolved from BullMQ's own folder,
 * as BullMQ resolves it.
 */
export function requireIoredis(): void {
  if (ioredisFound) return;
  try {
    const here = createRequire(import.meta.url);
    createRequire(here.resolve('bullmq')).resolve('ioredis');
    ioredisFound = true;
  } catch (error) {
    throw new ChunkError('ERR_MISSING_DEPENDENCY', 'chunkstream/queue connects to Redis through ioredis, an optional peer dependency of bullmq 6: npm install ioredis', { cause: error });
  }
}

/** How long a one-shot call keeps trying to reach Redis. */
const ONE_SHOT_RETRIES = 5;

/** The connection BullMQ is given. `oneShot` bounds the reconnection attempts of a URL connection. */
export function bullConnection(config: QueueConnectionConfig, oneShot: boolean): ConnectionOptions {
  if (config.connection !== undefined) return config.connection as ConnectionOptions;
  requireIoredis();
  const base = { url: config.redis as string };
  if (!oneShot) return base;
  return {
    ...base,
    connectTimeout: 5000,
    // ioredis ends the connection (and BullMQ's wait for it fails) once this returns null.
    retryStrategy: (times: number) => (times > ONE_SHOT_RETRIES ? null : Math.min(200 * times, 1000)),
  };
}

/** BullMQ's options shared by queues and workers: the connection and the key prefix. */
export function bullOptions(config: QueueConnectionConfig, oneShot: boolean): { connection: ConnectionOptions; prefix?: string } {
  return { connection: bullConnection(config, oneShot), ...(config.prefix === undefined ? {} : { prefix: config.prefix }) };
}

/** The coded error for a Redis that could not be reached. */
export function unavailable(config: QueueConnectionConfig, error: unknown): ChunkError {
  const reason = error instanceof Error && error.message !== '' ? error.message : String(error);
  return new ChunkError('ERR_QUEUE_UNAVAILABLE', `Cannot reach Redis at ${config.label}: ${reason}`, { cause: error });
}

/**
 * Opens the queue for a one-shot call and waits until Redis answers; rejects with `ERR_QUEUE_UNAVAILABLE`
 * (and closes the queue) when it does not.
 */
export async function openQueue(config: QueueConnectionConfig): Promise<Queue> {
  const queue = new Queue(config.queue, bullOptions(config, true));
  let lastError: unknown;
  // An 'error' event without a listener would throw; the last one explains a failed wait.
  queue.on('error', (error) => (lastError = error));
  try {
    await queue.waitUntilReady();
    return queue;
  } catch (error) {
    await queue.close().catch(() => {});
    throw unavailable(config, lastError ?? error);
  }
}
