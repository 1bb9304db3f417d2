/**
 * Cost of the chunk report on large documents: `renderReport` and `renderTerminal` time in Node and the page size,
 * for ~700k characters of the corpus's Markdown and for freeculture.pdf (352 pages), at several chunk sizes. Each
 * document is measured in its own plain Node process (`support/report-child.mjs`).
 *
 *   npx tsx bench/report.ts              # 128, 512 and 512/64 tokens on the Markdown; 256/32 and 512/64 on the PDF
 *   npx tsx bench/report.ts --quick      # one setting each, one timed call
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { numberFlag } from './support/args.js';
import { markdownTable } from './support/results.js';
import { CORPUS, startBench } from './support/runner.js';

const MARKDOWN = [
  'md/free-programming-books/free-courses-en.md',
  'md/free-programming-books/free-programming-books-langs.md',
  'md/free-programming-books/free-programming-books-subjects.md',
  'md/gfm-spec/spec.txt',
].map((f) => join(CORPUS, f));
const PDF = join(CORPUS, 'pdf/freeculture.pdf');

/** What `report-child.mjs` reports. */
interface Rendered {
  chars: number;
  rows: { maxSize: number; overlap: number; chunks: number; textBytes: number; htmlMs: number; htmlBytes: number; terminalMs: number }[];
}

const bench = startBench(
  { script: 'bench/report.ts', summary: 'renderReport and renderTerminal time and HTML size on ~700k characters of corpus Markdown and on freeculture.pdf, at several chunk sizes.' },
  { runs: { type: 'string', value: 'N', description: 'timed calls per figure after one warm-up call, the mean kept (default 3; 1 with --quick)' } },
);
const runs = numberFlag('runs', bench.values.runs, bench.quick ? 1 : 3);

const rows: (string | number)[][] = [];
async function document(name: (chars: number) => string, kind: 'markdown' | 'pdf', settings: string, files: string[]): Promise<void> {
  bench.log(`${kind}: ${settings}`);
  const outcome = await bench.measure<Rendered>('report-child.mjs', [kind, settings, String(runs), ...files]);
  if (!outcome.ok) {
    rows.push([name(0), `failed: ${outcome.error}`, '', '', '', '', '', '', '']);
    return;
  }
  for (const r of outcome.report.rows) {
    rows.push([name(outcome.report.chars), r.maxSize, r.overlap, r.chunks, (r.textBytes / 1024).toFixed(0), r.htmlMs.toFixed(0), (r.htmlBytes / 1024).toFixed(0), (r.htmlBytes / r.textBytes).toFixed(2), r.terminalMs.toFixed(0)]);
  }
}

const mdFiles = MARKDOWN.filter((f) => existsSync(f));
if (mdFiles.length === 0) bench.skip(`the Markdown rows: none of ${MARKDOWN.map((f) => f.slice(CORPUS.length + 1)).join(', ')} is in ../shared/corpus`);
else await document((chars) => `corpus Markdown (${(chars / 1000).toFixed(0)}k chars)`, 'markdown', bench.quick ? '512:0' : '128:0,512:0,512:64', mdFiles);
if (bench.has('the PDF rows', PDF)) await document(() => 'freeculture.pdf (352 p)', 'pdf', bench.quick ? '256:32' : '256:32,512:64', [PDF]);

const header = ['document', 'max tokens', 'overlap', 'chunks', 'text KB', 'renderReport ms', 'HTML KB', 'HTML / text', 'renderTerminal ms'];
bench.finish(rows.length === 0 ? '' : [`Mean of ${runs} call(s) after a warm-up call; each document in its own process.`, '', markdownTable(header, rows, header.map((_, i) => (i === 0 ? 'l' : 'r')))].join('\n'));
