/**
 * Chunking throughput and memory, chunkstream beside its peers, on the same input in the same run.
 *
 *   npx tsx bench/chunk.ts                          # corpus Markdown, Node's API docs, then the streaming runs
 *   npx tsx bench/chunk.ts --quick                  # without the streaming runs (also BENCH_QUICK=1)
 *   npx tsx bench/chunk.ts --baseline /tmp/old/dist # the chunkstream contenders on both builds, side by side
 *
 * Every measurement runs in its own plain Node process (`support/chunk-child.mjs`), so that peak RSS (the
 * process's own high-water mark, worker threads included) and warm-up belong to that measurement alone. All
 * contenders count tokens with cl100k_base from the local js-tiktoken ranks, at 512 tokens. The corpus and Node's
 * docs are chunked five times in each process: the table gives the fastest pass after the first (the steady state
 * of a job over many files) and, beside it, the first, which includes compiling each contender's code; with
 * `--runs N`, each of the two is the fastest of the N processes on its own.
 *
 * `--baseline DIR` names a second built `dist/`, e.g. of an older commit in a temporary worktree whose
 * `node_modules` links to this one's. The chunkstream contenders then run on both builds, alternately, and a
 * table gives their ratio and whether both cut the same chunks (a digest of the chunk texts, or of the chunks'
 * start, end and size when streamed).
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listFlag, numberFlag } from './support/args.js';
import { markdownTable } from './support/results.js';
import { checkDist, CORPUS, NODE_DOCS, startBench, type Outcome } from './support/runner.js';

const RSS_GOAL_MB = 200;
const FLOOR_GOAL = 1.3;
const LINEAR_GOAL = 1.1;

/** What `chunk-child.mjs` reports. */
interface Measure {
  seconds: number;
  cpuSeconds: number;
  chunks: number;
  bytes: number;
  peakRssMb: number;
  /** Token counts: median, 90th percentile, largest, and how many exceed the limit. */
  p50: number;
  p90: number;
  max: number;
  over: number;
  /** A digest of the chunks: equal digests, equal chunks. */
  digest: string;
  /** Documents runs: seconds of the first pass, which includes compiling the contender's code. */
  firstSeconds?: number;
}

/** The contenders: `chunkstream: true` ones are measured on every build given. */
const CONTENDERS = [
  { key: 'chunkstream', name: 'chunkstream (workers: 0)', chunkstream: true },
  { key: 'chunkstream-thread', name: 'chunkstream (workers: 1)', chunkstream: true },
  { key: 'remark-floor', name: 'remark block-level, parse only', chunkstream: false },
  { key: 'langchain', name: 'LangChain.js recursive markdown', chunkstream: false },
  { key: 'chonkie', name: 'chonkie recursive', chunkstream: false },
  { key: 'llamaindex', name: 'LlamaIndex.TS markdown + sentence', chunkstream: false },
] as const;
type Contender = (typeof CONTENDERS)[number];
const REFERENCE = 'langchain';

const INPUTS = {
  corpus: { title: 'shared corpus Markdown (../shared/corpus/md), file by file', path: join(CORPUS, 'md') },
  nodedocs: { title: `Node's API docs (${NODE_DOCS}/*.md) concatenated`, path: NODE_DOCS },
} as const;
type InputName = keyof typeof INPUTS;

const bench = startBench(
  { script: 'bench/chunk.ts', summary: 'Chunking throughput and peak RSS at 512 tokens: chunkstream beside bare remark, LangChain.js, chonkie and LlamaIndex.TS; then streaming runs from disk.' },
  {
    baseline: { type: 'string', value: 'DIR', description: 'a second built dist/ directory: the chunkstream contenders run on both builds, with their ratio' },
    inputs: { type: 'string', value: 'LIST', description: `inputs to chunk, of ${Object.keys(INPUTS).join(',')} (default all)` },
    contenders: { type: 'string', value: 'LIST', description: `contenders, of ${CONTENDERS.map((c) => c.key).join(',')} (default all)` },
    copies: { type: 'string', value: 'LIST', description: "copies of Node's API docs streamed, e.g. 1,4 (default 1,4,16 and ~70 MB); the parse thread runs on the largest" },
    runs: { type: 'string', default: '1', value: 'N', description: 'processes per measurement (per build), the fastest kept' },
    options: { type: 'string', value: 'JSON', description: 'more chunking options for the chunkstream contenders, e.g. {"splitLevels":[1,2]} to hold a baseline built with other defaults to the same settings' },
  },
);

