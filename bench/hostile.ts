/**
 * Hostile input: every generated shape of `test/support/hostile-markdown.ts` (and the hostile PDFs of
 * `test/support/pdf-hostile.ts`, when present) at 2, 8 and 32 MB, streamed from disk through
 * `parse({ workers: 0 }) → chunk({ maxSize: 512 })`, each run in its own process: time per MB beside Node's API docs
 * at the same size in the same run, peak RSS and outcome; and LangChain.js's recursive Markdown splitter with
 * js-tiktoken on the same inputs.
 *
 *   npx tsx bench/hostile.ts                     # every shape at 2, 8 and 32 MB
 *   npx tsx bench/hostile.ts --sizes 2 --shapes csv-table,changelog --no-peers
 *
 * Goals: peak RSS under 250 MB and time per MB within 3× the docs' at every shape and size; every PDF within 30 s
 * and 400 MB.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { HOSTILE_MARKDOWN } from '../test/support/hostile-markdown.js';
import { buildDist } from './support/child.js';
import { markdownTable, writeResults } from './support/results.js';

const ROOT = resolve(import.meta.dirname, '..');
const CHILD = join(import.meta.dirname, 'support/hostile-child.mjs');
const TMP = join(ROOT, '.bench-tmp/hostile');
const NODE_DOCS = '/usr/share/doc/nodejs/api';
const MB = 1024 * 1024;

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '2,8,32' },
    shapes: { type: 'string' },
    'no-peers': { type: 'boolean', default: false },
    timeout: { type: 'string', default: '300' },
  },
});
const sizes = values.sizes.split(',').map(Number);
const wanted = values.shapes?.split(',');
const timeoutMs = Number(values.timeout) * 1000;

interface Run {
  seconds: number;
  peakRssMb: number;
  outcome: string;
  chunks: number;
  bytes: number;
  warnings?: number;
}

function run(contender: string, file: string): Run {
  const r = spawnSync(process.execPath, [CHILD, contender, file], { cwd: ROOT, encoding: 'utf8', timeout: timeoutMs, maxBuffer: 1 << 24 });
  const line = r.stdout?.trim().split('\n').at(-1) ?? '';
  if (r.error?.message.includes('ETIMEDOUT') || r.signal === 'SIGTERM') return { seconds: timeoutMs / 1000, peakRssMb: NaN, outcome: `not finished in ${timeoutMs / 1000} s`, chunks: 0, bytes: 0 };
  if (!line.startsWith('{')) return { seconds: NaN, peakRssMb: NaN, outcome: `crashed: ${(r.stderr || '').trim().split('\n').slice(-2).join(' ').slice(0, 100)}`, chunks: 0, bytes: 0 };
  return JSON.parse(line) as Run;
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
  const module = (await import(path)) as { HOSTILE_PDFS?: { name: string; make: (bytes: number) => Uint8Array }[] };
  return module.HOSTILE_PDFS ?? [];
}

buildDist(ROOT);
mkdirSync(TMP, { recursive: true });
const perMb = (r: Run): number => r.seconds / (r.bytes / MB);
const rows: (string | number)[][] = [];
const goals: string[] = [];
for (const size of sizes) {
  const docsFile = join(TMP, `nodedocs-${size}.md`);
  writeFileSync(docsFile, nodeDocs(size * MB));
  const docs = run('chunkstream', docsFile);
  const docsPerMb = perMb(docs);
  rows.push([`Node's API docs`, size, docsPerMb.toFixed(2), '1.00', docs.peakRssMb.toFixed(0), docs.outcome, '', '', '']);
  const shapes = HOSTILE_MARKDOWN.filter((s) => wanted === undefined || wanted.includes(s.name));
  for (const shape of shapes) {
    const file = join(TMP, `${shape.name}-${size}.md`);
    writeFileSync(file, shape.make(size * MB), shape.name === 'random-bytes' ? 'latin1' : 'utf8');
    const ours = run('chunkstream', file);
    const ratio = perMb(ours) / docsPerMb;
    const theirs = values['no-peers'] ? undefined : run('langchain', file);
    rows.push([
      shape.name,
      size,
      perMb(ours).toFixed(2),
      ratio.toFixed(2),
      ours.peakRssMb.toFixed(0),
      ours.outcome + (ours.warnings ? ` (${ours.warnings} warning${ours.warnings === 1 ? '' : 's'})` : ''),
      theirs === undefined ? '' : Number.isFinite(perMb(theirs)) ? perMb(theirs).toFixed(2) : '—',
      theirs === undefined || !Number.isFinite(theirs.peakRssMb) ? '' : theirs.peakRssMb.toFixed(0),
      theirs?.outcome ?? '',
    ]);
    if (!(ours.peakRssMb < 250) || !(ratio <= 3) || ours.outcome.startsWith('ERR_INTERNAL') || ours.outcome.startsWith('not finished') || ours.outcome.startsWith('crashed')) {
      goals.push(`${shape.name} at ${size} MB: ${perMb(ours).toFixed(2)} s/MB (${ratio.toFixed(2)}× the docs), ${ours.peakRssMb.toFixed(0)} MB, ${ours.outcome}`);
    }
    console.error(`${shape.name} ${size} MB: ${ours.outcome}, ${perMb(ours).toFixed(2)} s/MB, ${ours.peakRssMb.toFixed(0)} MB`);
  }
  for (const pdf of (await hostilePdfs()).filter((s) => wanted === undefined || wanted.includes(s.name))) {
    const file = join(TMP, `${pdf.name}-${size}.pdf`);
    writeFileSync(file, pdf.make(size * MB));
    const ours = run('chunkstream', file);
    rows.push([pdf.name, size, ours.seconds.toFixed(1) + ' s', '', ours.peakRssMb.toFixed(0), ours.outcome, '', '', '']);
    if (!(ours.seconds <= 30) || !(ours.peakRssMb < 400)) goals.push(`${pdf.name} at ${size} MB: ${ours.seconds.toFixed(1)} s, ${ours.peakRssMb.toFixed(0)} MB, ${ours.outcome}`);
  }
}
const table = markdownTable(
  ['input', 'MB', 'chunkstream s/MB', '× docs', 'peak RSS MB', 'outcome', 'LangChain.js s/MB', 'peak RSS MB', 'outcome'],
  rows,
  ['l', 'r', 'r', 'r', 'r', 'l', 'r', 'r', 'l'],
);
const verdict = goals.length === 0 ? 'Every shape within the goals (peak RSS < 250 MB, ≤ 3× the docs’ time per MB; PDFs ≤ 30 s, < 400 MB).' : `Outside the goals:\n\n${goals.map((g) => `- ${g}`).join('\n')}`;
writeResults('bench/hostile.ts', `parse({ workers: 0 }) → chunk({ maxSize: 512 }) streamed from disk; each run in its own process; PDF rows give seconds.\n\n${table}\n\n${verdict}`);
