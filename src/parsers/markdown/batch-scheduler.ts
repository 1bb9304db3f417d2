/**
 * Where Markdown batches are parsed: inline, or on the shared worker pool (`pool.ts`), with their blocks handed on
 * in document order whatever order the threads finish in.
 *
 * Batching stays on the calling thread (the cut points never depend on workers); only the parse of each batch
 * moves. At most `IN_FLIGHT_PER_THREAD` batches per thread are in flight, so a slow consumer holds the writer
 * back instead of letting batches pile up. With `workers: 'auto'`, the first batches are held (a bounded amount)
 * until it is clear whether the input is large enough for the pool: parsing them inline would grow this thread's
 * heap for nothing once the pool takes over.
 */
import type { ParseConfig } from '../../config.js';
import type { Block } from '../../types.js';
import type { MarkdownBatch } from './batcher.js';
import { createGapTracker, parseBatch } from './parse.js';
import { acquireMarkdownPool, autoWorkerCount, type MarkdownPoolLease } from './pool.js';

/**
 * With `workers: 'auto'`, Markdown goes to the pool once this much text (UTF-16 units, some sixteen default batches)
 * has been batched; an input that ends before is parsed inline: starting threads and loading remark in them
 * costs more than it saves.
 */
const AUTO_POOL_AFTER = 256 * 1024;
/** Batches in flight per pool thread: enough to keep every thread busy while the calling thread emits results. */
const IN_FLIGHT_PER_THREAD = 2;

/** A batch handed to the pool, in submission order. */
interface PendingBatch {
  /** Resolves (never rejects) once the batch is settled. */
  done: Promise<void>;
  settled: boolean;
  batch: MarkdownBatch;
  blocks: Block[];
  error: unknown;
}

/** Where the scheduler hands blocks, and how it learns that the consumer is gone. */
export interface BlockSink {
  push(blocks: Block[]): void;
  /** True once nothing more should be parsed (the stream was destroyed). */
  stopped(): boolean;
}

/** Parses batches in order, inline or on the pool. */
export interface BatchScheduler {
  /**
   * Parses `batches` and hands their blocks on in document order; with `final`, waits for every batch in flight.
   * Returns null when all is done already (parsed inline, or held back), else a promise that settles once the pool
   * has room for the next write.
   */
  parse(batches: MarkdownBatch[], final: boolean): Promise<void> | null;
  /** Gives the pool lease back (idempotent). */
  release(): void;
}

/** Creates the scheduler of one parse stream. */
export function createBatchScheduler(config: ParseConfig, sink: BlockSink): BatchScheduler {
  const threads = config.workers === 'auto' ? autoWorkerCount() : config.workers;
  /** Whitespace since the last block, carried across batches (blocks carry it as `gapBefore`). */
  const gaps = createGapTracker();
  /** True once batches go to the pool; they keep going there so that blocks come out in order. */
  let parallel = false;
  /** With `workers: 'auto'`: text batched so far, and the batches held until the choice is made. */
  let batched = 0;
  let undecided: MarkdownBatch[] = [];
  let lease: MarkdownPoolLease | null = null;
  /** Batches in flight on the pool, oldest first; their blocks are handed on in this order. */
  let pending: PendingBatch[] = [];

  const release = (): void => {
    lease?.release();
    lease = null;
  };

  /** Hands on the blocks of the settled batches at the head of the line; a failed one throws when `raise` is set. */
  const emitSettled = (raise: boolean): void => {
    for (let head = pending[0]; head?.settled; head = pending[0]) {
      if (head.error !== undefined) {
        if (!raise) return;
        pending.shift();
        throw head.error;
      }
      pending.shift();
      sink.push(gaps.fill(head.batch, head.blocks));
    }
  };

  /** Waits for the oldest batch in flight and hands on its blocks (and those of any settled batch behind it). */
  const emitHead = async (): Promise<void> => {
    await (pending[0] as PendingBatch).done;
    emitSettled(true);
  };

  const submit = (to: MarkdownPoolLease, batch: MarkdownBatch): void => {
    const entry: PendingBatch = { batch, done: Promise.resolve(), settled: false, blocks: [], error: undefined };
    pending.push(entry);
    entry.done = to.parse(batch).then(
      (blocks) => {
        entry.blocks = blocks;
        entry.settled = true;
        // Results are handed on as soon as they are next in line, not only when the writer writes again.
        emitSettled(false);
      },
      (error: unknown) => {
        entry.error = error;
        entry.settled = true;
      },
    );
  };

  const dispatch = async (batches: MarkdownBatch[], final: boolean): Promise<void> => {
    const to = (lease ??= acquireMarkdownPool(threads));
    const window = IN_FLIGHT_PER_THREAD * to.threads;
    for (const batch of batches) {
      while (pending.length >= window) await emitHead();
      // Stopped while waiting (aborted, or the consumer went away): submit nothing more.
      if (sink.stopped()) return;
      submit(to, batch);
    }
    if (final) {
      while (pending.length > 0) await emitHead();
      release();
    } else {
      emitSettled(true);
    }
  };

  return {
    parse(batches, final) {
      if (!parallel && threads > 0) {
        if (config.workers !== 'auto') {
          parallel = true;
        } else {
          for (const batch of batches) batched += batch.text.length;
          undecided.push(...batches);
          if (batched <= AUTO_POOL_AFTER && !final) return null;
          parallel = batched > AUTO_POOL_AFTER;
          batches = undecided;
          undecided = [];
        }
      }
      if (!parallel) {
        for (const batch of batches) sink.push(gaps.fill(batch, parseBatch(batch)));
        return null;
      }
      return dispatch(batches, final).catch((error: unknown) => {
        // Batches still in flight settle on their own; nothing of them is handed on after the error.
        pending = [];
        release();
        throw error;
      });
    },
    release,
  };
}
