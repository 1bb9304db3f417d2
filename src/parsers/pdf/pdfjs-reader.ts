/**
 * The adapter over pdf.js (pdfjs-dist, legacy build), text layer only: no rendering, no canvas, no eval. It runs in
 * the PDF sandbox process (`sandbox-child.ts`), never in the caller's: pdf.js has no limits of its own, and a
 * hostile file can make it run for hours or take gigabytes, which only a separate process can be stopped from doing.
 *
 * pdf.js holds the whole file and, until the document is destroyed, some 4 to 40 KB for every page it has served;
 * `cleanup()` on the document releases none of that and gives fonts without a descriptor new names, which the
 * heading detection would take for a change of font, so only pages are cleaned up.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { readGraphics, type OperatorCodes } from './graphics.js';
import type { Depth, OutlineEntry } from './headings.js';
import { reversedLigatureWords } from './ligatures.js';
import { installWorkerWithoutImageDecoding } from './pdfjs-worker.js';
import { MAX_PAGE_ITEMS, type SandboxGraphics, type SandboxPage, type SandboxSource } from './sandbox-messages.js';
import type { PageFrame, PdfTextItem } from './types.js';
import { systemErrorReason } from '../../errors.js';

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
type PdfDocumentProxy = Awaited<ReturnType<PdfJs['getDocument']>['promise']>;
type PdfPageProxy = Awaited<ReturnType<PdfDocumentProxy['getPage']>>;

/** Most outline entries read; outlines beyond that are generated indexes, not headings. */
const OUTLINE_CAP = 10_000;
/** Pages kept open after their text was read, for the reader to ask what they draw. */
const OPEN_PAGES = 3;

/** An error with the code the reader will raise, for the failures the adapter can name. */
export class PdfReadError extends Error {
  constructor(
    readonly code: 'ERR_PDF_INVALID' | 'ERR_PDF_ENCRYPTED' | 'ERR_READ',
    message: string,
    readonly page?: number,
  ) {
    super(message);
    this.name = 'PdfReadError';
  }
}

let pdfjsPromise: Promise<PdfJs> | null = null;
/**
 * Loads pdf.js once, on first use: its worker first, without image decoding (`pdfjs-worker.ts`: the reader reads
 * where images are drawn, never their pixels), then the API that runs it.
 */
export function loadPdfjs(): Promise<PdfJs> {
  pdfjsPromise ??= keepNativePush(() => installWorkerWithoutImageDecoding().then(() => import('pdfjs-dist/legacy/build/pdf.mjs')));
  return pdfjsPromise;
}

/**
 * Runs `load` and puts V8's own `Array.prototype.push` back if it replaced it. The legacy build's core-js replaces
 * `push` on V8 121 and older (Node 20) with a function in JavaScript, for two corner cases pdf.js never
 * meets (an array-like of length 2^32 and more, an array whose length is read-only, which pdf.js never pushes to):
 * every `push` in the process then goes through that function and a generic store of `length`. In the sandbox that
 * was 18% of its CPU time reading tracemonkey.pdf (`node --cpu-prof`: the replacement and the `length` setter
 * under it, 850 of 4,636 ms), more than the whole of what pdf.js spends on it in a process of its own (250 ms):
 * the store of `length` goes the slow way once `push` has seen the sandbox's own arrays as well as pdf.js's.
 */
export async function keepNativePush<T>(load: () => Promise<T>): Promise<T> {
  const push = Array.prototype.push;
  try {
    return await load();
  } finally {
    if (Array.prototype.push !== push) Object.defineProperty(Array.prototype, 'push', { value: push, writable: true, enumerable: false, configurable: true });
  }
}

/** Directory of the pdfjs-dist package, for its standard font and CMap data. */
function pdfjsDir(): string {
  return dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
}

/** An open document. */
export interface OpenedPdf {
  readonly pages: number;
  readonly outline: OutlineEntry[];
  readonly warnings: string[];
  /** The document information dictionary's `Title`, when it has one. */
  readonly title?: string;
  /** Reads the text of one page (1-based); the page stays open a little, for `graphics`. */
  page(number: number): Promise<SandboxPage>;
  /** Reads what a page draws (its operator list) and the names of its fonts, then releases the page. */
  graphics(number: number): Promise<SandboxGraphics>;
  close(): Promise<void>;
}

