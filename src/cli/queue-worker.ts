/**
 * `chunkstream worker --out-dir DIR [--input-root DIR]... [--redis URL] [--queue NAME] [--concurrency N]`: takes
 * chunking jobs from the queue until stopped, writing `DIR/<input>.jsonl` for each, reading only files under its
 * input roots (inline documents only without one). One line per job event on stdout (`active`,
 * `completed`, `retry`, `failed`, then the job id and the input; `stalled` and the id of a job recovered from a
 * worker that died), Redis trouble on stderr.
 *
 * Stopping: the first SIGINT or SIGTERM stops taking jobs and finishes those in progress; a second hands them back
 * to the queue at once (exit 130); a third leaves immediately, and their locks lapse for another worker to take them.
 */
import { writeFile } from 'node:fs/promises';
import type { Job } from 'bullmq';
import { isChunkError } from '../errors.js';
import type { ChunkJobData, ChunkJobResult } from '../integrations/queue/job-data.js';
import type { ChunkWorkerOptions } from '../integrations/queue/options.js';
import type { ChunkWorker } from '../integrations/queue/worker.js';
import { peakRssBytes } from './peak-rss.js';
import { CONNECTION_FLAGS, connectionValues, flagHelp, INPUT_ROOT_FLAG, loadQueueModule, noPositionals, numberOrRaw, parseFlags, usageError, type QueueFlag, type QueueIo } from './queue-args.js';

const WORKER_FLAGS: readonly QueueFlag[] = [
  ...CONNECTION_FLAGS,
  { name: 'out-dir', type: 'string', arg: 'DIR', help: 'Folder the INPUT.jsonl files are written into (required)' },
  INPUT_ROOT_FLAG,
  { name: 'concurrency', type: 'string', arg: 'N', help: 'Jobs run at once by this process (default: 1; run one worker per core)' },
  { name: 'lock-duration', type: 'string', arg: 'MS', help: 'Lock of a running job; a dead worker loses its jobs after this (default: 30000)' },
  { name: 'stalled-interval', type: 'string', arg: 'MS', help: 'How often to look for jobs whose worker died (default: 30000)' },
  { name: 'max-stalled', type: 'string', arg: 'N', help: 'Times a job may lose its worker before it fails (default: 1)' },
  { name: 'worker-id', type: 'string', arg: 'TEXT', help: 'Name written into each job result (default: host:pid)' },
  { name: 'exit-when-drained', type: 'boolean', help: 'Exit once the queue has nothing waiting, running or delayed' },
  { name: 'stats-json', type: 'string', arg: 'FILE', help: "Write this worker's figures (jobs, chunking time, wall time, CPU, peak RSS) as JSON on exit" },
  { name: 'quiet', type: 'boolean', help: 'Print only failures' },
];

const HELP = [
  'Usage: chunkstream worker --out-dir DIR [--input-root DIR]... [--redis URL] [--queue NAME] [--concurrency N]',
  '',
  'Takes jobs added by `chunkstream enqueue` and chunks each file as `chunkstream FILE` would, writing DIR/INPUT.jsonl',
  '(under a temporary name, renamed once complete) and completing the job with its figures. A file that fails ends',
  'its job with the error code; invalid or encrypted PDFs and other errors a retry cannot fix are not retried.',
  'Run as many workers as you like, on as many machines, against one Redis.',
  '',
  'A worker reads the files jobs name only under its --input-root folders, compared by real path (a link out of one',
  'is refused): a job naming another file fails at once with ERR_INPUT_OUTSIDE_ROOTS. Without --input-root it reads',
  'only documents carried inside their jobs (enqueue --inline-below, standard input).',
  '',
  'Options:',
  ...flagHelp(WORKER_FLAGS),
  '',
  'Ctrl-C (or SIGTERM) once: finish the jobs in progress and exit 0. Twice: hand them back to the queue and exit 130.',
  'Exit codes: 0 stopped, 1 could not start (bullmq or ioredis missing) or, with --exit-when-drained, Redis lost the',
  "queue's jobs (ERR_QUEUE_LOST: it restarted without persistence), 2 bad usage, 130 jobs handed back.",
  '',
].join('\n');

