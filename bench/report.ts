/**
 * Cost of the chunk report on large documents: `renderReport` and `renderTerminal` time in Node and the page size,
 * for ~700k characters of the corpus's Markdown and for freeculture.pdf (352 pages), at several chunk sizes.
 * Run: npx tsx bench/report.ts
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chunkBlocks, chunkText } from '../src/api/chunk.js';
import { parsePdf } from '../src/parsers/pdf/reader.js';
import { renderReport } from '../src/report/html.js';
import { pageMarks, type PageMark } from '../src/report/layout.js';
import { renderTerminal } from '../src/report/terminal.js';
import type { ChunkingResult } from '../src/types.js';

const CORPUS = resolve(import.meta.dirname, '../../shared/corpus');
const MARKDOWN = [
  'md/free-programming-books/free-courses-en.md',
  'md/free-programming-books/free-programming-books-langs.md',
  'md/free-programming-books/free-programming-books-subjects.md',
  'md/gfm-spec/spec.txt',
].map((f) => join(CORPUS, f));
const PDF = join(CORPUS, 'pdf/freeculture.pdf');

/** Mean time of `runs` calls after one warm-up call. */
function time<T>(fn: () => T, runs = 3): { ms: number; value: T } {
  let value = fn();
  const t0 = performance.now();
  for (let i = 0; i < runs; i++) value = fn();
  return { ms: (performance.now() - t0) / runs, value };
}

const header = ['document', 'max tokens', 'overlap', 'chunks', 'text KB', 'renderReport ms', 'HTML KB', 'HTML / text', 'renderTerminal ms'];
const rows: string[][] = [header];

function measure(name: string, text: string, maxSize: number, overlap: number, run: () => ChunkingResult, pages?: PageMark[]): void {
  const { chunks, statistics } = run();
  const view = { unit: 'tokens' as const, maxSize, targetSize: Math.floor(maxSize * 0.75), pages };
  const html = time(() => renderReport(chunks, text, statistics, view));
  const term = time(() => renderTerminal(chunks, text, statistics, { ...view, color: true }));
  const htmlBytes = Buffer.byteLength(html.value);
  const textBytes = Buffer.byteLength(text);
  rows.push([
    name,
    String(maxSize),
    String(overlap),
    String(chunks.length),
    (textBytes / 1024).toFixed(0),
    html.ms.toFixed(0),
    (htmlBytes / 1024).toFixed(0),
    (htmlBytes / textBytes).toFixed(2),
    term.ms.toFixed(0),
  ]);
}

const mdFiles = MARKDOWN.filter((f) => existsSync(f));
if (mdFiles.length > 0) {
  const text = mdFiles.map((f) => readFileSync(f, 'utf8')).join('\n\n');
  for (const [maxSize, overlap] of [[128, 0], [512, 0], [512, 64]] as const) {
    measure(`corpus Markdown (${(text.length / 1000).toFixed(0)}k chars)`, text, maxSize, overlap, () => chunkText(text, { maxSize, overlap }));
  }
}
if (existsSync(PDF)) {
  const document = await parsePdf(PDF);
  const pages = pageMarks(document.blocks);
  for (const [maxSize, overlap] of [[256, 32], [512, 64]] as const) {
    measure('freeculture.pdf (352 p)', document.text, maxSize, overlap, () => chunkBlocks(document.blocks, { maxSize, overlap }), pages);
  }
}
if (rows.length === 1) console.log('no input: the corpus is expected at ../shared/corpus');
const widths = header.map((_, i) => Math.max(...rows.map((r) => (r[i] as string).length)));
rows.forEach((r, n) => {
  console.log(`| ${r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ')} |`);
  if (n === 0) console.log(`|${widths.map((w, i) => (i === 0 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`);
});
