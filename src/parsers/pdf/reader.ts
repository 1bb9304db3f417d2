/**
 * PDF input through pdf.js (pdfjs-dist, legacy build), text layer only: no rendering, no canvas, no eval. Pages are
 * read one at a time and released, and the layout (lines, columns, paragraphs, headings, lists, running headers)
 * is done by the pure modules of `src/parsers/pdf/`. pdf.js itself holds the whole file and, until the document is
 * destroyed, some 4 to 40 KB for every page it has served (page objects on both sides of its worker, parsed page
 * dictionaries and resources); `cleanup()` releases none of that and gives fonts without a descriptor new names,
 * which the heading detection would take for a change of font, so it is not called. Reopening the document every
 * few hundred pages bounds pdf.js's page state but was measured to raise peak RSS (the file is copied and the old
 * document lingers until a full collection) and cost CPU, so memory grows with the file and, slowly, with pages.
 *
 * The blocks' offsets point into the extracted document text: every block's text joined by `"\n\n"` (see
 * `PDF_BLOCK_SEPARATOR`); `parsePdf` returns that text.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { normalizeParseOptions, type ParseConfig, type ParseOptions } from '../../config.js';
import { createPdfAssembler, PDF_BLOCK_SEPARATOR } from './document.js';
import type { Depth, OutlineEntry } from './headings.js';
import type { PdfTextItem } from './types.js';
import { ChunkError } from '../../errors.js';
import type { Block } from '../../types.js';

/** What is known about a PDF once it has been read, besides its blocks. */
export interface PdfInfo {
  /** Pages read. */
  readonly pages: number;
  /** True when pages hold images but no text layer (scans): their text needs OCR and is not in the blocks. */
  readonly needsOcr: boolean;
  readonly warnings: string[];
}

/** A whole PDF read into blocks. */
export interface PdfDocument extends PdfInfo {
  readonly blocks: Block[];
  /** The extracted document text: the blocks' texts joined by `"\n\n"`; `text.slice(b.start, b.end) === b.text`. */
  readonly text: string;
}

/** Receives the `PdfInfo` of a document when its last block has been produced. */
export type PdfInfoListener = (info: PdfInfo) => void;

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
type PdfDocumentProxy = Awaited<ReturnType<PdfJs['getDocument']>['promise']>;
type PdfPageProxy = Awaited<ReturnType<PdfDocumentProxy['getPage']>>;

/** Most outline entries read; outlines beyond that are generated indexes, not headings. */
const OUTLINE_CAP = 10_000;

let pdfjsPromise: Promise<PdfJs> | null = null;
/** Loads pdf.js once, on first use. */
function loadPdfjs(): Promise<PdfJs> {
  pdfjsPromise ??= import('pdfjs-dist/legacy/build/pdf.mjs');
  return pdfjsPromise;
}

/** Directory of the pdfjs-dist package, for its standard font and CMap data. */
function pdfjsDir(): string {
  return dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
}

type Source = { readonly data: Uint8Array };

/**
 * Reads a PDF into blocks, page by page. The streaming entry of `parse()`: pages are read and released one at a time,
 * blocks come out as soon as a page's layout is settled (a few pages later, for running headers), and `onInfo`
 * receives the page count, `needsOcr` and the warnings after the last block.
 *
 * `bytes` are handed to pdf.js, which may detach their buffer when they span all of it; pass a copy to keep them.
 * Throws `ChunkError` `ERR_PDF_ENCRYPTED` (no or wrong `password`) or `ERR_PDF_INVALID` (truncated, corrupt, not a PDF).
 */
export async function* readPdfBlocks(bytes: Uint8Array, config: ParseConfig, onInfo?: PdfInfoListener): AsyncGenerator<Block> {
  // pdf.js refuses Buffers but takes a plain view on the same memory; a view on part of a buffer (a pooled small
  // Buffer) is copied, as pdf.js would copy it anyway.
  const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
  const data = whole ? new Uint8Array(bytes.buffer as ArrayBuffer) : new Uint8Array(bytes);
  yield* readPdf({ data }, config, onInfo);
}

/**
 * Reads a whole PDF, from a file path (read from disk in one go) or from bytes (copied, never detached), into its blocks, its extracted document text, its page count, `needsOcr` and warnings.
 *
 * ```ts
 * const { blocks, text, pages, needsOcr } = await parsePdf('paper.pdf');
 * ```
 */
