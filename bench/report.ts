/**
 * Cost of the chunk report on large documents, in Node and in headless chromium.
 *
 *   npx tsx bench/report.ts            # 7 page loads per page
 *   npx tsx bench/report.ts --quick    # 3
 *
 * Node: each case (document × settings) runs in its own plain Node process on `dist/` (`support/report-child.mjs`),
 * which chunks once and times renderReport (renderComparison for two settings) and renderTerminal; the peer is the
 * chunking of the same document in the same process. Chromium: each page is loaded in a fresh browser context, the
 * median of several loads; the peer is a page holding the same document text in one `<pre>`, the least any page
 * showing that text costs. The budgets are the issue's: freeculture.pdf's report ready within 1 s, its comparison
 * within 2 s, measured as the browser tests measure (navigation to the report script having run).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { markdownTable } from './support/results.js';
import { CORPUS, ROOT, startBench } from './support/runner.js';

const OUT = join(ROOT, '.bench-tmp/report');
const CHROMIUM = '/usr/bin/chromium';

const bench = startBench(
  { script: 'bench/report.ts', summary: 'renderReport, renderComparison and renderTerminal in Node, and the report ready in headless chromium, on corpus Markdown and freeculture.pdf.' },
  {},
);
const LOADS = bench.quick ? 3 : 7;

interface Case {
  readonly input: 'markdown' | 'freeculture';
  readonly name: string;
  readonly settings: readonly (readonly [number, number])[];
  /** Ready-time budget in the browser, in ms. */
  readonly budget?: number;
}

interface NodeFigures {
  chunks: number[];
  textKb: number;
  chunkMs: number;
  renderMs: number;
  htmlKb: number;
  terminalMs: number;
}

const CASES: Case[] = [
  { input: 'markdown', name: 'corpus Markdown', settings: [[128, 0]] },
  { input: 'markdown', name: 'corpus Markdown', settings: [[512, 64]] },
  { input: 'freeculture', name: 'freeculture.pdf', settings: [[256, 32]], budget: 1000 },
  { input: 'freeculture', name: 'freeculture.pdf', settings: [[512, 64]] },
  { input: 'freeculture', name: 'freeculture.pdf', settings: [[256, 32], [512, 64]], budget: 2000 },
];

const settingsLabel = (c: Case): string => c.settings.map(([max, overlap]) => `${max}/${overlap}`).join(' vs ');
const fileOf = (c: Case): string => join(OUT, `${c.input}-${c.settings.map(([m, o]) => `${m}-${o}`).join('-vs-')}.html`);

/** Runs one case in its own Node process. */
async function measureNode(c: Case): Promise<NodeFigures | { error: string }> {
  const outcome = await bench.measure<NodeFigures>('report-child.mjs', [c.input, fileOf(c), ...c.settings.flatMap(([m, o]) => [String(m), String(o)])]);
  return outcome.ok ? outcome.report : { error: outcome.error };
}

/** A page with the report's document text and nothing else: the floor of showing that text. */
function plainPage(reportFile: string): string {
  const html = readFileSync(reportFile, 'utf8');
  // The report's text, recovered from its bands: strip every tag inside the document columns of view 0.
  const main = /<main class="doc" id="doc"[^>]*>([\s\S]*?)<\/main>/.exec(html)?.[1] ?? '';
  const file = reportFile.replace(/\.html$/, '-plain.html');
  writeFileSync(file, `<!doctype html><html><head><meta charset="utf-8"><title>plain</title></head><body><pre style="white-space:pre-wrap">${main.replace(/<[^>]*>/g, '')}</pre></body></html>`);
  return file;
}

interface Load {
  /** In-page: navigation start to the end of the load event. */
  loadMs: number;
  /** As the browser tests measure it: from goto to the report script having run (or to load, for a plain page). */
  readyMs: number;
}

async function loadOnce(browser: Browser, file: string, report: boolean): Promise<Load> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  const t0 = performance.now();
  await page.goto(pathToFileURL(file).href, { waitUntil: report ? 'commit' : 'load' });
  if (report) await page.waitForSelector('html[data-ready="1"]', { timeout: 60_000 });
  const readyMs = performance.now() - t0;
  await page.waitForLoadState('load');
  const loadMs = await page.evaluate(() => (performance.getEntriesByType('navigation' as never)[0] as unknown as { loadEventEnd: number }).loadEventEnd);
  await context.close();
  return { loadMs, readyMs };
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

async function measureBrowser(browser: Browser, file: string, report: boolean): Promise<{ loadMs: number; readyMs: number }> {
  await loadOnce(browser, file, report); // warm the file cache and the browser
  const loads: Load[] = [];
  for (let i = 0; i < LOADS; i++) loads.push(await loadOnce(browser, file, report));
  return { loadMs: median(loads.map((l) => l.loadMs)), readyMs: median(loads.map((l) => l.readyMs)) };
}

if (!bench.has('every case', CORPUS)) {
  bench.finish('');
  process.exit(0);
}
mkdirSync(OUT, { recursive: true });

const nodeRows: (string | number)[][] = [];
const done: { c: Case; figures: NodeFigures }[] = [];
for (const c of CASES) {
  const figures = await measureNode(c);
  if ('error' in figures) {
    nodeRows.push([c.name, settingsLabel(c), `failed: ${figures.error}`]);
    continue;
  }
  done.push({ c, figures });
  nodeRows.push([
    c.name,
    settingsLabel(c),
    figures.chunks.join(' + '),
    figures.textKb.toFixed(0),
    figures.chunkMs.toFixed(0),
    figures.renderMs.toFixed(0),
    `${(figures.renderMs / figures.chunkMs).toFixed(2)}×`,
    figures.htmlKb.toFixed(0),
    (figures.htmlKb / figures.textKb).toFixed(2),
    figures.terminalMs.toFixed(0),
  ]);
}
const sections = [
  '### Rendering in Node (each case in its own process; chunking the same document in the same process is the peer)',
  markdownTable(
    ['document', 'max / overlap tokens', 'chunks', 'text KB', 'chunking ms', 'render HTML ms', '× chunking', 'HTML KB', 'HTML / text', 'renderTerminal ms'],
    nodeRows,
    ['l', 'l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r'],
  ),
];

if (existsSync(CHROMIUM)) {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-quic', '--no-first-run', '--disable-component-update', '--disable-sync'],
  });
  const rows: (string | number)[][] = [];
  for (const { c, figures } of done) {
    const file = fileOf(c);
    const plain = await measureBrowser(browser, plainPage(file), false);
    const report = await measureBrowser(browser, file, true);
    const verdict = c.budget === undefined ? '–' : `${report.readyMs <= c.budget ? 'within' : 'over'} ${c.budget} ms`;
    rows.push([c.name, settingsLabel(c), figures.htmlKb.toFixed(0), plain.loadMs.toFixed(0), report.loadMs.toFixed(0), `${(report.loadMs / plain.loadMs).toFixed(2)}×`, report.readyMs.toFixed(0), verdict]);
  }
  await browser.close();
  sections.push(
    `### Headless chromium, 1440×900 (median of ${LOADS} loads, each in a fresh context; the peer is the same text in one \`<pre>\`)`,
    markdownTable(['document', 'max / overlap tokens', 'HTML KB', 'plain text page: load ms', 'report: load ms', '× plain', 'report ready ms (as the tests measure)', 'budget'], rows, ['l', 'l', 'r', 'r', 'r', 'r', 'r', 'l']),
  );
} else sections.push(`(${CHROMIUM} is missing: no browser figures)`);

bench.finish(sections.join('\n\n'));
