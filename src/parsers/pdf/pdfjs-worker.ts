/**
 * pdf.js's worker module as the PDF sandbox loads it: the same code, less the decoding of image XObjects.
 *
 * The reader asks pdf.js for a page's operator list when it needs what the page draws (rules, figure regions, the
 * images that tell a scan from a blank page). pdf.js 5.4.624 cannot list a page without decoding its images: for each
 * image XObject, `PartialEvaluator.buildPaintImageXObject` adds the `paintImageXObject` operator (its name, width and
 * height: all the reader reads, with the transform around it), then starts `PDFImage.buildImage(...).then(createImageData)`
 * in the same thread and sends the pixels to the document's objects. freeculture.pdf's cover (a 1366 × 2048 JPEG)
 * cost 250–550 ms of CPU a pass that way, and some 11 MB of pixels held by the page until it was cleaned up. No option
 * stops it: `maxImageSize` drops the operator itself, and with it the image's place; `isOffscreenCanvasSupported`
 * and `isImageDecoderSupported` only choose another decoder.
 *
 * So the sandbox runs a copy of the worker module in which `PDFImage.buildImage` fails at once. pdf.js handles that
 * failure as it handles an image it cannot decode: it sends the image as `null` and goes on, and the operator list is
 * the same, operator for operator. Only image XObjects are touched: image masks (Type3 glyphs, stencils) and small
 * inline images are decoded into their operators' arguments, as before. The copy is made only for the pdf.js version
 * this was read against, and only when the patched text occurs once; otherwise pdf.js loads its own worker and decodes
 * images as it always did (slower, same blocks).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The pdfjs-dist version whose worker `buildImage` was read and patched; another version loads unpatched. */
export const PATCHED_PDFJS_VERSION = '5.4.624';

/** The head of `PDFImage.buildImage` in pdf.worker.mjs 5.4.624 (its only caller: `buildPaintImageXObject`). */
const BUILD_IMAGE_HEAD = `  static async buildImage({
    xref,
    res,
    image,
    isInline = false,
    pdfFunctionFactory,
    globalColorSpaceCache,
    localColorSpaceCache
  }) {
`;

/** What the patched `buildImage` does first: fail, which pdf.js takes for an image it could not decode. */
const SKIP_IMAGE = '    throw new Error("chunkstream: image data is not read");\n';

/**
 * The worker's source with image decoding cut out, or null when `source` is not the worker this patch was written
 * for (the head of `buildImage` missing or found more than once).
 */
export function withoutImageDecoding(source: Buffer): Buffer | null {
  const head = Buffer.from(BUILD_IMAGE_HEAD);
  const at = source.indexOf(head);
  if (at === -1 || source.indexOf(head, at + 1) !== -1) return null;
  const cut = at + head.length;
  return Buffer.concat([source.subarray(0, cut), Buffer.from(SKIP_IMAGE), source.subarray(cut)]);
}

/**
 * Loads the patched worker module so that pdf.js uses it for its in-process ("fake") worker, as it uses any module
 * found at `globalThis.pdfjsWorker` (which the worker module sets itself when loaded). Must run before the first
 * document is opened. Resolves to false, leaving pdf.js to load its own worker, when the installed pdf.js is another
 * version or the copy cannot be made.
 *
 * The copy is written to a private temporary directory, imported and removed: imported from a `data:` URL instead,
 * its 2.3 MB cost some 100 ms more CPU to load each time a sandbox starts.
 */
export async function installWorkerWithoutImageDecoding(): Promise<boolean> {
  const require = createRequire(import.meta.url);
  let dir: string | null = null;
  try {
    const { version } = require('pdfjs-dist/package.json') as { version?: string };
    if (version !== PATCHED_PDFJS_VERSION) return false;
    const patched = withoutImageDecoding(readFileSync(require.resolve('pdfjs-dist/legacy/build/pdf.worker.mjs')));
    if (patched === null) return false;
    dir = mkdtempSync(join(tmpdir(), 'chunkstream-pdfjs-'));
    const file = join(dir, 'pdf.worker.mjs');
    writeFileSync(file, patched);
    const worker = (await import(pathToFileURL(file).href)) as { WorkerMessageHandler?: unknown };
    return worker.WorkerMessageHandler !== undefined;
  } catch {
    return false;
  } finally {
    if (dir !== null) rmSync(dir, { recursive: true, force: true });
  }
}
