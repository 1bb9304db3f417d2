/**
 * PDF input: pages per second and peak RSS of chunkstream's PDF parser (the streaming path, blocks consumed and
 * dropped) over the corpus PDFs, beside bare pdf.js `getTextContent` over the same pages (same loading options) and
 * beside pdf-parse; then memory over generated PDFs of growing page count, to show memory does not grow with pages;
 * then what isolating pdf.js costs a document, in a worker thread or in a child process, fresh and reused.
 *
 *   npx tsx bench/pdf.ts                 # seven corpus PDFs, then 50 to 3200 generated pages and freeculture.pdf
 *   npx tsx bench/pdf.ts --quick         # two small corpus PDFs, one timed pass, 50 and 200 generated pages
 *
 * Every figure comes from a fresh child process running plain JavaScript (`support/pdf-child.mjs`): one warm-up
 * pass (module loading, JIT), then the median of the timed passes. chunkstream reads a PDF in a sandbox process
 * of its own, so its CPU time and peak RSS are those of the measured process and every process under it (read
 * from `/proc`, sampled): the figures count what pdf.js costs wherever it runs. Speed is pages per CPU second
 * (user + system time; bare pdf.js under Node runs its worker in the same thread), which stays comparable when
 * other jobs share the machine; wall-clock pages per second are given beside it.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { buildPdf, textAt } from '../test/support/pdf-builder.js';
import { listFlag, numberFlag } from './support/args.js';
import { markdownTable } from './support/results.js';
import { CORPUS, startBench, type Outcome } from './support/runner.js';

type Tool = 'chunkstream' | 'pdfjs' | 'pdf-parse';
/** What `pdf-child.mjs` reports. */
interface Figure {
  pages: number;
  /** Median CPU milliseconds of a pass. */
  ms: number;
  /** Median wall-clock milliseconds of a pass. */
  wallMs: number;
  peakRssMb: number;
  /** Memory mode: the most memory reachable after a full collection (JS heap and external memory, buffers included). */
  liveMb?: number;
  units: number;
}

const PDFS = join(CORPUS, 'pdf');
/** Issue 18's goal: the operator lists read for tables, rules and figures cost something over bare text. */
const CPU_BUDGET = 1.5;
const TOOLS: Tool[] = ['chunkstream', 'pdfjs', 'pdf-parse'];
/** The real book of the memory table, beside the generated PDFs. */
const BOOK = 'freeculture';
/** The corpus PDFs of the speed table: prose, slides, a math lecture, a book, and two of tables. */
const DEFAULT_FILES = [
  'multi_page.pdf',
  'tracemonkey.pdf',
  'pdkids.pdf',
  'GeoTopo-komprimiert.pdf',
  'freeculture.pdf',
  'pdf-layout/pdfplumber/nics-background-checks-2015-11.pdf',
  'pdf-layout/docling/2305.03393v1-pg9.pdf',
];

const bench = startBench(
  { script: 'bench/pdf.ts', summary: "chunkstream's PDF reader beside bare pdf.js getTextContent and pdf-parse: pages per CPU second and peak RSS on the corpus PDFs, then memory against page count." },
  {
    rounds: { type: 'string', value: 'N', description: 'timed passes per measurement, the median kept (default 3; 1 with --quick)' },
    files: { type: 'string', value: 'LIST', description: `corpus PDFs, by name in pdf/ or by path from the corpus (default ${DEFAULT_FILES.join(',')}; the first two with --quick)` },
    pages: { type: 'string', value: 'LIST', description: `page counts of the generated PDFs, and ${BOOK} for the real book (default 50,200,800,1600,3200,${BOOK}; 50,200 with --quick)` },
  },
);
const rounds = numberFlag('rounds', bench.values.rounds, bench.quick ? 1 : 3);
const corpusFiles = listFlag(bench.values.files, bench.quick ? DEFAULT_FILES.slice(0, 2) : DEFAULT_FILES);
const pageCounts = listFlag(bench.values.pages, bench.quick ? ['50', '200'] : ['50', '200', '800', '1600', '3200', BOOK]);