/** Parses the arguments of `worker` into library options. Returns `'help'`; throws `ERR_INVALID_OPTION`. */
export function parseWorkerArgs(argv: readonly string[]): { options: ChunkWorkerOptions; drain: boolean; statsJson: string | undefined; quiet: boolean } | 'help' {
  const { values, positionals } = parseFlags(argv, WORKER_FLAGS);
  if (values.help) return 'help';
  noPositionals('worker', positionals);
  const numeric = { concurrency: 'concurrency', 'lock-duration': 'lockDuration', 'stalled-interval': 'stalledInterval', 'max-stalled': 'maxStalledCount' } as const;
  const options: Record<string, unknown> = { ...connectionValues(values), outDir: values['out-dir'] };
  for (const [flag, key] of Object.entries(numeric)) if (values[flag] !== undefined) options[key] = numberOrRaw(values[flag]);
  if (values['worker-id'] !== undefined) options.workerId = values['worker-id'];
  if (values['input-root'] !== undefined) options.inputRoots = values['input-root'];
  const statsJson = values['stats-json'] as string | undefined;
  return { options: options as unknown as ChunkWorkerOptions, drain: values['exit-when-drained'] === true, statsJson, quiet: values.quiet === true };
}

/** A job's name in the log: its id and input. */
function jobName(job: Job<ChunkJobData> | undefined): string {
  return `${job?.id ?? '?'} ${typeof job?.data?.source === 'string' ? job.data.source : '?'}`;
}

/** The arguments of `worker`, parsed. */
type WorkerArgs = Exclude<ReturnType<typeof parseWorkerArgs>, 'help'>;

/** What a running `worker` command keeps: when it started and what it has seen, for its log and its figures. */
interface WorkerSession {
  readonly started: number;
  /** When the last job ended, for --stats-json: the time after it is spent waiting for the queue to empty. */
  lastJobMs: number | undefined;
  /** When the worker could first reach Redis. */
  readyMs: number | undefined;
  /** The last error line written, so that a Redis that stays down is reported once. */
  lastError: string;
  /** SIGINT or SIGTERM received so far. */
  interrupts: number;
  /** The queue was lost (ERR_QUEUE_LOST) rather than drained. */
  lost: boolean;
}

/** Runs `chunkstream worker`; resolves with the exit code once the worker has stopped. */
export async function runWorker(argv: string[], io: QueueIo, signals: NodeJS.EventEmitter = process): Promise<number> {
  let args: ReturnType<typeof parseWorkerArgs>;
  try {
    args = parseWorkerArgs(argv);
    if (args !== 'help') {
      const { normalizeWorkerOptions } = await import('../integrations/queue/options.js');
      normalizeWorkerOptions(args.options);
    }
  } catch (error) {
    return usageError(io, 'worker', error);
  }
  if (args === 'help') {
    io.stdout.write(HELP);
    return 0;
  }
  const queueModule = await loadQueueModule().catch((error: unknown) => cannotStart(io, error));
  if (typeof queueModule === 'number') return queueModule;
  const session: WorkerSession = { started: performance.now(), lastJobMs: undefined, readyMs: undefined, lastError: '', interrupts: 0, lost: false };
  const cpuStart = process.cpuUsage();
  const chunkWorker = createWorkerOrExit(queueModule, args, io);
  if (typeof chunkWorker === 'number') return chunkWorker;
  logWorkerEvents(chunkWorker, io, session, args.quiet);
  await serveUntilStopped(chunkWorker, args, io, session, signals);
  await reportWorkerFigures(chunkWorker, args, io, session, process.cpuUsage(cpuStart));
  if (chunkWorker.figures().handedBack > 0 || session.interrupts >= 2) return 130;
  return session.lost ? 1 : 0;
}

/** The library's worker over these arguments, or the exit code when it cannot start (ioredis missing, a bad root). */
function createWorkerOrExit(queueModule: Awaited<ReturnType<typeof loadQueueModule>>, args: WorkerArgs, io: QueueIo): ChunkWorker | number {
  try {
    return queueModule.createChunkWorker(args.options);
  } catch (error) {
    // A root that is not a folder is a usage error; a missing ioredis is not.
    if (isChunkError(error, 'ERR_INVALID_OPTION')) return usageError(io, 'worker', error);
    return cannotStart(io, error);
  }
}

/** Says why the worker cannot start (a `ChunkError`: a missing peer dependency) and gives exit code 1; rethrows anything else. */
function cannotStart(io: QueueIo, error: unknown): number {
  if (!isChunkError(error)) throw error;
  io.stderr.write(`chunkstream worker: ${error.code} ${error.message}\n`);
  return 1;
}