export async function parsePdf(input: string | Uint8Array, options?: ParseOptions): Promise<PdfDocument> {
  const config = normalizeParseOptions({ ...options, format: 'pdf' });
  let source: Source;
  if (typeof input === 'string') {
    let bytes: Buffer;
    try {
      bytes = await readFile(input);
    } catch (error) {
      throw new ChunkError('ERR_READ', `Cannot read ${input}: ${(error as Error).message}`, { source: input, cause: error });
    }
    // A view on the file's own buffer: nothing else holds it, so pdf.js may take it over without a copy.
    source = { data: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) };
  } else if (input instanceof Uint8Array) {
    source = { data: new Uint8Array(input) };
  } else {
    throw new ChunkError('ERR_INVALID_INPUT', `parsePdf() takes a file path or a Uint8Array, got ${input === null ? 'null' : typeof input}`);
  }
  const blocks: Block[] = [];
  let info: PdfInfo = { pages: 0, needsOcr: false, warnings: [] };
  try {
    for await (const block of readPdf(source, config, (i) => (info = i))) blocks.push(block);
  } catch (error) {
    if (error instanceof ChunkError && typeof input === 'string' && error.source === undefined) {
      throw new ChunkError(error.code, `${input}: ${error.message}`, { source: input, cause: error, ...(error.page !== undefined ? { page: error.page } : {}) });
    }
    throw error;
  }
  return { blocks, text: blocks.map((b) => b.text).join(PDF_BLOCK_SEPARATOR), ...info };
}

async function* readPdf(source: Source, config: ParseConfig, onInfo?: PdfInfoListener): AsyncGenerator<Block> {
  const pdfjs = await loadPdfjs();
  const dir = pdfjsDir();
  const task = pdfjs.getDocument({
    ...source,
    password: config.password,
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    verbosity: 0,
    standardFontDataUrl: join(dir, 'standard_fonts') + '/',
    cMapUrl: join(dir, 'cmaps') + '/',
    cMapPacked: true,
  });
  try {
    let doc: PdfDocumentProxy;
    try {
      doc = await task.promise;
    } catch (error) {
      throw openError(error);
    }
    const warnings: string[] = [];
    const outline = await readOutline(doc, warnings);
    const assembler = createPdfAssembler({ outline });
    const scanned: number[] = [];
    for (let number = 1; number <= doc.numPages; number++) {
      if (config.signal?.aborted === true) throw abortError(config.signal);
      const items = await pageItems(doc, number, pdfjs, scanned);
      for (const block of assembler.write({ number, items })) yield block;
    }
    for (const block of assembler.end()) yield block;
    warnings.push(...assembler.warnings());
    if (scanned.length > 0) {
      warnings.push(
        `${scanned.length} of ${doc.numPages} page${doc.numPages === 1 ? '' : 's'} ${scanned.length === 1 ? 'has' : 'have'} images but no text layer (${pageList(scanned)}): ` +
          'their text needs OCR and is not in the output',
      );
    }
    onInfo?.({ pages: doc.numPages, needsOcr: scanned.length > 0, warnings });
  } finally {
    await task.destroy();
  }
}

/** The text items of one page (noting it in `scanned` when it is an image without text), then releases the page. */
async function pageItems(doc: PdfDocumentProxy, number: number, pdfjs: PdfJs, scanned: number[]): Promise<PdfTextItem[]> {
  let page: PdfPageProxy;
  try {
    page = await doc.getPage(number);
  } catch (error) {
    throw new ChunkError('ERR_PDF_INVALID', `Page ${number} cannot be read: ${(error as Error).message}`, { page: number, cause: error });
  }
  try {
    const content = await page.getTextContent();
    const items: PdfTextItem[] = [];
    let text = false;
    for (const item of content.items) {
      if (!('str' in item)) continue;
      const t = item.transform as number[];
      const style = content.styles[item.fontName];
      const fontSize = Math.hypot(t[2] ?? 0, t[3] ?? 0) || item.height;
      items.push({
        str: item.str,
        x: t[4] ?? 0,
        y: t[5] ?? 0,
        width: item.width,
        height: item.height,
        fontName: item.fontName,
        fontSize,
        hasEOL: item.hasEOL,
        monospace: style?.fontFamily === 'monospace',
      });
      if (!text && /\S/.test(item.str)) text = true;
    }
    if (!text && (await paintsImages(page, pdfjs))) scanned.push(number);
    return items;
  } catch (error) {
    if (error instanceof ChunkError) throw error;
    throw new ChunkError('ERR_PDF_INVALID', `Page ${number} cannot be read: ${(error as Error).message}`, { page: number, cause: error });
  } finally {
    page.cleanup();
  }
}

