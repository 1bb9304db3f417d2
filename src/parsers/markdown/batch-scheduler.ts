/**
 * Where Markdown batches are parsed: inline, or on the shared worker pool (`pool.ts`), with their blocks handed on
 * in document order whatever order the threads finish in. `createMarkdownStreamCore` is the Markdown reader of
 * `parse()`: bytes in, blocks out, the blocks of a pool's batches as they are parsed.
 *
 * Batching stays on the calling thread (the cut points never depend on workers); only the parse of each batch
 * moves. At most `IN_FLIGHT_PER_THREAD` batches per thread are in flight, so a slow consumer holds the writer
 * back instead of letting batches pile up. With `workers: 'auto'`, the first batches are held (a bounded amount)
 * until it is clear whether the input is large enough for the pool: parsing them inline would grow this thread's
 * heap for nothing once the pool takes over.
 */
import type { ParseConfig } from '../../config.js';
import { pushAll, type StageCore, type StageOutput } from '../../core.js';
import type { Block } from '../../types.js';
import type { MarkdownBatch } from './batcher.js';
import { createGapTracker, createMarkdownBatchCore, parseBatch } from './parse.js';
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

/** Parses batches in order, inline or on the pool. */
export interface BatchScheduler {
  /**
   * Parses `batches` and gives their blocks in document order: at once when they were parsed inline (or held
   * back), else as the pool parses them, the last ones once the pool has room for the next write; with `final`,
   * every batch in flight is waited for.
   */
  parse(batches: MarkdownBatch[], final: boolean): StageOutput<Block>;
  /** Gives the pool lease back (idempotent). */
  release(): void;
}

/** The state of one scheduler: the pool it leases, and the batches in flight on it, oldest first. */
interface PoolState {
  lease: MarkdownPoolLease | null;
  pending: PendingBatch[];
}

/** Creates the scheduler of one parse stream. */
export function createBatchScheduler(config: ParseConfig): BatchScheduler {
  const threads = config.workers === 'auto' ? autoWorkerCount() : config.workers;
  /** Whitespace since the last block, carried across batches (blocks carry it as `gapBefore`). */
  const gaps = createGapTracker();
  /** With `workers: 'auto'`, whether the pool is used (decided once enough is batched), and what waits for it. */
  const choice = { parallel: false, batched: 0, undecided: [] as MarkdownBatch[] };
  const pool: PoolState = { lease: null, pending: [] };

  const release = (): void => {
    pool.lease?.release();
    pool.lease = null;
  };

  /** The blocks of the settled batches at the head of the line; a failed one throws. */
  const takeSettled = (): Block[] => {
    const out: Block[] = [];
    for (let head = pool.pending[0]; head?.settled; head = pool.pending[0]) {
      pool.pending.shift();
      if (head.error !== undefined) throw head.error;
      pushAll(out, gaps.fill(head.batch, head.blocks));
    }
    return out;
  };

  /** Waits for the oldest batch in flight, then gives its blocks (and those of any settled batch behind it). */
  const takeHead = async (): Promise<Block[]> => {
    await (pool.pending[0] as PendingBatch).done;
    return takeSettled();
  };

  async function* dispatch(batches: MarkdownBatch[], final: boolean): AsyncGenerator<Block> {
    const to = (pool.lease ??= acquireMarkdownPool(threads));
    const window = IN_FLIGHT_PER_THREAD * to.threads;
    try {
      for (const batch of batches) {
        while (pool.pending.length >= window) yield* await takeHead();
        pool.pending.push(submit(to, batch));
      }
      if (!final) return yield* takeSettled();
      while (pool.pending.length > 0) yield* await takeHead();
      release();
    } catch (error) {
      // Batches still in flight settle on their own; nothing of them is handed on after the error.
      pool.pending = [];
      release();
      throw error;
    }
  }

  return {
    parse(batches, final) {
      if (!choice.parallel && threads > 0) {
        if (config.workers !== 'auto') {
          choice.parallel = true;
        } else {
          for (const batch of batches) choice.batched += batch.text.length;
          choice.undecided.push(...batches);
          if (choice.batched <= AUTO_POOL_AFTER && !final) return [];
          choice.parallel = choice.batched > AUTO_POOL_AFTER;
          batches = choice.undecided;
          choice.undecided = [];
        }
      }
      if (choice.parallel) return dispatch(batches, final);
      // One batch (a piece of 8 KiB of a file read makes one or none): its own list of blocks, not a copy.
      if (batches.length === 1) return gaps.fill(batches[0] as MarkdownBatch, parseBatch(batches[0] as MarkdownBatch));
      const out: Block[] = [];
      for (const batch of batches) pushAll(out, gaps.fill(batch, parseBatch(batch)));
      return out;
    },
    release,
  };
}