/** Opens a document from a path or from bytes; throws `PdfReadError` when it cannot be read. */
export async function openPdf(source: SandboxSource, password: string | undefined): Promise<OpenedPdf> {
  let data: Uint8Array;
  if ('path' in source) {
    try {
      const bytes = await readFile(source.path);
      // A view on the file's own buffer: nothing else holds it, so pdf.js may take it over without a copy.
      data = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    } catch (error) {
      throw new PdfReadError('ERR_READ', systemErrorReason(error));
    }
  } else {
    // pdf.js refuses Buffers but takes a plain view on the same memory; a view on part of a buffer is copied.
    const bytes = source.data;
    const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
    data = whole ? new Uint8Array(bytes.buffer as ArrayBuffer) : new Uint8Array(bytes);
  }
  const pdfjs = await loadPdfjs();
  const dir = pdfjsDir();
  const task = pdfjs.getDocument({
    data,
    password,
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    verbosity: 0,
    standardFontDataUrl: join(dir, 'standard_fonts') + '/',
    cMapUrl: join(dir, 'cmaps') + '/',
    cMapPacked: true,
  });
  let doc: PdfDocumentProxy;
  try {
    doc = await task.promise;
  } catch (error) {
    await task.destroy();
    throw openError(error);
  }
  const warnings: string[] = [];
  const outline = await readOutline(doc, warnings);
  const title = await readTitle(doc);
  const open = new Map<number, PdfPageProxy>();
  const release = (number: number): void => {
    open.get(number)?.cleanup();
    open.delete(number);
  };
  return {
    pages: doc.numPages,
    outline,
    warnings,
    ...(title !== undefined ? { title } : {}),
    async page(number) {
      const page = await getPage(doc, number);
      open.set(number, page);
      // Pages the reader did not ask more of are released as it moves on.
      for (const n of open.keys()) if (open.size > OPEN_PAGES && n !== number) release(n);
      try {
        return await readText(page, number);
      } catch (error) {
        release(number);
        throw error;
      }
    },
    async graphics(number) {
      const page = open.get(number) ?? (await getPage(doc, number));
      open.set(number, page);
      try {
        return await readDrawing(page, number, pdfjs);
      } finally {
        release(number);
      }
    },
    close: () => task.destroy(),
  };
}

async function getPage(doc: PdfDocumentProxy, number: number): Promise<PdfPageProxy> {
  try {
    return await doc.getPage(number);
  } catch (error) {
    throw new PdfReadError('ERR_PDF_INVALID', `Page ${number} cannot be read: ${(error as Error).message}`, number);
  }
}

/**
 * The text items of one page, read as pdf.js streams them: past `MAX_PAGE_ITEMS` runs the stream is cancelled, which
 * stops pdf.js reading the page, so a page that floods runs of text costs what its first runs cost (read whole, a
 * page of 1.7 million one-character runs took 10 s and some 500 MB before it could be cut).
 */
async function readText(page: PdfPageProxy, number: number): Promise<SandboxPage> {
  const items: PdfTextItem[] = [];
  let truncated = false;
  const reader = page.streamTextContent().getReader();
  try {
    const styles: Record<string, { fontFamily?: string; descent?: number }> = {};
    while (!truncated) {
      const { value, done } = (await reader.read()) as { value?: TextContentChunk; done: boolean };
      if (done || value === undefined) break;
      Object.assign(styles, value.styles);
      for (const item of value.items) {
        if (!('str' in item)) continue;
        if (items.length >= MAX_PAGE_ITEMS) {
          truncated = true;
          break;
        }
        items.push(textItem(item, styles[item.fontName]));
      }
    }
    // pdf.js asks a cancel for its reason.
    if (truncated) await reader.cancel(new Error(`more than ${MAX_PAGE_ITEMS} runs of text`));
    return { number, items, truncated, frame: pageFrame(page) };
  } catch (error) {
    throw new PdfReadError('ERR_PDF_INVALID', `Page ${number} cannot be read: ${(error as Error).message}`, number);
  } finally {
    reader.releaseLock();
  }
}

/** One batch of a page's streamed text content. */
type TextContentChunk = Pick<Awaited<ReturnType<PdfPageProxy['getTextContent']>>, 'items' | 'styles'>;
type TextItem = Extract<TextContentChunk['items'][number], { str: string }>;

/**
 * How the page is shown, from pdf.js's viewport at scale 1 (its crop box, turned by its `/Rotate`), when it gives six
 * finite numbers for it.
 */
function pageFrame(page: PdfPageProxy): PageFrame | undefined {
  let transform: unknown;
  try {
    transform = page.getViewport({ scale: 1 }).transform;
  } catch {
    return undefined;
  }
  if (!Array.isArray(transform) || transform.length !== 6 || !transform.every((v) => Number.isFinite(v))) return undefined;
  return transform as unknown as PageFrame;
}