/** True when a page without text paints an image (a scan); a blank page does not need OCR. */
async function paintsImages(page: PdfPageProxy, pdfjs: PdfJs): Promise<boolean> {
  const ops = pdfjs.OPS;
  const painting = new Set<number>([
    ops.paintImageXObject,
    ops.paintInlineImageXObject,
    ops.paintImageMaskXObject,
    ops.paintImageXObjectRepeat,
    ops.paintInlineImageXObjectGroup,
    ops.paintImageMaskXObjectGroup,
    ops.paintImageMaskXObjectRepeat,
  ]);
  try {
    const list = await page.getOperatorList();
    return list.fnArray.some((fn) => painting.has(fn));
  } catch {
    // A page whose content cannot be listed has no text either: report it as needing OCR rather than lose it silently.
    return true;
  }
}

/** Outline entries with the page each points to; entries that cannot be resolved are skipped. */
async function readOutline(doc: PdfDocumentProxy, warnings: string[]): Promise<OutlineEntry[]> {
  let outline: Awaited<ReturnType<PdfDocumentProxy['getOutline']>>;
  try {
    outline = await doc.getOutline();
  } catch (error) {
    warnings.push(`The outline cannot be read (${(error as Error).message}); headings come from fonts`);
    return [];
  }
  const entries: OutlineEntry[] = [];
  type Node = NonNullable<typeof outline>[number];
  const walk = async (nodes: readonly Node[], depth: number): Promise<void> => {
    for (const node of nodes) {
      if (entries.length >= OUTLINE_CAP) return;
      const page = await destinationPage(doc, node.dest);
      const title = typeof node.title === 'string' ? node.title.replace(/\s+/g, ' ').trim() : '';
      if (page !== null && title.length > 0) entries.push({ title, depth: Math.min(depth, 6) as Depth, page });
      if (node.items.length > 0) await walk(node.items, depth + 1);
    }
  };
  await walk(outline ?? [], 1);
  return entries;
}

async function destinationPage(doc: PdfDocumentProxy, dest: unknown): Promise<number | null> {
  try {
    const explicit = typeof dest === 'string' ? await doc.getDestination(dest) : dest;
    if (!Array.isArray(explicit) || explicit.length === 0) return null;
    const target = explicit[0] as unknown;
    if (typeof target === 'number' && Number.isInteger(target)) return target + 1;
    if (typeof target === 'object' && target !== null) return (await doc.getPageIndex(target as { num: number; gen: number })) + 1;
    return null;
  } catch {
    return null;
  }
}

/** Maps what pdf.js throws when opening a document to a coded error. */
function openError(error: unknown): ChunkError {
  const e = error as { name?: string; code?: number; message?: string };
  if (e?.name === 'PasswordException') {
    const wrong = e.code === 2;
    return new ChunkError(
      'ERR_PDF_ENCRYPTED',
      wrong ? 'The PDF is encrypted and the password option is wrong' : 'The PDF is encrypted: pass its password in the password option',
      { cause: error },
    );
  }
  const why = e?.name === 'InvalidPDFException' ? 'not a PDF, or truncated or corrupt' : (e?.message ?? String(error));
  return new ChunkError('ERR_PDF_INVALID', `The input is not a readable PDF: ${why}`, { cause: error });
}

function abortError(signal: AbortSignal): Error {
  const error = new Error('The operation was aborted', { cause: signal.reason });
  error.name = 'AbortError';
  return error;
}

/** `1, 2, 5` with at most ten pages listed. */
function pageList(pages: readonly number[]): string {
  const head = pages.slice(0, 10).join(', ');
  return pages.length > 10 ? `pages ${head}, …` : `page${pages.length === 1 ? '' : 's'} ${head}`;
}
