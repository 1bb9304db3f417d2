/**
 * PDF input: speed and peak memory of chunkstream's PDF reader (the streaming path, blocks consumed and dropped)
 * over corpus PDFs, beside bare pdf.js `getTextContent` over the same pages (same loading options) and beside
 * pdf-parse; then memory against page count on generated PDFs; then what isolating pdf.js costs a document, in a
 * worker thread or in a child process, fresh and reused.
 *
 * Every figure comes from a fresh child process running plain JavaScript (the compiled library in `dist/`, built
 * first): one warm-up pass (module loading, JIT), then the median of three timed passes. chunkstream reads a PDF in
 * a sandbox process of its own, so its CPU time and resident size are those of the measured process and of every
 * process under it (read from `/proc`): the figures count what pdf.js costs wherever it runs. Speed is pages per CPU
 * second (user + system time), which stays comparable when other jobs share the machine; wall-clock pages per
 * second are printed beside it.
 *
 *     npx tsx bench/pdf.ts
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { markdownTable, writeResults } from './support/results.js';

type Tool = 'chunkstream' | 'pdfjs' | 'pdf-parse';
interface Figure {
  pages: number;
  /** Median CPU milliseconds of a pass, this process and its descendants. */
  ms: number;
  /** Median wall-clock milliseconds of a pass. */
  wallMs: number;
  /** Peak resident size of this process plus its descendants, MB. */
  peakRssMb: number;
  units: number;
}

const ROUNDS = 3;
const ROOT = resolve(import.meta.dirname, '..');
const CORPUS = resolve(import.meta.dirname, '../../shared/corpus');

/** What the children share: reading CPU time and resident size of a process and its descendants from `/proc`. */
const PROCESS_TREE = `
import { readFileSync, readdirSync } from 'node:fs';
const TICK_MS = 10;
function children(pid) {
  try {
    return readdirSync('/proc/' + pid + '/task').flatMap((t) => readFileSync('/proc/' + pid + '/task/' + t + '/children', 'latin1').trim().split(/\\s+/).filter(Boolean));
  } catch { return []; }
}
function descendants() {
  const out = [];
  const todo = children(process.pid);
  while (todo.length > 0) { const pid = todo.pop(); out.push(pid); todo.push(...children(pid)); }
  return out;
}
/** CPU milliseconds of this process, of its children that have exited (cutime, cstime), and of its living descendants. */
function treeCpuMs() {
  const own = process.cpuUsage();
  let ms = (own.user + own.system) / 1000;
  const self = readFileSync('/proc/self/stat', 'latin1').split(') ')[1].split(' ');
  ms += (Number(self[13]) + Number(self[14])) * TICK_MS;
  for (const pid of descendants()) {
    try {
      const fields = readFileSync('/proc/' + pid + '/stat', 'latin1').split(') ')[1].split(' ');
      ms += (Number(fields[11]) + Number(fields[12])) * TICK_MS;
    } catch {}
  }
  return ms;
}
let peak = 0;
function sample() {
  let rss = process.memoryUsage.rss();
  for (const pid of descendants()) {
    try { rss += Number(readFileSync('/proc/' + pid + '/statm', 'latin1').split(' ')[1]) * 4096; } catch {}
  }
  peak = Math.max(peak, rss);
}
`;

/**
 * The measuring child: imports the compiled library from `dist/` and pdf.js from `node_modules/`. (A TypeScript
 * loader in the child would also transform pdf.js and distort both speed and memory.) Arguments: tool, file,
 * rounds, root.
 */
const CHILD = `
import { pathToFileURL } from 'node:url';
${PROCESS_TREE}
const [tool, file, rounds, root] = process.argv.slice(1);
const lib = (p) => import(pathToFileURL(root + '/' + p).href);
async function pass(bytes) {
  // pdf.js takes over the bytes it is given: each pass hands it a copy.
  const data = new Uint8Array(bytes);
  if (tool === 'chunkstream') {
    const { readPdfBlocks } = await lib('dist/parsers/pdf/reader.js');
    const { normalizeParseOptions } = await lib('dist/config.js');
    let units = 0, pages = 0;
    for await (const block of readPdfBlocks(data, normalizeParseOptions({ format: 'pdf', maxPdfSeconds: 3600 }), (info) => (pages = info.pages))) {
      units += block.text.length;
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
const bytes = new Uint8Array(readFileSync(file));
const timer = setInterval(sample, 5);
await pass(bytes);
const cpu = [], wall = [];
let last;
for (let r = 0; r < Number(rounds); r++) {
  const c0 = treeCpuMs();
  const t0 = performance.now();
  last = await pass(bytes);
  wall.push(performance.now() - t0);
  cpu.push(treeCpuMs() - c0);
}
clearInterval(timer);
sample();
const median = (xs) => xs.sort((a, b) => a - b)[xs.length >> 1];
process.stdout.write(JSON.stringify({ pages: last.pages, ms: median(cpu), wallMs: median(wall), peakRssMb: peak / 2 ** 20, units: last.units }));
process.exit(0);
`;

