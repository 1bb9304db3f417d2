/** Spawning the built `chunkstream` binary from tests. */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** Project root. */
export const ROOT = resolve(import.meta.dirname, '../..');
/** The built command. */
export const BIN = join(ROOT, 'dist/cli/main.js');

function newestMtime(dir: string): number {
  let newest = 0;
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    const s = statSync(p);
    newest = Math.max(newest, s.isDirectory() ? newestMtime(p) : s.mtimeMs);
  }
  return newest;
}

/** Builds `dist/` when it is missing or older than `src/` (`npm test` builds first; a bare `vitest run` may not). */
export function ensureBuilt(): void {
  if (existsSync(BIN) && statSync(BIN).mtimeMs >= newestMtime(join(ROOT, 'src'))) return;
  execFileSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], { cwd: ROOT, stdio: 'inherit' });
}

/** What a run of the command gave. */
export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Options of `runCli`. */
export interface RunCliOptions {
  cwd?: string;
  /** Variables added to the environment (a TMPDIR of its own). */
  env?: Record<string, string>;
  stdin?: string | Buffer;
  /** Called once with the child, e.g. to send it a signal. */
  onSpawn?: (child: ReturnType<typeof spawn>) => void;
}

/** Runs `chunkstream args...` and collects its output. */
export function runCli(args: string[], options: RunCliOptions = {}): Promise<CliRun> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: options.cwd ?? ROOT, stdio: ['pipe', 'pipe', 'pipe'], ...(options.env ? { env: { ...process.env, ...options.env } } : {}) });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code, signal) => resolvePromise({ code, signal, stdout, stderr }));
    child.stdin.on('error', () => {});
    if (options.stdin !== undefined) child.stdin.end(options.stdin);
    else if (!options.onSpawn) child.stdin.end();
    options.onSpawn?.(child);
  });
}

/** Parses JSON Lines output. */
export function lines(text: string): Record<string, any>[] {
  return text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Record<string, any>);
}
