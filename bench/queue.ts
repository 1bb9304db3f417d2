/**
 * The corpus (Markdown and PDF) through BullMQ workers against the same folders through the plain command:
 * `chunkstream --jobs 1/2 --out-dir` and 1 or 2 `chunkstream worker` processes on a local Redis (Debian's
 * redis-server on a free loopback port). Prints throughput, the queue's cost per job (worker time not spent
 * chunking, divided by the jobs) and as a share of chunking time, and peak RSS per process; then the same cost on
 * many tiny jobs, where it is all there is. Every measured process is a fresh `node dist/cli/main.js`.
 *
 * `--soak` runs the long soak instead: many small jobs through 2 workers on a Redis with an append-only file, one
 * worker killed with SIGKILL every few seconds (and started again, as a service manager would), Redis restarted at
 * a third and at two thirds of the run; then every output must exist once and be byte-identical to what
 * `chunkstream --out-dir` writes alone, no job may complete twice and the manifest must find none lost. Prints jobs
 * per second and each worker's peak RSS.
 *
 *   npx tsx bench/queue.ts               # the corpus, then 400 tiny files
 *   npx tsx bench/queue.ts --runs 3      # each setting three times, the fastest kept
 *   npx tsx bench/queue.ts --quick       # the corpus Markdown only, then 50 tiny files
 *   npx tsx bench/queue.ts --soak        # 10,000 jobs, a SIGKILL every 3 s, two Redis restarts
 *   npx tsx bench/queue.ts --soak --quick   # 1,000 jobs: checks that the soak works
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { HAS_REDIS, startRedis, type RedisServer } from '../test/support/redis-server.js';
import { numberFlag } from './support/args.js';
import { getQueueStatus, parseManifest, type ExpectedJob, type QueueStatus } from '../src/integrations/queue/index.js';
import { markdownTable, writeResults } from './support/results.js';
import { bestOf, CORPUS, failureText, ROOT, startBench, type Exit } from './support/runner.js';

const BIN = 'dist/cli/main.js';

const bench = startBench(
  { script: 'bench/queue.ts', summary: "The corpus through 1 and 2 BullMQ workers on a local Redis against chunkstream --jobs 1/2 --out-dir: throughput, the queue's cost per job, peak RSS per process; then the cost per job on tiny files." },
  {
    runs: { type: 'string', default: '1', value: 'N', description: 'runs per setting, the fastest kept' },
    'tiny-jobs': { type: 'string', value: 'N', description: 'tiny files in the second part (default 400; 50 with --quick)' },
    soak: { type: 'boolean', default: false, description: 'run the long soak instead: workers killed, Redis restarted, every output checked' },
    'soak-jobs': { type: 'string', value: 'N', description: 'jobs of the soak (default 10000; 1000 with --quick)' },
    'kill-every': { type: 'string', default: '3', value: 'S', description: 'seconds between two SIGKILLs of a worker in the soak' },
  },
);
const RUNS = numberFlag('runs', bench.values.runs, 1);
const TINY_JOBS = numberFlag('tiny-jobs', bench.values['tiny-jobs'], bench.quick ? 50 : 400);
const SOAK_JOBS = numberFlag('soak-jobs', bench.values['soak-jobs'], bench.quick ? 1000 : 10_000);
const KILL_EVERY_S = numberFlag('kill-every', bench.values['kill-every'], 3);
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

/** One worker of the soak: the process in it now, and what every process it held printed and used. */
interface SoakSlot {
  readonly name: string;
  child: ChildProcess | undefined;
  /** Processes started in this slot (the first, and one after each SIGKILL). */
  processes: number;
  /** Ids of the jobs its processes completed, in order (a killed process's included). */
  readonly completed: string[];
  /** Jobs its processes took back from a dead worker (`stalled` lines). */
  stalled: number;
  /** Peak RSS of each of its processes, bytes. */
  readonly peakRss: number[];
}

/** The peak RSS of a running process (`VmHWM`), or undefined once it is gone. */
function peakRssOf(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const match = /^VmHWM:\s+(\d+)\s+kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** Starts a worker process in `slot`, reading its job lines as they come. */
function startSoakWorker(slot: SoakSlot, args: readonly string[]): void {
  const child = spawn(process.execPath, [BIN, 'worker', ...args, '--worker-id', `${slot.name}-${slot.processes + 1}`], { cwd: ROOT, stdio: ['ignore', 'pipe', 'ignore'] });
  slot.processes++;
  slot.peakRss.push(0);
  slot.child = child;
  let partial = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    const lines = (partial + d).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      const completed = /^completed (\S+) /.exec(line);
      if (completed) slot.completed.push(completed[1] as string);
      else if (line.startsWith('stalled ')) slot.stalled++;
    }
  });
}