/** Writes a line per job event on stdout (unless quiet) and Redis trouble on stderr, and notes when each job ended. */
function logWorkerEvents({ worker }: ChunkWorker, io: QueueIo, session: WorkerSession, quiet: boolean): void {
  const log = (line: string): void => void io.stdout.write(`${line}\n`);
  const jobEnded = (): void => void (session.lastJobMs = performance.now() - session.started);
  worker.on('completed', jobEnded);
  worker.on('failed', jobEnded);
  worker.on('active', (job: Job<ChunkJobData>) => quiet || log(`active ${jobName(job)}`));
  worker.on('completed', (job: Job<ChunkJobData>, result: ChunkJobResult) => quiet || log(`completed ${jobName(job)}: ${result.chunks} chunks, ${Math.round(result.timeMs)} ms`));
  worker.on('failed', (job: Job<ChunkJobData> | undefined, error: Error) => {
    const attempts = job?.opts.attempts ?? 1;
    if (job?.finishedOn) log(`failed ${jobName(job)}: ${error.message}`);
    else log(`retry ${jobName(job)}: ${error.message} (attempt ${job?.attemptsMade ?? '?'} of ${attempts})`);
  });
  // This worker found a job whose worker stopped renewing its lock, and put it back in the queue.
  worker.on('stalled', (jobId: string) => log(`stalled ${jobId} back in the queue: its worker stopped answering`));
  worker.on('error', (error: Error) => sayError(io, session, error));
  worker.on('ready', () => {
    session.lastError = '';
  });
}

/** Writes an error on stderr, unless it is the one written last: a Redis that is down repeats it on every reconnection attempt. */
function sayError(io: QueueIo, session: WorkerSession, error: Error): void {
  const line = isChunkError(error) ? `${error.code} ${error.message}` : error.message;
  if (line === session.lastError) return;
  session.lastError = line;
  io.stderr.write(`chunkstream worker: ${line}\n`);
}

/**
 * Takes jobs until the first SIGINT or SIGTERM (or, with --exit-when-drained, until the queue is empty), then closes
 * the worker once the jobs in progress are done; a second signal hands them back, a third exits at once.
 */
async function serveUntilStopped(chunkWorker: ChunkWorker, args: WorkerArgs, io: QueueIo, session: WorkerSession, signals: NodeJS.EventEmitter): Promise<void> {
  let stopped!: () => void;
  const stop = new Promise<void>((resolve) => (stopped = resolve));
  const onSignal = (): void => {
    session.interrupts++;
    if (session.interrupts === 1) {
      io.stderr.write('chunkstream worker: stopping, finishing the jobs in progress (again to hand them back)\n');
      stopped();
    } else if (session.interrupts === 2) {
      io.stderr.write('chunkstream worker: handing the jobs in progress back to the queue\n');
      void chunkWorker.close({ handBack: true });
    } else {
      process.exit(130);
    }
  };
  signals.on('SIGINT', onSignal);
  signals.on('SIGTERM', onSignal);
  try {
    // Ctrl-C must work while Redis is still out of reach.
    await Promise.race([announceWhenReady(chunkWorker, io, session), stop]);
    if (session.interrupts === 0 && args.drain) {
      await Promise.race([stop, chunkWorker.untilQueueDone()]).catch((error: unknown) => {
        // The queue was lost rather than done: say so, and exit 1 rather than 0.
        if (!isChunkError(error, 'ERR_QUEUE_LOST')) throw error;
        session.lost = true;
        sayError(io, session, error);
      });
    } else await stop;
    await chunkWorker.close();
  } finally {
    signals.off('SIGINT', onSignal);
    signals.off('SIGTERM', onSignal);
  }
}

/** Says on stderr where the worker takes jobs from and what it reads, once it has reached Redis. */
async function announceWhenReady(chunkWorker: ChunkWorker, io: QueueIo, session: WorkerSession): Promise<void> {
  const start = await chunkWorker.ready();
  const { config } = chunkWorker;
  session.readyMs = performance.now() - session.started;
  const reading = start.inputRoots.length === 0 ? 'reading inline documents only' : `reading files under ${start.inputRoots.join(', ')}`;
  io.stderr.write(`chunkstream worker ${config.workerId}: taking jobs from ${config.queue} at ${config.label}, concurrency ${config.concurrency}, ${reading}, writing to ${config.outDir}\n`);
  for (const w of start.warnings) io.stderr.write(`chunkstream worker: warning: ${w.message}\n`);
}

/** Writes the worker's counts on stderr and, with --stats-json, its figures to that file. */
async function reportWorkerFigures(chunkWorker: ChunkWorker, args: WorkerArgs, io: QueueIo, session: WorkerSession, cpu: NodeJS.CpuUsage): Promise<void> {
  const f = chunkWorker.figures();
  const { config } = chunkWorker;
  const wallMs = performance.now() - session.started;
  io.stderr.write(`chunkstream worker ${config.workerId}: ${f.completed} completed, ${f.failed} failed, ${f.retried} retried, ${f.handedBack} handed back\n`);
  if (args.statsJson !== undefined) {
    const figures = { workerId: config.workerId, ...f, readyMs: session.readyMs ?? null, lastJobMs: session.lastJobMs ?? null, wallMs, cpuMs: (cpu.user + cpu.system) / 1000, peakRssBytes: peakRssBytes() };
    await writeFile(args.statsJson, JSON.stringify(figures, null, 2) + '\n');
  }
}
