/**
 * The one runner every bench script uses: it reads the script's flags, builds `dist/` once, runs each measurement
 * in its own plain Node process with a timeout and reads the JSON report that process prints, and writes the
 * script's section of `bench/RESULTS.md`.
 *
 * A measured process is plain `node` on the built `dist/` (a `*-child.mjs` beside this file, or the CLI itself),
 * never under a TypeScript loader: the loader's own thread and transforms would weigh on every time and memory
 * figure, and its memory would count in the peak RSS. One process per measurement also keeps one contender's heap,
 * warm-up and caches out of the next one's figures.
 *
 *     const bench = startBench({ script: 'bench/x.ts', summary: '…' }, { sizes: { type: 'string', description: '…' } });
 *     const outcome = await bench.measure<Report>('x-child.mjs', [file]);
 *     bench.finish(markdownTable(header, rows));
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { DEFAULT_TIMEOUT_S, readBenchArgs, type BenchOptions, type BenchUsage, type BenchValues, type COMMON_OPTIONS, numberFlag } from './args.js';
import { writeResults } from './results.js';

/** The project root. */
export const ROOT = resolve(import.meta.dirname, '../..');
/** The shared corpus of real documents, beside the project. */
export const CORPUS = resolve(ROOT, '../shared/corpus');
/** Node's API docs as Debian installs them: real Markdown of several megabytes. */
export const NODE_DOCS = '/usr/share/doc/nodejs/api';
/** The build the measured processes load unless told otherwise. */
export const DIST = join(ROOT, 'dist');
/** Where the `*-child.mjs` measured scripts live. */
const SUPPORT = import.meta.dirname;

/** How a measured process is started. */
export interface SpawnOptions {
  /** Milliseconds before the process is killed and reported as not finished. */
  readonly timeoutMs: number;
  /** Flags for `node` itself, e.g. `--expose-gc`. */
  readonly nodeArgs?: readonly string[];
  /** The `dist/` directory the child loads (`CHUNKSTREAM_DIST`); the project's own by default. */
  readonly dist?: string;
  /** Extra environment variables. */
  readonly env?: Readonly<Record<string, string>>;
  /** Working directory; the project root by default. */
  readonly cwd?: string;
}

/** How a process ended. */
export interface Exit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  /** Wall-clock seconds from spawn to exit, node start-up included. */
  readonly seconds: number;
  /** True when the runner killed it at its timeout. */
  readonly timedOut: boolean;
}

/** A measurement: the child's JSON report, or why there is none. */
export type Outcome<T> =
  | { readonly ok: true; readonly report: T; readonly seconds: number }
  | { readonly ok: false; readonly error: string; readonly timedOut: boolean; readonly seconds: number };

/** Compiles `src/` to `dist/`, which the measured processes load. */
export function buildDist(root: string = ROOT): void {
  const result = spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'tsconfig.json')], { stdio: 'inherit' });
  if (result.status !== 0) throw new Error('tsc failed; the bench needs dist/');
}

/** The benchmarks' own package: the peers only they run (chonkie, pdf-parse, turndown), out of the repository's install. */
export const BENCH_PACKAGE = join(ROOT, 'bench');

/**
 * Installs the benchmarks' own peers into `bench/node_modules` when they are not there yet (what `npm run
 * bench:install` does), so that a fresh clone's `npm install` never downloads them.
 */
