/**
 * PDF input: pages per second and peak RSS of chunkstream's PDF parser (the streaming path, blocks consumed and
 * dropped) over the corpus PDFs, beside bare pdf.js `getTextContent` over the same pages (same loading options) and
 * beside pdf-parse; then peak RSS over generated PDFs of growing page count, to show memory does not grow with pages.
 *
 * Every figure comes from a fresh child process: one warm-up pass (module loading, JIT), then the median of three
 * timed passes; peak RSS is the child's maximum resident set size over all passes. Speed is pages per CPU second
 * (user + system time of the process; pdf.js runs its worker in the same thread under Node), which stays comparable
 * when other jobs share the machine; wall-clock pages per second are printed beside it.
 *
 *     npx tsx bench/pdf.ts
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

type Tool = 'chunkstream' | 'pdfjs' | 'pdf-parse';
interface Figure {
  pages: number;
  /** Median CPU milliseconds of a pass. */
  ms: number;
  /** Median wall-clock milliseconds of a pass. */
  wallMs: number;
  peakRssMb: number;
  units: number;
}

const ROUNDS = 3;
const CORPUS = resolve(import.meta.dirname, '../../shared/corpus/pdf');

/** One pass of a tool over a PDF; returns the page count and a count of what it produced. */
async function pass(tool: Tool, bytes: Uint8Array): Promise<{ pages: number; units: number }> {
  if (tool === 'chunkstream') {
    const { readPdfBlocks } = await import('../src/parsers/pdf.js');
    const { normalizeParseOptions } = await import('../src/config.js');
    let units = 0;
    let pages = 0;
    for await (const block of readPdfBlocks(new Uint8Array(bytes), normalizeParseOptions({ format: 'pdf' }), (info) => (pages = info.pages))) {
      units += block.text.length;
    }
    return { pages, units };
  }
  if (tool === 'pdfjs') {
    const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
    const dir = resolve(import.meta.dirname, '../node_modules/pdfjs-dist');
    const task = getDocument({
      data: new Uint8Array(bytes),
      isEvalSupported: false,
      disableFontFace: true,
      useSystemFonts: false,
      verbosity: 0,
      standardFontDataUrl: `${dir}/standard_fonts/`,
      cMapUrl: `${dir}/cmaps/`,
      cMapPacked: true,
    });
    try {
      const doc = await task.promise;
      let units = 0;
      for (let n = 1; n <= doc.numPages; n++) {
        const page = await doc.getPage(n);
        const content = await page.getTextContent();
        for (const item of content.items) if ('str' in item) units += item.str.length;
        page.cleanup();
      }
      return { pages: doc.numPages, units };
    } finally {
      await task.destroy();
    }
  }
  const { PDFParse } = await import('pdf-parse');
  const parser = new PDFParse({ data: new Uint8Array(bytes) });
  try {
    const result = await parser.getText();
    return { pages: result.total, units: result.text.length };
  } finally {
    await parser.destroy();
  }
}

/** Child process: warm up, time ROUNDS passes, print the figure as JSON. */
async function child(tool: Tool, file: string): Promise<void> {
  const bytes = new Uint8Array(readFileSync(file));
  await pass(tool, bytes);
  const cpu: number[] = [];
  const wall: number[] = [];
  let last = { pages: 0, units: 0 };
  for (let r = 0; r < ROUNDS; r++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    last = await pass(tool, bytes);
    wall.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  const median = (xs: number[]) => xs.sort((a, b) => a - b)[ROUNDS >> 1] as number;
  const figure: Figure = { pages: last.pages, ms: median(cpu), wallMs: median(wall), peakRssMb: process.resourceUsage().maxRSS / 1024, units: last.units };
  process.stdout.write(JSON.stringify(figure));
}

function measure(tool: Tool, file: string): Figure {
  const out = execFileSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--child', tool, file], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
    maxBuffer: 1 << 20,
  });
  return JSON.parse(out) as Figure;
}

/** Peak RSS of a child process that only starts (the floor under every figure). */
function measureIdle(): number {
  const out = execFileSync(process.execPath, ['--import', 'tsx', '-e', 'process.stdout.write(String(process.resourceUsage().maxRSS / 1024))'], { encoding: 'utf8' });
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

  console.log('\nPeak RSS against page count (generated PDFs, 45 lines a page, running header and page number)\n');
  console.log(`${'pages'.padStart(6)} ${'bytes'.padStart(10)} | ${pad('chunkstream RSS MB', 18)} ${pad('p/s', 6)} | ${pad('pdf.js RSS MB', 13)} ${pad('p/s', 6)}`);
  const baseline = measureIdle();
  console.log(`(a child that loads tsx and does nothing peaks at ${baseline.toFixed(0)} MB)`);
  const dir = mkdtempSync(join(tmpdir(), 'chunkstream-bench-'));
  try {
    for (const pages of [50, 200, 800, 1600]) {
      const path = join(dir, `synthetic-${pages}.pdf`);
      const bytes = await syntheticPdf(pages);
      writeFileSync(path, bytes);
      const a = measure('chunkstream', path);
      const b = measure('pdfjs', path);
      console.log(
        `${pad(pages, 6)} ${pad(bytes.length, 10)} | ${pad(a.peakRssMb.toFixed(0), 18)} ${pad((a.pages / (a.ms / 1000)).toFixed(0), 6)} | ${pad(b.peakRssMb.toFixed(0), 13)} ${pad((b.pages / (b.ms / 1000)).toFixed(0), 6)}`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--child') await child(process.argv[3] as Tool, process.argv[4] as string);
else await main();
