/**
 * Runs files: on a piscina pool of worker threads (a maintained pool with task cancellation and clean teardown), or
 * on the main thread for standard input, which cannot be handed to a worker. Both give the same `FileRunner` shape.
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
  close(): Promise<void>;
}

function emptyResult(input: InputFile, error: unknown): FileResult {
  return {
    report: { source: input.source, documents: 0, chunks: 0, totalSize: 0, minSize: 0, maxSize: 0, oversized: 0, undersized: 0, pages: 0, bytes: 0, timeMs: 0 },
    error: describeError(error),
  };
}

/** Runs files on the main thread. */
export function createInlineRunner(config: ProcessConfig, signal: AbortSignal): FileRunner {
  return {
    run: (input, onBatch) => processFile(input, config, onBatch, signal),
    close: async () => {},
  };
}

/** Runs files on `jobs` worker threads; aborting `signal` ends the running tasks (their threads are terminated). */
export function createWorkerRunner(jobs: number, config: ProcessConfig, signal: AbortSignal): FileRunner {
  const pool = new Piscina({
    filename: new URL('./worker.js', import.meta.url).href,
    minThreads: jobs,
    maxThreads: jobs,
    // The pool lives as long as the run; threads need not idle out.
    idleTimeout: 60_000,
  });
  return {
    run(input, onBatch) {
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
    },
    close: () => pool.destroy(),
  };
}
