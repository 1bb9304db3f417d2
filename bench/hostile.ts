/**
 * Hostile input: every generated shape of `test/support/hostile-markdown.ts` and `test/support/hostile-html.ts`
 * (the HTML ones named `html-…`, read with `format: 'html'`), and the hostile PDFs of
 * `test/support/pdf-hostile.ts`, when present) at 2, 8 and 32 MB, streamed from disk through
 * `parse({ workers: 0 }) → chunk({ maxSize: 512 })`, each run in its own process: time per MB beside Node's API docs
 * at the same size in the same run, peak RSS and outcome; and LangChain.js's recursive Markdown splitter with
 * js-tiktoken on the same inputs.
 *
 * Each shape is timed in turns with the docs of its size (docs, shape, docs, shape…), and its ratio is the fastest
 * of its runs over the fastest of the docs' runs beside them: this VM's speed drifts by a third over minutes, and a
 * ratio to docs timed once per size, ten minutes earlier, moved with the drift.
 *
 *   npx tsx bench/hostile.ts                     # every shape at 2, 8 and 32 MB
 *   npx tsx bench/hostile.ts --quick             # every shape at 2 MB, without the peer
 *   npx tsx bench/hostile.ts --sizes 2 --shapes csv-table,changelog --no-peers
 *   npx tsx bench/hostile.ts --sizes 2,8,32 --shapes random-bytes --runs 3   # the fastest of three processes
 *   npx tsx bench/hostile.ts --sizes 8 --shapes setext-headings --runs 2 --cpu  # CPU time, on a busy machine
 *   npx tsx bench/hostile.ts --sizes 8 --runs 3 --cpu --no-peers --baseline /tmp/old/dist  # beside an older build
 *
 * Goals: peak RSS under 250 MB and time per MB within 3× the docs' at every shape and size; every PDF within 30 s
 * and 400 MB.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HOSTILE_HTML } from '../test/support/hostile-html.js';
import { HOSTILE_MARKDOWN } from '../test/support/hostile-markdown.js';
import { listFlag, numberFlag } from './support/args.js';
import { markdownTable } from './support/results.js';
import { bestOf, checkDist, faster, NODE_DOCS, ROOT, startBench } from './support/runner.js';

const TMP = join(ROOT, '.bench-tmp/hostile');
const MB = 1024 * 1024;

const bench = startBench(
  {
    script: 'bench/hostile.ts',
    summary: "Generated hostile Markdown (and PDFs, when their generators exist) streamed through parse() → chunk(): time per MB beside Node's API docs, peak RSS and outcome, and LangChain.js on the same inputs.",
    timeoutS: 300,
  },
  {
    sizes: { type: 'string', value: 'LIST', description: 'sizes in MB (default 2,8,32; 2 with --quick)' },
    shapes: { type: 'string', value: 'LIST', description: `shapes to run (default all): ${[...HOSTILE_MARKDOWN.map((s) => s.name), ...HOSTILE_HTML.map((s) => `html-${s.name}`)].join(',')}` },
    'no-peers': { type: 'boolean', default: false, description: 'skip LangChain.js (the default with --quick)' },
    runs: { type: 'string', default: '1', value: 'N', description: "processes per chunkstream measurement (the shapes' and the docs'), the fastest kept" },
    cpu: { type: 'boolean', default: false, description: 'time per MB from the CPU time of the process (all its threads) rather than wall time: steadier on a machine other work shares' },
    baseline: { type: 'string', value: 'DIR', description: "a second built dist/ directory (of an older commit): every shape also runs on it, in turns with this build, and the table gives its time per MB and this build's over it" },
  },
);
const sizes = listFlag(bench.values.sizes, bench.quick ? ['2'] : ['2', '8', '32']).map((s) => numberFlag('sizes', s, 2));
const wanted = bench.values.shapes?.split(',');
const peers = !bench.values['no-peers'] && !bench.quick;
/** On a shared machine a single process can run 30% slow: the fastest of several is the least disturbed. */
const runs = numberFlag('runs', bench.values.runs, 1);
const baseline = bench.values.baseline === undefined ? undefined : checkDist(bench.values.baseline, '--baseline');
/** The cells of the baseline's two columns, present only with --baseline. */
const baselineCells = <T>(cells: readonly T[]): T[] => (baseline === undefined ? [] : [...cells]);

interface Run {
  seconds: number;
  cpuSeconds?: number;
  peakRssMb: number;
  outcome: string;
  chunks: number;
  bytes: number;
  warnings?: number;
}

/** Wall time, or CPU time with `--cpu`. */
const timeOf = (r: Run): number => (bench.values.cpu ? (r.cpuSeconds ?? NaN) : r.seconds);
const okSeconds = (r: Run): number | undefined => (r.outcome === 'ok' && Number.isFinite(timeOf(r)) ? timeOf(r) : undefined);

