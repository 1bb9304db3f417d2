/**
 * The cold path, part by part: what a fresh process (or a command-line worker thread) pays before and while it first
 * chunks, and what each chunk and each block costs once it is warm. Each part runs in a fresh process
 * (`support/cold-child.mjs`), the median of `--runs` kept; `--baseline DIR` runs the same on another build, side by
 * side.
 *
 *   npx tsx bench/cold.ts                               # median of 7 processes per part
 *   npx tsx bench/cold.ts --baseline /tmp/old/dist      # beside an older build
 *   npx tsx bench/cold.ts --quick                       # 3 processes per part
 *
 * Parts: importing the library; the first token count (the rank table); the first block whose inline content
 * matters (the remark family); the first `chunkText` of a small document once those are loaded, less the same call
 * warm (compiling the code on the way); then, warm, microseconds per chunk on setext headings (a chunk every 4 bytes)
 * and per block on one-letter paragraphs (a block every 3 bytes). CPU time of the process, all threads.
 */
import { numberFlag } from './support/args.js';
import { markdownTable } from './support/results.js';
import { checkDist, startBench } from './support/runner.js';

const bench = startBench(
  { script: 'bench/cold.ts', summary: 'The cold path part by part (import, rank table, remark, first call) and the warm cost per chunk and per block, in fresh processes.' },
  {
    runs: { type: 'string', value: 'N', description: 'processes per part, the median kept (default 7; 3 with --quick)' },
    baseline: { type: 'string', value: 'DIR', description: 'a second built dist/ directory measured beside this one' },
  },
);
const runs = numberFlag('runs', bench.values.runs, bench.quick ? 3 : 7);
const baseline = bench.values.baseline === undefined ? undefined : checkDist(bench.values.baseline, '--baseline');

const PARTS = [
  { key: 'import', label: "import 'chunkstream'", unit: 'ms' },
  { key: 'ranks', label: 'first token count (the cl100k_base rank table)', unit: 'ms' },
  { key: 'remark', label: 'first block whose inline content matters (the remark family)', unit: 'ms' },
  { key: 'first-call', label: 'first chunkText of samples/guide.md, less the same call warm', unit: 'ms' },
  { key: 'per-chunk', label: 'warm, per chunk (setext headings, a chunk every 4 bytes)', unit: 'µs' },
  { key: 'per-block', label: 'warm, per block (one-letter paragraphs, a block every 3 bytes)', unit: 'µs' },
] as const;

/** What `cold-child.mjs` reports. */
interface Part {
  cpuMs?: number;
  us?: number;
}

/** The median of `runs` fresh processes of one part on one build; NaN when none reported. */
async function median(key: string, dist: string | undefined): Promise<number> {
  const values: number[] = [];
  for (let i = 0; i < runs; i++) {
    const outcome = await bench.measure<Part>('cold-child.mjs', [key], { dist });
    if (!outcome.ok) {
      bench.log(`${key}: ${outcome.error}`);
      continue;
    }
    values.push(outcome.report.us ?? outcome.report.cpuMs ?? Number.NaN);
  }
  values.sort((a, b) => a - b);
  return values.length === 0 ? Number.NaN : (values[Math.floor(values.length / 2)] as number);
}

const rows: string[][] = [];
for (const part of PARTS) {
  bench.log(part.label);
  const mine = await median(part.key, undefined);
  const theirs = baseline === undefined ? undefined : await median(part.key, baseline);
  rows.push([part.label, `${mine.toFixed(1)} ${part.unit}`, ...(theirs === undefined ? [] : [`${theirs.toFixed(1)} ${part.unit}`, (theirs / mine).toFixed(2)])]);
}
const header = ['part', 'this build', ...(baseline === undefined ? [] : ['baseline', 'baseline / this'])];
bench.finish(
  [
    `CPU time of a fresh process (all threads), median of ${runs} processes per part${baseline ? `; baseline build \`${baseline}\`` : ''}. Ratios above 1: this build is faster.`,
    '',
    markdownTable(header, rows, header.map((_, i) => (i === 0 ? 'l' : 'r'))),
  ].join('\n'),
);
