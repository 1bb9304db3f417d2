/**
 * The main job: `chunkstream <inputs> --max-size 512 --out FILE`, as most users run it, on a folder of many files
 * (Node's API docs copied four times, 263 files, 14 MB) and on one large file (the same docs concatenated, four
 * times), with `--jobs 1` and `--jobs 2`; beside `chunkText` warm on the same files in the same run (the engine's
 * speed, which the command spends start-up, reading, streaming and writing on top of).
 *
 *   npx tsx bench/main-job.ts                 # best of 2 processes per row
 *   npx tsx bench/main-job.ts --runs 3
 *   npx tsx bench/main-job.ts --quick         # one copy of the docs, one process per row
 *
 * Each command is a fresh `node dist/cli/main.js`, wall time from spawn to exit; its CPU time per thread is read
 * from `/proc` by a preloaded module (`support/thread-cpu.mjs`): the main thread, V8's helper threads (optimizing
 * compilation, GC) and the threads started later (the worker threads). On a machine other work shares, wall
 * times and the `--jobs 2` speed-up say little; CPU seconds per MB still do.
 *
 * Goals: `--jobs 2` at least 1.7× `--jobs 1` on the folder; `--jobs 1` at least 0.8× `chunkText` warm; output
 * byte-identical across `--jobs`.
 */
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { numberFlag } from './support/args.js';
import { markdownTable } from './support/results.js';
import { bestOf, failureText, NODE_DOCS, ROOT, startBench } from './support/runner.js';

const BIN = 'dist/cli/main.js';
const SPEEDUP_GOAL = 1.7;
const ENGINE_GOAL = 0.8;

const bench = startBench(
  { script: 'bench/main-job.ts', summary: "The command over a folder of many files and over one large file (Node's API docs ×4), --jobs 1 and 2, beside chunkText warm on the same files." },
  {
    runs: { type: 'string', value: 'N', description: 'processes per row, the fastest kept (default 2; 1 with --quick)' },
    copies: { type: 'string', value: 'N', description: 'copies of the docs in the folder and the large file (default 4; 1 with --quick)' },
  },
);
const runs = numberFlag('runs', bench.values.runs, bench.quick ? 1 : 2);
const copies = numberFlag('copies', bench.values.copies, bench.quick ? 1 : 4);

/** One command's figures. */
interface Command {
  jobs: number;
  seconds: number;
  cpuMs: number;
  mainMs: number;
  helpersMs: number;
  /** CPU of each thread started after the process (worker threads first, the busiest first). */
  laterMs: number[];
  rssMb: number;
  chunks: number;
  bytes: number;
  /** sha-256 of the output file. */
  digest: string;
}

/** What `main-job-child.mjs` reports. */
interface Engine {
  seconds: number;
  cpuSeconds: number;
  chunks: number;
  bytes: number;
  peakRssMb: number;
}

async function runCommand(jobs: number, input: string, dir: string): Promise<Command> {
  const out = join(dir, `out-${jobs}.jsonl`);
  const stats = join(dir, `stats-${jobs}.json`);
  const threads = join(dir, `threads-${jobs}.json`);
  rmSync(stats, { force: true });
  const exit = await bench.run(BIN, ['--quiet', '--jobs', String(jobs), '--max-size', '512', '--out', out, '--stats-json', stats, input], {
    nodeArgs: ['--import', join(ROOT, 'bench/support/thread-cpu.mjs')],
    env: { CHUNKSTREAM_THREAD_CPU: threads },
  });
  if (exit.code !== 0 || !existsSync(stats)) throw new Error(`chunkstream --jobs ${jobs} ${input}: ${exit.timedOut ? 'not finished in time' : failureText(exit)}`);
  const s = JSON.parse(readFileSync(stats, 'utf8'));
  const t = JSON.parse(readFileSync(threads, 'utf8')) as { mainMs: number; v8HelpersMs: number; laterMs: number[]; totalMs: number };
  const digest = createHash('sha256').update(readFileSync(out)).digest('hex').slice(0, 16);
  rmSync(out, { force: true });
  return { jobs, seconds: exit.seconds, cpuMs: t.totalMs, mainMs: t.mainMs, helpersMs: t.v8HelpersMs, laterMs: t.laterMs, rssMb: s.run.peakRssBytes / 1e6, chunks: s.total.chunks, bytes: s.total.bytes, digest };
}

async function runEngine(input: string): Promise<Engine> {
  const outcome = await bench.measure<Engine>('main-job-child.mjs', [input]);
  if (!outcome.ok) throw new Error(`chunkText on ${input}: ${outcome.error}`);
  return outcome.report;
}

/** The docs' Markdown files, sorted. */
function docs(): string[] {
  return readdirSync(NODE_DOCS).filter((n) => n.endsWith('.md')).sort();
}

