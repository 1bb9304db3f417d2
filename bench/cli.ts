/**
 * The whole `chunkstream` command on the shared corpus (Markdown and PDF), `--jobs 1` against `--jobs 2`: wall time,
 * CPU time of all threads, peak RSS of the process (worker threads included) and the speed-up; then the peak RSS of
 * one generated file as it grows fourfold, which stays flat because the file streams. First, what a short job meets:
 * `chunkstream FILE` on one small file from process start, beside `node -e ''` (and beside a `--baseline` build).
 *
 *   npx tsx bench/cli.ts                 # best of 2 runs per setting, generated file at 2 and 8 MB
 *   npx tsx bench/cli.ts --runs 3 --no-huge
 *   npx tsx bench/cli.ts --quick         # one run per setting, generated file at 2 MB
 *   npx tsx bench/cli.ts --baseline /tmp/old/dist --no-huge   # start-up of an older build beside this one
 *
 * Every measured process is a fresh `node dist/cli/main.js`; its figures come from its own `--stats-json`.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { listFlag, numberFlag } from './support/args.js';
import { markdownTable } from './support/results.js';
import { bestOf, checkDist, CORPUS, failureText, ROOT, runNode, startBench } from './support/runner.js';

const BIN = 'dist/cli/main.js';
const HUGE_UNIT = join(CORPUS, 'md/jupyterlab-docs/source/extension/extension_migration.md');

const bench = startBench(
  { script: 'bench/cli.ts', summary: 'The whole chunkstream command over the corpus (Markdown and PDF) with --jobs 1 and --jobs 2, then one generated file growing fourfold.' },
  {
    runs: { type: 'string', value: 'N', description: 'runs per setting, the fastest kept (default 2; 1 with --quick)' },
    'huge-mb': { type: 'string', value: 'LIST', description: 'sizes in MB of the generated file (default 2,8; 2 with --quick)' },
    'no-huge': { type: 'boolean', default: false, description: 'skip the generated file' },
    'start-runs': { type: 'string', value: 'N', description: 'runs of `chunkstream FILE` on one small file, the median kept (default 11; 3 with --quick)' },
    baseline: { type: 'string', value: 'DIR', description: 'a second built dist/ directory whose CLI start-up is timed beside this one' },
  },
);
const startRuns = numberFlag('start-runs', bench.values['start-runs'], bench.quick ? 3 : 11);
const baseline = bench.values.baseline === undefined ? undefined : checkDist(bench.values.baseline, '--baseline');
const SMALL_FILE = 'samples/guide.md';
const runs = numberFlag('runs', bench.values.runs, bench.quick ? 1 : 2);
const hugeSizes = listFlag(bench.values['huge-mb'], bench.quick ? ['2'] : ['2', '8']).map((s) => numberFlag('huge-mb', s, 2));

/** One run's figures, from the command's `--stats-json`. */
interface Figures {
  jobs: number;
  wallS: number;
  cpuS: number;
  rssMb: number;
  exit: number | null;
  files: number;
  failed: number;
  chunks: number;
  mb: number;
}