if (bench.values.options !== undefined) {
  JSON.parse(bench.values.options);
  // The children read it from their environment (`chunk-child.mjs`).
  process.env.CHUNKSTREAM_BENCH_OPTIONS = bench.values.options;
}

const runs = numberFlag('runs', bench.values.runs, 1);
const baseline = bench.values.baseline === undefined ? undefined : checkDist(bench.values.baseline, '--baseline');
/** The builds measured: this project's `dist/`, and the baseline when given. */
const builds: { label: string; dist: string | undefined }[] = [{ label: '', dist: undefined }, ...(baseline ? [{ label: ' · baseline', dist: baseline }] : [])];
const wantedInputs = listFlag(bench.values.inputs, Object.keys(INPUTS));
const wantedContenders = listFlag(bench.values.contenders, CONTENDERS.map((c) => c.key));
for (const name of wantedInputs) if (!(name in INPUTS)) throw new Error(`--inputs: unknown input ${name}`);
for (const key of wantedContenders) if (!CONTENDERS.some((c) => c.key === key)) throw new Error(`--contenders: unknown contender ${key}`);
const contenders = CONTENDERS.filter((c) => wantedContenders.includes(c.key));

/** One measured row: a contender on one build in one run (an input, or a streamed size). */
type Row = { name: string; contender: Contender; build: string; run: string; outcome: Outcome<Measure> };
type Pair = { label: string; mine: Row; theirs: Row | undefined };

const rate = (m: Measure): number => m.bytes / 1e6 / m.seconds;
const firstRate = (m: Measure): number => m.bytes / 1e6 / (m.firstSeconds ?? m.seconds);
const measured = (row: Row | undefined): Measure | undefined => (row?.outcome.ok ? row.outcome.report : undefined);

/**
 * The better of two processes' outcomes: the faster steady pass, and beside it the faster first pass of the two.
 * Each figure is the fastest of the processes on its own, so that a process whose first pass met a busy moment
 * does not hide another's.
 */
function faster(kept: Outcome<Measure> | undefined, next: Outcome<Measure>): Outcome<Measure> {
  if (kept === undefined || !kept.ok) return next;
  if (!next.ok) return kept;
  const steadier = next.report.seconds < kept.report.seconds ? next : kept;
  const [a, b] = [kept.report.firstSeconds, next.report.firstSeconds];
  return { ...steadier, report: { ...steadier.report, firstSeconds: a === undefined || b === undefined ? (a ?? b) : Math.min(a, b) } };
}

/**
 * One contender on one input, on every build (or this one only for the peers), best of `runs` processes each. The
 * builds alternate, and swap places from one run to the next, so that a change of load on the machine, or
 * whatever the first process of a pair pays, falls on both alike.
 */
async function measureBuilds(contender: Contender, input: string, run: string, suffix = ''): Promise<Row[]> {
  const mine = contender.chunkstream ? builds : builds.slice(0, 1);
  const best = new Map<string, Outcome<Measure>>();
  for (let r = 0; r < runs; r++) {
    for (const build of r % 2 === 0 ? mine : [...mine].reverse()) {
      bench.log(`${run}: ${contender.name}${build.label}, process ${r + 1} of ${runs}`);
      const outcome = await bench.measure<Measure>('chunk-child.mjs', [contender.key, input], { dist: build.dist });
      best.set(build.label, faster(best.get(build.label), outcome));
    }
  }
  return mine.map((build) => ({ name: `${contender.name}${build.label}${suffix}`, contender, build: build.label, run, outcome: best.get(build.label)! }));
}