export function installBenchPeers(): void {
  const manifest = JSON.parse(readFileSync(join(BENCH_PACKAGE, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  const missing = Object.keys(manifest.dependencies).filter((name) => !existsSync(join(BENCH_PACKAGE, 'node_modules', name, 'package.json')));
  if (missing.length === 0) return;
  console.error(`installing the benchmarks' peers (${missing.join(', ')}) into bench/node_modules`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, ['install', '--prefix', BENCH_PACKAGE, '--no-audit', '--no-fund'], { stdio: 'inherit' });
  if (result.status !== 0) throw new Error('npm install --prefix bench failed; the bench needs its peers (npm run bench:install)');
}

/** Throws unless `dir` holds a built library (`index.js`), naming the flag it came from. */
export function checkDist(dir: string, flag: string): string {
  const path = resolve(dir);
  if (!existsSync(join(path, 'index.js'))) throw new Error(`${flag} ${dir}: no index.js there (give a built dist/ directory)`);
  return path;
}

/**
 * Runs `node [nodeArgs] script ...args` and collects its output. `script` is a path from the project root or
 * absolute. Resolves in every case (a crash or a timeout is an exit like any other); rejects only when the
 * process cannot be started.
 */
export function runNode(script: string, args: readonly string[], options: SpawnOptions): Promise<Exit> {
  const path = isAbsolute(script) ? script : join(ROOT, script);
  // Always set: a CHUNKSTREAM_DIST left in the caller's environment must not swap the build under a measurement.
  const env = { ...process.env, ...options.env, CHUNKSTREAM_DIST: options.dist ?? DIST };
  return new Promise((resolvePromise, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [...(options.nodeArgs ?? []), path, ...args], { cwd: options.cwd ?? ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    // SIGKILL: a process stuck in a loop that never yields still ends.
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, options.timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolvePromise({ code, signal, stdout, stderr, seconds: (performance.now() - started) / 1000, timedOut });
    });
  });
}

/** The last lines of what a failed process printed, on one line, short enough for a table cell. */
export function failureText(exit: Exit): string {
  const lines = (exit.stderr.trim() || exit.stdout.trim()).split('\n').filter((l) => l.trim() !== '');
  const tail = lines.slice(-3).join(' ').replace(/\s+/g, ' ').slice(0, 200);
  return `exit ${exit.code ?? exit.signal}${tail ? `: ${tail}` : ''}`;
}

/**
 * Runs a measured script (`*-child.mjs` in `bench/support/`, or any path) and reads the JSON report it prints as
 * its last line of standard output.
 */
export async function measure<T>(child: string, args: readonly string[], options: SpawnOptions): Promise<Outcome<T>> {
  const exit = await runNode(isAbsolute(child) ? child : join(SUPPORT, child), args, options);
  if (exit.timedOut) return { ok: false, error: `not finished in ${(options.timeoutMs / 1000).toFixed(0)} s`, timedOut: true, seconds: exit.seconds };
  const line = exit.stdout.trim().split('\n').at(-1) ?? '';
  if (exit.code !== 0 || !line.startsWith('{')) return { ok: false, error: exit.code === 0 ? 'printed no report' : failureText(exit), timedOut: false, seconds: exit.seconds };
  try {
    return { ok: true, report: JSON.parse(line) as T, seconds: exit.seconds };
  } catch {
    return { ok: false, error: `report is not JSON: ${line.slice(0, 100)}`, timedOut: false, seconds: exit.seconds };
  }
}

/**
 * Runs `run` `runs` times, one after the other, and keeps the fastest by `seconds`: other work on the machine can
 * only slow a run down, so the fastest is the one it disturbed least. Results without a time (failures) are kept
 * only when no run succeeded.
 */
export async function bestOf<T>(runs: number, run: () => Promise<T>, seconds: (result: T) => number | undefined): Promise<T> {
  let kept: T | undefined;
  for (let i = 0; i < Math.max(1, runs); i++) kept = faster(kept, await run(), seconds);
  return kept as T;
}

/** The faster of the run kept so far and `result` (see `bestOf`): `result` when nothing is kept yet. */
export function faster<T>(kept: T | undefined, result: T, seconds: (result: T) => number | undefined): T {
  if (kept === undefined) return result;
  const s = seconds(result);
  const best = seconds(kept);
  return s !== undefined && (best === undefined || s < best) ? result : kept;
}

/** A bench script's run: its flags, its measured processes and its section of `bench/RESULTS.md`. */
export interface Bench<V> {
  /** The flags, common and the script's own. */
  readonly values: V;
  readonly positionals: string[];
  /** `--quick` or `BENCH_QUICK`: the script's quickest mode. */
  readonly quick: boolean;
  /** Milliseconds a measured process may run (`--timeout`). */
  readonly timeoutMs: number;
  /** Progress for the person watching, on standard error (standard output carries the section). */
  log(line: string): void;
  /** Records a note, printed now and added to the section, that a part of the bench was not run. */
  skip(note: string): void;
  /** True when every path exists; otherwise records that `part` is skipped for want of the first missing one. */
  has(part: string, ...paths: string[]): boolean;
  /** {@link measure} with the script's timeout unless `options` gives one. */
  measure<T>(child: string, args: readonly string[], options?: Partial<SpawnOptions>): Promise<Outcome<T>>;
  /** {@link runNode} with the script's timeout unless `options` gives one. */
  run(script: string, args: readonly string[], options?: Partial<SpawnOptions>): Promise<Exit>;
  /**
   * Prints the section (`body`, then the skip notes) and writes it into `bench/RESULTS.md`, unless `--dry-run`.
   * A run that measured nothing (empty `body`) leaves the file alone, so a machine without an input does not wipe
   * another machine's figures.
   */
  finish(body: string): void;
}

/** What a script tells the runner beside its usage. */
export interface BenchSetup {
  /** Build `dist/` before measuring (default true). */
  readonly build?: boolean;
}

/**
 * Starts a bench script: reads its flags (the common ones and `own`; `--help` prints them and exits) and builds
 * `dist/`.
 */
export function startBench<const O extends BenchOptions>(usage: BenchUsage, own: O, setup: BenchSetup = {}): Bench<BenchValues<typeof COMMON_OPTIONS & O>> {
  const { values, positionals } = readBenchArgs(usage, own);
  const common = values as unknown as BenchValues<typeof COMMON_OPTIONS>;
  const timeoutMs = numberFlag('timeout', common.timeout, usage.timeoutS ?? DEFAULT_TIMEOUT_S) * 1000;
  const notes: string[] = [];
  if (setup.build !== false) buildDist();
  installBenchPeers();
  const spawnOptions = (options: Partial<SpawnOptions> = {}): SpawnOptions => ({ timeoutMs, ...options });
  const bench: Bench<typeof values> = {
    values,
    positionals,
    quick: common.quick === true,
    timeoutMs,
    log: (line) => console.error(line),
    skip(note) {
      notes.push(note);
      console.error(`skipped: ${note}`);
    },
    has(part, ...paths) {
      const missing = paths.find((p) => !existsSync(p));
      if (missing === undefined) return true;
      // Paths beside the project (the corpus) read best from it; system paths (Node's docs) as they are.
      const shown = relative(ROOT, missing).startsWith('../..') ? missing : relative(ROOT, missing);
      bench.skip(`${part}: ${shown} is missing`);
      return false;
    },
    measure: (child, args, options) => measure(child, args, spawnOptions(options)),
    run: (script, args, options) => runNode(script, args, spawnOptions(options)),
    finish(body) {
      if (body.trim() === '') {
        console.error(`${usage.script}: nothing was measured; bench/RESULTS.md is left as it was.`);
        return;
      }
      const parts = [
        common.quick ? '*Quick run (`--quick`): a check that the script works; these figures are not for comparison.*' : '',
        body.trim(),
        notes.length === 0 ? '' : `Skipped:\n\n${notes.map((n) => `- ${n}`).join('\n')}`,
      ].filter((p) => p !== '');
      writeResults(usage.script, parts.join('\n\n'), { write: common['dry-run'] !== true });
    },
  };
  return bench;
}
