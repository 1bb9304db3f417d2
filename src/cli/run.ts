/**
 * A chunking run: expand the inputs, run files on `--jobs` threads (this one and worker threads, `pool.ts`), write
 * their lines in input order (or as they come with `--unordered`), report errors and figures, and leave `--out` in
 * place only when everything succeeded. Each thread parses, chunks and serializes its files; this thread receives
 * their JSON lines as UTF-8 bytes and only orders and writes them.
 *
 * Memory bound of ordered output: at most `lookahead` files (twice the jobs) are started ahead of the file being
 * written. Their batches are acknowledged on arrival (so their threads keep going) while the bytes waiting for
 * their turn stay under `ORDER_BUDGET` (16 MiB); past it, a thread gets its acknowledgement only once its batch is
 * written, and it stops after `WINDOW` (4) batches of about 64 KiB. Out-of-order lines held at once are therefore
 * bounded by `ORDER_BUDGET + 2 × jobs × 4 × 96 KiB` bytes, whatever the size of the files.
 */
import { writeFile } from 'node:fs/promises';
import { extname } from 'node:path';
import type { RunConfig } from './args.js';
import { expandInputs, type InputFile, type SkippedInput } from '../files/inputs.js';
import { dirOutput, fileOutput, stdoutOutput, type FileOutput, type RunOutput } from '../files/output.js';
import { createFileRunner, type FileRunner } from './pool.js';
import { DEFAULT_BATCH_BYTES, type FileBatch, type FileResult, type ProcessConfig } from '../files/process-file.js';
import { createProgress, type Progress } from './progress.js';
import { fileStatistics, formatTable, summarize, type FileStatistics } from './stats.js';
import { removeProcessSpools } from '../stream/spool.js';

/** Streams and terminal facts a run uses; tests and other front ends may pass their own. */
export interface RunEnvironment {
  readonly stdout: NodeJS.WritableStream & { destroyed?: boolean };
  readonly stderr: NodeJS.WriteStream;
  /** Aborted on Ctrl-C. */
  readonly signal: AbortSignal;
}

/** Bytes of out-of-order lines the writer accepts before it stops acknowledging batches early. */
export const ORDER_BUDGET = 16 * 1024 * 1024;

/** Exit codes of the command. */
export const EXIT = Object.freeze({ ok: 0, failed: 1, usage: 2, interrupted: 130 });

/** A minimal wake-up signal between the dispatcher, the workers' callbacks and the writer. */
function createNotifier(): { wait(): Promise<void>; notify(): void } {
  let waiters: (() => void)[] = [];
  return {
    wait: () => new Promise<void>((resolve) => waiters.push(resolve)),
    notify() {
      const w = waiters;
      waiters = [];
      for (const f of w) f();
    },
  };
}

/** One file in flight: batches waiting for their turn, and the result once known. */
interface Slot {
  readonly input: InputFile;
  readonly output: FileOutput;
  readonly queue: { batch: FileBatch; early: boolean; resolve(): void; reject(error: unknown): void }[];
  result: FileResult | undefined;
  /** Bytes already counted for progress (batches carry a running total). */
  bytesSeen: number;
}

async function openOutput(config: RunConfig, env: RunEnvironment): Promise<RunOutput> {
  if (config.out !== undefined) return fileOutput(config.out);
  if (config.outDir !== undefined) return dirOutput(config.outDir);
  return stdoutOutput(env.stdout as never);
}

/**
 * Notes about skipped inputs: one line each for inputs named on the command line and for folders with few skipped
 * files; a folder of thousands of files with hundreds of others gets one line with counts by extension instead.
 */
export function skipNotes(skipped: readonly SkippedInput[], perFolder = 3): string[] {
  const lines: string[] = [];
  const byFolder = new Map<string, SkippedInput[]>();
  for (const s of skipped) {
    if (s.folder === undefined) lines.push(`${s.source}: skipped, ${s.reason}`);
    else byFolder.set(s.folder, [...(byFolder.get(s.folder) ?? []), s]);
  }
  for (const [folder, list] of byFolder) {
    if (list.length <= perFolder) {
      for (const s of list) lines.push(`${s.source}: skipped, ${s.reason}`);
      continue;
    }
    const counts = new Map<string, number>();
    for (const s of list) {
      const ext = extname(s.source) || 'no extension';
      counts.set(ext, (counts.get(ext) ?? 0) + 1);
    }
    const detail = [...counts].sort((a, b) => b[1] - a[1]).map(([ext, n]) => `${ext} ${n}`).join(', ');
    lines.push(`${folder}: skipped ${list.length} files of unsupported types (${detail}); --stats-json lists them`);
  }
  return lines;
}

