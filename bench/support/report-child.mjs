/**
 * The cost of the chunk report on one large document, run by `bench/report.ts` in its own plain Node process
 * against the built `dist/`:
 *
 *   node bench/support/report-child.mjs <markdown|pdf> <maxSize:overlap,...> <runs> <file...>
 *
 * Markdown files are joined into one document; a PDF is parsed once. For each setting the document is chunked,
 * then `renderReport` and `renderTerminal` are each timed over `runs` calls after one warm-up call. Prints one JSON
 * line: `{ chars, rows: [{ maxSize, overlap, chunks, textBytes, htmlMs, htmlBytes, terminalMs }] }`.
 */
import { readFileSync } from 'node:fs';
import { distModule, report } from './measured.mjs';

const [kind, settings, runs, ...files] = process.argv.slice(2);
const { chunkBlocks, chunkText, parsePdf, renderReport, renderTerminal } = await distModule();
// Page marks are the report's own helper, not part of the public API.
const { pageMarks } = await distModule('report/layout.js');

/** Mean milliseconds of `runs` calls after one warm-up call, and the last value. */
function time(fn) {
  let value = fn();
  const t0 = performance.now();
  for (let i = 0; i < Number(runs); i++) value = fn();
  return { ms: (performance.now() - t0) / Number(runs), value };
}

let text;
let chunkWith;
let pages;
if (kind === 'pdf') {
  const document = await parsePdf(files[0]);
  text = document.text;
  pages = pageMarks(document.blocks);
  chunkWith = (options) => chunkBlocks(document.blocks, options);
} else {
  text = files.map((f) => readFileSync(f, 'utf8')).join('\n\n');
  chunkWith = (options) => chunkText(text, options);
}

const rows = [];
for (const setting of settings.split(',')) {
  const [maxSize, overlap] = setting.split(':').map(Number);
  const { chunks, statistics } = chunkWith({ maxSize, overlap });
  const view = { unit: 'tokens', maxSize, targetSize: Math.floor(maxSize * 0.75), pages };
  const html = time(() => renderReport(chunks, text, statistics, view));
  const terminal = time(() => renderTerminal(chunks, text, statistics, { ...view, color: true }));
  rows.push({ maxSize, overlap, chunks: chunks.length, textBytes: Buffer.byteLength(text), htmlMs: html.ms, htmlBytes: Buffer.byteLength(html.value), terminalMs: terminal.ms });
}
report({ chars: text.length, rows });
