/**
 * Cost of the chunk report on a large document: layout and HTML rendering time in Node, page size, and the terminal
 * view. Run: npx tsx bench/report.ts [file.md ...] (default: ~700k characters of the corpus's Markdown).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { renderReport } from '../src/report/html.js';
import { renderTerminal } from '../src/report/terminal.js';
import { markdownChunks, fixtureStats } from '../test/report/fixtures.js';

const CORPUS = resolve(import.meta.dirname, '../../shared/corpus');
const DEFAULT = [
  'md/free-programming-books/free-courses-en.md',
  'md/free-programming-books/free-programming-books-langs.md',
  'md/free-programming-books/free-programming-books-subjects.md',
  'md/gfm-spec/spec.txt',
].map((f) => join(CORPUS, f));

const files = (process.argv.length > 2 ? process.argv.slice(2) : DEFAULT).filter((f) => existsSync(f));
if (files.length === 0) {
  console.log('no input files (the corpus is expected at ../shared/corpus)');
  process.exit(0);
}
const text = files.map((f) => readFileSync(f, 'utf8')).join('\n\n');

function time<T>(fn: () => T, runs = 5): { ms: number; value: T } {
  let value = fn();
  const t0 = performance.now();
  for (let i = 0; i < runs; i++) value = fn();
  return { ms: (performance.now() - t0) / runs, value };
}

const rows: string[][] = [['chunk size (chars)', 'chunks', 'renderReport ms', 'HTML KB', 'HTML / text', 'renderTerminal ms', 'MB/s (HTML)']];
for (const size of [200, 400, 1500]) {
  const chunks = markdownChunks(text, size, 'bench');
  const stats = fixtureStats(chunks);
  const html = time(() => renderReport(chunks, text, stats, { unit: 'chars', maxSize: size, targetSize: Math.floor(size * 0.75) }));
  const term = time(() => renderTerminal(chunks, text, stats, { color: true, unit: 'chars' }));
  const kb = Buffer.byteLength(html.value) / 1024;
  rows.push([
    String(size),
    String(chunks.length),
    html.ms.toFixed(1),
    kb.toFixed(0),
    (Buffer.byteLength(html.value) / Buffer.byteLength(text)).toFixed(2),
    term.ms.toFixed(1),
    (text.length / 1e6 / (html.ms / 1000)).toFixed(1),
  ]);
}
console.log(`${text.length.toLocaleString('en-US')} characters from ${files.length} file(s)`);
const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
for (const r of rows) console.log(`| ${r.map((c, i) => c.padStart(widths[i]!)).join(' | ')} |`);
