/**
 * The corpus (Markdown and PDF) through BullMQ workers against the same folders through the plain command:
 * `chunkstream --jobs 1/2 --out-dir` and 1 or 2 `chunkstream worker` processes on a local Redis (Debian's
 * redis-server on a free loopback port). Prints throughput, the queue's cost per job (worker time not spent
 * chunking, divided by the jobs) and as a share of chunking time, and peak RSS per process; then the same cost on
 * many tiny jobs, where it is all there is. Every measured process is a fresh `node dist/cli/main.js`.
 *
 *   npx tsx bench/queue.ts               # the corpus, then 400 tiny files
 *   npx tsx bench/queue.ts --runs 3      # each setting three times, the fastest kept
 *   npx tsx bench/queue.ts --quick       # the corpus Markdown only, then 50 tiny files
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { HAS_REDIS, startRedis, type RedisServer } from '../test/support/redis-server.js';
import { numberFlag } from './support/args.js';
import { markdownTable } from './support/results.js';
import { bestOf, CORPUS, failureText, ROOT, startBench, type Exit } from './support/runner.js';

const BIN = 'dist/cli/main.js';

const bench = startBench(
  { script: 'bench/queue.ts', summary: "The corpus through 1 and 2 BullMQ workers on a local Redis against chunkstream --jobs 1/2 --out-dir: throughput, the queue's cost per job, peak RSS per process; then the cost per job on tiny files." },
  {
    runs: { type: 'string', default: '1', value: 'N', description: 'runs per setting, the fastest kept' },
    'tiny-jobs': { type: 'string', value: 'N', description: 'tiny files in the second part (default 400; 50 with --quick)' },
  },
);
const RUNS = numberFlag('runs', bench.values.runs, 1);
const TINY_JOBS = numberFlag('tiny-jobs', bench.values['tiny-jobs'], bench.quick ? 50 : 400);
// --quick leaves the PDFs out: they are most of the corpus's time.
const INPUTS = bench.quick ? [join(CORPUS, 'md')] : [join(CORPUS, 'md'), join(CORPUS, 'pdf')];

/** What a worker writes with `--stats-json`. */
interface WorkerFigures {
  completed: number;
  failed: number;
  chunks: number;
  bytes: number;
  chunkingMs: number;
  readyMs: number;
  lastJobMs: number;
  wallMs: number;
  cpuMs: number;
  peakRssBytes: number;
}

/** One measured setting. */
interface Row {
  name: string;
  /** Wall time from the first spawn to the last exit, seconds. */
  wallS: number;
  jobs: number;
  failed: number;
  mb: number;
  /** Time spent chunking (files' own times, added), seconds. */
  chunkingS: number;
  /** Processes (or threads) that chunked in parallel. */
  parallel: number;
  /** For workers: time from being ready to the end of the last job, less chunking time, per job, ms. */
  queueMsPerJob: number | undefined;
  /** Peak RSS of each working process, MB. */
  rssMb: number[];
  cpuS: number;
}

/** Runs `node dist/cli/main.js ...args` with the bench's timeout. */
const run = (args: string[]): Promise<Exit> => bench.run(BIN, args);

async function cliRun(jobs: number, inputs: string[], dir: string): Promise<Row> {
  const stats = join(dir, `cli-${jobs}.json`);
  const started = performance.now();
  const r = await run(['--quiet', '--jobs', String(jobs), '--out-dir', join(dir, `cli-${jobs}`), '--stats-json', stats, ...inputs]);
  const wallS = (performance.now() - started) / 1000;
  if (r.code !== 0 && r.code !== 1) throw new Error(`chunkstream --jobs ${jobs}: ${r.timedOut ? 'not finished in time' : failureText(r)}`);
  const s = JSON.parse(readFileSync(stats, 'utf8'));
  const chunkingMs = (s.files as { timeMs: number }[]).reduce((a, f) => a + f.timeMs, 0);
  const files = s.total.files as number;
  return { name: `chunkstream --jobs ${jobs}`, wallS, jobs: files, failed: s.total.failed, mb: s.total.bytes / 1e6, chunkingS: chunkingMs / 1000, parallel: jobs, queueMsPerJob: undefined, rssMb: [s.run.peakRssBytes / 1e6], cpuS: s.run.cpuMs / 1000 };
}

