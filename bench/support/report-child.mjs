/**
 * One report measurement, run by `bench/report.ts` in its own plain Node process against the measured build:
 *
 *   node bench/support/report-child.mjs <input> <out.html> <maxSize> <overlap> [<maxSize> <overlap>]
 *
 * `input` is `markdown` (four large corpus Markdown files joined) or `freeculture` (the 352-page PDF). The
 * document is parsed and chunked once (not timed); then renderReport (or, with a second setting, renderComparison)
 * and renderTerminal run once to warm up and three times timed. The page is written to `out.html` for the browser
 * half of the bench. Prints one JSON line.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CORPUS, distModule } from './measured.mjs';

const [{ chunkBlocks, parseMarkdown, parsePdf }, { normalizeOptions }, { headingMarks, pageMarks, renderComparison, renderReport, renderTerminal }] = await Promise.all([
  distModule(),
  distModule('config.js'),
  distModule('report/index.js'),
]);
const MARKDOWN = [
  'md/free-programming-books/free-courses-en.md',
  'md/free-programming-books/free-programming-books-langs.md',
  'md/free-programming-books/free-programming-books-subjects.md',
  'md/gfm-spec/spec.txt',
].map((f) => join(CORPUS, f));

const [input, out, ...sizes] = process.argv.slice(2);
const settings = [];
for (let i = 0; i < sizes.length; i += 2) settings.push({ maxSize: Number(sizes[i]), overlap: Number(sizes[i + 1]) });

async function readDocument() {
  if (input === 'markdown') {
    const text = MARKDOWN.map((f) => readFileSync(f, 'utf8')).join('\n\n');
    return { text, blocks: parseMarkdown(text), pages: undefined };
  }
  if (input === 'freeculture') {
    const doc = await parsePdf(join(CORPUS, 'pdf/freeculture.pdf'));
    return { text: doc.text, blocks: doc.blocks, pages: pageMarks(doc.blocks) };
  }
  throw new Error(`unknown input ${input}`);
}

/** Mean milliseconds of three calls after one warm-up call, and the last value. */
function time(fn) {
  let value = fn();
  const t0 = performance.now();
  for (let i = 0; i < 3; i++) value = fn();
  return { ms: (performance.now() - t0) / 3, value };
}

const { text, blocks, pages } = await readDocument();
const headings = headingMarks(blocks);
const t0 = performance.now();
const runs = settings.map((s) => {
  const { chunks, statistics } = chunkBlocks(blocks, s);
  const c = normalizeOptions(s);
  const view = { unit: c.unit, encoding: c.encoding, strategy: c.strategy, maxSize: c.maxSize, targetSize: c.targetSize, minSize: c.minSize, overlap: c.overlap, splitLevels: c.splitLevels };
  return { label: `--max-size ${s.maxSize} --overlap ${s.overlap}`, chunks, statistics, settings: view };
});
const chunkMs = performance.now() - t0;
const page = { title: input, pages, headings };
const html = time(() =>
  runs.length === 1 ? renderReport(runs[0].chunks, text, runs[0].statistics, { ...runs[0].settings, ...page }) : renderComparison(runs, text, page),
);
const terminal = time(() => renderTerminal(runs[0].chunks, text, runs[0].statistics, { ...runs[0].settings, pages, color: true }));
writeFileSync(out, html.value);
process.stdout.write(
  `${JSON.stringify({
    chunks: runs.map((r) => r.chunks.length),
    textKb: Buffer.byteLength(text) / 1024,
    chunkMs,
    renderMs: html.ms,
    htmlKb: Buffer.byteLength(html.value) / 1024,
    terminalMs: terminal.ms,
  })}\n`,
);
