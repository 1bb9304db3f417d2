/**
 * A worker's watch over the queue's record (`queue-record.ts`): the epoch it saw, and whether it is still there.
 * A record that vanished (or came back with another epoch) means Redis lost the queue's jobs; the worker then says
 * so, once, rather than finding the queue empty and calling it done.
 */
import { ChunkError } from '../../errors.js';
import { readRecord, type QueueRecord, type RecordClient } from './queue-record.js';

/** The watch of one worker. */
export interface QueueWatch {
  /** Reads the record; rejects with `ERR_QUEUE_LOST` the first time it finds the epoch it saw gone or replaced. */
  check(): Promise<void>;
  /** The loss found so far, if any. */
  lost(): ChunkError | undefined;
}

/** The error of a lost queue, with what the record said before. */
function queueLost(queue: string, seen: QueueRecord, now: QueueRecord | undefined): ChunkError {
  const after = now === undefined ? 'is gone' : `was replaced by another (epoch ${now.epoch}, ${now.enqueued} job(s))`;
  return new ChunkError(
    'ERR_QUEUE_LOST',
    `Redis lost the jobs of queue ${queue}: its record of ${seen.enqueued} job(s) enqueued (epoch ${seen.epoch}) ${after}. Redis restarted without persistence, or its keys were flushed or evicted; jobs that were waiting or running are gone, and "chunkstream status --manifest FILE" lists them`,
  );
}

/** Watches the record at `key` through `client` (the worker's own connection). */
export function createQueueWatch(queue: string, client: () => Promise<RecordClient>, key: string): QueueWatch {
  const state: { seen: QueueRecord | undefined; lost: ChunkError | undefined; reading: Promise<void> | undefined } = { seen: undefined, lost: undefined, reading: undefined };
  const read = async (): Promise<void> => {
    const now = await readRecord(await client(), key);
    const seen = state.seen;
    // Counts grow as jobs are enqueued; only the epoch says whether it is the same queue.
    state.seen = now;
    if (seen === undefined || now?.epoch === seen.epoch) return;
    state.lost = queueLost(queue, seen, now);
    throw state.lost;
  };
  return {
    check() {
      // One read at a time: two overlapping reads would both see the change and report it twice.
      state.reading ??= read().finally(() => (state.reading = undefined));
      return state.reading;
    },
    lost: () => state.lost,
  };
}
