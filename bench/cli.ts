/**
 * The whole `chunkstream` command on the shared corpus (Markdown and PDF), `--jobs 1` against `--jobs 2`: wall time,
 * peak RSS of the process (worker threads included) and the speed-up. Run with `npx tsx bench/cli.ts` after a build;
 * `BENCH_RUNS=3` repeats each setting and keeps the fastest run.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
const BIN = join(ROOT, 'dist/cli/main.js');
const CORPUS = resolve(ROOT, '../shared/corpus');
const INPUTS = [join(CORPUS, 'md'), join(CORPUS, 'pdf')];
const RUNS = Number(process.env.BENCH_RUNS ?? 2);

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

if (!existsSync(BIN)) {
  console.error('Build first: npm run build');
  process.exit(1);
}

function runOnce(jobs: number, inputs: string[] = INPUTS): Figures {
  const dir = mkdtempSync(join(tmpdir(), 'chunkstream-bench-'));
  const stats = join(dir, 'stats.json');
  const started = performance.now();
  const child = spawnSync(process.execPath, [BIN, '--quiet', '--jobs', String(jobs), '--out', join(dir, 'out.jsonl'), '--stats-json', stats, ...inputs], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const wallS = (performance.now() - started) / 1000;
  const s = JSON.parse(readFileSync(stats, 'utf8'));
  rmSync(dir, { recursive: true, force: true });
  return {
    jobs,
    wallS,
    cpuS: s.run.cpuMs / 1000,
    rssMb: s.run.peakRssBytes / 1e6,
    exit: child.status,
    files: s.total.files,
    failed: s.total.failed,
    chunks: s.total.chunks,
    mb: s.total.bytes / 1e6,
  };
}

function best(jobs: number): Figures {
  const runs = Array.from({ length: RUNS }, () => runOnce(jobs));
  return runs.reduce((a, b) => (b.wallS < a.wallS ? b : a));
}

const one = best(1);
const two = best(2);
const row = (f: Figures): string =>
  `| ${f.jobs} | ${f.files} | ${f.failed} | ${f.chunks} | ${f.mb.toFixed(2)} | ${f.wallS.toFixed(2)} | ${f.cpuS.toFixed(2)} | ${(f.cpuS / f.wallS).toFixed(2)} | ${(f.mb / f.wallS).toFixed(2)} | ${f.rssMb.toFixed(0)} | ${f.exit} |`;
console.log(`chunkstream CLI on ${INPUTS.map((p) => relative(ROOT, p)).join(' ')} (best of ${RUNS} runs, node ${process.version})`);
console.log(`load average at start: ${loadavg().map((l) => l.toFixed(1)).join(' ')} on ${availableParallelism()} cores (other processes share them)`);
console.log('| jobs | files | failed | chunks | MB read | wall s | CPU s | CPU/wall | MB/s | peak RSS MB | exit |');
console.log('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
console.log(row(one));
console.log(row(two));
console.log(`speed-up --jobs 2 vs --jobs 1: ${(one.wallS / two.wallS).toFixed(2)}x wall; CPU cost ${(two.cpuS / one.cpuS).toFixed(2)}x; peak RSS ${(two.rssMb / one.rssMb).toFixed(2)}x`);
console.log('CPU/wall is the parallelism the run got: near 1 with --jobs 1, up to 2 with --jobs 2 on an idle 2-core machine.');
if (one.chunks !== two.chunks) console.log(`WARNING: chunk counts differ (${one.chunks} vs ${two.chunks})`);

// One huge file streams in bounded memory: peak RSS should stay flat as the file grows fourfold.
if (process.env.BENCH_HUGE !== '0') {
  const dir = mkdtempSync(join(tmpdir(), 'chunkstream-huge-'));
  const unit = readFileSync(join(CORPUS, 'md/jupyterlab-docs/source/extension/extension_migration.md'), 'utf8');
  const sizes = [2, 8];
  console.log('');
  console.log('One generated Markdown file (copies of extension_migration.md), --jobs 2:');
  console.log('| MB | chunks | wall s | MB/s | peak RSS MB |');
  console.log('|---:|---:|---:|---:|---:|');
  for (const mb of sizes) {
    const path = join(dir, `huge-${mb}.md`);
    writeFileSync(path, unit.repeat(Math.ceil((mb * 1e6) / unit.length)));
    const f = runOnce(2, [path]);
    console.log(`| ${f.mb.toFixed(1)} | ${f.chunks} | ${f.wallS.toFixed(2)} | ${(f.mb / f.wallS).toFixed(2)} | ${f.rssMb.toFixed(0)} |`);
  }
  rmSync(dir, { recursive: true, force: true });
}
