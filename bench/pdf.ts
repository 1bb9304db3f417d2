/**
 * PDF input: pages per second and peak RSS of chunkstream's PDF parser (the streaming path, blocks consumed and
 * dropped) over the corpus PDFs, beside bare pdf.js `getTextContent` over the same pages (same loading options) and
 * beside pdf-parse; then peak RSS over generated PDFs of growing page count, to show memory does not grow with pages.
 *
 * Every figure comes from a fresh child process running plain JavaScript (the compiled library in `dist/`, built
 * first): one warm-up pass (module loading, JIT), then the median of three timed passes. Peak RSS is the highest
 * resident set size sampled in the child (after every page or block, and every 5 ms) over all passes; the kernel's
 * own maxRSS of a spawned child starts from its parent's. Speed is pages per CPU second (user + system time; under
 * Node pdf.js runs its worker in the same thread), which stays comparable when other jobs share the machine;
 * wall-clock pages per second are printed beside it.
 *
 *     npx tsx bench/pdf.ts
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';

type Tool = 'chunkstream' | 'pdfjs' | 'pdf-parse';
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

const ROUNDS = 3;
const ROOT = resolve(import.meta.dirname, '..');

const CORPUS = resolve(import.meta.dirname, '../../shared/corpus/pdf');

/**
 * The child: plain JavaScript run with `node --input-type=module`, importing the compiled library from `dist/` and
 * pdf.js from `node_modules/`. (A TypeScript loader in the child would also transform pdf.js and distort both speed
 * and memory.) Arguments: tool, file, rounds, root.
 */
const CHILD = `
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
const [tool, file, rounds, root, mode] = process.argv.slice(1);
let peak = 0;
let live = 0;
let calls = 0;
const sample = () => {
  peak = Math.max(peak, process.memoryUsage.rss());
  // Memory mode: what stays reachable, after a full collection every 20 pages or blocks.
  if (mode === 'memory' && ++calls % 20 === 0) {
    globalThis.gc();
    const m = process.memoryUsage();
    live = Math.max(live, m.heapUsed + m.external);
  }
};
const lib = (p) => import(pathToFileURL(root + '/' + p).href);
async function pass(bytes, copy = true) {
  // pdf.js takes over the bytes it is given; the timed passes hand it a copy, the memory pass the only copy there is.
  const data = copy ? new Uint8Array(bytes) : bytes;
  if (tool === 'chunkstream') {
    const { readPdfBlocks } = await lib('dist/parsers/pdf/reader.js');
    const { normalizeParseOptions } = await lib('dist/config.js');
    let units = 0, pages = 0;
    for await (const block of readPdfBlocks(data, normalizeParseOptions({ format: 'pdf' }), (info) => (pages = info.pages))) {
      units += block.text.length;
      sample();
    }
    return { pages, units };
  }
  if (tool === 'pdfjs') {
    const { getDocument } = await lib('node_modules/pdfjs-dist/legacy/build/pdf.mjs');
    const dir = root + '/node_modules/pdfjs-dist';
    const task = getDocument({ data, isEvalSupported: false, disableFontFace: true, useSystemFonts: false, verbosity: 0,
      standardFontDataUrl: dir + '/standard_fonts/', cMapUrl: dir + '/cmaps/', cMapPacked: true });
    try {
      const doc = await task.promise;
      let units = 0;
      for (let n = 1; n <= doc.numPages; n++) {
        const page = await doc.getPage(n);
        const content = await page.getTextContent();
        for (const item of content.items) if ('str' in item) units += item.str.length;
        page.cleanup();
        sample();
      }
      return { pages: doc.numPages, units };
    } finally {
      await task.destroy();
    }
  }
  const { PDFParse } = await lib('node_modules/pdf-parse/dist/pdf-parse/esm/index.js');
  const parser = new PDFParse({ data });
  try {
    const result = await parser.getText();
    return { pages: result.total, units: result.text.length };
  } finally {
    await parser.destroy();
  }
}
if (mode === 'memory') {
  const buffer = readFileSync(file);
  await pass(new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength), false);
  process.stdout.write(JSON.stringify({ pages: 0, ms: 0, wallMs: 0, peakRssMb: peak / 2 ** 20, liveMb: live / 2 ** 20, units: 0 }));
  process.exit(0);
}
const bytes = new Uint8Array(readFileSync(file));
const timer = setInterval(sample, 5);
await pass(bytes);
const cpu = [], wall = [];
let last;
for (let r = 0; r < Number(rounds); r++) {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  last = await pass(bytes);
  wall.push(performance.now() - t0);
  const c = process.cpuUsage(c0);
  cpu.push((c.user + c.system) / 1000);
}
clearInterval(timer);
sample();
const median = (xs) => xs.sort((a, b) => a - b)[xs.length >> 1];
process.stdout.write(JSON.stringify({ pages: last.pages, ms: median(cpu), wallMs: median(wall), peakRssMb: peak / 2 ** 20, units: last.units }));
`;

/** Runs one measurement in a fresh child process; `memory` runs one pass with forced collections instead. */
function measure(tool: Tool, file: string, mode: 'time' | 'memory' = 'time'): Figure {
  const out = execFileSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', CHILD, tool, file, String(ROUNDS), ROOT, mode], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
    maxBuffer: 1 << 20,
  });
  return JSON.parse(out) as Figure;
}