/** Notes each live worker's peak RSS so far (a killed one keeps what it reached). */
function sampleRss(slots: readonly SoakSlot[]): void {
  for (const slot of slots) {
    const rss = peakRssOf(slot.child?.pid);
    const last = slot.peakRss.length - 1;
    if (rss !== undefined && rss > (slot.peakRss[last] ?? 0)) slot.peakRss[last] = rss;
  }
}

/** Stops a slot's process with `signal` and waits for it. */
async function stopSlot(slot: SoakSlot, signal: NodeJS.Signals): Promise<void> {
  const child = slot.child;
  if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill(signal);
  await exited;
}

/** What a soak run saw. */
interface SoakRun {
  wallS: number;
  kills: number;
  restarts: number;
  status: QueueStatus;
  slots: SoakSlot[];
}

/**
 * Runs the queue to its end while the faults come: a SIGKILL of one worker every `KILL_EVERY_S` (the two in turn,
 * each started again at once), a Redis restart at a third and at two thirds of the jobs.
 */
async function runSoak(redis: RedisServer, args: readonly string[], jobs: readonly ExpectedJob[]): Promise<SoakRun> {
  const slots: SoakSlot[] = ['a', 'b'].map((name) => ({ name, child: undefined, processes: 0, completed: [], stalled: 0, peakRss: [] }));
  const started = performance.now();
  for (const slot of slots) startSoakWorker(slot, args);
  const state = { kills: 0, restarts: 0, killing: false };
  const sampler = setInterval(() => sampleRss(slots), 250);
  const killer = setInterval(() => {
    if (state.killing) return;
    state.killing = true;
    const slot = slots[state.kills % slots.length] as SoakSlot;
    sampleRss(slots);
    void stopSlot(slot, 'SIGKILL').then(() => {
      state.kills++;
      startSoakWorker(slot, args);
      state.killing = false;
    });
  }, KILL_EVERY_S * 1000);
  const deadline = Date.now() + bench.timeoutMs;
  let status: QueueStatus | undefined;
  try {
    for (;;) {
      status = await getQueueStatus({ redis: redis.url, queue: 'soak', failedLimit: 10 }).catch(() => undefined);
      const ended = status === undefined ? 0 : status.counts.completed + status.counts.failed;
      if (status?.done && ended === jobs.length) break;
      if (state.restarts < 2 && ended >= (jobs.length * (state.restarts + 1)) / 3) {
        bench.log(`${ended} of ${jobs.length} jobs ended, ${state.kills} kills: Redis restarts`);
        await redis.restart({ downMs: 500 });
        state.restarts++;
      }
      if (Date.now() > deadline) throw new Error(`the soak did not end in time: ${JSON.stringify(status?.counts)}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  } finally {
    clearInterval(killer);
    clearInterval(sampler);
  }
  const wallS = (performance.now() - started) / 1000;
  sampleRss(slots);
  while (state.killing) await new Promise((resolve) => setTimeout(resolve, 50));
  await Promise.all(slots.map((slot) => stopSlot(slot, 'SIGTERM')));
  const final = await getQueueStatus({ redis: redis.url, queue: 'soak', jobs });
  return { wallS, kills: state.kills, restarts: state.restarts, status: final, slots };
}

/** Files under `root`, relative, sorted. */
function treeOf(root: string): string[] {
  return (readdirSync(root, { recursive: true }) as string[]).filter((p) => statSync(join(root, p)).isFile()).sort();
}

/** Compares the queue's output folder with the command line's: names, then bytes. */
function compareTrees(out: string, reference: string): { missing: number; extra: number; differ: number; same: number } {
  const mine = treeOf(out);
  const theirs = treeOf(reference);
  const mineSet = new Set(mine);
  const theirSet = new Set(theirs);
  let same = 0;
  let differ = 0;
  for (const name of theirs) {
    if (!mineSet.has(name)) continue;
    if (readFileSync(join(out, name)).equals(readFileSync(join(reference, name)))) same++;
    else differ++;
  }
  return { missing: theirs.filter((n) => !mineSet.has(n)).length, extra: mine.filter((n) => !theirSet.has(n)).length, differ, same };
}

/** The long soak: see the file's header. */
async function soakPart(dir: string): Promise<string> {
  const input = join(dir, 'in');
  mkdirSync(input);
  for (let i = 0; i < SOAK_JOBS; i++) writeFileSync(join(input, `n${String(i).padStart(5, '0')}.md`), `# Note ${i}\n\nA short note, number ${i}, ${'of a few words '.repeat(1 + (i % 9))}.\n`);
  const redis = await startRedis({ appendonly: 'everysec' });
  try {
    const manifest = join(dir, 'manifest.jsonl');
    bench.log(`enqueueing ${SOAK_JOBS} jobs`);
    const e = await run(['enqueue', '--quiet', '--redis', redis.url, '--queue', 'soak', '--input-root', input, '--manifest', manifest, input]);
    if (e.code !== 0) throw new Error(`enqueue: ${failureText(e)}`);
    const jobs = parseManifest(readFileSync(manifest, 'utf8'), 'soak');
    const out = join(dir, 'out');
    // A job may lose its worker many times in a soak: --max-stalled high, so that none fails for it.
    const args = ['--redis', redis.url, '--queue', 'soak', '--out-dir', out, '--input-root', input, '--lock-duration', '3000', '--stalled-interval', '1000', '--max-stalled', '1000'];
    bench.log(`2 workers, a SIGKILL every ${KILL_EVERY_S} s, Redis restarted at a third and two thirds`);
    const soak = await runSoak(redis, args, jobs);
    bench.log('chunkstream --jobs 2 --out-dir on the same files, to compare');
    const reference = join(dir, 'reference');
    const r = await run(['-q', '--jobs', '2', '--out-dir', reference, input]);
    if (r.code !== 0) throw new Error(`chunkstream --out-dir: ${failureText(r)}`);
    return soakReport(soak, compareTrees(out, reference));
  } finally {
    await redis.stop();
  }
}

/** The soak's section. */
function soakReport(soak: SoakRun, tree: ReturnType<typeof compareTrees>): string {
  const ids = soak.slots.flatMap((s) => s.completed);
  const twice = ids.length - new Set(ids).size;
  const { counts, vanished } = soak.status;
  const rss = soak.slots.map((s) => `${s.name}: ${(Math.max(...s.peakRss) / 1e6).toFixed(0)} MB at most over ${s.processes} processes (median ${(median(s.peakRss) / 1e6).toFixed(0)})`);
  const row = [SOAK_JOBS, fmt(soak.wallS, 1), fmt(SOAK_JOBS / soak.wallS, 0), soak.kills, soak.restarts, soak.slots.reduce((a, s) => a + s.stalled, 0), counts.completed, counts.failed, vanished.length, `${ids.length} (${twice} twice)`, `${tree.same} of ${SOAK_JOBS}`];
  const header = ['jobs', 'wall s', 'jobs/s', 'SIGKILLs', 'Redis restarts', 'jobs taken back', 'completed', 'failed', 'vanished', 'completion lines', 'outputs identical to the CLI'];
  const verdict = counts.completed === SOAK_JOBS && counts.failed === 0 && vanished.length === 0 && twice === 0 && tree.same === SOAK_JOBS && tree.missing + tree.extra + tree.differ === 0;
  return [
    `${SOAK_JOBS} small Markdown files, one job each, through 2 \`chunkstream worker\` processes on a local Redis with an append-only file (\`appendfsync everysec\`, restarted with SIGTERM): one worker killed with SIGKILL every ${KILL_EVERY_S} s, the two in turn, and started again at once; Redis restarted at a third and at two thirds of the jobs; locks of 3 s, a stalled-job check every second. Wall time runs from the workers' start to the last job's end.`,
    '',
    markdownTable(header, [row], header.map(() => 'r')),
    '',
    `- ${verdict ? 'Every output exists once and is byte-identical to `chunkstream --out-dir` on the same files; no job completed twice; the enqueue manifest finds none lost.' : `NOT CLEAN: ${tree.missing} outputs missing, ${tree.extra} files beside them, ${tree.differ} differing, ${twice} completions twice, ${vanished.length} jobs vanished, ${counts.failed} failed.`}`,
    '- Completion lines: the `completed` lines of every worker process, the killed ones included. A job completed in Redis whose line was never printed (its worker killed between the two, or its reply cut off by a Redis restart) is missing from them, so there may be fewer lines than jobs; never a job twice.',
    `- Peak RSS per worker (\`VmHWM\`, sampled every 250 ms and before each kill): ${rss.join('; ')}.`,
  ].join('\n');
}

/** The median of a list of numbers. */
function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

if (!HAS_REDIS) {
  bench.skip('every run: redis-server is not installed (Debian package redis-server)');
  bench.finish('');
} else if (bench.values.soak) {
  const dir = mkdtempSync(join(tmpdir(), 'chunkstream-bench-soak-'));
  try {
    const body = await soakPart(dir);
    // A section of its own: the soak does not replace the corpus figures.
    writeResults('bench/queue.ts --soak', `${bench.quick ? '*Quick run (`--quick`): a check that the soak works; these figures are not for comparison.*\n\n' : ''}${body}`, { write: bench.values['dry-run'] !== true });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
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
