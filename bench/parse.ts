/**
 * Parse throughput and memory: `npx tsx bench/parse.ts [--base-mb 17] [--only name,name] [--no-4x]`.
 *
 * Input: the corpus Markdown concatenated and repeated to a base size (~17 MB) and to 4× that (~70 MB), written
 * to `.bench-tmp/` and streamed from disk. Every figure comes from its own plain Node process
 * (`support/parse-child.mjs`; peak RSS counts worker threads). Peers: bare remark-parse + remark-gfm on the same
 * batches (the default 8 Ki units), with and without inline constructs.
 *
 * Goals: the parse() stream peaks below 200 MB of RSS on the 4× input, and takes at most 4.6× the 1× time on it.
 */
import { rmSync } from 'node:fs';
import { listFlag, numberFlag } from './support/args.js';
import { baseText, hasBaseText, writeInput } from './support/markdown-input.js';
import { markdownTable } from './support/results.js';
import { startBench } from './support/runner.js';

const RSS_GOAL_MB = 200;
const LINEARITY_GOAL = 4.6;

/** What `parse-child.mjs` reports. */
interface Measurement {
  readonly bytes: number;
  readonly seconds: number;
  readonly cpuSeconds: number;
  readonly peakRssMb: number;
  /** Blocks, or parsed batches for the bare parsers. */
  readonly items: number;
}

/** The measured configurations, each run alone in a child process. */
const CONFIGS = {
  'remark full': 'bare remark-parse + remark-gfm, the same batches',
  'remark block-level': 'same, micromark inline constructs disabled',
  'parse() workers: 0': 'chunkstream stream, inline',
  'parse() default': 'chunkstream stream, workers: auto',
  'parse() workers: 2': 'chunkstream stream, two threads',
} as const;
type ConfigName = keyof typeof CONFIGS;
/** The configurations the 4× goals apply to. */
const STREAMS: ConfigName[] = ['parse() workers: 0', 'parse() default'];

const bench = startBench(
  { script: 'bench/parse.ts', summary: 'The parse stage alone: chunkstream parse() inline, default and on two threads, beside bare remark full and block-level, on corpus Markdown streamed from disk at 1× and 4×.' },
  {
    'base-mb': { type: 'string', value: 'MB', description: 'size of the 1× input (default 17; 1 with --quick)' },
    only: { type: 'string', value: 'LIST', description: `configurations to run (default all): ${Object.keys(CONFIGS).join(', ')}` },
    'no-4x': { type: 'boolean', default: false, description: 'skip the 4× input and its goals' },
  },
);

const baseMb = numberFlag('base-mb', bench.values['base-mb'], bench.quick ? 1 : 17);
const only = listFlag(bench.values.only, Object.keys(CONFIGS));
for (const name of only) if (!(name in CONFIGS)) throw new Error(`--only: unknown configuration ${name}`);
const configs = (Object.keys(CONFIGS) as ConfigName[]).filter((c) => only.includes(c));

async function main(): Promise<string> {
  if (!hasBaseText()) {
    bench.skip('every configuration: neither ../shared/corpus/md nor Node\'s API docs is there');
    return '';
  }
  const base = baseText();
  const one = await writeInput(`parse-${baseMb}mb.md`, base.text, baseMb * 1e6);
  const four = bench.values['no-4x'] ? null : await writeInput(`parse-${4 * baseMb}mb.md`, base.text, 4 * one.bytes);
  const results = new Map<string, Measurement>();
  const rows: (string | number)[][] = [];
  const measureRow = async (config: ConfigName, size: '1×' | '4×', path: string): Promise<void> => {
    bench.log(`${config} ${size}`);
    const outcome = await bench.measure<Measurement>('parse-child.mjs', [config, path]);
    if (!outcome.ok) {
      rows.push([config, size, `failed: ${outcome.error}`, '', '', '', '', '']);
      return;
    }
    const m = outcome.report;
    results.set(`${config} ${size}`, m);
    const peer = results.get('remark full 1×');
    const ratio = peer && size === '1×' ? `${(m.bytes / m.seconds / (peer.bytes / peer.seconds)).toFixed(2)}` : '';
    rows.push([config, size, (m.bytes / 1e6 / m.seconds).toFixed(2), m.seconds.toFixed(1), m.cpuSeconds.toFixed(1), (m.bytes / 1e6 / m.cpuSeconds).toFixed(2), m.peakRssMb.toFixed(0), ratio]);
  };
  try {
    for (const config of configs) await measureRow(config, '1×', one.path);
    if (four !== null) for (const config of configs.filter((c) => STREAMS.includes(c))) await measureRow(config, '4×', four.path);
  } finally {
    // The inputs are regenerated on every run; do not leave a hundred megabytes behind.
    rmSync(one.path, { force: true });
    if (four !== null) rmSync(four.path, { force: true });
  }
  const goals: string[] = [];
  for (const config of STREAMS) {
    const a = results.get(`${config} 1×`);
    const b = results.get(`${config} 4×`);
    if (a === undefined || b === undefined) continue;
    const ratio = b.seconds / a.seconds;
    goals.push(`- ${config}: peak RSS at ${(b.bytes / 1e6).toFixed(0)} MB: ${b.peakRssMb.toFixed(0)} MB < ${RSS_GOAL_MB}: ${b.peakRssMb < RSS_GOAL_MB ? 'PASS' : 'FAIL'}`);
    goals.push(`- ${config}: 4× time / 1× time: ${ratio.toFixed(2)} (cpu ${(b.cpuSeconds / a.cpuSeconds).toFixed(2)}) ≤ ${LINEARITY_GOAL}: ${ratio <= LINEARITY_GOAL ? 'PASS' : 'FAIL'}`);
  }
  return [
    `Input: ${base.files} Markdown files from \`${base.source}\` (${base.skipped} left out: they end inside an unclosed fence or comment), repeated to 1× = ${(one.bytes / 1e6).toFixed(1)} MB and 4× = ${four ? `${(four.bytes / 1e6).toFixed(1)} MB` : '(not run)'}, streamed from disk; each configuration in its own process.`,
    '',
    markdownTable(['configuration', 'input', 'MB/s', 'wall s', 'cpu s', 'MB/cpu-s', 'peak RSS MB', '× remark full'], rows, ['l', 'l', 'r', 'r', 'r', 'r', 'r', 'r']),
    '',
    ...(configs.map((c) => `- ${c}: ${CONFIGS[c]}`)),
    ...(goals.length > 0 ? ['', 'Goals:', '', ...goals] : []),
  ].join('\n');
}

bench.finish(await main());