/** A module that reads every page's text of some bytes with bare pdf.js; for the isolation figures. */
const SERVE = (root: string): string => `
const { getDocument } = await import(${JSON.stringify(`${root}/node_modules/pdfjs-dist/legacy/build/pdf.mjs`)});
export async function read(data) {
  const task = getDocument({ data, isEvalSupported: false, disableFontFace: true, useSystemFonts: false, verbosity: 0 });
  const doc = await task.promise;
  let units = 0;
  for (let n = 1; n <= doc.numPages; n++) {
    const page = await doc.getPage(n);
    for (const item of (await page.getTextContent()).items) units += item.str.length;
    page.cleanup();
  }
  await task.destroy();
  return units;
}
`;
const WORKER = `import { parentPort } from 'node:worker_threads'; import { read } from './serve.mjs'; parentPort.on('message', async (d) => parentPort.postMessage({ units: await read(d), cpuMs: 0 }));`;
/** A child process reports its own CPU time so far: once it has exited, nothing else can tell it. */
const SANDBOX = `import { read } from './serve.mjs'; process.on('message', async (d) => { const units = await read(d); const c = process.cpuUsage(); process.send({ units, cpuMs: (c.user + c.system) / 1000 }); }); process.on('disconnect', () => process.exit(0));`;

/**
 * What isolating pdf.js costs a document: pdf.js reads every page's text of one small file in a worker thread or a
 * child process, started for that document (fresh) or kept from the previous one (warm). Arguments: how, file,
 * documents, the folder holding the modules above. Prints wall and CPU milliseconds per document.
 */
const ISOLATION = `
import { readFileSync } from 'node:fs';
import { fork } from 'node:child_process';
import { Worker } from 'node:worker_threads';
const [how, file, count, dir] = process.argv.slice(1);
const bytes = readFileSync(file);
let kept = null;
function start() {
  if (how.startsWith('worker')) {
    const w = new Worker(dir + '/worker.mjs', { execArgv: [] });
    return { run: (data) => new Promise((ok) => { w.once('message', ok); w.postMessage(data, [data.buffer]); }), end: () => w.terminate() };
  }
  const c = fork(dir + '/sandbox.mjs', [], { serialization: 'advanced', execArgv: [] });
  return { run: (data) => new Promise((ok) => { c.once('message', ok); c.send(data); }), end: () => c.kill() };
}
/** Reads one document; returns the CPU milliseconds of the child process that read it (0 in a thread: counted below). */
let lastChildCpu = 0;
async function doc() {
  const warm = how.endsWith('warm');
  const sandbox = warm ? (kept ??= start()) : start();
  const reply = await sandbox.run(new Uint8Array(bytes));
  if (!warm) await sandbox.end();
  const spent = warm ? reply.cpuMs - lastChildCpu : reply.cpuMs;
  lastChildCpu = reply.cpuMs;
  return spent;
}
await doc();
const own = () => { const c = process.cpuUsage(); return (c.user + c.system) / 1000; };
const c0 = own();
const t0 = performance.now();
let childMs = 0;
for (let i = 0; i < Number(count); i++) childMs += await doc();
const wallMs = (performance.now() - t0) / Number(count);
// This process's CPU counts its threads, ended ones too; a child process's comes from its own report.
const cpuMs = (own() - c0 + childMs) / Number(count);
await kept?.end();
process.stdout.write(JSON.stringify({ wallMs, cpuMs }));
process.exit(0);
`;

/** Runs one measurement in a fresh child process. */
function measure(tool: Tool, file: string): Figure {
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', CHILD, tool, file, String(ROUNDS), ROOT], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
    maxBuffer: 1 << 20,
  });
  return JSON.parse(out) as Figure;
}

