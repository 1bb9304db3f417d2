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
import { expandInputs, type ExpandedInputs, type InputFile, type SkippedInput } from '../files/inputs.js';
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
interface Notifier {
  wait(): Promise<void>;
  notify(): void;
}

/** A notifier with no one waiting yet. */
function createNotifier(): Notifier {
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

/** What a run holds while its files go through: the inputs, where their lines go, and how far each has come. */
interface Run {
  readonly config: RunConfig;
  readonly files: readonly InputFile[];
  readonly output: RunOutput;
  readonly progress: Progress;
  readonly runner: FileRunner;
  /** Aborted when the run stops early: Ctrl-C, `--fail-fast`, a broken output. */
  readonly stop: AbortController;
  /** Resolves once `stop` is aborted. */
  readonly stopped: Promise<void>;
  /** Whether lines are written in input order (a shared output without `--unordered`). */
  readonly ordered: boolean;
  /** How many files may be started ahead of the one being written (or at once, unordered). */
  readonly lookahead: number;
  readonly slots: (Slot | undefined)[];
  readonly fileResults: (FileStatistics | undefined)[];
  readonly changed: Notifier;
  /** The file whose lines are written next (ordered output). */
  head: number;
  inFlight: number;
  /** Bytes of lines acknowledged early and not yet written. */
  buffered: number;
  failed: number;
  /** The standard output's reader went away or it failed. */
  outputBroken: boolean;
}

/** Runs the chunking command; resolves with the exit code. */
export async function runChunking(config: RunConfig, env: RunEnvironment): Promise<number> {
  const started = performance.now();
  const inputs = await expandInputs(config.inputs, config.format);
  const progress = openProgress(config, env, inputs);
  const missing = missingResults(inputs.missing, progress);
  const run = startRun(config, inputs.files, await openOutput(config, env), progress);
  run.failed = missing.length;
  const detach = attachToEnvironment(run, env);
  // A missing input is a failure like any other: with --fail-fast nothing else starts.
  if (config.failFast && run.failed > 0) run.stop.abort(new Error('fail-fast'));
  try {
    await Promise.all([dispatchFiles(run), run.ordered ? writeInOrder(run) : Promise.resolve()]);
  } finally {
    await run.runner.close().catch(() => {});
    detach();
    progress.stop();
  }
  const end: RunEnd = {
    interrupted: env.signal.aborted,
    stopped: run.stop.signal.aborted,
    // Inputs were named but none was something to chunk (an image, a binary): that is no success to report.
    skippedOnly: inputs.files.length === 0 && inputs.missing.length === 0 ? inputs.skipped.length : 0,
  };
  await commitOutput(run, env, end);
  const all = [...missing, ...run.fileResults.filter((r): r is FileStatistics => r !== undefined)];
  await writeStatistics(config, env, summarize(all, inputs.skipped, config.jobs, performance.now() - started));
  return exitCode(run, env, end);
}

/** How a run ended, read once its files are done. */
interface RunEnd {
  /** Ctrl-C. */
  readonly interrupted: boolean;
  /** The run stopped early (Ctrl-C, `--fail-fast`, a broken output). */
  readonly stopped: boolean;
  /** How many inputs were skipped when nothing else was named (nothing to chunk), else 0. */
  readonly skippedOnly: number;
}

/** The progress display of a run over these inputs, with the notes about skipped ones written to it. */
function openProgress(config: RunConfig, env: RunEnvironment, inputs: ExpandedInputs): Progress {
  const progress: Progress = createProgress({
    enabled: !config.quiet && env.stderr.isTTY === true,
    files: inputs.files.length,
    totalBytes: inputs.files.reduce((n, f) => n + (f.bytes ?? 0), 0),
    stream: env.stderr,
  });
  if (!config.quiet) for (const line of skipNotes(inputs.skipped)) progress.log(line);
  return progress;
}

/** The figures of inputs that were named but could not be read, each reported as it failed. */
function missingResults(missing: ExpandedInputs['missing'], progress: Progress): FileStatistics[] {
  return missing.map((m) => {
    progress.log(`${m.source}: ${m.code} ${m.message}`);
    const figures = { source: m.source, documents: 0, chunks: 0, totalSize: 0, minSize: 0, maxSize: 0, oversized: 0, undersized: 0, pages: 0, bytes: 0, timeMs: 0 };
    return fileStatistics(figures, m);
  });
}

/** A run over these files, its threads started and nothing dispatched yet. */
function startRun(config: RunConfig, files: readonly InputFile[], output: RunOutput, progress: Progress): Run {
  const stop = new AbortController();
  const processConfig: ProcessConfig = { chunkOptions: config.chunkOptions, parseOptions: config.parseOptions, batchBytes: DEFAULT_BATCH_BYTES };
  // Worker threads only for files this thread would otherwise run after one another: one file, or standard input
  // alone, never starts a thread (loading the library a second time, in a fresh isolate, for nothing).
  const needsPool = files.filter((f) => f.path !== '-').length > 1;
  const runner = createFileRunner(Math.min(config.jobs, files.length), processConfig, stop.signal, needsPool);
  // A thread terminated on Ctrl-C leaves the copy of the PDF it was reading; this thread removes it as it exits.
  if (needsPool && config.jobs > 1) process.once('exit', removeProcessSpools);
  const run: Run = {
    config,
    files,
    output,
    progress,
    runner,
    stop,
    stopped: new Promise<void>((resolve) => stop.signal.addEventListener('abort', () => resolve(), { once: true })),
    ordered: output.shared && !config.unordered,
    lookahead: config.jobs * 2,
    slots: new Array(files.length),
    fileResults: new Array(files.length),
    changed: createNotifier(),
    head: 0,
    inFlight: 0,
    buffered: 0,
    failed: 0,
    outputBroken: false,
  };
  stop.signal.addEventListener('abort', () => releaseWaitingBatches(run), { once: true });
  return run;
}

/** Batches still waiting for their turn will never be written once the run stops: their senders are released. */
function releaseWaitingBatches(run: Run): void {
  for (const slot of run.slots) for (const item of slot?.queue.splice(0) ?? []) item.reject(run.stop.signal.reason);
  run.changed.notify();
}

/** Stops the run on Ctrl-C and on a failing standard output; returns what takes the listeners off again. */
function attachToEnvironment(run: Run, env: RunEnvironment): () => void {
  const onOuterAbort = (): void => run.stop.abort(env.signal.reason);
  env.signal.addEventListener('abort', onOuterAbort, { once: true });
  const onStdoutError = (error: NodeJS.ErrnoException): void => {
    // A reader that went away (`| head`) ends the run quietly; anything else is reported.
    run.outputBroken = true;
    if (error.code !== 'EPIPE') run.progress.log(`chunkstream: ERR_WRITE ${error.message}`);
    run.stop.abort(error);
  };
  if (run.config.out === undefined && run.config.outDir === undefined) env.stdout.on('error', onStdoutError);
  return () => {
    env.signal.removeEventListener('abort', onOuterAbort);
    env.stdout.off('error', onStdoutError);
  };
}

/** A write that gives up waiting once the run stops: a write waiting for a slow reader must not hold up a run that is stopping. */
function untilStopped(run: Run, write: Promise<void>): Promise<void> {
  // Once the run has moved on, a late failure of this write has no one left to tell.
  write.catch(() => {});
  return Promise.race([write, run.stopped]);
}

/** Counts a written batch's bytes and chunks in the progress display. */
function countBatch(run: Run, slot: Slot, batch: FileBatch): void {
  run.progress.advance(Math.max(0, batch.bytesRead - slot.bytesSeen), batch.chunks);
  slot.bytesSeen = Math.max(slot.bytesSeen, batch.bytesRead);
}

/** Closes a finished file's destination, keeps its figures and reports its error (stopping the run with `--fail-fast`). */
async function settleFile(run: Run, index: number, slot: Slot, result: FileResult): Promise<void> {
  const ok = result.error === undefined;
  await slot.output.end(ok);
  run.progress.advance(Math.max(0, result.report.bytes - slot.bytesSeen), 0);
  run.fileResults[index] = fileStatistics(result.report, result.error);
  run.progress.fileDone();
  // As chunkFile's statistics say them: a Latin-1 file read with U+FFFD in its chunks is not silently a success.
  if (!run.config.quiet) for (const w of result.report.warnings ?? []) run.progress.log(`${slot.input.source}: warning: ${w}`);
  if (!ok) {
    run.failed++;
    run.progress.log(`${slot.input.source}: ${result.error!.code} ${result.error!.message}`);
    if (run.config.failFast) run.stop.abort(new Error('fail-fast'));
  }
}

/**
 * Takes a batch of a file's lines: written at once when unordered; queued for the ordered writer otherwise,
 * acknowledged on arrival while the bytes waiting stay under `ORDER_BUDGET`, and once written past it.
 */
async function acceptBatch(run: Run, slot: Slot, batch: FileBatch): Promise<void> {
  if (!run.ordered) {
    await untilStopped(run, slot.output.write(batch.bytes));
    countBatch(run, slot, batch);
    return;
  }
  await new Promise<void>((resolve, reject) => {
    const early = run.buffered + batch.bytes.length <= ORDER_BUDGET;
    if (early) run.buffered += batch.bytes.length;
    slot.queue.push({ batch, early, resolve, reject });
    if (early) resolve();
    run.changed.notify();
  });
}

/** The ordered writer: drains the slot at `head` batch by batch, settles its file, then moves on. */
async function writeInOrder(run: Run): Promise<void> {
  while (run.head < run.files.length && !run.stop.signal.aborted) {
    const slot = run.slots[run.head];
    if (slot === undefined) await run.changed.wait();
    else if (slot.queue.length > 0) await writeQueued(run, slot);
    else if (slot.result) await settleHead(run, slot, slot.result);
    else await run.changed.wait();
  }
}

/** Writes the first batch queued in a slot and releases its sender (a failed write stops the run). */
async function writeQueued(run: Run, slot: Slot): Promise<void> {
  const item = slot.queue.shift()!;
  try {
    await untilStopped(run, slot.output.write(item.batch.bytes));
    if (run.stop.signal.aborted) return;
    countBatch(run, slot, item.batch);
    if (item.early) run.buffered -= item.batch.bytes.length;
    else item.resolve();
  } catch (error) {
    item.reject(error);
    run.stop.abort(error);
  }
}

/** Settles the file at `head`, all its lines written, and moves `head` to the next. */
async function settleHead(run: Run, slot: Slot, result: FileResult): Promise<void> {
  await settleFile(run, run.head, slot, result);
  run.slots[run.head] = undefined;
  run.head++;
  run.changed.notify();
}

/** Starts the files one after another, each once the lookahead and the runner have room, until all ran or the run stopped. */
async function dispatchFiles(run: Run): Promise<void> {
  const running: Promise<void>[] = [];
  for (let i = 0; i < run.files.length; i++) {
    while (!run.stop.signal.aborted && (!hasRoomFor(run, i) || !run.runner.ready())) await run.changed.wait();
    if (run.stop.signal.aborted) break;
    running.push(startFile(run, i));
  }
  await Promise.all(running);
}

/** Whether file `index` may start: within `lookahead` of the file being written, or of the files in flight. */
function hasRoomFor(run: Run, index: number): boolean {
  return run.ordered ? index < run.head + run.lookahead : run.inFlight < run.lookahead;
}

/** Starts file `index` on the runner; resolves once it is done (settled, or its result handed to the ordered writer). */
function startFile(run: Run, index: number): Promise<void> {
  const input = run.files[index] as InputFile;
  const slot: Slot = { input, output: run.output.open(input), queue: [], result: undefined, bytesSeen: 0 };
  run.slots[index] = slot;
  run.inFlight++;
  run.changed.notify();
  return run.runner.run(input, (batch) => acceptBatch(run, slot, batch)).then(
    async (result) => {
      run.inFlight--;
      if (run.ordered) slot.result = result;
      else await settleFile(run, index, slot, result);
      run.changed.notify();
    },
    async (error: unknown) => {
      run.inFlight--;
      // Only an abort rejects: the run is stopping; drop what this file's own destination holds.
      await slot.output.end(false).catch(() => {});
      if (!run.stop.signal.aborted) run.stop.abort(error);
      run.changed.notify();
    },
  );
}

/** Keeps `--out` (or the files of `--out-dir`) when the run succeeded, and says why it was not written otherwise. */
async function commitOutput(run: Run, env: RunEnvironment, end: RunEnd): Promise<void> {
  const commit = !end.stopped && run.failed === 0 && end.skippedOnly === 0;
  await run.output.finish(commit);
  const { out, quiet } = run.config;
  if (out !== undefined && !commit && !quiet) {
    env.stderr.write(`chunkstream: ${out} not written: ${end.interrupted ? 'interrupted' : `${run.failed} input(s) failed`}\n`);
  }
}

/** Writes the run's figures where `--stats` and `--stats-json` ask. */
async function writeStatistics(config: RunConfig, env: RunEnvironment, stats: ReturnType<typeof summarize>): Promise<void> {
  if (config.stats) env.stderr.write(formatTable(stats));
  if (config.statsJson !== undefined) await writeFile(config.statsJson, JSON.stringify(stats, null, 2) + '\n');
}

/** The exit code of a finished run, with the line that says nothing was chunked when so. */
function exitCode(run: Run, env: RunEnvironment, end: RunEnd): number {
  if (end.interrupted) return EXIT.interrupted;
  const skipped = end.skippedOnly;
  if (skipped > 0) {
    env.stderr.write(`chunkstream: nothing to chunk: ${skipped === 1 ? 'the input was' : `all ${skipped} inputs were`} skipped\n`);
    return EXIT.failed;
  }
  if (run.failed > 0) return EXIT.failed;
  if (end.stopped && !run.outputBroken) return EXIT.failed;
  return EXIT.ok;
}