let queueCount = 0;

async function queueRun(redis: RedisServer, workers: number, inputs: string[], dir: string, label: string): Promise<{ row: Row; enqueueS: number }> {
  const queue = `bench-${++queueCount}`;
  const enqueueStarted = performance.now();
  const e = await run(['enqueue', '--quiet', '--redis', redis.url, '--queue', queue, ...inputs]);
  const enqueueS = (performance.now() - enqueueStarted) / 1000;
  if (e.code !== 0) throw new Error(`enqueue: ${failureText(e)}`);
  const jobs = Number(e.stdout.trim());
  const out = join(dir, `${queue}-out`);
  const statsFiles = Array.from({ length: workers }, (_, i) => join(dir, `${queue}-w${i}.json`));
  const started = performance.now();
  const results = await Promise.all(
    statsFiles.map((stats) => run(['worker', '--quiet', '--redis', redis.url, '--queue', queue, '--out-dir', out, ...inputs.flatMap((p) => ['--input-root', p]), '--exit-when-drained', '--stats-json', stats])),
  );
  const wallS = (performance.now() - started) / 1000;
  for (const r of results) if (r.code !== 0) throw new Error(`worker: ${r.timedOut ? 'not finished in time' : failureText(r)}`);
  const figures = statsFiles.map((f) => JSON.parse(readFileSync(f, 'utf8')) as WorkerFigures);
  const sum = (pick: (f: WorkerFigures) => number): number => figures.reduce((a, f) => a + pick(f), 0);
  const done = sum((f) => f.completed) + sum((f) => f.failed);
  if (done !== jobs) throw new Error(`${jobs} jobs enqueued, ${done} finished`);
  // Each worker's time from being ready to the end of its last job, less the time it spent chunking. What comes
  // after (waiting for the other worker's last job, closing its connections) is a cost per run, not per job.
  const overheadMs = sum((f) => f.lastJobMs - f.readyMs - f.chunkingMs);
  return {
    row: {
      name: label,
      wallS,
      jobs,
      failed: sum((f) => f.failed),
      mb: sum((f) => f.bytes) / 1e6,
      chunkingS: sum((f) => f.chunkingMs) / 1000,
      parallel: workers,
      queueMsPerJob: overheadMs / jobs,
      rssMb: figures.map((f) => f.peakRssBytes / 1e6),
      cpuS: sum((f) => f.cpuMs) / 1000,
    },
    enqueueS,
  };
}

const best = <T extends { wallS: number }>(measure: () => Promise<T>): Promise<T> => bestOf(RUNS, measure, (r) => r.wallS);

const fmt = (n: number, d = 2): string => n.toFixed(d);
// The same measure for every row: wall time less chunking time shared over the processes or threads, per file.
const outsideMs = (r: Row): number => (r.wallS * 1000 - (r.chunkingS * 1000) / r.parallel) / r.jobs;

