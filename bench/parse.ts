/**
 * Parse throughput and memory: `npx tsx bench/parse.ts [--base-mb 17] [--only name,name] [--no-4x]`.
 *
 * Input: the corpus Markdown concatenated and repeated to a base size (~17 MB) and to 4× that (~70 MB), written
 * to `.bench-tmp/` and streamed from disk. `src/` is built to `dist/` first, and every figure comes from its own
 * plain Node process (`support/parse-child.mjs`; peak RSS counts worker threads). Peers: bare remark-parse +
 * remark-gfm on the same batches (the default 8 Ki units), with and without inline constructs.
 *
 * Goals: the parse() stream peaks below 200 MB of RSS on the 4× input, and takes at most 4.6× the 1× time on it.
 */
import { rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { buildDist, measureInChild, type Measurement } from './support/child.js';
import { baseText, ROOT, writeInput } from './support/markdown-input.js';

/** The measured process: plain Node on the built `dist/`. */
const CHILD = join(import.meta.dirname, 'support/parse-child.mjs');
const RSS_GOAL_MB = 200;
const LINEARITY_GOAL = 4.6;

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

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i === -1 ? undefined : process.argv[i + 1];
}

const pad = (s: string, n: number) => s.padEnd(n);
const num = (x: number, d = 2) => x.toFixed(d).padStart(8);

async function main(): Promise<void> {
  const baseMb = Number(arg('--base-mb') ?? 17);
  const only = arg('--only')?.split(',') as ConfigName[] | undefined;
  const configs = (Object.keys(CONFIGS) as ConfigName[]).filter((c) => only === undefined || only.includes(c));
  buildDist(ROOT);
  const base = baseText();
  const one = await writeInput(`parse-${baseMb}mb.md`, base.text, baseMb * 1e6);
  const four = process.argv.includes('--no-4x') ? null : await writeInput(`parse-${4 * baseMb}mb.md`, base.text, 4 * one.bytes);
  console.log(`input: ${base.files} Markdown files from ${base.source} (${base.skipped} left out: they end inside an unclosed fence or comment)`);
  console.log(`1×: ${(one.bytes / 1e6).toFixed(1)} MB, 4×: ${four ? (four.bytes / 1e6).toFixed(1) : '-'} MB; ${availableParallelism()} cores; Node ${process.version}\n`);
  console.log(`${pad('configuration', 22)}${pad('input', 7)}${'MB/s'.padStart(8)}${'wall s'.padStart(8)}${'cpu s'.padStart(8)}${'MB/cpu-s'.padStart(10)}${'peak RSS MB'.padStart(13)}  vs remark full`);
  const results = new Map<string, Measurement>();
  const row = (config: ConfigName, size: string, m: Measurement) => {
    const peer = results.get(`remark full 1×`);
    const ratio = peer && size === '1×' ? `${((m.bytes / m.seconds) / (peer.bytes / peer.seconds)).toFixed(2)}×` : '';
    console.log(`${pad(config, 22)}${pad(size, 7)}${num(m.bytes / 1e6 / m.seconds)}${num(m.seconds, 1)}${num(m.cpuSeconds, 1)}${num(m.bytes / 1e6 / m.cpuSeconds).padStart(10)}${num(m.peakRssMb, 0).padStart(13)}  ${ratio}`);
  };
  for (const config of configs) {
    const m = await measureInChild(CHILD, [config, one.path]);
    results.set(`${config} 1×`, m);
    row(config, '1×', m);
  }
  if (four !== null) {
    for (const config of configs.filter((c) => STREAMS.includes(c))) {
      const m = await measureInChild(CHILD, [config, four.path]);
      results.set(`${config} 4×`, m);
      row(config, '4×', m);
    }
  }
  // The inputs are regenerated on every run; do not leave 90 MB behind.
  rmSync(one.path, { force: true });
  if (four !== null) rmSync(four.path, { force: true });
  console.log('\ngoals');
  for (const config of STREAMS) {
    const a = results.get(`${config} 1×`);
    const b = results.get(`${config} 4×`);
    if (a === undefined || b === undefined) continue;
    const rss = b.peakRssMb < RSS_GOAL_MB;
    const ratio = b.seconds / a.seconds;
    console.log(`${pad(config, 22)} peak RSS at ${(b.bytes / 1e6).toFixed(0)} MB: ${b.peakRssMb.toFixed(0)} MB < ${RSS_GOAL_MB}: ${rss ? 'PASS' : 'FAIL'}`);
    console.log(`${pad(config, 22)} 4× time / 1× time: ${ratio.toFixed(2)} (cpu ${(b.cpuSeconds / a.cpuSeconds).toFixed(2)}) <= ${LINEARITY_GOAL}: ${ratio <= LINEARITY_GOAL ? 'PASS' : 'FAIL'}`);
  }
}

await main();
