/**
 * Runs files on `jobs` threads: this one, and `jobs - 1` worker threads of a piscina pool (a maintained pool with
 * task cancellation and clean teardown). Standard input, which cannot be handed to a worker, runs here too.
 *
 * Why this thread takes files too: every thread that chunks pays the same start-up once, loading the library and
 * warming V8 up on it (compiling the hot functions, the token counts of the first words seen), about a second of
 * CPU on two cores. A main thread that only wrote the workers' bytes stayed idle most of the run while a second
 * worker paid all that again: `--jobs 2` on 256 files cost half as much CPU again as `--jobs 1` and ran no faster.
 */
import { MessageChannel } from 'node:worker_threads';
import { Piscina } from 'piscina';
import type { InputFile } from '../files/inputs.js';
import { describeError, processFile, type FileBatch, type FileResult, type ProcessConfig } from '../files/process-file.js';
import type { PortMessage, WorkerTask } from './worker.js';

/** Receives one file's batches in order; the next batch waits until the returned promise settles. */
export type BatchHandler = (batch: FileBatch) => Promise<void>;

/** Runs one file at a time per call; calls may overlap up to the runner's parallelism. */
export interface FileRunner {
  /** Resolves with the file's result (errors included); rejects only with an `AbortError`. */
  run(input: InputFile, onBatch: BatchHandler): Promise<FileResult>;
  /**
   * True when a file started now would begin at once or right after the one a thread is running: the caller
   * starts files only then, so that no thread has a queue of files while another runs out of work.
   */
  ready(): boolean;
  close(): Promise<void>;
}

function emptyResult(input: InputFile, error: unknown): FileResult {
  return {
    report: { source: input.source, documents: 0, chunks: 0, totalSize: 0, minSize: 0, maxSize: 0, oversized: 0, undersized: 0, pages: 0, bytes: 0, timeMs: 0 },
    error: describeError(error),
  };
}

/**
 * Files this thread runs at once when it is the only one chunking (`--jobs 1`). A PDF's pages come from its sandbox
 * process, and this thread waits for each of them: a second file keeps it busy meanwhile (`bench/cli.ts` runs the
 * corpus, PDFs and Markdown); two Markdown files at once take as long as one after the other. Beside worker threads
 * this thread keeps to one file, so that a file it would take second goes to a worker that may be idle.
 */
const FILES_AT_ONCE_ALONE = 2;

/** Runs files on this thread, up to `filesAtOnce` at once, each started when it is given. */
export function createInlineRunner(config: ProcessConfig, signal: AbortSignal, filesAtOnce = 1): FileRunner {
  let running = 0;
  return {
    run(input, onBatch) {
      running++;
      return processFile(input, config, onBatch, signal).finally(() => running--);
    },
    ready: () => running < filesAtOnce,
    close: async () => {},
  };
}

/** Runs files on `threads` worker threads; aborting `signal` ends the running tasks (their threads are terminated). */
export function createWorkerRunner(threads: number, config: ProcessConfig, signal: AbortSignal): FileRunner {
  const pool = new Piscina({
    filename: new URL('./worker.js', import.meta.url).href,
    minThreads: threads,
    maxThreads: threads,
    // The pool lives as long as the run; threads need not idle out.
    idleTimeout: 60_000,
  });
  let running = 0;
  return {
    run(input, onBatch) {
      running++;
      return runOnPool(pool, input, config, onBatch, signal).finally(() => running--);
    },
    // One file waiting per thread: a thread that finishes takes the next at once, without a round trip to this
    // thread, which may be busy chunking a file of its own.
    ready: () => running < 2 * threads,
    close: () => pool.destroy(),
  };
}

function runOnPool(pool: Piscina, input: InputFile, config: ProcessConfig, onBatch: BatchHandler, signal: AbortSignal): Promise<FileResult> {
  const { port1, port2 } = new MessageChannel();
  return new Promise<FileResult>((resolve, reject) => {
    let done = false;
    const finish = (f: () => void): void => {
      if (done) return;
      done = true;
      port1.close();
      f();
    };
    // Batches are handled strictly one after the other: the acknowledgement of one is the permit for more.
    let chain = Promise.resolve();
    port1.on('message', (message: PortMessage) => {
      chain = chain
        .then(async () => {
          if (done) return;
          if (message.type === 'batch') {
            await onBatch(message.batch);
            if (!done) port1.postMessage(0);
          } else {
            finish(() => resolve(message.result));
          }
        })
        .catch((error: unknown) => finish(() => reject(error)));
    });
    const task: WorkerTask = { input, config, port: port2 };
    pool.run(task, { transferList: [port2], signal }).catch((error: unknown) => {
      if ((error as Error)?.name === 'AbortError' || signal.aborted) finish(() => reject(error));
      // A worker that died (out of memory, a crash in a dependency) fails its file, not the run.
      else finish(() => resolve(emptyResult(input, error)));
    });
  });
}

/**
 * `jobs` threads: this one and, when `workers` is true and `jobs` > 1, `jobs - 1` worker threads. A file goes to
 * this thread when it has room (standard input always, beside the file it runs), else to the pool.
 */
export function createFileRunner(jobs: number, config: ProcessConfig, signal: AbortSignal, workers: boolean): FileRunner {
  const pool = workers && jobs > 1 ? createWorkerRunner(jobs - 1, config, signal) : undefined;
  const inline = createInlineRunner(config, signal, pool === undefined ? FILES_AT_ONCE_ALONE : 1);
  return {
    run: (input, onBatch) => (pool === undefined || input.path === '-' || inline.ready() ? inline : pool).run(input, onBatch),
    ready: () => inline.ready() || pool?.ready() === true,
    close: async () => pool?.close(),
  };
}