/** The table of one input: every contender's figures and its ratio to `reference` (named `refName`). */
function table(rows: Row[], reference: Row | undefined, refName = reference?.name ?? 'reference'): string {
  const twoPasses = rows.some((r) => measured(r)?.firstSeconds !== undefined);
  const ref = measured(reference);
  const header = ['contender', 'MB', 's', 'cpu s', 'MB/s', `× ${refName}`, ...(twoPasses ? ['first pass MB/s', `× ${refName}`] : []), 'peak RSS MB', 'chunks', 'tokens p50 / p90 / max', 'over 512'];
  const cells = rows.map((row) => {
    if (!row.outcome.ok) return [row.name, `failed: ${row.outcome.error}`, ...header.slice(2).map(() => '')];
    const m = row.outcome.report;
    return [
      row.name,
      (m.bytes / 1e6).toFixed(2),
      m.seconds.toFixed(2),
      m.cpuSeconds.toFixed(2),
      rate(m).toFixed(2),
      ref ? (rate(m) / rate(ref)).toFixed(2) : '–',
      ...(twoPasses ? [firstRate(m).toFixed(2), ref ? (firstRate(m) / firstRate(ref)).toFixed(2) : '–'] : []),
      m.peakRssMb.toFixed(0),
      m.chunks,
      `${m.p50} / ${m.p90} / ${m.max}`,
      m.over,
    ];
  });
  return markdownTable(header, cells, header.map((_, i) => (i === 0 || i === header.length - 2 ? 'l' : 'r')));
}

/** This build against the baseline, row by row: speed ratio, memory, and whether the chunks are the same. */
function baselineTable(pairs: Pair[]): string {
  const header = ['run', 'MB/s', 'baseline MB/s', 'this / baseline', 'first pass this / baseline', 'peak RSS MB', 'baseline peak RSS MB', 'same chunks'];
  const cells = pairs.map(({ label, mine, theirs }) => {
    const a = measured(mine);
    const b = measured(theirs);
    if (a === undefined || b === undefined) return [label, a ? rate(a).toFixed(2) : 'failed', b ? rate(b).toFixed(2) : 'failed', '', '', '', '', ''];
    const first = a.firstSeconds !== undefined && b.firstSeconds !== undefined ? (firstRate(a) / firstRate(b)).toFixed(2) : '';
    return [label, rate(a).toFixed(2), rate(b).toFixed(2), (rate(a) / rate(b)).toFixed(2), first, a.peakRssMb.toFixed(0), b.peakRssMb.toFixed(0), a.digest === b.digest ? 'yes' : 'NO'];
  });
  return markdownTable(header, cells, ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'l']);
}

/** Pairs each chunkstream row of this build with the same run of the baseline. */
function pairsOf(rows: Row[]): Pair[] {
  return rows
    .filter((r) => r.contender.chunkstream && r.build === '')
    .map((mine) => ({ label: `${mine.run}: ${mine.contender.name}`, mine, theirs: rows.find((r) => r.build !== '' && r.contender === mine.contender && r.run === mine.run) }));
}

/** The documents runs: each input through each contender. */
async function documentRuns(sections: string[], comparisons: Pair[]): Promise<void> {
  for (const name of Object.keys(INPUTS) as InputName[]) {
    const input = INPUTS[name];
    if (!wantedInputs.includes(name)) {
      bench.skip(`${input.title} (not in --inputs)`);
      continue;
    }
    if (!bench.has(input.title, input.path)) continue;
    const rows: Row[] = [];
    for (const contender of contenders) rows.push(...(await measureBuilds(contender, name, name)));
    const lines = [`### ${input.title}`, '', table(rows, rows.find((r) => r.contender.key === REFERENCE), 'LangChain.js')];
    const ours = measured(rows.find((r) => r.contender.key === 'chunkstream' && r.build === ''));
    const floor = measured(rows.find((r) => r.contender.key === 'remark-floor'));
    if (ours && floor) {
      const ratio = ours.seconds / floor.seconds;
      lines.push('', `- the whole chunking pipeline (workers: 0) takes ${ratio.toFixed(2)}× the time of bare block-level remark parsing the same batches (goal ≤ ${FLOOR_GOAL}): ${ratio <= FLOOR_GOAL ? 'PASS' : 'FAIL'}`);
    }
    sections.push(lines.join('\n'));
    comparisons.push(...pairsOf(rows));
  }
}

/** All Markdown files of Node's API docs, sorted. */
function nodeDocs(): string[] {
  return readdirSync(NODE_DOCS).filter((n) => n.endsWith('.md')).sort().map((n) => join(NODE_DOCS, n));
}

