/**
 * Sliding window at 512 tokens with 64 overlap over the Markdown corpus, beside LangChain.js TokenTextSplitter
 * (chunkSize 512, chunkOverlap 64) and chonkie's TokenChunker, all on cl100k_base from js-tiktoken's local ranks
 * (no network): MB/s, ratios and chunk counts; then the live heap of slidingWindowStream as its input grows. Each
 * contender and each streaming run in its own plain Node process (`support/strategies-child.mjs`).
 *
 *   npx tsx bench/strategies.ts [corpus dir]               (--runs 1 or --quick for a quick look)
 *   npx tsx bench/strategies.ts --profile out.cpuprofile   (CPU profile of the window strategy alone)
 */
import { join, resolve } from 'node:path';
import { numberFlag } from './support/args.js';
import { markdownTable } from './support/results.js';
import { CORPUS, failureText, startBench, type Outcome } from './support/runner.js';

const SIZE = 512;
const OVERLAP = 64;

/** What a `compare` child reports. */
interface Compared {
  files: number;
  bytes: number;
  seconds: number;
  chunks: number;
  maxTokens: number;
  /** The library token sizer only: chunks whose size equals encode()'s count, of all. */
  agree?: number;
  total?: number;
}
/** What a `stream` child reports. */
interface Streamed {
  megabytes: number;
  seconds: number;
  chunks: number;
  heapBeforeMb: number;
  peakHeapMb: number;
}

const CONTENDERS = [
  { key: 'window-tokens', name: 'chunkstream slidingWindow', note: 'the library token sizer (pre-token counts cached per process)' },
  { key: 'window-encode', name: 'chunkstream slidingWindow', note: 'plain encode().length sizer' },
  { key: 'langchain', name: 'LangChain TokenTextSplitter', note: 'local js-tiktoken cl100k' },
  { key: 'chonkie', name: 'chonkie TokenChunker', note: 'local js-tiktoken cl100k adapter' },
] as const;

const bench = startBench(
  {
    script: 'bench/strategies.ts',
    summary: 'The sliding-window strategy (512 tokens, overlap 64) against LangChain.js TokenTextSplitter and chonkie TokenChunker on the corpus Markdown, then slidingWindowStream memory on growing input.',
    positionals: '[corpus dir]',
  },
  {
    runs: { type: 'string', value: 'N', description: 'timed passes per contender, the fastest kept (default 3; 1 with --quick)' },
    profile: { type: 'string', value: 'FILE', description: 'write a CPU profile of the window strategy alone to FILE instead of measuring' },
  },
);
const runs = numberFlag('runs', bench.values.runs, bench.quick ? 1 : 3);
const root = resolve(bench.positionals[0] ?? join(CORPUS, 'md'));
const streams: [string, 'tokens' | 'units', number][] = bench.quick
  ? [['cl100k token sizer', 'tokens', 2], ['UTF-16 units', 'units', 2]]
  : [['cl100k token sizer', 'tokens', 8], ['cl100k token sizer', 'tokens', 32], ['UTF-16 units', 'units', 32], ['UTF-16 units', 'units', 128]];

async function comparison(): Promise<string> {
  const results: { contender: (typeof CONTENDERS)[number]; outcome: Outcome<Compared> }[] = [];
  for (const contender of CONTENDERS) {
    bench.log(`${contender.name}, ${contender.note}`);
    results.push({ contender, outcome: await bench.measure<Compared>('strategies-child.mjs', ['compare', contender.key, String(runs), root]) });
  }
  const reference = results.find((r) => r.contender.key === 'langchain')?.outcome;
  const ours = results[0]?.outcome;
  const first = results.find((r) => r.outcome.ok)?.outcome;
  const rows = results.map(({ contender, outcome }) => {
    if (!outcome.ok) return [contender.name, contender.note, `failed: ${outcome.error}`, '', '', ''];
    const m = outcome.report;
    return [contender.name, contender.note, (m.bytes / 1e6 / m.seconds).toFixed(2), reference?.ok ? (reference.report.seconds / m.seconds).toFixed(2) : '', m.chunks, m.maxTokens];
  });
  const notes = [
    ...(ours?.ok && ours.report.total !== undefined ? [`- chunk sizes from the token sizer equal encode().length for ${ours.report.agree}/${ours.report.total} chunks`] : []),
    '- chunkstream never cuts a word: a whitespace-free run longer than 512 tokens stands alone, flagged oversized (max tokens column)',
  ];
  const corpus = first?.ok ? `; ${first.report.files} files, ${(first.report.bytes / 1e6).toFixed(2)} MB` : '';
  return [
    `Corpus: \`${root}\`${corpus}; window ${SIZE} tokens, overlap ${OVERLAP}; cl100k_base everywhere; each contender in its own process, best of ${runs} pass(es).`,
    '',
    ...notes,
    '',
    markdownTable(['contender', 'sizer / tokenizer', 'MB/s', '× LangChain', 'chunks', 'max tokens'], rows, ['l', 'l', 'r', 'r', 'r', 'r']),
  ].join('\n');
}

async function streaming(): Promise<string> {
  const rows: (string | number)[][] = [];
  for (const [label, sizer, megabytes] of streams) {
    bench.log(`slidingWindowStream, ${label}, ${megabytes} MB`);
    const outcome = await bench.measure<Streamed>('strategies-child.mjs', ['stream', sizer, String(megabytes), root], { nodeArgs: ['--expose-gc'] });
    if (!outcome.ok) {
      rows.push([label, megabytes, `failed: ${outcome.error}`, '', '', '']);
      continue;
    }
    const m = outcome.report;
    rows.push([label, megabytes, (megabytes / m.seconds).toFixed(2), m.chunks, m.heapBeforeMb.toFixed(1), m.peakHeapMb.toFixed(1)]);
  }
  return [
    'slidingWindowStream over generated text (the corpus repeated, 64 KB writes): live heap stays flat as the input grows.',
    '',
    markdownTable(['sizer', 'MB streamed', 'MB/s', 'chunks', 'live heap before (MB)', 'peak live heap while streaming (MB, after GC)'], rows, ['l', 'r', 'r', 'r', 'r', 'r']),
  ].join('\n');
}

if (bench.values.profile !== undefined) {
  const exit = await bench.run('bench/support/strategies-child.mjs', ['profile', resolve(bench.values.profile), root]);
  if (exit.code !== 0) throw new Error(`profile: ${failureText(exit)}`);
  bench.log(`CPU profile written to ${bench.values.profile}`);
} else if (bench.has('every part', root)) {
  bench.finish([await comparison(), await streaming()].join('\n\n'));
} else {
  bench.finish('');
}
