/**
 * One PDF measurement, run by `bench/pdf.ts` in its own plain Node process (with `--expose-gc`):
 *
 *   node --expose-gc bench/support/pdf-child.mjs <tool> <file> <rounds> <time|memory>
 *   node bench/support/pdf-child.mjs idle
 *
 * Tools: `chunkstream` (its PDF reader, the streaming path: blocks consumed and dropped), `pdfjs` (bare pdf.js
 * `getTextContent` over every page, same loading options), `pdf-parse`. Time mode: one warm-up pass (module
 * loading, JIT), then `rounds` timed passes; prints the median CPU and wall milliseconds and the peak RSS sampled
 * after every page or block and every 5 ms (with the process tree every 50 ms). chunkstream reads a PDF in a sandbox process of its own (kept from one
 * pass to the next), so CPU time and resident size are those of this process and every process under it: the
 * figures count what pdf.js costs wherever it runs. Memory mode: one pass holding no copy of the file but the one pdf.js
 * reads, with a full collection every 20 pages or blocks; prints the most memory still reachable in this process
 * (for chunkstream, what its side holds: pdf.js's own heap is in the sandbox, counted in the RSS). `idle` prints
 * the RSS of a process that only starts, the floor under every figure.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { distModule, report, ROOT, treeCpuMs, treeRssSampler } from './measured.mjs';

const [tool, file, rounds, mode] = process.argv.slice(2);

if (tool === 'idle') {
  report({ rssMb: process.memoryUsage.rss() / 2 ** 20 });
} else {
  await main();
}

async function main() {
  // The kernel's maxRSS of a spawned child starts from its parent's: sample the resident set here instead.
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
  const fromRoot = (path) => import(pathToFileURL(join(ROOT, path)).href);

  async function pass(bytes, copy = true) {
    // pdf.js takes over the bytes it is given; the timed passes hand it a copy, the memory pass the only copy there is.
    const data = copy ? new Uint8Array(bytes) : bytes;
    if (tool === 'chunkstream') {
      const [{ readPdfBlocks }, { normalizeParseOptions }] = await Promise.all([distModule('parsers/pdf/reader.js'), distModule('config.js')]);
      let units = 0;
      let pages = 0;
      // No time limit: a loaded machine must not end a long pass with ERR_PDF_LIMIT.
      for await (const block of readPdfBlocks(data, normalizeParseOptions({ format: 'pdf', maxPdfSeconds: 3600 }), (info) => (pages = info.pages))) {
        units += block.text.length;
        sample();
      }
      return { pages, units };
    }
    if (tool === 'pdfjs') {
      const { getDocument } = await fromRoot('node_modules/pdfjs-dist/legacy/build/pdf.mjs');
      const dir = join(ROOT, 'node_modules/pdfjs-dist');
      const task = getDocument({
        data,
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
          sample();
        }
        return { pages: doc.numPages, units };
      } finally {
        await task.destroy();
      }
    }
    if (tool === 'pdf-parse') {
      const { PDFParse } = await fromRoot('bench/node_modules/pdf-parse/dist/pdf-parse/esm/index.js');
      const parser = new PDFParse({ data });
      try {
        const result = await parser.getText();
        return { pages: result.total, units: result.text.length };
      } finally {
        await parser.destroy();
      }
    }
    throw new Error(`unknown tool ${tool}`);
  }

  if (mode === 'memory') {
    const buffer = readFileSync(file);
    await pass(new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength), false);
    report({ pages: 0, ms: 0, wallMs: 0, peakRssMb: peak / 2 ** 20, liveMb: live / 2 ** 20, units: 0 });
    return;
  }
  const bytes = new Uint8Array(readFileSync(file));
  const timer = setInterval(sample, 5);
  // The process tree is read less often: a reading costs a third of a millisecond with a sandbox to list, which per
  // block or every 5 ms would weigh on the CPU figures. Descendants count at their own peak (VmHWM), so none is missed.
  const tree = treeRssSampler(50);
  await pass(bytes);
  const cpu = [];
  const wall = [];
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
  const treePeak = tree.peak();
  tree.stop();
  const median = (xs) => xs.sort((a, b) => a - b)[xs.length >> 1];
  report({ pages: last.pages, ms: median(cpu), wallMs: median(wall), peakRssMb: Math.max(peak, treePeak) / 2 ** 20, units: last.units });
}