/** One measurement in a fresh child; `memory` runs one pass with forced collections instead. */
function measure(tool: Tool, file: string, mode: 'time' | 'memory' = 'time'): Promise<Outcome<Figure>> {
  return bench.measure<Figure>('pdf-child.mjs', [tool, file, String(rounds), mode], { nodeArgs: ['--expose-gc'] });
}

/** A PDF of `pages` pages of prose with a running header and a page number, written by hand. */
function syntheticPdf(pages: number): Uint8Array {
  const words = 'the quick brown fox jumps over a lazy dog while seven wizards quietly judge boxing matches'.split(' ');
  const specs = [];
  for (let p = 1; p <= pages; p++) {
    const lines = [textAt(72, 750, `Synthetic Report ${p}`, 9), textAt(300, 40, String(p), 9)];
    for (let l = 0; l < 45; l++) {
      const text = Array.from({ length: 12 }, (_, w) => words[(p * 7 + l * 3 + w) % words.length]).join(' ');
      lines.push(textAt(l % 9 === 0 ? 90 : 72, 720 - l * 14, l % 9 === 8 ? `${text}.` : text, 11));
    }
    specs.push({ content: lines.join('\n') });
  }
  return buildPdf(specs);
}

const pagesPerS = (pages: number, ms: number): string => (pages / (ms / 1000)).toFixed(0);
const percent = (ours: number, bare: number): string => `${(((ours - bare) / bare) * 100).toFixed(0)}%`;

/** Speed and peak RSS of every tool on each corpus PDF, and the CPU overhead over bare pdf.js. */
async function speedPart(): Promise<string> {
  const files = corpusFiles.map((f) => (f.includes('/') ? join(CORPUS, f) : join(PDFS, f))).filter((f) => bench.has(`the speed row of ${basename(f)}`, f));
  if (files.length === 0) return '';
  const totals = new Map<Tool, { pages: number; ms: number }>(TOOLS.map((t) => [t, { pages: 0, ms: 0 }]));
  const rows: string[][] = [];
  let complete = true;
  for (const file of files) {
    bench.log(basename(file));
    const outcomes: Outcome<Figure>[] = [];
    for (const tool of TOOLS) outcomes.push(await measure(tool, file));
    const cells = outcomes.flatMap((o) => (o.ok ? [pagesPerS(o.report.pages, o.report.ms), pagesPerS(o.report.pages, o.report.wallMs), o.report.peakRssMb.toFixed(0)] : [`failed: ${o.error}`, '', '']));
    const [ours, bare] = outcomes;
    const pages = ours?.ok ? String(ours.report.pages) : '';
    rows.push([basename(file), pages, ...cells, ours?.ok && bare?.ok ? percent(ours.report.ms, bare.report.ms) : '']);
    if (outcomes.every((o) => o.ok)) {
      outcomes.forEach((o, i) => {
        const total = totals.get(TOOLS[i]!)!;
        if (o.ok) {
          total.pages += o.report.pages;
          total.ms += o.report.ms;
        }
      });
    } else {
      complete = false;
    }
  }
  const ours = totals.get('chunkstream')!;
  const bare = totals.get('pdfjs')!;
  const peer = totals.get('pdf-parse')!;
  rows.push([complete ? 'all' : 'all that ran', String(ours.pages), ...TOOLS.flatMap((t) => [pagesPerS(totals.get(t)!.pages, totals.get(t)!.ms), '', '']), percent(ours.ms, bare.ms)]);
  const header = ['file', 'pages', ...TOOLS.flatMap((t) => [`${t} p/s`, 'wall p/s', 'RSS MB']), 'CPU overhead vs pdf.js'];
  return [
    `Corpus PDFs; median of ${rounds} pass(es) after a warm-up, each tool in its own process. p/s: pages per CPU second; wall p/s: pages per wall-clock second; RSS: peak resident set size (chunkstream: the measured process and its PDF sandbox together).`,
    '',
    markdownTable(header, rows, header.map((_, i) => (i === 0 ? 'l' : 'r'))),
    '',
    `- chunkstream / pdf.js CPU time: ${(ours.ms / bare.ms).toFixed(2)}× (budget ${CPU_BUDGET.toFixed(2)}×): ${ours.ms / bare.ms <= CPU_BUDGET ? 'PASS' : 'FAIL'}; chunkstream / pdf-parse CPU time: ${(ours.ms / peer.ms).toFixed(2)}×`,
  ].join('\n');
}

