/**
 * The process-wide pools of worker threads that parse Markdown batches for `parse({ workers })`: one pool per
 * thread count, created on first use and shared by every stream that asks for that count.
 *
 * Built on piscina rather than raw `worker_threads`: it already does what a pool needs and is easy to get
 * subtly wrong — a task queue shared by concurrent streams, replacing a thread that crashed and failing only its
 * task, unref'ing idle threads so they never keep the process alive, and letting idle threads exit after a
 * timeout. Ordering and the bounded window of batches in flight are per stream and live in `parse()`.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Piscina } from 'piscina';
import type { MarkdownBatch } from './batcher.js';
import { ChunkError, toChunkError, type ChunkErrorCode } from '../../errors.js';
import type { Block } from '../../types.js';
import type { MarkdownWorkerReply } from './worker.js';

/** Most threads `workers: 'auto'` uses: past this, the calling thread (decoding, batching, cloning) is the limit. */
const AUTO_MAX_THREADS = 4;
/** Idle threads exit after this long, so a finished run leaves no thread behind. */
const IDLE_TIMEOUT_MS = 2000;

/** Fewest cores on which `workers: 'auto'` starts threads. */
const AUTO_MIN_CORES = 3;

/**
 * Thread count for `workers: 'auto'`: every core but the calling thread's, and none below three cores. V8's
 * collector threads already use a second core, so on two cores a parse thread is no faster than parsing inline
 * and holds a heap of its own (`bench/parse.ts` compares the two).
 */
export function autoWorkerCount(): number {
  const cores = availableParallelism();
  return cores < AUTO_MIN_CORES ? 0 : Math.min(AUTO_MAX_THREADS, cores - 1);
}

/** A stream's use of a pool: submit batches, then release it. */
export interface MarkdownPoolLease {
  /** Threads of the pool. */
  readonly threads: number;
  /** Parses one batch on a worker thread; the blocks equal `parseBatch(batch)`. */
  parse(batch: MarkdownBatch): Promise<Block[]>;
  /** Ends this lease; idempotent. */
  release(): void;
}

/** Counters of the pools of this process, for tests and benches. */
export interface MarkdownPoolStats {
  /** Pools created so far. */
  readonly pools: number;
  /** Leases not yet released. */
  readonly leases: number;
  /** Batches submitted and not yet settled. */
  readonly inFlight: number;
  /** Most batches ever in flight at once (reset by `resetMarkdownPoolStats`). */
  readonly peakInFlight: number;
  /** Batches submitted. */
  readonly submitted: number;
  /** Batches whose blocks were parsed on a thread other than the main thread. */
  readonly parsedInWorkers: number;
}

const pools = new Map<number, Piscina>();
const stats = { pools: 0, leases: 0, inFlight: 0, peakInFlight: 0, submitted: 0, parsedInWorkers: 0 };

/** A snapshot of the pool counters. */
export function markdownPoolStats(): MarkdownPoolStats {
  return { ...stats };
}

/** Resets the peak and the totals (not the live counts). */
export function resetMarkdownPoolStats(): void {
  stats.peakInFlight = stats.inFlight;
  stats.submitted = 0;
  stats.parsedInWorkers = 0;
}

/** Stops every pool's threads now (they would exit on their own once idle). */
export async function destroyMarkdownPools(): Promise<void> {
  const all = [...pools.values()];
  pools.clear();
  await Promise.all(all.map((pool) => pool.destroy()));
}

/**
 * Where the worker code is. From `dist/` it is the compiled `markdown-worker.js` beside this file. From the
 * TypeScript source (tests, `tsx` scripts) only `markdown-worker.ts` exists, and a worker thread does not inherit
 * the loader that lets the calling thread run TypeScript, so the thread gets tsx (a development dependency) itself.
 */
function workerTarget(): { filename: string; execArgv?: string[] } {
  const js = new URL('./worker.js', import.meta.url);
  if (existsSync(fileURLToPath(js))) return { filename: js.href };
  const ts = new URL('./worker.ts', import.meta.url);
  // Under the tsx command the inherited flags already load it.
  if (process.execArgv.some((arg) => arg.includes('tsx'))) return { filename: ts.href };
  const loader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  return { filename: ts.href, execArgv: [...process.execArgv, '--import', loader] };
}

/**
 * piscina, required on first use: it is 16 modules that a process parsing inline (`workers: 0`, and 'auto' below
 * three cores) never needs, and `import 'chunkstream'` loaded them at every start.
 */
function piscina(): typeof Piscina {
  return (createRequire(import.meta.url)('piscina') as { Piscina: typeof Piscina }).Piscina;
}

function poolOf(threads: number): Piscina {
  let pool = pools.get(threads);
  if (pool === undefined) {
    const Pool = piscina();
    pool = new Pool({
      ...workerTarget(),
      minThreads: 0,
      maxThreads: threads,
      idleTimeout: IDLE_TIMEOUT_MS,
      // V8's default heap limits: a smaller young generation saves memory per thread but makes a thread parse
      // slower (more scavenges of live batches), and throughput is what the pool is for.
    });
    pools.set(threads, pool);
    stats.pools++;
  }
  return pool;
}

/** Takes a lease on the shared pool of `threads` threads, creating it on first use. */
export function acquireMarkdownPool(threads: number): MarkdownPoolLease {
  const pool = poolOf(threads);
  let released = false;
  stats.leases++;
  return {
    threads,
    async parse(batch) {
      stats.submitted++;
      stats.inFlight++;
      if (stats.inFlight > stats.peakInFlight) stats.peakInFlight = stats.inFlight;
      let reply: MarkdownWorkerReply;
      try {
        reply = (await pool.run(batch)) as MarkdownWorkerReply;
      } catch (error) {
        throw toChunkError(error, 'ERR_INTERNAL', { offset: batch.offset, line: batch.line });
      } finally {
        stats.inFlight--;
      }
      if (!reply.ok) {
        throw new ChunkError(reply.code as ChunkErrorCode, reply.message, { offset: batch.offset, line: batch.line });
      }
      if (reply.threadId !== 0) stats.parsedInWorkers++;
      for (const block of reply.blocks) {
        (block as { text: string }).text = batch.text.slice(block.start - batch.offset, block.end - batch.offset);
      }
      return reply.blocks;
    },
    release() {
      if (released) return;
      released = true;
      stats.leases--;
    },
  };
}