/** Runs the command once over `inputs`; throws when it leaves no stats behind (it did not run to its end). */
async function runOnce(jobs: number, inputs: string[]): Promise<Figures> {
  const dir = mkdtempSync(join(tmpdir(), 'chunkstream-bench-'));
  try {
    const stats = join(dir, 'stats.json');
    const exit = await bench.run(BIN, ['--quiet', '--jobs', String(jobs), '--out', join(dir, 'out.jsonl'), '--stats-json', stats, ...inputs]);
    if (!existsSync(stats)) throw new Error(`chunkstream --jobs ${jobs} wrote no stats: ${exit.timedOut ? 'not finished in time' : failureText(exit)}`);
    const s = JSON.parse(readFileSync(stats, 'utf8'));
    return { jobs, wallS: exit.seconds, cpuS: s.run.cpuMs / 1000, rssMb: s.run.peakRssBytes / 1e6, exit: exit.code, files: s.total.files, failed: s.total.failed, chunks: s.total.chunks, mb: s.total.bytes / 1e6 };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const best = (jobs: number, inputs: string[]): Promise<Figures> => bestOf(runs, () => runOnce(jobs, inputs), (f) => f.wallS);

async function corpusPart(): Promise<string> {
  const inputs = [join(CORPUS, 'md'), join(CORPUS, 'pdf')].filter((p) => bench.has(`the corpus run over ${relative(ROOT, p)}`, p));
  if (inputs.length === 0) return '';
  bench.log('--jobs 1');
  const one = await best(1, inputs);
  bench.log('--jobs 2');
  const two = await best(2, inputs);
  const row = (f: Figures) => [f.jobs, f.files, f.failed, f.chunks, f.mb.toFixed(2), f.wallS.toFixed(2), f.cpuS.toFixed(2), (f.cpuS / f.wallS).toFixed(2), (f.mb / f.wallS).toFixed(2), f.rssMb.toFixed(0), String(f.exit)];
  return [
    `chunkstream CLI on \`${inputs.map((p) => relative(ROOT, p)).join('` `')}\`, best of ${runs} run(s) per setting; wall time from spawn to exit (node start-up included).`,
    '',
    markdownTable(['jobs', 'files', 'failed', 'chunks', 'MB read', 'wall s', 'CPU s', 'CPU/wall', 'MB/s', 'peak RSS MB', 'exit'], [row(one), row(two)], ['r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r']),
    '',
    `- speed-up --jobs 2 vs --jobs 1: ${(one.wallS / two.wallS).toFixed(2)}× wall; CPU cost ${(two.cpuS / one.cpuS).toFixed(2)}×; peak RSS ${(two.rssMb / one.rssMb).toFixed(2)}×`,
    '- CPU/wall is the parallelism the run got: near 1 with --jobs 1, up to 2 with --jobs 2 on an idle 2-core machine.',
    ...(one.chunks === two.chunks ? [] : [`- WARNING: chunk counts differ (${one.chunks} vs ${two.chunks})`]),
  ].join('\n');
}

/** One huge file streams in bounded memory: peak RSS should stay flat as the file grows fourfold. */
async function hugePart(): Promise<string> {
  if (bench.values['no-huge']) {
    bench.skip('the generated file (--no-huge)');
    return '';
  }
  if (!bench.has('the generated file', HUGE_UNIT)) return '';
  const dir = mkdtempSync(join(tmpdir(), 'chunkstream-huge-'));
  const unit = readFileSync(HUGE_UNIT, 'utf8');
  const rows: string[][] = [];
  try {
    for (const mb of hugeSizes) {
      const path = join(dir, `huge-${mb}.md`);
      writeFileSync(path, unit.repeat(Math.ceil((mb * 1e6) / unit.length)));
      bench.log(`generated file, ${mb} MB`);
      const f = await runOnce(2, [path]);
      rows.push([f.mb.toFixed(1), String(f.chunks), f.wallS.toFixed(2), (f.mb / f.wallS).toFixed(2), f.rssMb.toFixed(0)]);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return ['One generated Markdown file (copies of extension_migration.md), --jobs 2:', '', markdownTable(['MB', 'chunks', 'wall s', 'MB/s', 'peak RSS MB'], rows, ['r', 'r', 'r', 'r', 'r'])].join('\n');
}

/** Seconds from spawn to exit of `node script ...args`, the median of `startRuns` runs; throws on a failed run. */
async function medianStart(script: string, args: readonly string[], nodeArgs: readonly string[] = []): Promise<number> {
  const seconds: number[] = [];
  for (let i = 0; i < startRuns; i++) {
    const exit = await runNode(script, args, { timeoutMs: bench.timeoutMs, nodeArgs });
    if (exit.code !== 0) throw new Error(`node ${script} ${args.join(' ')}: ${failureText(exit)}`);
    seconds.push(exit.seconds);
  }
  seconds.sort((a, b) => a - b);
  return seconds[Math.floor(seconds.length / 2)] as number;
}

/** What one short job meets: `chunkstream FILE` on one small file, from process start, beside Node doing nothing. */
async function startPart(): Promise<string> {
  bench.log(`start-up, ${startRuns} runs each`);
  // `node -e '' ROOT`: with -e, what follows is only process.argv; nothing is loaded.
  const floor = await medianStart(ROOT, [], ['-e', '']);
  const builds: [string, string][] = [['this build', join(ROOT, BIN)], ...(baseline === undefined ? [] : ([['baseline', join(baseline, 'cli/main.js')]] as [string, string][]))];
  const rows: string[][] = [['`node -e \'\'`', floor.toFixed(3), '1.00']];
  for (const [name, bin] of builds) {
    const s = await medianStart(bin, ['--quiet', SMALL_FILE]);
    rows.push([`\`chunkstream ${SMALL_FILE}\` (${name})`, s.toFixed(3), (s / floor).toFixed(2)]);
  }
  return [
    `Start-up: wall time from spawn to exit of one short job on \`${SMALL_FILE}\` (${(readFileSync(join(ROOT, SMALL_FILE)).length / 1024).toFixed(1)} KB), median of ${startRuns} runs.`,
    '',
    markdownTable(['command', 'wall s', '× node -e'], rows, ['l', 'r', 'r']),
  ].join('\n');
}

bench.finish([await startPart(), await corpusPart(), await hugePart()].filter((p) => p !== '').join('\n\n'));
