/**
 * Chunking throughput with Hugging Face tokenizers: `chunkText` at 512 tokens counting with each family's
 * tokenizer (the `tokenizer` option), beside the built-in cl100k counter and beside the same tokenizer injected as
 * `{ size: (t) => tokenizer.encode(t).ids.length }` with `@huggingface/tokenizers`, in one run, on Node's API docs
 * and on the corpus Markdown.
 *
 *   npx tsx bench/tokenizers.ts                 # every family, both inputs
 *   npx tsx bench/tokenizers.ts --quick         # Node's docs only, no injected sizers
 *   npx tsx bench/tokenizers.ts --runs 3        # three rounds of every row in turn, the fastest process of each kept
 *
 * The families are the test tokenizers of `test/fixtures/tokenizers/` (small vocabularies, trained by
 * `scripts/make-tokenizer-fixtures.mjs`) and Qwen3's tokenizer from the corpus (151,643 tokens). Each row runs in its
 * own process and chunks its input twice; the table gives the second pass (the steady state of a job over many
 * files) and the first (loading the tokenizer and compiling the code included). Goal: every family at least half
 * the cl100k path's MB/s. The ratio of CPU time beside the wall-clock one reads better on a busy machine.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { listFlag, numberFlag } from './support/args.js';
import { markdownTable } from './support/results.js';
import { CORPUS, NODE_DOCS, ROOT, startBench, type Outcome } from './support/runner.js';

const GOAL = 0.5;

interface Measure {
  seconds: number;
  cpuSeconds: number;
  firstSeconds: number;
  setupSeconds: number;
  bytes: number;
  chunks: number;
  peakRssMb: number;
}

const fixture = (name: string): string => join(ROOT, 'test/fixtures/tokenizers', name, 'tokenizer.json');
const QWEN3 = join(CORPUS, 'tok/hf/qwen3/tokenizer.json');

/** The families, each a tokenizer.json. */
const FAMILIES = [
  { key: 'wordpiece', name: 'BERT-style WordPiece', path: fixture('wordpiece') },
  { key: 'roberta', name: 'RoBERTa-style byte-level BPE', path: fixture('roberta') },
  { key: 'qwen3', name: 'Qwen3 byte-level BPE', path: QWEN3 },
  { key: 'llama', name: 'Llama-style SentencePiece BPE, byte fallback', path: fixture('llama') },
  { key: 'mistral', name: 'Metaspace (first, no split) BPE, byte fallback', path: fixture('mistral') },
  { key: 'unigram', name: 'XLM-R-style Unigram', path: fixture('unigram') },
] as const;
/** The families whose injected `encode` sizer is measured too (it is slow: two are enough to show it). */
const INJECTED = ['wordpiece', 'qwen3'];

const INPUTS = {
  nodedocs: { title: `Node's API docs (${NODE_DOCS}/*.md) as one document`, path: NODE_DOCS },
  corpus: { title: 'shared corpus Markdown (../shared/corpus/md), file by file', path: join(CORPUS, 'md') },
} as const;

const bench = startBench(
  { script: 'bench/tokenizers.ts', summary: "chunkText at 512 tokens counting with Hugging Face tokenizers of each family (the tokenizer option), beside the built-in cl100k counter and the tokenizer's own encode injected as a sizer." },
  {
    inputs: { type: 'string', value: 'LIST', description: `inputs, of ${Object.keys(INPUTS).join(',')} (default all; nodedocs with --quick)` },
    families: { type: 'string', value: 'LIST', description: `families, of ${FAMILIES.map((f) => f.key).join(',')} (default all)` },
    runs: { type: 'string', default: '1', value: 'N', description: 'processes per row, the fastest kept' },
  },
);
const runs = numberFlag('runs', bench.values.runs, 1);
const inputs = listFlag(bench.values.inputs, bench.quick ? ['nodedocs'] : Object.keys(INPUTS)) as (keyof typeof INPUTS)[];
const families = FAMILIES.filter((f) => listFlag(bench.values.families, FAMILIES.map((x) => x.key)).includes(f.key));