function textItem(item: TextItem, style: { fontFamily?: string; descent?: number } | undefined): PdfTextItem {
  const t = item.transform as number[];
  const fontSize = Math.hypot(t[2] ?? 0, t[3] ?? 0) || item.height;
  const angle = Math.round((Math.atan2(t[1] ?? 0, t[0] ?? 1) * 180) / Math.PI);
  return {
    str: item.str,
    x: t[4] ?? 0,
    y: t[5] ?? 0,
    width: item.width,
    height: item.height,
    fontName: item.fontName,
    fontSize,
    hasEOL: item.hasEOL,
    monospace: style?.fontFamily === 'monospace',
    ...(angle !== 0 ? { angle } : {}),
    ...(item.dir === 'rtl' ? { rtl: true } : {}),
    // pdf.js gives the descent in font sizes; a font without metrics gets none, and the layout supposes one.
    ...(typeof style?.descent === 'number' && Number.isFinite(style.descent) && style.descent <= 0 && style.descent > -1 ? { descent: style.descent } : {}),
  };
}

/** What a page draws, and the names of the fonts its text used (pdf.js knows them once it has listed the page). */
async function readDrawing(page: PdfPageProxy, number: number, pdfjs: PdfJs): Promise<SandboxGraphics> {
  let list: Awaited<ReturnType<PdfPageProxy['getOperatorList']>>;
  try {
    list = await page.getOperatorList();
  } catch {
    // A page whose drawing cannot be listed: its text stands alone, and without text it counts as a scan rather
    // than being lost silently.
    return { number, graphics: { rules: [], images: [], drawings: [], unlisted: true }, fonts: {} };
  }
  const graphics = readGraphics(list.fnArray, list.argsArray, pdfjs.OPS as unknown as OperatorCodes, page.view);
  const fonts: Record<string, string> = {};
  const showTexts: unknown[][] = [];
  for (let i = 0; i < list.fnArray.length; i++) {
    if (list.fnArray[i] === pdfjs.OPS.showText) {
      const glyphs = (list.argsArray[i] as unknown[] | null)?.[0];
      if (Array.isArray(glyphs)) showTexts.push(glyphs);
      continue;
    }
    if (list.fnArray[i] !== pdfjs.OPS.setFont) continue;
    const id = (list.argsArray[i] as unknown[] | null)?.[0];
    if (typeof id !== 'string' || id in fonts) continue;
    const font = page.commonObjs.has(id) ? (page.commonObjs.get(id) as { name?: unknown } | null) : null;
    if (typeof font?.name === 'string') fonts[id] = font.name;
  }
  const reversed = reversedLigatureWords(showTexts);
  return { number, graphics, fonts, ...(reversed.size > 0 ? { reversedWords: reversed } : {}) };
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
  // Depth first, with an explicit stack: an outline nested thousands deep must not overflow the call stack.
  const stack: { nodes: readonly Node[]; index: number; depth: number }[] = [{ nodes: outline ?? [], index: 0, depth: 1 }];
  while (stack.length > 0 && entries.length < OUTLINE_CAP) {
    const top = stack[stack.length - 1] as { nodes: readonly Node[]; index: number; depth: number };
    const node = top.nodes[top.index++];
    if (node === undefined) {
      stack.pop();
      continue;
    }
    const page = await destinationPage(doc, node.dest);
    const title = typeof node.title === 'string' ? node.title.replace(/\s+/g, ' ').trim() : '';
    if (page !== null && title.length > 0) entries.push({ title, depth: Math.min(top.depth, 6) as Depth, page });
    if (node.items.length > 0) stack.push({ nodes: node.items, index: 0, depth: top.depth + 1 });
  }
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
function openError(error: unknown): PdfReadError {
  const e = error as { name?: string; code?: number; message?: string };
  if (e?.name === 'PasswordException') {
    const wrong = e.code === 2;
    return new PdfReadError(
      'ERR_PDF_ENCRYPTED',
      wrong ? 'The PDF is encrypted and the password option is wrong' : 'The PDF is encrypted: pass its password in the password option',
    );
  }
  const why = e?.name === 'InvalidPDFException' ? 'not a PDF, or truncated or corrupt' : (e?.message ?? String(error));
  return new PdfReadError('ERR_PDF_INVALID', `The input is not a readable PDF: ${why}`);
}

/** The most of a metadata title kept: some producers put a whole abstract there. */
const MAX_TITLE_TEXT = 1024;

/**
 * The `Title` of the document information dictionary, or `undefined` (none, not text, or unreadable: a title is
 * worth no failure). XMP metadata is not read: pdf.js parses it only to give it back, and files that have it
 * carry the same title in the dictionary.
 */
async function readTitle(doc: PdfDocumentProxy): Promise<string | undefined> {
  try {
    const { info } = await doc.getMetadata();
    const title = (info as { Title?: unknown } | null)?.Title;
    return typeof title === 'string' && /\S/.test(title) ? title.slice(0, MAX_TITLE_TEXT) : undefined;
  } catch {
    return undefined;
  }
}
