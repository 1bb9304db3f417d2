/**
 * The sandbox's copy of pdf.js's worker: the patch applies to the pdf.js installed (an upgrade fails here, so that
 * someone reads `buildPaintImageXObject` again), and with it a page's operator list still places its image, operator
 * and transform, while the image's pixels are never decoded. The build's copy is imported as it is when it was made
 * from the installed worker, and no temporary file is made; missing or made from another worker, the sandbox
 * patches the installed one into a temporary directory it removes. Loading pdf.js leaves `Array.prototype.push` as it
 * was (its core-js would put a slower one in its place for the whole process).
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { keepNativePush, loadPdfjs } from '../../../src/parsers/pdf/pdfjs-reader.js';
import { installWorkerWithoutImageDecoding, PATCHED_PDFJS_VERSION, prebuiltWorker, prebuiltWorkerPath, withoutGlyphOutlines, withoutImageDecoding, workerModuleFile } from '../../../src/parsers/pdf/pdfjs-worker.js';
import { buildPdf, imageAt, textAt } from '../../support/pdf-builder.js';

const require = createRequire(import.meta.url);

describe('loading pdf.js', () => {
  // First in this file, so that pdf.js is loaded here: a later test would find push already as pdf.js left it.
  it('leaves Array.prototype.push as it found it', async () => {
    const push = Array.prototype.push;
    await loadPdfjs();
    expect(Array.prototype.push).toBe(push);
    const list: number[] = [];
    expect(list.push(1, 2)).toBe(2);
    expect(list).toEqual([1, 2]);
  });

  it('puts back the push a module it loads replaces, even when the load fails', async () => {
    const push = Array.prototype.push;
    const replaced = function (this: unknown[], ...items: unknown[]): number {
      return push.apply(this, items);
    };
    await keepNativePush(async () => {
      Array.prototype.push = replaced;
    });
    expect(Array.prototype.push).toBe(push);
    await expect(
      keepNativePush(async () => {
        Array.prototype.push = replaced;
        throw new Error('no module');
      }),
    ).rejects.toThrow('no module');
    expect(Array.prototype.push).toBe(push);
    expect(Object.getOwnPropertyDescriptor(Array.prototype, 'push')).toMatchObject({ writable: true, enumerable: false, configurable: true });
  });
});

describe('the worker without image decoding', () => {
  it('is written for the pdf.js installed, and patches its buildImage once', () => {
    expect((require('pdfjs-dist/package.json') as { version: string }).version).toBe(PATCHED_PDFJS_VERSION);
    const source = readFileSync(require.resolve('pdfjs-dist/legacy/build/pdf.worker.mjs'));
    const patched = withoutImageDecoding(source);
    expect(patched).not.toBeNull();
    const text = (patched as Buffer).toString('utf8');
    expect(text.length).toBeGreaterThan(source.toString('utf8').length);
    expect(text.match(/image data is not read/g)).toHaveLength(1);
  });

  it('leaves a source alone when the head of buildImage is missing or repeated', () => {
    expect(withoutImageDecoding(Buffer.from('class PDFImage {}'))).toBeNull();
    const head = '  static async buildImage({\n    xref,\n    res,\n    image,\n    isInline = false,\n    pdfFunctionFactory,\n    globalColorSpaceCache,\n    localColorSpaceCache\n  }) {\n';
    expect(withoutImageDecoding(Buffer.from(head))).not.toBeNull();
    expect(withoutImageDecoding(Buffer.from(head + head))).toBeNull();
  });

  it('patches buildFontPaths of the pdf.js installed once, and leaves a source without it or with it twice alone', () => {
    const source = readFileSync(require.resolve('pdfjs-dist/legacy/build/pdf.worker.mjs'));
    const text = (withoutGlyphOutlines(source) as Buffer).toString('utf8');
    expect(text.match(/glyph outlines are not built/g)).toHaveLength(1);
    expect(text).toContain('  static buildFontPaths(font, glyphs, handler, evaluatorOptions) {\n    return; // chunkstream');
    const head = '  static buildFontPaths(font, glyphs, handler, evaluatorOptions) {\n';
    expect(withoutGlyphOutlines(Buffer.from('class PartialEvaluator {}'))).toBeNull();
    expect(withoutGlyphOutlines(Buffer.from(head))).not.toBeNull();
    expect(withoutGlyphOutlines(Buffer.from(head + head))).toBeNull();
  });

  it('lists the glyphs a page shows and sends no outline for them', async () => {
    const pdfjs = await loadPdfjs();
    const data = buildPdf([{ content: textAt(72, 700, 'Outlines') }]);
    // Opened as the reader opens documents (disableFontFace, the standard fonts' data at hand, so the font has glyphs
    // to outline): unpatched, pdf.js sends every glyph shown as a path.
    const standardFontDataUrl = join(dirname(require.resolve('pdfjs-dist/package.json')), 'standard_fonts') + '/';
    const task = pdfjs.getDocument({ data, verbosity: 0, isEvalSupported: false, disableFontFace: true, useSystemFonts: false, standardFontDataUrl });
    try {
      const page = await (await task.promise).getPage(1);
      const list = await page.getOperatorList();
      const show = list.fnArray.indexOf(pdfjs.OPS.showText);
      expect(show).toBeGreaterThan(0);
      const glyphs = (list.argsArray[show] as [{ unicode: string }[]])[0];
      expect(glyphs.map((g) => g.unicode).join('')).toBe('Outlines');
      const ids = [...(page.commonObjs as unknown as Iterable<[string, unknown]>)].map(([id]) => id);
      expect(ids.some((id) => id.includes('_path_'))).toBe(false);
    } finally {
      await task.destroy();
    }
  });

  it('lists where an image is drawn and sends no pixels for it', async () => {
    const pdfjs = await loadPdfjs();
    const data = buildPdf([{ content: [textAt(72, 700, 'A figure.'), imageAt(100, 150, 400, 500)].join('\n'), image: true }]);
    const task = pdfjs.getDocument({ data, verbosity: 0, isEvalSupported: false });
    try {
      const page = await (await task.promise).getPage(1);
      const list = await page.getOperatorList();
      const paint = list.fnArray.indexOf(pdfjs.OPS.paintImageXObject);
      expect(paint).toBeGreaterThan(0);
      const [id, width, height] = list.argsArray[paint] as [string, number, number];
      expect([width, height]).toEqual([2, 2]);
      const transform = list.fnArray.lastIndexOf(pdfjs.OPS.transform, paint);
      expect(list.fnArray.slice(transform + 1, paint)).toEqual([pdfjs.OPS.dependency]);
      expect(list.argsArray[transform]).toEqual([400, 0, 0, 500, 100, 150]);
      // Unpatched, pdf.js resolves the image to its decoded pixels (a 2 × 2 RGB image); here to null.
      const pixels = await new Promise((resolve) => page.objs.get(id, resolve));
      expect(pixels).toBeNull();
    } finally {
      await task.destroy();
    }
  });
});

describe('the build\'s copy of the worker', () => {
  const dir = mkdtempSync(join(tmpdir(), 'chunkstream-worker-test-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const source = readFileSync(require.resolve('pdfjs-dist/legacy/build/pdf.worker.mjs'));
  /** A directory of its own for each case's temporary copies, to see that none is made or that it is removed. */
  const temporaryRoot = (name: string): string => {
    const root = join(dir, name);
    mkdirSync(root);
    return root;
  };
  const built = prebuiltWorker();
  // Under a node_modules folder, so that vitest leaves its import to Node as it leaves pdf.js's own modules:
  // transformed by vite on the way, the 2.1 MB took 1.7 s to import.
  const prebuilt = join(dir, 'node_modules', 'vendor', 'pdf.worker.mjs');
  mkdirSync(dirname(prebuilt), { recursive: true });
  writeFileSync(prebuilt, built ?? '');

  it('is the patched worker under a first line naming the installed pdfjs-dist and its worker\'s size', () => {
    const text = (built as Buffer).toString('utf8');
    const [first] = text.split('\n', 1);
    expect(first).toBe(`// chunkstream: pdfjs-dist ${PATCHED_PDFJS_VERSION} legacy/build/pdf.worker.mjs (${source.length} bytes) without image decoding or glyph outlines`);
    expect(text.slice(first!.length + 1)).toBe((withoutGlyphOutlines(withoutImageDecoding(source) as Buffer) as Buffer).toString('utf8'));
    expect(prebuiltWorkerPath()).toMatch(/[/\\]parsers[/\\]pdf[/\\]vendor[/\\]pdf\.worker\.mjs$/);
  });

  it('is imported as it is when it was made from the installed worker: no temporary file', async () => {
    const root = temporaryRoot('prebuilt');
    const file = workerModuleFile({ prebuilt, temporaryRoot: root });
    expect(file).toMatchObject({ path: prebuilt, origin: 'prebuilt' });
    expect(readdirSync(root)).toEqual([]);
    expect(await installWorkerWithoutImageDecoding({ prebuilt, temporaryRoot: root })).toBe('prebuilt');
    expect(readdirSync(root)).toEqual([]);
    expect((globalThis as { pdfjsWorker?: { WorkerMessageHandler?: unknown } }).pdfjsWorker?.WorkerMessageHandler).toBeDefined();
  });

  const others: [string, Buffer | null][] = [
    ['missing (running the sources)', null],
    ['made from another pdfjs-dist', Buffer.from((built as Buffer).toString('utf8').replace(PATCHED_PDFJS_VERSION, '5.4.1'))],
    ['made from a worker of another size', Buffer.from((built as Buffer).toString('utf8').replace(`(${source.length} bytes)`, `(${source.length + 1} bytes)`))],
    ['cut short', (built as Buffer).subarray(0, 40)],
    ['made before glyph outlines were cut out', Buffer.from((built as Buffer).toString('utf8').replace(' or glyph outlines\n', '\n'))],
  ];
  for (const [name, content] of others) {
    it(`is passed over when ${name}: the installed worker is patched into a temporary directory, removed after`, () => {
      const root = temporaryRoot(name.replace(/\W+/g, '-'));
      const stale = join(root, '..', `${name.replace(/\W+/g, '-')}.mjs`);
      if (content !== null) writeFileSync(stale, content);
      const file = workerModuleFile({ prebuilt: stale, temporaryRoot: root });
      expect(file?.origin).toBe('patched');
      expect(dirname(dirname(file!.path))).toBe(root);
      expect(readFileSync(file!.path).equals(withoutGlyphOutlines(withoutImageDecoding(source)!)!)).toBe(true);
      file!.remove();
      expect(readdirSync(root)).toEqual([]);
    });
  }
});