/** Peak RSS and live memory of chunkstream and bare pdf.js against page count. */
async function memoryPart(): Promise<string> {
  const idle = await bench.measure<{ rssMb: number }>('pdf-child.mjs', ['idle']);
  const dir = mkdtempSync(join(tmpdir(), 'chunkstream-bench-'));
  const rows: string[][] = [];
  try {
    for (const count of pageCounts) {
      const book = count === BOOK;
      const path = book ? join(PDFS, `${BOOK}.pdf`) : join(dir, `synthetic-${count}.pdf`);
      if (book && !bench.has(`the memory row of ${BOOK}.pdf`, path)) continue;
      const bytes = book ? readFileSync(path) : syntheticPdf(numberFlag('pages', count, 50));
      if (!book) writeFileSync(path, bytes);
      bench.log(`memory, ${book ? `${BOOK}.pdf` : `${count} pages`}`);
      const cells: string[] = [];
      for (const tool of ['chunkstream', 'pdfjs'] as const) {
        const t = await measure(tool, path);
        const m = await measure(tool, path, 'memory');
        const live = m.ok ? (m.report.liveMb ?? 0) : NaN;
        cells.push(
          t.ok ? t.report.peakRssMb.toFixed(0) : `failed: ${t.error}`,
          m.ok ? live.toFixed(0) : `failed: ${m.error}`,
          m.ok ? (live - bytes.length / 2 ** 20).toFixed(1) : '',
          t.ok ? pagesPerS(t.report.pages, t.report.ms) : '',
        );
      }
      rows.push([book ? `${BOOK}.pdf` : count, String(bytes.length), ...cells]);
      if (!book) rmSync(path, { force: true });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  if (rows.length === 0) return '';
  const header = ['pages', 'bytes', ...['chunkstream', 'pdf.js'].flatMap((t) => [`${t} RSS MB`, 'live MB', 'live − file MB', 'p/s'])];
  return [
    'Memory against page count (generated PDFs, 45 lines a page, running header and page number). RSS: peak resident set size over the timed passes (chunkstream: with its PDF sandbox); live: most memory still reachable after a full collection, sampled every 20 pages (pdf.js) or blocks (chunkstream) in a separate pass that holds no copy of the file but the one pdf.js reads (so live includes the file once); for chunkstream live is the measured process only, pdf.js running in the sandbox; live − file: live less the file size.',
    '',
    markdownTable(header, rows, header.map(() => 'r')),
    '',
    idle.ok ? `A child that does nothing holds ${idle.report.rssMb.toFixed(0)} MB.` : `The idle child failed: ${idle.error}`,
  ].join('\n');
}

/** Per-document cost of isolating bare pdf.js in a worker thread or a child process, fresh or warm. */
async function isolationPart(): Promise<string> {
  const small = join(PDFS, 'multi_page.pdf');
  if (!bench.has('the isolation table', small)) return '';
  const rows: string[][] = [];
  for (const [how, documents] of [
    ['worker-fresh', 6],
    ['child-fresh', 6],
    ['worker-warm', 20],
    ['child-warm', 20],
  ] as const) {
    bench.log(`isolation, ${how}`);
    const o = await bench.measure<{ wallMs: number; cpuMs: number }>('pdf-isolation-child.mjs', [how, small, String(bench.quick ? Math.min(documents, 3) : documents)]);
    rows.push([how.replace('-', ', '), o.ok ? o.report.wallMs.toFixed(0) : `failed: ${o.error}`, o.ok ? o.report.cpuMs.toFixed(0) : '']);
  }
  return [
    'Isolating pdf.js: what a document costs when pdf.js runs in a worker thread or a child process, started for the document (fresh) or kept from the previous one (warm). Bare pdf.js reading every page of multi_page.pdf (5 pages); milliseconds per document, CPU of every process and thread.',
    '',
    markdownTable(['where', 'wall ms', 'CPU ms'], rows, ['l', 'r', 'r']),
  ].join('\n');
}

bench.finish([await speedPart(), await memoryPart(), await isolationPart()].filter((p) => p !== '').join('\n\n'));
