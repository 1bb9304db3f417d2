/**
 * The worker-thread side of the file pool: runs `processFile` for one input and streams its JSON lines back over a
 * MessagePort, each batch's bytes transferred (not copied) to the main thread, which only writes them. At most
 * `WINDOW` batches may wait for the main thread's acknowledgement; beyond that the worker stops reading its file,
 * so a huge file streams through in bounded memory on both sides.
 */
import type { MessagePort } from 'node:worker_threads';
import type { InputFile } from '../files/inputs.js';
import { processFile, type FileBatch, type FileResult, type ProcessConfig } from '../files/process-file.js';

/** Batches a worker may send before it waits for an acknowledgement. */
export const WINDOW = 4;

/** What the main thread sends to run one file. */
export interface WorkerTask {
  readonly input: InputFile;
  readonly config: ProcessConfig;
  /** The worker's end of the channel; the main thread acknowledges each batch on it. */
  readonly port: MessagePort;
}

/** What a worker sends on its port: batches in order, then the result. */
export type PortMessage = { readonly type: 'batch'; readonly batch: FileBatch } | { readonly type: 'end'; readonly result: FileResult };

/** Runs one file (the pool's task function). */
export default async function runFileTask({ input, config, port }: WorkerTask): Promise<void> {
  let unacknowledged = 0;
  let wake: (() => void) | null = null;
  port.on('message', () => {
    unacknowledged--;
    const w = wake;
    wake = null;
    w?.();
  });
  try {
    const result = await processFile(input, config, async (batch) => {
      // processFile gives each batch an ArrayBuffer of its own, so it can move to the main thread.
      port.postMessage({ type: 'batch', batch } satisfies PortMessage, [batch.bytes.buffer as ArrayBuffer]);
      unacknowledged++;
      while (unacknowledged >= WINDOW) await new Promise<void>((resolve) => (wake = resolve));
    });
    // The result travels on the same port as the batches, so it cannot overtake them.
    port.postMessage({ type: 'end', result } satisfies PortMessage);
  } finally {
    port.close();
  }
}
