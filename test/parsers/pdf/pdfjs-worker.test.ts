/**
 * The sandbox's copy of pdf.js's worker: the patch applies to the pdf.js installed (an upgrade fails here, so that
 * someone reads `buildPaintImageXObject` again), and with it a page's operator list still places its image, operator
 * and transform, while the image's pixels are never decoded.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { loadPdfjs } from '../../../src/parsers/pdf/pdfjs-reader.js';
import { PATCHED_PDFJS_VERSION, withoutImageDecoding } from '../../../src/parsers/pdf/pdfjs-worker.js';
import { buildPdf, imageAt, textAt } from '../../support/pdf-builder.js';

const require = createRequire(import.meta.url);

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
