/**
 * pdf.js's worker module as the PDF sandbox loads it: the same code, less the decoding of image XObjects and the
 * outlines of glyphs.
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
 *
 * The same copy builds no glyph outlines. Opened with `disableFontFace` (there is no `FontFace` in Node), pdf.js
 * listing a page turns every glyph its text shows into a path (`PartialEvaluator.buildFontPaths`, from `handleText`)
 * and sends each to the document's objects, for a canvas to draw text with: the reader draws nothing, and reads of
 * a `showText` operator only its glyphs, which come before the outlines. So `buildFontPaths` returns at once; the
 * operator list is the same (pdf.js already skips a glyph whose outline fails, `ignoreErrors` being on). On
 * tracemonkey.pdf, whose first pages are listed for their fonts' names, that was 12% of the sandbox's instructions.
 *
 * `npm run build` writes that copy into `dist/` (`prebuiltWorker`), so that a sandbox imports it as it is; patching
 * the 2.1 MB at every start and writing it to a temporary file cost some 30 ms of each start. Running the sources
 * (tests, tsx), or with a copy made from another pdfjs-dist, the sandbox patches the installed worker into a
 * temporary directory at start, imports it from there and removes it, as it always did.
 */
import { closeSync, mkdtempSync, openSync, readFileSync, readSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

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

/** The head of `PartialEvaluator.buildFontPaths` in pdf.worker.mjs 5.4.624 (callers: `handleText`, a font's fallback). */
const BUILD_FONT_PATHS_HEAD = '  static buildFontPaths(font, glyphs, handler, evaluatorOptions) {\n';

/** What the patched `buildFontPaths` does first: return, building and sending no outline. */
const SKIP_FONT_PATHS = '    return; // chunkstream: glyph outlines are not built\n';

/** `source` with `line` inserted after `head`, or null when `head` is missing or found more than once. */
function insertAfter(source: Buffer, head: string, line: string): Buffer | null {
  const bytes = Buffer.from(head);
  const at = source.indexOf(bytes);
  if (at === -1 || source.indexOf(bytes, at + 1) !== -1) return null;
  const cut = at + bytes.length;
  return Buffer.concat([source.subarray(0, cut), Buffer.from(line), source.subarray(cut)]);
}

/**
 * The worker's source with image decoding cut out, or null when `source` is not the worker this patch was written
 * for (the head of `buildImage` missing or found more than once).
 */
export function withoutImageDecoding(source: Buffer): Buffer | null {
  return insertAfter(source, BUILD_IMAGE_HEAD, SKIP_IMAGE);
}

/**
 * The worker's source with glyph outlines cut out, or null when `source` is not the worker this patch was written
 * for (the head of `buildFontPaths` missing or found more than once).
 */
export function withoutGlyphOutlines(source: Buffer): Buffer | null {
  return insertAfter(source, BUILD_FONT_PATHS_HEAD, SKIP_FONT_PATHS);
}

/** pdf.js's own worker module as installed: where it is, the package's version and the file's size in bytes. */
interface InstalledWorker {
  readonly path: string;
  readonly version: string | undefined;
  readonly bytes: number;
}

function installedWorker(): InstalledWorker {
  const require = createRequire(import.meta.url);
  const { version } = require('pdfjs-dist/package.json') as { version?: string };
  const path = require.resolve('pdfjs-dist/legacy/build/pdf.worker.mjs');
  return { path, version, bytes: statSync(path).size };
}

/**
 * The first line of the build's copy, naming the worker it was made from: the version of pdfjs-dist and the size of
 * its worker module. A copy whose first line is not the installed worker's is not used. Not a hash of the source:
 * reading and hashing its 2.1 MB took some 15 ms, half of what the copy saves; the version is what pdf.js checks
 * itself (its API refuses a worker of another version), and the size catches a worker edited in place.
 */
function fingerprintLine(worker: InstalledWorker): string {
  return `// chunkstream: pdfjs-dist ${worker.version} legacy/build/pdf.worker.mjs (${worker.bytes} bytes) without image decoding or glyph outlines\n`;
}

/**
 * The installed worker without image decoding or glyph outlines, or null when it is not the version or the text the
 * patches are for (both apply, or pdf.js loads its own worker).
 */
function patchedInstalledWorker(worker: InstalledWorker): Buffer | null {
  if (worker.version !== PATCHED_PDFJS_VERSION) return null;
  const images = withoutImageDecoding(readFileSync(worker.path));
  return images === null ? null : withoutGlyphOutlines(images);
}

/**
 * What `scripts/build.mjs` writes to `prebuiltWorkerPath()`: the installed worker without image decoding or glyph
 * outlines, under a first line that names it, or null when the patches do not apply to it (the sandbox then loads
 * pdf.js's own).
 */
export function prebuiltWorker(): Buffer | null {
  const worker = installedWorker();
  const patched = patchedInstalledWorker(worker);
  return patched === null ? null : Buffer.concat([Buffer.from(fingerprintLine(worker)), patched]);
}

/** Where the build writes its copy of the worker: beside this module, in `dist/parsers/pdf/vendor/`. */
export function prebuiltWorkerPath(): string {
  return fileURLToPath(new URL('./vendor/pdf.worker.mjs', import.meta.url));
}

/** Whether the file at `path` starts with `line`; false when there is no such file. */
function startsWith(path: string, line: string): boolean {
  const expected = Buffer.from(line);
  const found = Buffer.alloc(expected.length);
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return false; // not built: the tests and tsx scripts run the sources
  }
  try {
    return readSync(fd, found, 0, found.length, 0) === found.length && found.equals(expected);
  } finally {
    closeSync(fd);
  }
}

