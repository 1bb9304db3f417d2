/**
 * `chunkstream worker` processes for the tests that kill them: start one with its settings, read its job lines
 * (`active ID SOURCE`, `completed …`, `stalled …`), wait for what it prints, and compare outputs with what
 * `chunkstream FILE` prints alone. Every process started is kept in `started`, so a failing test can end them.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
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

/** How the workers of a test run. */
export interface WorkerSettings {
  readonly redis: string;
  readonly queue: string;
  /** Where the workers write. */
  readonly outDir: string;
  /** The workers' input roots (`--input-root`). */
  readonly inputRoots: readonly string[];
  /** Lock and stalled-check periods of the workers, short so that recovery is quick. */
  readonly lockMs: number;
  readonly stalledMs: number;
  /** `--max-stalled`: how often a job may lose its worker before it fails. Default the worker's own (1). */
  readonly maxStalled?: number;
}

/** Processes started here, so a failing test can still end them. */
export const started: ChildProcess[] = [];

/** Starts `chunkstream worker` with these settings. */
export function startWorker(name: string, s: WorkerSettings, concurrency: number): WorkerProcess {
  const args = ['worker', '--redis', s.redis, '--queue', s.queue, '--out-dir', s.outDir, ...s.inputRoots.flatMap((r) => ['--input-root', r]), '--concurrency', String(concurrency), '--lock-duration', String(s.lockMs), '--stalled-interval', String(s.stalledMs), ...(s.maxStalled === undefined ? [] : ['--max-stalled', String(s.maxStalled)]), '--worker-id', name];
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