/** The streaming runs: Node's API docs concatenated and repeated, streamed from disk through parse() → chunk(). */
async function streamingRuns(sections: string[], comparisons: Pair[]): Promise<void> {
  const dir = join(tmpdir(), `chunkstream-bench-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  // Real documentation, repeated: the corpus has files that end inside an unclosed fence, which would swallow the
  // next copies into one code block and flatter the figures.
  const base = nodeDocs().map((f) => readFileSync(f, 'utf8')).join('\n\n') + '\n\n';
  const sizes: [string, number][] =
    bench.values.copies === undefined
      ? [['1×', 1], ['4×', 4], ['16×', 16], ['~70 MB', Math.ceil((70 * 2 ** 20) / Buffer.byteLength(base))]]
      : listFlag(bench.values.copies, []).map((n) => [`${n}×`, numberFlag('copies', n, 1)]);
  const largest = sizes.at(-1)?.[0];
  const streamed = contenders.filter((c) => c.chunkstream);
  const rows: Row[] = [];
  try {
    for (const [label, copies] of sizes) {
      const file = join(dir, `docs-${copies}.md`);
      writeFileSync(file, base.repeat(copies));
      // A parse thread carries a second V8 heap; it is measured on the largest input only, for reference.
      for (const contender of streamed.filter((c) => c.key === 'chunkstream' || label === largest)) {
        rows.push(...(await measureBuilds(contender, file, `streaming ${label}`, `, ${label} (${copies} × docs)`)));
      }
      rmSync(file, { force: true });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const thisBuild = (label: string): Row | undefined => rows.find((r) => r.contender.key === 'chunkstream' && r.build === '' && r.run === `streaming ${label}`);
  const reference = thisBuild('1×');
  const lines = ["### Node's API docs repeated, streamed from disk: parse() → chunk() → sink", '', table(rows, reference)];
  lines.push('', 'Goals:', '');
  const one = measured(reference);
  for (const label of ['4×', '16×']) {
    const m = measured(thisBuild(label));
    if (one === undefined || m === undefined) continue;
    const slowdown = rate(one) / rate(m);
    lines.push(`- ${label}: time per MB is ${slowdown.toFixed(2)}× the 1× run's (cpu ${(one.bytes / one.cpuSeconds / (m.bytes / m.cpuSeconds)).toFixed(2)}×); within 10% of linear: ${slowdown <= LINEAR_GOAL ? 'PASS' : 'FAIL'}`);
  }
  // The goal is for the inline parse, what 'auto' does on two cores, at every size; the run with a parse thread
  // carries a second V8 heap and is shown for reference.
  for (const row of rows.filter((r) => r.build === '')) {
    const m = measured(row);
    if (m === undefined) continue;
    const verdict = row.contender.key === 'chunkstream' ? `< ${RSS_GOAL_MB}: ${m.peakRssMb < RSS_GOAL_MB ? 'PASS' : 'FAIL'}` : '(parse thread with its own V8 heap; for reference)';
    lines.push(`- ${row.name}: peak RSS ${m.peakRssMb.toFixed(0)} MB ${verdict}`);
  }
  lines.push('', 'The peers take one string: they hold the whole document (and their chunks) in memory, so they are not run on it.');
  sections.push(lines.join('\n'));
  comparisons.push(...pairsOf(rows));
}

const sections: string[] = [`512 tokens, cl100k_base for every contender${bench.values.options === undefined ? '' : ` (chunkstream also with \`${bench.values.options}\`)`}; each measurement in its own process${runs > 1 ? `, the fastest of ${runs}` : ''}.${baseline ? ` Baseline build: \`${baseline}\`.` : ''}`];
const comparisons: Pair[] = [];
await documentRuns(sections, comparisons);
if (bench.quick) bench.skip('the streaming runs (--quick)');
else if (!contenders.some((c) => c.chunkstream)) bench.skip('the streaming runs (no chunkstream contender chosen)');
else if (bench.has('the streaming runs', NODE_DOCS)) await streamingRuns(sections, comparisons);
if (baseline && comparisons.length > 0) {
  sections.push(['### This build against the baseline', '', baselineTable(comparisons), '', `Ratios above 1: this build is faster. "same chunks" compares a digest of the chunks each build cut.`].join('\n'));
}
bench.finish(sections.length > 1 ? sections.join('\n\n') : '');