/** RSS of a child process that only starts (the floor under every figure). */
function measureIdle(): number {
  const out = execFileSync(process.execPath, ['-e', 'process.stdout.write(String(process.memoryUsage.rss() / 2 ** 20))'], { encoding: 'utf8' });
  return Number(out);
}

/** A PDF of `pages` pages of prose with a running header and a page number, written by hand. */
async function syntheticPdf(pages: number): Promise<Uint8Array> {
  const { buildPdf, textAt } = await import('../test/support/pdf-builder.js');
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

const pad = (s: string | number, n: number) => String(s).padStart(n);

async function main(): Promise<void> {
  // The children import the compiled library.
  execFileSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', join(ROOT, 'tsconfig.json')], { stdio: 'inherit' });
  const files = ['multi_page.pdf', 'tracemonkey.pdf', 'pdkids.pdf', 'GeoTopo-komprimiert.pdf', 'freeculture.pdf'].map((f) => join(CORPUS, f));
  const tools: Tool[] = ['chunkstream', 'pdfjs', 'pdf-parse'];
  console.log(`PDF input, corpus (${process.version}; median of ${ROUNDS} passes after a warm-up, each tool in its own process)\n`);
  console.log('p/s: pages per CPU second (wall-clock pages per second in brackets); RSS: peak resident set size, MB\n');
  console.log(`${'file'.padEnd(24)} ${pad('pages', 5)} | ${tools.map((t) => `${pad(t, 11)} p/s (wall)  RSS`).join(' | ')} | CPU overhead vs pdf.js`);
  const totals = new Map<Tool, { pages: number; ms: number }>(tools.map((t) => [t, { pages: 0, ms: 0 }]));
  for (const file of files) {
    const figures = tools.map((t) => measure(t, file));
    figures.forEach((f, i) => {
      const total = totals.get(tools[i] as Tool)!;
      total.pages += f.pages;
      total.ms += f.ms;
    });
    const [ours, bare] = figures as [Figure, Figure, Figure];
    const cells = figures.map((f) => `${pad((f.pages / (f.ms / 1000)).toFixed(0), 15)} ${pad(`(${(f.pages / (f.wallMs / 1000)).toFixed(0)})`, 6)} ${pad(f.peakRssMb.toFixed(0), 4)}`);
    console.log(`${basename(file).padEnd(24)} ${pad(ours.pages, 5)} | ${cells.join(' | ')} | ${pad(`${(((ours.ms - bare.ms) / bare.ms) * 100).toFixed(0)}%`, 8)}`);
  }
  const ours = totals.get('chunkstream')!;
  const bare = totals.get('pdfjs')!;
  const peer = totals.get('pdf-parse')!;
  console.log(
    `${'all'.padEnd(24)} ${pad(ours.pages, 5)} | ${tools.map((t) => `${pad((totals.get(t)!.pages / (totals.get(t)!.ms / 1000)).toFixed(0), 15)} ${pad('', 11)}`).join(' | ')} | ${pad(`${(((ours.ms - bare.ms) / bare.ms) * 100).toFixed(0)}%`, 8)}`,
  );
  console.log(`\nchunkstream / pdf.js CPU time: ${(ours.ms / bare.ms).toFixed(2)}x (budget 1.30x); chunkstream / pdf-parse CPU time: ${(ours.ms / peer.ms).toFixed(2)}x`);

  console.log('\nMemory against page count (generated PDFs, 45 lines a page, running header and page number)');
  console.log('RSS: peak resident set size over the timed passes; live: most memory still reachable after a full');
  console.log('collection, sampled every 20 pages (pdf.js) or blocks (chunkstream) in a separate pass that holds no copy of');
  console.log('the file but the one pdf.js reads (so live includes the file once); -file: live less the file size; MB.\n');
  const head = (name: string) => `${pad(name, 16)} ${pad('live', 5)} ${pad('-file', 5)} ${pad('p/s', 5)}`;
  console.log(`${'pages'.padStart(6)} ${'bytes'.padStart(10)} | ${head('chunkstream RSS')} | ${head('pdf.js RSS')}`);
  const baseline = measureIdle();
  console.log(`(a child that does nothing holds ${baseline.toFixed(0)} MB)`);
  const dir = mkdtempSync(join(tmpdir(), 'chunkstream-bench-'));
  try {
    for (const pages of [50, 200, 800, 1600, 3200, 0]) {
      // 0: freeculture.pdf, 352 pages of a real book.
      const path = pages === 0 ? join(CORPUS, 'freeculture.pdf') : join(dir, `synthetic-${pages}.pdf`);
      const bytes = pages === 0 ? readFileSync(path) : await syntheticPdf(pages);
      if (pages !== 0) writeFileSync(path, bytes);
      const cells = (['chunkstream', 'pdfjs'] as const).map((tool) => {
        const t = measure(tool, path);
        const live = measure(tool, path, 'memory').liveMb ?? 0;
        const rest = live - bytes.length / 2 ** 20;
        return `${pad(t.peakRssMb.toFixed(0), 16)} ${pad(live.toFixed(0), 5)} ${pad(rest.toFixed(1), 5)} ${pad((t.pages / (t.ms / 1000)).toFixed(0), 5)}`;
      });
      console.log(`${pad(pages === 0 ? 'free*' : pages, 6)} ${pad(bytes.length, 10)} | ${cells.join(' | ')}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