/** Runs the chunking command; resolves with the exit code. */
export async function runChunking(config: RunConfig, env: RunEnvironment): Promise<number> {
  const started = performance.now();
  const { files, skipped, missing } = await expandInputs(config.inputs, config.format);
  const progress: Progress = createProgress({
    enabled: !config.quiet && env.stderr.isTTY === true,
    files: files.length,
    totalBytes: files.reduce((n, f) => n + (f.bytes ?? 0), 0),
    stream: env.stderr,
  });
  if (!config.quiet) for (const line of skipNotes(skipped)) progress.log(line);

  const results: FileStatistics[] = [];
  let failed = 0;
  for (const m of missing) {
    progress.log(`${m.source}: ${m.code} ${m.message}`);
    results.push(fileStatistics({ source: m.source, documents: 0, chunks: 0, totalSize: 0, minSize: 0, maxSize: 0, oversized: 0, undersized: 0, pages: 0, bytes: 0, timeMs: 0 }, m));
    failed++;
  }

  const output = await openOutput(config, env);
  const stop = new AbortController();
  const onOuterAbort = (): void => stop.abort(env.signal.reason);
  env.signal.addEventListener('abort', onOuterAbort, { once: true });
  let outputBroken = false;
  const onStdoutError = (error: NodeJS.ErrnoException): void => {
    // A reader that went away (`| head`) ends the run quietly; anything else is reported.
    outputBroken = true;
    if (error.code !== 'EPIPE') progress.log(`chunkstream: ERR_WRITE ${error.message}`);
    stop.abort(error);
  };
  if (config.out === undefined && config.outDir === undefined) env.stdout.on('error', onStdoutError);

  const processConfig: ProcessConfig = { chunkOptions: config.chunkOptions, parseOptions: config.parseOptions, batchBytes: DEFAULT_BATCH_BYTES };
  // Worker threads only for files this thread would otherwise run after one another: one file, or standard input
  // alone, never starts a thread (loading the library a second time, in a fresh isolate, for nothing).
  const needsPool = files.filter((f) => f.path !== '-').length > 1;
  const runner: FileRunner = createFileRunner(Math.min(config.jobs, files.length), processConfig, stop.signal, needsPool);
  // A thread terminated on Ctrl-C leaves the copy of the PDF it was reading; this thread removes it as it exits.
  if (needsPool && config.jobs > 1) process.once('exit', removeProcessSpools);

  const ordered = output.shared && !config.unordered;
  const lookahead = config.jobs * 2;
  const slots: (Slot | undefined)[] = new Array(files.length);
  const fileResults: (FileStatistics | undefined)[] = new Array(files.length);
  const changed = createNotifier();
  let head = 0;
  let inFlight = 0;
  /** Lines acknowledged early and not yet written. */
  let buffered = 0;
  stop.signal.addEventListener(
    'abort',
    () => {
      // Batches still waiting for their turn will never be written: release their senders.
      for (const slot of slots) for (const item of slot?.queue.splice(0) ?? []) item.reject(stop.signal.reason);
      changed.notify();
    },
    { once: true },
  );

  // A missing input is a failure like any other: with --fail-fast nothing else starts.
  if (config.failFast && failed > 0) stop.abort(new Error('fail-fast'));
  // A write waiting for a slow reader must not hold up a run that is stopping.
  const stopped$ = new Promise<void>((resolve) => stop.signal.addEventListener('abort', () => resolve(), { once: true }));
  const untilStopped = (p: Promise<void>): Promise<void> => {
    // Once the run has moved on, a late failure of this write has no one left to tell.
    p.catch(() => {});
    return Promise.race([p, stopped$]);
  };

  const count = (slot: Slot, batch: FileBatch): void => {
    progress.advance(Math.max(0, batch.bytesRead - slot.bytesSeen), batch.chunks);
    slot.bytesSeen = Math.max(slot.bytesSeen, batch.bytesRead);
  };

  const settle = async (index: number, slot: Slot, result: FileResult): Promise<void> => {
    const ok = result.error === undefined;
    await slot.output.end(ok);
    progress.advance(Math.max(0, result.report.bytes - slot.bytesSeen), 0);
    fileResults[index] = fileStatistics(result.report, result.error);
    progress.fileDone();
    if (!ok) {
      failed++;
      progress.log(`${slot.input.source}: ${result.error!.code} ${result.error!.message}`);
      if (config.failFast) stop.abort(new Error('fail-fast'));
    }
  };

  const onBatch = (slot: Slot) => async (batch: FileBatch): Promise<void> => {
    if (!ordered) {
      await untilStopped(slot.output.write(batch.bytes));
      count(slot, batch);
      return;
    }
    await new Promise<void>((resolve, reject) => {
      const early = buffered + batch.bytes.length <= ORDER_BUDGET;
      if (early) buffered += batch.bytes.length;
      slot.queue.push({ batch, early, resolve, reject });
      if (early) resolve();
      changed.notify();
    });
  };

  // Ordered writer: drains the slot at `head` batch by batch, then moves on.
  const writer = async (): Promise<void> => {
    while (head < files.length && !stop.signal.aborted) {
      const slot = slots[head];
      if (slot === undefined) {
        await changed.wait();
        continue;
      }
      const item = slot.queue.shift();
      if (item) {
        try {
          await untilStopped(slot.output.write(item.batch.bytes));
          if (stop.signal.aborted) break;
          count(slot, item.batch);
          if (item.early) buffered -= item.batch.bytes.length;
          else item.resolve();
        } catch (error) {
          item.reject(error);
          stop.abort(error);
        }
        continue;
      }
      if (slot.result) {
        await settle(head, slot, slot.result);
        slots[head] = undefined;
        head++;
        changed.notify();
        continue;
      }
      await changed.wait();
    }
  };

  const dispatcher = async (): Promise<void> => {
    const running: Promise<void>[] = [];
    for (let i = 0; i < files.length; i++) {
      while (!stop.signal.aborted && ((ordered ? i >= head + lookahead : inFlight >= lookahead) || !runner.ready())) await changed.wait();
      if (stop.signal.aborted) break;
      const input = files[i] as InputFile;
      const slot: Slot = { input, output: output.open(input), queue: [], result: undefined, bytesSeen: 0 };
      slots[i] = slot;
      inFlight++;
      changed.notify();
      running.push(
        runner.run(input, onBatch(slot)).then(
          async (result) => {
            inFlight--;
            if (ordered) slot.result = result;
            else await settle(i, slot, result);
            changed.notify();
          },
          async (error: unknown) => {
            inFlight--;
            // Only an abort rejects: the run is stopping; drop what this file's own destination holds.
            await slot.output.end(false).catch(() => {});
            if (!stop.signal.aborted) stop.abort(error);
            changed.notify();
          },
        ),
      );
    }
    await Promise.all(running);
  };

  try {
    await Promise.all([dispatcher(), ordered ? writer() : Promise.resolve()]);
  } finally {
    await runner.close().catch(() => {});
    env.signal.removeEventListener('abort', onOuterAbort);
    env.stdout.off('error', onStdoutError);
    progress.stop();
  }

  const interrupted = env.signal.aborted;
  const stopped = stop.signal.aborted;
  // Inputs were named but none was something to chunk (an image, a binary): that is no success to report.
  const nothingRead = files.length === 0 && missing.length === 0 && skipped.length > 0;
  const commit = !stopped && failed === 0 && !nothingRead;
  await output.finish(commit);
  if (config.out !== undefined && !commit && !config.quiet) {
    env.stderr.write(`chunkstream: ${config.out} not written: ${interrupted ? 'interrupted' : `${failed} input(s) failed`}\n`);
  }

  const all = [...results, ...fileResults.filter((r): r is FileStatistics => r !== undefined)];
  const stats = summarize(all, skipped, config.jobs, performance.now() - started);
  if (config.stats) env.stderr.write(formatTable(stats));
  if (config.statsJson !== undefined) await writeFile(config.statsJson, JSON.stringify(stats, null, 2) + '\n');

  if (interrupted) return EXIT.interrupted;
  if (nothingRead) {
    env.stderr.write(`chunkstream: nothing to chunk: ${skipped.length === 1 ? 'the input was' : `all ${skipped.length} inputs were`} skipped\n`);
    return EXIT.failed;
  }
  if (failed > 0) return EXIT.failed;
  if (stopped && !outputBroken) return EXIT.failed;
  return EXIT.ok;
}
