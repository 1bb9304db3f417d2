/**
 * The kill scenario, shared by the default layer (documents the test makes) and the corpus layer: three
 * `chunkstream worker` processes on one queue, one of them killed with SIGKILL while it holds a job.
 *
 * The first job is a named pipe (FIFO), so the victim, started alone, is certain to be inside that job when it is
 * killed: its read blocks until someone writes. Nothing is written until the victim is dead; then the job can only
 * finish if BullMQ's stalled-job recovery hands it to another worker, whose read the test then feeds.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { getQueueStatus, type QueueStatus } from '../../../src/integrations/queue/index.js';
import { BIN, ROOT } from '../../cli/support.js';

/** One running worker process and what it printed. */
export interface WorkerProcess {
  readonly name: string;
  readonly child: ChildProcess;
  /** Lines printed on stdout so far. */
  readonly lines: string[];
  stderr: string;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Settings of one run of the scenario. */
export interface KillScenario {
  readonly redis: string;
  readonly queue: string;
  /** Where the workers write. */
  readonly outDir: string;
  /** The workers' input roots (`--input-root`). */
  readonly inputRoots: readonly string[];
  /** The named pipe (made with mkfifo) that the first job reads, and what to write into it once the victim is dead. */
  readonly fifo: string;
  readonly fifoContent: string;
  /** Other inputs, as `chunkstream enqueue` takes them. */
  readonly inputs: readonly string[];
  /** Chunking flags given to enqueue (and, by the caller, to the reference runs). */
  readonly chunkFlags: readonly string[];
  /** Lock and stalled-check periods of the workers, short so that recovery is quick. */
  readonly lockMs: number;
  readonly stalledMs: number;
  /** How long the whole queue may take before the scenario gives up. */
  readonly deadlineMs: number;
}

/** What happened. */
export interface KillOutcome {
  readonly enqueued: number;
  readonly victim: WorkerProcess;
  readonly others: readonly WorkerProcess[];
  readonly victimExit: { code: number | null; signal: NodeJS.Signals | null };
  readonly othersExit: readonly { code: number | null; signal: NodeJS.Signals | null }[];
  readonly status: QueueStatus;
  /** Job id of the FIFO job. */
  readonly fifoJob: string;
}

/** Processes started by the scenario, so a failing test can still end them. */
export const started: ChildProcess[] = [];

/** Starts `chunkstream worker` with the scenario's settings. */
export function startWorker(name: string, s: KillScenario, concurrency: number): WorkerProcess {
  const args = ['worker', '--redis', s.redis, '--queue', s.queue, '--out-dir', s.outDir, ...s.inputRoots.flatMap((r) => ['--input-root', r]), '--concurrency', String(concurrency), '--lock-duration', String(s.lockMs), '--stalled-interval', String(s.stalledMs), '--worker-id', name];
  const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  started.push(child);
  const w: WorkerProcess = {
    name,
    child,
    lines: [],
    stderr: '',
    exited: new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal }))),
  };
  let partial = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => {
    const parts = (partial + d).split('\n');
    partial = parts.pop() ?? '';
    w.lines.push(...parts);
  });
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (w.stderr += d));
  return w;
}

/** Resolves once `test` holds, checking every 20 ms; rejects after `ms` with `what` and the workers' output. */
export async function until(test: () => boolean, ms: number, what: string, workers: readonly WorkerProcess[] = []): Promise<void> {
  const deadline = Date.now() + ms;
  while (!test()) {
    if (Date.now() > deadline) {
      const logs = workers.map((w) => `--- ${w.name}\n${w.lines.join('\n')}\n${w.stderr}`).join('\n');
      throw new Error(`timed out waiting for ${what}\n${logs}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The job lines a worker printed for `event` (`active`, `completed`, …): `[id, source]`. */
export function events(w: WorkerProcess, event: string): [string, string][] {
  const out: [string, string][] = [];
  for (const line of w.lines) {
    const m = new RegExp(`^${event} (\\S+) (.*?)(?::.*)?$`).exec(line);
    if (m) out.push([m[1] as string, m[2] as string]);
  }
  return out;
}

/** Runs the scenario to the end (the queue done, the surviving workers stopped with SIGTERM). */
export async function runKillScenario(s: KillScenario): Promise<KillOutcome> {
  const enqueue = spawnSync(process.execPath, [BIN, 'enqueue', '--redis', s.redis, '--queue', s.queue, ...s.chunkFlags, s.fifo, ...s.inputs], { cwd: ROOT, encoding: 'utf8' });
  if (enqueue.status !== 0) throw new Error(`enqueue failed (${enqueue.status}): ${enqueue.stderr}`);
  const enqueued = Number(enqueue.stdout.trim());

  // The victim starts alone, so the first job, the pipe, is its.
  const victim = startWorker('victim', s, 2);
  await until(() => events(victim, 'active').some(([, source]) => source === s.fifo), 20_000, 'the victim to take the pipe job', [victim]);
  const fifoJob = (events(victim, 'active').find(([, source]) => source === s.fifo) as [string, string])[0];
  const others = [startWorker('worker-b', s, 1), startWorker('worker-c', s, 1)];
  const all = [victim, ...others];
  // Kill it once the others work beside it (all three mid-run), or, on a machine so slow that the victim took every
  // job before they started, once they are ready to take its jobs back.
  const taken = (): number => all.reduce((n, w) => n + events(w, 'active').length, 0);
  await until(() => others.every((w) => w.stderr.includes('taking jobs from')) && (others.some((w) => events(w, 'active').length > 0) || taken() >= enqueued), 60_000, 'the other workers to start', all);
  victim.child.kill('SIGKILL');
  const victimExit = await victim.exited;

  // Only a worker that took the job back can open the pipe for reading; this write waits for it.
  await writeFile(s.fifo, s.fifoContent);

  let status: QueueStatus | undefined;
  const deadline = Date.now() + s.deadlineMs;
  for (;;) {
    status = await getQueueStatus({ redis: s.redis, queue: s.queue });
    if (status.done && status.counts.completed + status.counts.failed === enqueued) break;
    if (Date.now() > deadline) throw new Error(`queue not done: ${JSON.stringify(status.counts)}\n${all.map((w) => `--- ${w.name}\n${w.lines.join('\n')}\n${w.stderr}`).join('\n')}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  for (const w of others) w.child.kill('SIGTERM');
  const othersExit = await Promise.all(others.map((w) => w.exited));
  return { enqueued, victim, others, victimExit, othersExit, status, fifoJob };
}

/** Every file under `root`, relative to it, sorted. */
export function filesUnder(root: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out.push(relative(root, p));
    }
  };
  walk(root);
  return out;
}

/** What `chunkstream [flags] FILE` prints alone (from the project root); for a pipe, `feed` is written into it. */
export async function chunkstreamAlone(file: string, flags: readonly string[], feed?: string): Promise<string> {
  const child = spawn(process.execPath, [BIN, '-q', '--jobs', '1', ...flags, file], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  started.push(child);
  let out = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d));
  const closed = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  if (feed !== undefined) await writeFile(file, feed);
  const code = await closed;
  if (code !== 0) throw new Error(`chunkstream ${file} exited with ${code}`);
  return out;
}