/** `run` of chunkstream on a Markdown file, the fastest of `runs` processes. */
function runMarkdown(file: string): Promise<Run> {
  return bestOf(runs, () => run('chunkstream', file), okSeconds);
}

/**
 * chunkstream on a shape and on the docs in turns, `runs` times each (the docs first), and on the baseline build
 * after each run of the shape when there is one: the fastest run of each, timed under the same conditions.
 */
async function runBesideDocs(file: string, docsFile: string | undefined): Promise<{ ours: Run; docs: Run | undefined; base: Run | undefined }> {
  let ours: Run | undefined;
  let docs: Run | undefined;
  let base: Run | undefined;
  for (let i = 0; i < Math.max(1, runs); i++) {
    if (docsFile !== undefined) docs = faster(docs, await run('chunkstream', docsFile), okSeconds);
    ours = faster(ours, await run('chunkstream', file), okSeconds);
    if (baseline !== undefined) base = faster(base, await run('chunkstream', file, baseline), okSeconds);
  }
  return { ours: ours as Run, docs, base };
}

/**
 * One input through one contender (on the build in `dist`, this project's by default) in its own process; a timeout
 * or a crash is an outcome like an error code.
 */
async function run(contender: string, file: string, dist?: string): Promise<Run> {
  const r = await bench.measure<Run>('hostile-child.mjs', [contender, file], dist === undefined ? {} : { dist });
  if (r.ok) return r.report;
  const bytes = existsSync(file) ? statSync(file).size : 0;
  if (r.timedOut) return { seconds: bench.timeoutMs / 1000, peakRssMb: NaN, outcome: r.error, chunks: 0, bytes };
  return { seconds: NaN, peakRssMb: NaN, outcome: `crashed: ${r.error.slice(0, 100)}`, chunks: 0, bytes };
}

/** Node's API docs concatenated, repeated up to `bytes`. */
function nodeDocs(bytes: number): string {
  const docs = readdirSync(NODE_DOCS).filter((n) => n.endsWith('.md')).sort().map((n) => readFileSync(join(NODE_DOCS, n), 'utf8')).join('\n\n');
  let out = '';
  while (Buffer.byteLength(out) < bytes) out += `${docs}\n\n`;
  return out;
}

/** Hostile PDFs, when their generators exist: name → (bytes) → PDF bytes. */
async function hostilePdfs(): Promise<{ name: string; make: (bytes: number) => Uint8Array }[]> {
  const path = join(ROOT, 'test/support/pdf-hostile.ts');
  if (!existsSync(path)) return [];
  const module = (await import(path)) as { HOSTILE_PDF_SHAPES?: readonly { name: string; make: (bytes: number) => Uint8Array }[] };
  return [...(module.HOSTILE_PDF_SHAPES ?? [])];
}