/** The corpus through the command and through the workers: the first table and its notes. */
async function corpusPart(redis: RedisServer, dir: string): Promise<string> {
  const inputs = INPUTS.filter((p) => bench.has(`the corpus runs over ${relative(ROOT, p)}`, p));
  if (inputs.length === 0) return '';
  bench.log('chunkstream --jobs 1');
  const cli1 = await best(() => cliRun(1, inputs, dir));
  bench.log('chunkstream --jobs 2');
  const cli2 = await best(() => cliRun(2, inputs, dir));
  const enqueueTimes: number[] = [];
  bench.log('1 worker');
  const q1 = await best(async () => {
    const r = await queueRun(redis, 1, inputs, dir, '1 worker');
    enqueueTimes.push(r.enqueueS);
    return r.row;
  });
  bench.log('2 workers');
  const q2 = await best(async () => (await queueRun(redis, 2, inputs, dir, '2 workers')).row);
  const rows = [cli1, cli2, q1, q2].map((r) => [
    r.name,
    r.jobs,
    r.failed,
    fmt(r.mb),
    fmt(r.wallS),
    fmt(r.mb / r.wallS),
    fmt(r.chunkingS),
    fmt(outsideMs(r)),
    r.queueMsPerJob === undefined ? '' : fmt(r.queueMsPerJob),
    r.queueMsPerJob === undefined ? '' : `${fmt(((r.queueMsPerJob * r.jobs) / (r.chunkingS * 1000)) * 100, 1)}%`,
    r.rssMb.map((m) => m.toFixed(0)).join(' + '),
    fmt(r.cpuS),
  ]);
  const header = ['run', 'files', 'failed', 'MB', 'wall s', 'MB/s', 'chunking s', 'wall − chunking, ms/file', 'queue ms/job', 'queue / chunking', 'peak RSS MB per process', 'CPU s'];
  return [
    `The corpus (\`${inputs.map((p) => relative(ROOT, p)).join('`, `')}\`${inputs.length === 2 ? ', Markdown and PDF' : ''}) through \`chunkstream --out-dir\` and through \`chunkstream worker\` processes on one local Redis, best of ${RUNS} run(s). Wall time runs from the first process's start to the last one's exit (node start-up and module loading included, jobs enqueued beforehand).`,
    '',
    markdownTable(header, rows, ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r']),
    '',
    `- wall − chunking: the run's wall time less the files' own chunking time (\`timeMs\`, measured the same way by both) shared over its threads or processes, per file: start-up, module loading, reading inputs and writing outputs, and for the workers the queue.`,
    `- queue ms/job: each worker's time from being ready to the end of its last job, less its chunking time, per job: taking, locking and completing the job in Redis, opening and renaming its output file. What comes after its last job (waiting for the other worker's, closing connections) is a cost per run, not per job. The goal is under 5% of chunking time.`,
    `- Queue vs command: 1 worker ${fmt(q1.wallS / cli1.wallS)}× the wall time of \`--jobs 1\`, 2 workers ${fmt(q2.wallS / cli2.wallS)}× that of \`--jobs 2\`; speed-up of 2 workers over 1: ${fmt(q1.wallS / q2.wallS)}× (of \`--jobs 2\` over \`--jobs 1\`: ${fmt(cli1.wallS / cli2.wallS)}×; both fall to 1 or below when other work holds the cores).`,
    `- Enqueueing the corpus (${q1.jobs} jobs, one \`chunkstream enqueue\` process, start-up included): ${enqueueTimes.map((t) => `${fmt(t)} s`).join(', ')}.`,
  ].join('\n');
}

/** Tiny jobs: one short paragraph each, where the queue's cost per job is all there is to measure. */
async function tinyPart(redis: RedisServer, dir: string): Promise<string> {
  const tinyDir = join(dir, 'tiny');
  mkdirSync(tinyDir);
  for (let i = 0; i < TINY_JOBS; i++) writeFileSync(join(tinyDir, `t${String(i).padStart(4, '0')}.md`), `# Note ${i}\n\nA short note, number ${i}, of a few words.\n`);
  bench.log(`${TINY_JOBS} tiny files`);
  const tinyCli = await best(() => cliRun(1, [tinyDir], dir));
  const tinyQueue = await best(async () => (await queueRun(redis, 1, [tinyDir], dir, '1 worker')).row);
  const tinyRows = [tinyCli, tinyQueue].map((r) => [r.name, r.jobs, fmt(r.wallS), fmt((r.chunkingS * 1000) / r.jobs), fmt(outsideMs(r)), r.queueMsPerJob === undefined ? '' : fmt(r.queueMsPerJob), r.rssMb.map((m) => m.toFixed(0)).join(' + ')]);
  return [
    `${TINY_JOBS} tiny Markdown files (one heading and one sentence each), one process:`,
    '',
    markdownTable(['run', 'files', 'wall s', 'chunking ms/file', 'wall − chunking, ms/file', 'queue ms/job', 'peak RSS MB'], tinyRows, ['l', 'r', 'r', 'r', 'r', 'r', 'r']),
  ].join('\n');
}

if (!HAS_REDIS) {
  bench.skip('every run: redis-server is not installed (Debian package redis-server)');
  bench.finish('');
} else {
  const dir = mkdtempSync(join(tmpdir(), 'chunkstream-bench-queue-'));
  const redis = await startRedis();
  try {
    bench.finish([await corpusPart(redis, dir), await tinyPart(redis, dir)].filter((p) => p !== '').join('\n\n'));
  } finally {
    await redis.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