/** The inputs: a folder of `copies` copies of the docs, and one file of the docs concatenated `copies` times. */
function makeInputs(dir: string): { folder: string; file: string } {
  const folder = join(dir, 'docs');
  for (let c = 1; c <= copies; c++) {
    mkdirSync(join(folder, `copy-${c}`), { recursive: true });
    for (const name of docs()) cpSync(join(NODE_DOCS, name), join(folder, `copy-${c}`, name));
  }
  const once = docs().map((name) => readFileSync(join(NODE_DOCS, name), 'utf8')).join('\n\n');
  const file = join(dir, 'docs.md');
  writeFileSync(file, `${once}\n\n`.repeat(copies));
  return { folder, file };
}

const MB = 1e6;
const seconds = (n: number): string => n.toFixed(2);

/** The rows and goal lines of one input. */
async function measureInput(label: string, input: string, dir: string, speedupGoal: boolean): Promise<{ rows: string[][]; lines: string[] }> {
  bench.log(`${label}: chunkText warm`);
  const engine = await bestOf(runs, () => runEngine(input), (e) => e.seconds);
  const commands: Command[] = [];
  for (const jobs of [1, 2]) {
    bench.log(`${label}: --jobs ${jobs}`);
    commands.push(await bestOf(runs, () => runCommand(jobs, input, dir), (c) => c.seconds));
  }
  const engineRate = engine.bytes / MB / engine.seconds;
  const rows = [
    [label, 'chunkText warm', (engine.bytes / MB).toFixed(2), seconds(engine.seconds), engineRate.toFixed(2), '1.00', seconds(engine.cpuSeconds), (engine.cpuSeconds / (engine.bytes / MB)).toFixed(3), '', '', engine.peakRssMb.toFixed(0), String(engine.chunks), ''],
    ...commands.map((c) => {
      const rate = c.bytes / MB / c.seconds;
      const workers = c.laterMs.filter((ms) => ms >= 100);
      return [
        label,
        `--jobs ${c.jobs}`,
        (c.bytes / MB).toFixed(2),
        seconds(c.seconds),
        rate.toFixed(2),
        (rate / engineRate).toFixed(2),
        seconds(c.cpuMs / 1000),
        (c.cpuMs / 1000 / (c.bytes / MB)).toFixed(3),
        seconds(c.mainMs / 1000),
        `${seconds(c.helpersMs / 1000)} / ${workers.length === 0 ? '–' : workers.map((ms) => seconds(ms / 1000)).join(' + ')}`,
        c.rssMb.toFixed(0),
        String(c.chunks),
        c.digest,
      ];
    }),
  ];
  const [one, two] = commands as [Command, Command];
  const speedup = one.seconds / two.seconds;
  const engineRatio = one.bytes / one.seconds / (engine.bytes / engine.seconds);
  const lines = [
    `- ${label}: --jobs 2 is ${speedup.toFixed(2)}× --jobs 1 (wall)${speedupGoal ? `, goal ≥ ${SPEEDUP_GOAL}: ${speedup >= SPEEDUP_GOAL ? 'PASS' : 'FAIL'}` : ''}; CPU ${(two.cpuMs / one.cpuMs).toFixed(2)}× as much`,
    `- ${label}: --jobs 1 runs at ${engineRatio.toFixed(2)}× chunkText warm, goal ≥ ${ENGINE_GOAL}: ${engineRatio >= ENGINE_GOAL ? 'PASS' : 'FAIL'}`,
    `- ${label}: output of --jobs 1 and --jobs 2 ${one.digest === two.digest ? 'byte-identical: PASS' : `DIFFERENT (${one.digest} against ${two.digest}): FAIL`}`,
  ];
  return { rows, lines };
}

let body = '';
if (bench.has("the main job (Node's API docs)", NODE_DOCS)) {
  const dir = mkdtempSync(join(tmpdir(), 'chunkstream-main-job-'));
  try {
    const { folder, file } = makeInputs(dir);
    const folderPart = await measureInput(`folder (${docs().length * copies} files)`, folder, dir, true);
    const filePart = await measureInput('one file', file, dir, false);
    body = [
      `\`chunkstream --max-size 512 --out FILE\` on Node's API docs ×${copies}: a folder of ${copies} copies of \`${NODE_DOCS}/*.md\`, and one file of the docs concatenated ${copies} times; best of ${runs} process(es) per row, wall time from spawn to exit. chunkText warm: the same documents in one process, after a first pass; chunks counted, not serialized.`,
      '',
      markdownTable(
        ['input', 'run', 'MB', 'wall s', 'MB/s', '× chunkText warm', 'CPU s', 'CPU s/MB', 'main thread CPU s', 'V8 helpers / workers CPU s', 'peak RSS MB', 'chunks', 'output sha-256'],
        [...folderPart.rows, ...filePart.rows],
        ['l', 'l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'l'],
      ),
      '',
      '- CPU: every thread of the process (main, V8 helper threads, worker threads). V8 helpers: optimizing compilation and GC threads, started with the process; workers: the threads started later that used at least 0.1 s (worker threads).',
      '- `--jobs N` chunks on N threads, the main thread one of them; the main thread also orders and writes every thread’s bytes.',
      '',
      'Goals:',
      '',
      ...folderPart.lines,
      ...filePart.lines,
    ].join('\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
bench.finish(body);