/** Per-document cost of isolating pdf.js in a fresh or warm worker thread or child process. */
function measureIsolation(how: string, file: string, documents: number, dir: string): { wallMs: number; cpuMs: number } {
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', ISOLATION, how, file, String(documents), dir], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return JSON.parse(out) as { wallMs: number; cpuMs: number };
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

const fixed = (n: number, digits = 0): string => n.toFixed(digits);

async function main(): Promise<void> {
  // The children import the compiled library.
  execFileSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', join(ROOT, 'tsconfig.json')], { stdio: 'inherit' });
  const files = [
    'pdf/multi_page.pdf',
    'pdf/tracemonkey.pdf',
    'pdf/pdkids.pdf',
    'pdf/GeoTopo-komprimiert.pdf',
    'pdf/freeculture.pdf',
    'pdf-layout/pdfplumber/nics-background-checks-2015-11.pdf',
    'pdf-layout/docling/2305.03393v1-pg9.pdf',
  ]
    .map((f) => join(CORPUS, f))
    .filter((f) => existsSync(f));
  const tools: Tool[] = ['chunkstream', 'pdfjs', 'pdf-parse'];
  const sections: string[] = [];

  console.log(`PDF input, corpus (${process.version}; median of ${ROUNDS} passes after a warm-up, each tool in its own process)\n`);
  const rows: (string | number)[][] = [];
  const totals = new Map<Tool, { pages: number; ms: number }>(tools.map((t) => [t, { pages: 0, ms: 0 }]));
  for (const file of files) {
    const figures = tools.map((t) => measure(t, file));
    figures.forEach((f, i) => {
      const total = totals.get(tools[i] as Tool)!;
      total.pages += f.pages;
      total.ms += f.ms;
    });
    const [ours, bare] = figures as [Figure, Figure, Figure];
    const row = [
      basename(file),
      ours.pages,
      ...figures.flatMap((f) => [`${fixed(f.pages / (f.ms / 1000))} (${fixed(f.pages / (f.wallMs / 1000))})`, fixed(f.peakRssMb)]),
      `${(ours.ms / bare.ms).toFixed(2)}×`,
    ];
    rows.push(row);
    console.log(row.join(' | '));
  }
  const ours = totals.get('chunkstream')!;
  const bare = totals.get('pdfjs')!;
  const peer = totals.get('pdf-parse')!;
  rows.push(['all', ours.pages, ...tools.flatMap((t) => [fixed(totals.get(t)!.pages / (totals.get(t)!.ms / 1000)), '']), `${(ours.ms / bare.ms).toFixed(2)}×`]);
  const ratio = ours.ms / bare.ms;
  sections.push(
    '### Corpus PDFs\n\n' +
      'Pages per CPU second (wall-clock pages per second in brackets) and peak resident size in MB (chunkstream: the measured process and its PDF sandbox together). ' +
      `Median of ${ROUNDS} passes after a warm-up, each tool in a fresh process.\n\n` +
      markdownTable(
        ['file', 'pages', 'chunkstream p/s', 'RSS', 'pdf.js p/s', 'RSS', 'pdf-parse p/s', 'RSS', 'CPU vs pdf.js'],
        rows,
        ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r'],
      ) +
      `\n\nchunkstream / pdf.js getTextContent CPU time: ${ratio.toFixed(2)}× (goal: 1.5×); chunkstream / pdf-parse: ${(ours.ms / peer.ms).toFixed(2)}×.`,
  );
  console.log(`\nchunkstream / pdf.js CPU time: ${ratio.toFixed(2)}x (goal 1.5x); chunkstream / pdf-parse CPU time: ${(ours.ms / peer.ms).toFixed(2)}x`);

  console.log('\nMemory against page count (generated PDFs, 45 lines a page, running header and page number)');
  const dir = mkdtempSync(join(tmpdir(), 'chunkstream-bench-'));
  const memoryRows: (string | number)[][] = [];
  try {
    for (const pages of [50, 400, 1600]) {
      const path = join(dir, `synthetic-${pages}.pdf`);
      const bytes = await syntheticPdf(pages);
      writeFileSync(path, bytes);
      const [ours, bare] = (['chunkstream', 'pdfjs'] as const).map((tool) => measure(tool, path)) as [Figure, Figure];
      const row = [pages, fixed(bytes.length / 2 ** 20, 1), fixed(ours.peakRssMb), fixed(ours.pages / (ours.ms / 1000)), fixed(bare.peakRssMb), fixed(bare.pages / (bare.ms / 1000))];
      memoryRows.push(row);
      console.log(row.join(' | '));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  sections.push(
    '### Memory against page count\n\n' +
      'Generated PDFs of 45 lines a page with a running header and a page number. Peak resident size in MB (chunkstream: the process and its sandbox) and pages per CPU second.\n\n' +
      markdownTable(['pages', 'file MB', 'chunkstream RSS', 'p/s', 'pdf.js RSS', 'p/s'], memoryRows, ['r', 'r', 'r', 'r', 'r', 'r']),
  );

  const small = join(CORPUS, 'pdf/multi_page.pdf');
  if (existsSync(small)) {
    const dir = mkdtempSync(join(tmpdir(), 'chunkstream-isolation-'));
    writeFileSync(join(dir, 'serve.mjs'), SERVE(ROOT));
    writeFileSync(join(dir, 'worker.mjs'), WORKER);
    writeFileSync(join(dir, 'sandbox.mjs'), SANDBOX);
    console.log('\nIsolating pdf.js: per document of multi_page.pdf (5 pages)');
    const isolationRows: (string | number)[][] = [];
    for (const [how, documents] of [
      ['worker-fresh', 6],
      ['child-fresh', 6],
      ['worker-warm', 20],
      ['child-warm', 20],
    ] as const) {
      const f = measureIsolation(how, small, documents, dir);
      const row = [how.replace('-', ', '), fixed(f.wallMs), fixed(f.cpuMs)];
      isolationRows.push(row);
      console.log(row.join(' | '));
    }
    rmSync(dir, { recursive: true, force: true });
    sections.push(
      '### Isolating pdf.js\n\n' +
        'What a document costs when pdf.js runs in a worker thread or a child process, started for the document (fresh) or kept from the previous one (warm): ' +
        'bare pdf.js reading every page of multi_page.pdf (5 pages), milliseconds per document, CPU of every process and thread.\n\n' +
        markdownTable(['where', 'wall ms', 'CPU ms'], isolationRows, ['l', 'r', 'r']),
    );
  }
  writeResults('bench/pdf.ts', sections.join('\n\n'));
}

await main();