mkdirSync(TMP, { recursive: true });
const perMb = (r: Run): number => timeOf(r) / (r.bytes / MB);
/** A figure for a cell; a dash where a crashed or killed run left none. */
const fixed = (n: number, digits: number): string => (Number.isFinite(n) ? n.toFixed(digits) : '—');
const rows: (string | number)[][] = [];
const goals: string[] = [];
/** The Markdown shapes and the HTML ones (named `html-…`), each with the extension that tells the reader its format. */
const SHAPES = [
  ...HOSTILE_MARKDOWN.map((s) => ({ ...s, extension: '.md' })),
  ...HOSTILE_HTML.map((s) => ({ ...s, name: `html-${s.name}`, extension: '.html' })),
];
// Without Node's docs the shapes still run; their time per MB then has nothing to be compared with.
const hasDocs = bench.has("the reference rows (Node's API docs), and with them the × docs column", NODE_DOCS);
for (const size of sizes) {
  const shapes = SHAPES.filter((s) => wanted === undefined || wanted.includes(s.name));
  const docsFile = join(TMP, `nodedocs-${size}.md`);
  // The docs' row is the fastest of all their runs beside the shapes of this size, filled in once they are done.
  const docsRow = rows.length;
  let fastestDocs: Run | undefined;
  if (hasDocs && shapes.length > 0) {
    writeFileSync(docsFile, nodeDocs(size * MB));
    rows.push([]);
  }
  for (const shape of shapes) {
    const file = join(TMP, `${shape.name}-${size}${shape.extension}`);
    const made = shape.make(size * MB);
    if (typeof made === 'string') writeFileSync(file, made, shape.name === 'random-bytes' ? 'latin1' : 'utf8');
    else writeFileSync(file, made);
    const { ours, docs, base } = hasDocs || baseline !== undefined ? await runBesideDocs(file, hasDocs ? docsFile : undefined) : { ours: await runMarkdown(file), docs: undefined, base: undefined };
    if (docs !== undefined) fastestDocs = faster(fastestDocs, docs, okSeconds);
    const docsPerMb = docs === undefined ? NaN : perMb(docs);
    const ratio = perMb(ours) / docsPerMb;
    const theirs = peers && shape.extension === '.md' ? await run('langchain', file) : undefined;
    rmSync(file, { force: true });
    rows.push([
      shape.name,
      size,
      perMb(ours).toFixed(2),
      fixed(docsPerMb, 2),
      Number.isFinite(ratio) ? ratio.toFixed(2) : '',
      fixed(ours.peakRssMb, 0),
      ours.outcome + (ours.warnings ? ` (${ours.warnings} warning${ours.warnings === 1 ? '' : 's'})` : ''),
      theirs === undefined ? '' : Number.isFinite(perMb(theirs)) ? perMb(theirs).toFixed(2) : '—',
      theirs === undefined || !Number.isFinite(theirs.peakRssMb) ? '' : theirs.peakRssMb.toFixed(0),
      theirs?.outcome ?? '',
      ...baselineCells([base === undefined ? '—' : fixed(perMb(base), 2), base === undefined ? '' : fixed(perMb(ours) / perMb(base), 2)]),
    ]);
    if (!(ours.peakRssMb < 250) || (hasDocs && !(ratio <= 3)) || ours.outcome.startsWith('ERR_INTERNAL') || ours.outcome.startsWith('not finished') || ours.outcome.startsWith('crashed')) {
      goals.push(`${shape.name} at ${size} MB: ${perMb(ours).toFixed(2)} s/MB (${ratio.toFixed(2)}× the docs), ${ours.peakRssMb.toFixed(0)} MB, ${ours.outcome}`);
    }
    bench.log(`${shape.name} ${size} MB: ${ours.outcome}, ${perMb(ours).toFixed(2)} s/MB (docs beside it ${fixed(docsPerMb, 2)}), ${ours.peakRssMb.toFixed(0)} MB`);
  }
  if (fastestDocs !== undefined) {
    rows[docsRow] = [`Node's API docs`, size, perMb(fastestDocs).toFixed(2), '', '1.00', fixed(fastestDocs.peakRssMb, 0), fastestDocs.outcome, '', '', '', ...baselineCells(['', ''])];
  }
  rmSync(docsFile, { force: true });
  for (const pdf of (await hostilePdfs()).filter((s) => wanted === undefined || wanted.includes(s.name))) {
    const file = join(TMP, `${pdf.name}-${size}.pdf`);
    writeFileSync(file, pdf.make(size * MB));
    const ours = await run('chunkstream', file);
    rmSync(file, { force: true });
    rows.push([pdf.name, size, `${fixed(ours.seconds, 1)} s`, '', '', fixed(ours.peakRssMb, 0), ours.outcome, '', '', '', ...baselineCells(['', ''])]);
    if (!(ours.seconds <= 30) || !(ours.peakRssMb < 400)) goals.push(`${pdf.name} at ${size} MB: ${ours.seconds.toFixed(1)} s, ${ours.peakRssMb.toFixed(0)} MB, ${ours.outcome}`);
  }
}
const table = markdownTable(
  ['input', 'MB', 'chunkstream s/MB', 'docs beside it s/MB', '× docs', 'peak RSS MB', 'outcome', 'LangChain.js s/MB', 'peak RSS MB', 'outcome', ...baselineCells(['baseline s/MB', '× baseline'])],
  rows,
  ['l', 'r', 'r', 'r', 'r', 'r', 'l', 'r', 'r', 'l', ...baselineCells(['r', 'r'] as const)],
);
const verdict = goals.length === 0 ? 'Every shape within the goals (peak RSS < 250 MB, ≤ 3× the docs’ time per MB; PDFs ≤ 30 s, < 400 MB).' : `Outside the goals:\n\n${goals.map((g) => `- ${g}`).join('\n')}`;
const method = `parse({ workers: 0 }) → chunk({ maxSize: 512 }) streamed from disk${bench.values.cpu ? ', timed by CPU (all threads of the process)' : ''}; each run in its own process${runs > 1 ? `, the fastest of ${runs} for the Markdown rows` : ''}; each shape timed in turns with the docs of its size, its × docs over the docs beside it, and the docs' row the fastest of those docs runs; PDF rows give seconds.${baseline === undefined ? '' : ` Baseline build \`${baseline}\`: each shape's run on it follows this build's, the fastest kept; × baseline is this build's time per MB over it.`}`;
bench.finish(rows.length === 0 ? '' : `${method}\n\n${table}\n\n${verdict}`);