/** Hands `batch` to the pool; the entry settles (never rejects) with its blocks or its error. */
function submit(to: MarkdownPoolLease, batch: MarkdownBatch): PendingBatch {
  const entry: PendingBatch = { batch, done: Promise.resolve(), settled: false, blocks: [], error: undefined };
  entry.done = to.parse(batch).then(
    (blocks) => {
      entry.blocks = blocks;
      entry.settled = true;
    },
    (error: unknown) => {
      entry.error = error;
      entry.settled = true;
    },
  );
  return entry;
}

/** Bytes decoded and batched at a time (see `createMarkdownStreamCore`). */
const PIECE_BYTES = 8 * 1024;

/** A write cut into pieces of at most {@link PIECE_BYTES} bytes; strings are already on the heap and stay whole. */
function piecesOf(input: string | Uint8Array): (string | Uint8Array)[] {
  if (typeof input === 'string' || input.length <= PIECE_BYTES) return [input];
  const pieces: Uint8Array[] = [];
  for (let start = 0; start < input.length; start += PIECE_BYTES) pieces.push(input.subarray(start, start + PIECE_BYTES));
  return pieces;
}

/**
 * The Markdown reader of `parse()`: bytes or strings in, blocks out, parsed inline or on the shared pool
 * (`workers`). A write is decoded and batched a piece at a time, each piece's batches parsed before the next piece
 * is decoded: no string of the whole read stays alive while all its batches are parsed, so V8 does not promote it
 * (and what points into it) to the old generation. With the pool, the next piece waits until it has room.
 */
export function createMarkdownStreamCore(config: ParseConfig): StageCore<string | Uint8Array, Block> {
  const batcher = createMarkdownBatchCore(config);
  const scheduler = createBatchScheduler(config);

  /** The blocks of `first`, then of the pieces from `from` on: once the pool has taken batches, pieces wait for it. */
  async function* later(first: StageOutput<Block>, pieces: readonly (string | Uint8Array)[], from: number): AsyncGenerator<Block> {
    yield* first;
    for (let index = from; index < pieces.length; index++) yield* scheduler.parse(batcher.write(pieces[index] as string | Uint8Array), false);
  }

  return {
    write(input) {
      const pieces = piecesOf(input);
      const out: Block[] = [];
      for (let index = 0; index < pieces.length; index++) {
        let blocks: StageOutput<Block>;
        try {
          blocks = scheduler.parse(batcher.write(pieces[index] as string | Uint8Array), false);
        } catch (error) {
          // The blocks of the pieces before the failing one are handed on first, as a stream of small writes would.
          if (out.length === 0) throw error;
          return thenFail(out, error);
        }
        if (!isReady(blocks)) return later(out.length === 0 ? blocks : concat(out, blocks), pieces, index + 1);
        pushAll(out, blocks);
      }
      return out;
    },
    end: () => scheduler.parse(batcher.end(), true),
    close: () => scheduler.release(),
  };
}

/** True when the blocks are given at once (parsed inline), not as the pool parses them. */
function isReady(blocks: StageOutput<Block>): blocks is readonly Block[] {
  return Array.isArray(blocks);
}

/** The items of `first`, then `error`. */
async function* thenFail<T>(first: readonly T[], error: unknown): AsyncGenerator<T> {
  yield* first;
  throw error;
}

/** The items of `first`, then those of `rest`. */
async function* concat<T>(first: readonly T[], rest: AsyncIterable<T>): AsyncGenerator<T> {
  yield* first;
  yield* rest;
}