/** Where the worker module the sandbox imports comes from. */
export type WorkerOrigin = 'prebuilt' | 'patched' | 'pdfjs';

/** A worker module without image decoding or glyph outlines, ready to import. */
export interface WorkerModuleFile {
  readonly path: string;
  /** `prebuilt`: the build's copy; `patched`: a copy made just now in a temporary directory. */
  readonly origin: Exclude<WorkerOrigin, 'pdfjs'>;
  /** Removes the temporary copy once imported; does nothing to the build's. */
  remove(): void;
}

/** Where `workerModuleFile` looks and writes; tests point both elsewhere. */
export interface WorkerLocations {
  /** The build's copy; by default `prebuiltWorkerPath()`. */
  readonly prebuilt?: string;
  /** Where a temporary copy's directory is made; by default the system's temporary directory. */
  readonly temporaryRoot?: string;
}

/**
 * The worker module to import: the build's copy when it was made from the installed worker; otherwise (running the
 * sources, a copy left from another pdfjs-dist) the installed worker patched now into a private temporary
 * directory; null when the patch does not apply, and pdf.js is to load its own worker.
 */
export function workerModuleFile(locations: WorkerLocations = {}): WorkerModuleFile | null {
  const worker = installedWorker();
  const prebuilt = locations.prebuilt ?? prebuiltWorkerPath();
  if (worker.version === PATCHED_PDFJS_VERSION && startsWith(prebuilt, fingerprintLine(worker))) {
    return { path: prebuilt, origin: 'prebuilt', remove: () => {} };
  }
  const patched = patchedInstalledWorker(worker);
  if (patched === null) return null;
  const dir = mkdtempSync(join(locations.temporaryRoot ?? tmpdir(), 'chunkstream-pdfjs-'));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  const path = join(dir, 'pdf.worker.mjs');
  try {
    writeFileSync(path, patched);
  } catch (error) {
    remove();
    throw error;
  }
  return { path, origin: 'patched', remove };
}

/**
 * Loads the worker module without image decoding or glyph outlines so that pdf.js uses it for its in-process ("fake")
 * worker, as it uses any module found at `globalThis.pdfjsWorker` (which the worker module sets itself when loaded).
 * Must run before the first document is opened. Resolves to where the module came from: `pdfjs` when none was loaded
 * (another pdf.js version, or the copy could not be made), leaving pdf.js to load its own worker.
 *
 * A temporary copy is removed once imported: imported from a `data:` URL instead, its 2.1 MB cost some 100 ms more
 * CPU to load each time a sandbox starts.
 */
export async function installWorkerWithoutImageDecoding(locations: WorkerLocations = {}): Promise<WorkerOrigin> {
  let file: WorkerModuleFile | null = null;
  try {
    file = workerModuleFile(locations);
    if (file === null) return 'pdfjs';
    const worker = (await import(pathToFileURL(file.path).href)) as { WorkerMessageHandler?: unknown };
    return worker.WorkerMessageHandler === undefined ? 'pdfjs' : file.origin;
  } catch {
    return 'pdfjs';
  } finally {
    file?.remove();
  }
}