const rate = (m: Measure): number => m.bytes / 1e6 / m.seconds;
const firstRate = (m: Measure): number => m.bytes / 1e6 / m.firstSeconds;

/** A row: what runs, and what it is. */
interface Row {
  readonly name: string;
  readonly contender: string;
  readonly family?: string;
  readonly injected?: boolean;
}

/** The fastest of two outcomes by wall-clock time (a failure only when both failed). */
function faster(a: Outcome<Measure> | undefined, b: Outcome<Measure>): Outcome<Measure> {
  if (a === undefined || !a.ok) return b;
  return b.ok && b.report.seconds < a.report.seconds ? b : a;
}

async function table(input: keyof typeof INPUTS): Promise<string> {
  const rows: Row[] = [{ name: 'cl100k_base (built in)', contender: 'cl100k' }];
  for (const f of families) {
    if (!existsSync(f.path)) {
      bench.skip(`${f.name}: ${f.path} is missing`);
      continue;
    }
    rows.push({ name: `${f.name}, tokenizer option`, contender: `hf:${f.path}`, family: f.key });
    if (INJECTED.includes(f.key) && !bench.quick) rows.push({ name: `${f.name}, injected encode sizer`, contender: `encode:${f.path}`, family: f.key, injected: true });
  }
  // Rounds of every row in turn, the fastest process of each kept: a change of load on the machine falls on all.
  const best = new Map<string, Outcome<Measure>>();
  for (let round = 0; round < runs; round++) {
    for (const row of rows) {
      bench.log(`${input}, round ${round + 1} of ${runs}: ${row.name}`);
      best.set(row.contender, faster(best.get(row.contender), await bench.measure<Measure>('tokenizers-child.mjs', [row.contender, input])));
    }
  }
  const reference = best.get('cl100k');
  const ref = reference?.ok ? reference.report : undefined;
  const cpuRate = (m: Measure): number => m.bytes / 1e6 / m.cpuSeconds;
  const header = ['tokenizer', 'MB', 's', 'MB/s', '× cl100k', 'cpu s', '× cl100k (cpu)', 'first pass MB/s', 'peak RSS MB', 'chunks'];
  const cells = rows.map(({ name, contender }) => {
    const outcome = best.get(contender)!;
    if (!outcome.ok) return [name, `failed: ${outcome.error}`, ...header.slice(2).map(() => '')];
    const m = outcome.report;
    return [
      name,
      (m.bytes / 1e6).toFixed(2),
      m.seconds.toFixed(2),
      rate(m).toFixed(2),
      ref ? (rate(m) / rate(ref)).toFixed(2) : '–',
      m.cpuSeconds.toFixed(2),
      ref ? (cpuRate(m) / cpuRate(ref)).toFixed(2) : '–',
      firstRate(m).toFixed(2),
      m.peakRssMb.toFixed(0),
      m.chunks,
    ];
  });
  const ratio = (r: Row): number => {
    const o = best.get(r.contender)!;
    return o.ok && ref !== undefined ? rate(o.report) / rate(ref) : Number.NaN;
  };
  const below = rows.filter((r) => r.family !== undefined && !r.injected && !(ratio(r) >= GOAL)).map((r) => r.name);
  return [
    `### ${INPUTS[input].title}`,
    '',
    markdownTable(header, cells, header.map((_, i) => (i === 0 ? 'l' : 'r'))),
    '',
    ref ? `- Goal, every family at least ${GOAL}× the cl100k path (second pass, wall clock): ${below.length === 0 ? 'met' : `not met by ${below.join(', ')}`}.` : '- cl100k row failed: no ratios.',
  ].join('\n');
}

async function main(): Promise<string> {
  const parts: string[] = [];
  for (const input of inputs) {
    if (!bench.has(input, INPUTS[input].path)) continue;
    parts.push(await table(input));
  }
  return parts.join('\n\n');
}

bench.finish(await main());
