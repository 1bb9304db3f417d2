/**
 * HTML throughput and memory: chunkstream on Node's API docs as HTML beside the usual workaround (turndown, then
 * LangChain.js's recursive Markdown splitter with js-tiktoken) and beside chunkstream on the Markdown the HTML was
 * built from, in one run; then a large HTML file (`all.html` repeated) streamed, for memory.
 *
 *   npx tsx bench/html.ts                 # every page, all.html, and a 50 MB file
 *   npx tsx bench/html.ts --quick         # ten pages and all.html, no large file
 *   npx tsx bench/html.ts --large-mb 100  # the large file at 100 MB
 *
 * Each row runs in its own process (`support/html-child.mjs`), the fastest of `--runs`. Goals: chunkstream at
 * least 3× the workaround's MB/s; the large file under 250 MB peak RSS; chunkstream's time per MB of HTML within
 * 1.5× of its time per MB of the Markdown.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { numberFlag } from './support/args.js';
import { markdownTable } from './support/results.js';
import { bestOf, NODE_DOCS, ROOT, startBench } from './support/runner.js';

const TMP = join(ROOT, '.bench-tmp/html');
const MB = 1024 * 1024;

const bench = startBench(
  {
    script: 'bench/html.ts',
    summary: "chunkstream on Node's API docs as HTML beside turndown → LangChain.js and beside chunkstream on their Markdown; a large HTML file streamed.",
    timeoutS: 600,
  },
  {
    'large-mb': { type: 'string', value: 'MB', description: 'size of the large HTML file (default 50; none with --quick)' },
    runs: { type: 'string', default: '1', value: 'N', description: 'processes per measurement, the fastest kept' },
    'large-only': { type: 'boolean', default: false, description: 'only the large file' },
  },
);

/** What `html-child.mjs` reports. */
interface Run {
  readonly seconds: number;
  readonly bytes: number;
  readonly chunks: number;
  readonly peakRssMb: number;
  readonly outcome: string;
}

const runs = numberFlag('runs', bench.values.runs, 1);
const largeMb = bench.quick ? 0 : numberFlag('large-mb', bench.values['large-mb'], 50);

async function run(contender: string, files: readonly string[]): Promise<Run> {
  return bestOf(
    runs,
    async () => {
      const r = await bench.measure<Run>('html-child.mjs', [contender, ...files]);
      if (r.ok) return r.report;
      return { seconds: Number.NaN, bytes: 0, chunks: 0, peakRssMb: Number.NaN, outcome: r.timedOut ? 'not finished' : `crashed: ${r.error.slice(0, 80)}` };
    },
    (r) => (r.outcome === 'ok' ? r.seconds : undefined),
  );
}

const mbps = (r: Run): number => r.bytes / MB / r.seconds;
const fixed = (n: number, digits: number): string => (Number.isFinite(n) ? n.toFixed(digits) : '—');
const rows: (string | number)[][] = [];
const goals: string[] = [];
const row = (input: string, contender: string, r: Run): void => {
  rows.push([input, contender, fixed(r.bytes / MB, 1), fixed(r.seconds, 2), fixed(mbps(r), 2), fixed(r.peakRssMb, 0), r.chunks, r.outcome]);
  bench.log(`${input}, ${contender}: ${fixed(mbps(r), 2)} MB/s, ${fixed(r.peakRssMb, 0)} MB, ${r.chunks} chunks, ${r.outcome}`);
};

if (bench.has("every row (Node's API docs)", NODE_DOCS)) {
  const names = readdirSync(NODE_DOCS).filter((n) => n.endsWith('.html') && n !== 'all.html' && n !== 'index.html').sort();
  const pages = (bench.quick ? names.slice(0, 10) : names).map((n) => join(NODE_DOCS, n));
  const markdown = pages.map((p) => p.replace(/\.html$/, '.md'));
  const all = [join(NODE_DOCS, 'all.html')];

  if (!bench.values['large-only']) await comparePages(pages, markdown, all);
  if (largeMb > 0) await largeFile(all[0] as string);
}

/** The pages and all.html beside the workaround, and the pages beside their Markdown. */
async function comparePages(pages: readonly string[], markdown: readonly string[], all: readonly string[]): Promise<void> {
  const html = await run('chunkstream', pages);
  const workaround = await run('turndown-langchain', pages);
  const md = await run('chunkstream', markdown);
  row(`${pages.length} pages (HTML)`, 'chunkstream', html);
  row(`${pages.length} pages (HTML)`, 'turndown → LangChain.js', workaround);
  row(`${pages.length} pages (Markdown)`, 'chunkstream', md);
  const allHtml = await run('chunkstream', all);
  const allWorkaround = await run('turndown-langchain', all);
  row('all.html', 'chunkstream', allHtml);
  row('all.html', 'turndown → LangChain.js', allWorkaround);

  for (const [label, ours, theirs] of [['pages', html, workaround], ['all.html', allHtml, allWorkaround]] as const) {
    const ratio = mbps(ours) / mbps(theirs);
    goals.push(`${label}: chunkstream ${fixed(ratio, 2)}× the workaround's MB/s (goal ≥ 3)${ratio >= 3 ? '' : ' — outside the goal'}`);
  }
  const perMb = (r: Run) => r.seconds / (r.bytes / MB);
  const toMarkdown = perMb(html) / perMb(md);
  goals.push(`pages: time per MB of HTML ${fixed(toMarkdown, 2)}× that of the Markdown (goal ≤ 1.5)${toMarkdown <= 1.5 ? '' : ' — outside the goal'}`);
}

/**
 * all.html repeated into one file of `largeMb` MB, streamed. Its `role="main"` is taken out: a page is read from its
 * first `main` only, so the copies after the first would not be read at all.
 */
async function largeFile(allHtml: string): Promise<void> {
  mkdirSync(TMP, { recursive: true });
  const file = join(TMP, `all-${largeMb}.html`);
  const text = Buffer.from(readFileSync(allHtml, 'utf8').replaceAll('role="main"', ''), 'utf8');
  const copies = Math.ceil((largeMb * MB) / text.length);
  writeFileSync(file, Buffer.concat(Array.from({ length: copies }, () => text)));
  const large = await run('chunkstream', [file]);
  rmSync(file, { force: true });
  row(`all.html × ${copies} (one file)`, 'chunkstream', large);
  goals.push(`${fixed(large.bytes / MB, 0)} MB streamed: peak RSS ${fixed(large.peakRssMb, 0)} MB (goal < 250), ${fixed(mbps(large), 2)} MB/s${large.peakRssMb < 250 ? '' : ' — outside the goal'}`);
}

const table = markdownTable(['input', 'contender', 'MB', 's', 'MB/s', 'peak RSS MB', 'chunks', 'outcome'], rows, ['l', 'l', 'r', 'r', 'r', 'r', 'r', 'l']);
const method = `512 tokens (cl100k_base); chunkstream streams each file from disk through parse({ workers: 0 }) → chunk(); the workaround reads each file, turndown → RecursiveCharacterTextSplitter.fromLanguage('markdown') with a js-tiktoken length function; each row its own process${runs > 1 ? `, the fastest of ${runs}` : ''}.`;
bench.finish(rows.length === 0 ? '' : `${method}\n\n${table}\n\n${goals.map((g) => `- ${g}`).join('\n')}`);
