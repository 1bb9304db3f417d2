/**
 * PDF input: the streaming reader and `parsePdf`. pdf.js runs in a sandbox process under a time and memory budget
 * (`sandbox.ts`); pages come from it one at a time, the next one read while the current one is laid out, and the
 * layout (lines, columns, paragraphs, headings, lists, running headers) is done here by the pure modules of
 * `src/parsers/pdf/`. A page's blocks come out once the pages after it that tell running headers apart have been
 * read, so memory follows the largest pages, not the page count.
 *
 * The blocks' offsets point into the extracted document text: every block's text joined by `"\n\n"` (see
 * `PDF_BLOCK_SEPARATOR`); `parsePdf` returns that text.
 */
import { resolve } from 'node:path';
import { normalizeParseOptions, type ParseConfig, type ParseOptions } from '../../config.js';
import { authoredTitle } from './cover-title.js';
import { createPdfAssembler, PDF_BLOCK_SEPARATOR, type PdfPageInput } from './document.js';
import { openPdfSession } from './sandbox.js';
import { MAX_PAGE_ITEMS, type SandboxGraphics, type SandboxPage, type SandboxSource } from './sandbox-messages.js';
import { ChunkError } from '../../errors.js';
import type { Block } from '../../types.js';

/** What is known about a PDF once it has been read, besides its blocks. */
export interface PdfInfo {
  /** Pages read. */
  readonly pages: number;
  /**
   * True when pages hold images but no text layer (scans), or text in fonts without a usable Unicode mapping: their
   * text needs OCR and is not in the blocks.
   */
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

/**
 * Reads a PDF into blocks, page by page. Pages are read one at a time, blocks come
 * out as soon as a page's layout is settled (a few pages later, for running headers), and `onInfo` receives the page
 * count, `needsOcr` and the warnings after the last block. The bytes are copied to the sandbox; the caller's stay as
 * they are.
 *
 * Throws `ChunkError` `ERR_PDF_ENCRYPTED` (no or wrong `password`), `ERR_PDF_INVALID` (truncated, corrupt, not a
 * PDF) or `ERR_PDF_LIMIT` (past `maxPdfSeconds` or `maxPdfMemoryMb`); a failure at a page comes after the blocks of
 * the pages before it.
 */
export async function* readPdfBlocks(bytes: Uint8Array, config: ParseConfig, onInfo?: PdfInfoListener): AsyncGenerator<Block> {
  yield* readPdf({ data: bytes }, config, onInfo);
}

/**
 * Reads the PDF at `path` into blocks, page by page, as `readPdfBlocks` reads bytes: the streaming entry of
 * `parse()`, which spools its input to a file. The sandbox reads the file; this process never holds it.
 */
export async function* readPdfFileBlocks(path: string, config: ParseConfig, onInfo?: PdfInfoListener): AsyncGenerator<Block> {
  yield* readPdf({ path }, config, onInfo);
}

/**
 * Reads a whole PDF, from a file path (read by the sandbox, never held here) or from bytes (copied, never detached),
 * into its blocks, its extracted document text, its page count, `needsOcr` and warnings. The package exports it
 * through `parse-pdf.ts`, which loads this module on the first call.
 */
export async function parsePdf(input: string | Uint8Array, options?: ParseOptions): Promise<PdfDocument> {
  const config = normalizeParseOptions({ ...options, format: 'pdf' });
  let source: SandboxSource;
  // A path is read by the sandbox itself (this process never holds the file), from where it is now.
  if (typeof input === 'string') source = { path: resolve(input) };
  else if (input instanceof Uint8Array) source = { data: input };
  else throw new ChunkError('ERR_INVALID_INPUT', `parsePdf() takes a file path or a Uint8Array, got ${input === null ? 'null' : typeof input}`);
  const blocks: Block[] = [];
  let info: PdfInfo = { pages: 0, needsOcr: false, warnings: [] };
  try {
    for await (const block of readPdf(source, config, (i) => (info = i))) blocks.push(block);
  } catch (error) {
    if (!(error instanceof ChunkError) || typeof input !== 'string' || error.source !== undefined) throw error;
    // The path goes in `source`, not in the message: whoever prints the error puts it in front, once.
    throw new ChunkError(error.code, error.message, { source: input, cause: error, ...(error.page !== undefined ? { page: error.page } : {}) });
  }
  return { blocks, text: blocks.map((b) => b.text).join(PDF_BLOCK_SEPARATOR), ...info };
}

async function* readPdf(source: SandboxSource, config: ParseConfig, onInfo?: PdfInfoListener): AsyncGenerator<Block> {
  if (aborted(config)) throw abortError(config.signal as AbortSignal);
  const session = await openPdfSession(source, {
    password: config.password,
    limits: { seconds: config.maxPdfSeconds, memoryMb: config.maxPdfMemoryMb },
    signal: config.signal,
  });
  try {
    const warnings = [...session.warnings];
    const assembler = createPdfAssembler({ outline: session.outline });
    // The first block comes once page 1 is laid out, so its cover title is known by then.
    const stamp = titleStamp(() => authoredTitle(session.title) ?? assembler.coverTitle());
    const scanned: number[] = [];
    const truncated: number[] = [];
    const pages = session.pages;
    let next: Promise<SandboxPage> | null = pages >= 1 ? session.page(1) : null;
    for (let number = 1; number <= pages; number++) {
      if (aborted(config)) throw abortError(config.signal as AbortSignal);
      let page: SandboxPage;
      try {
        page = await (next as Promise<SandboxPage>);
      } catch (error) {
        // The pages read before the one that failed are laid out and emitted first.
        if (error instanceof ChunkError && error.page !== undefined) for (const block of assembler.end()) yield stamp(block);
        throw error;
      }
      // What the page draws is read only when its text calls for it (a table, no text, fonts to name).
      const drawing = assembler.needsGraphics(page) ? session.graphics(number) : null;
      // The sandbox reads the next page while this one is laid out and its blocks are consumed.
      next = number < pages ? session.page(number + 1) : null;
      // A failure while this page is read (a limit, an abort) rejects the next page too, which nobody may await
      // then: marked as handled here, so it does not end the process as an unhandled rejection.
      next?.catch(() => {});
      let read: SandboxGraphics | null = null;
      if (drawing !== null) {
        try {
          read = await drawing;
        } catch (error) {
          if (error instanceof ChunkError && error.page !== undefined) for (const block of assembler.end()) yield stamp(block);
          throw error;
        }
        if (!page.items.some((i) => /\S/.test(i.str)) && (read.graphics.images.length > 0 || read.graphics.unlisted === true)) scanned.push(number);
      }
      const input = pageInput(number, page, read);
      if (page.truncated) truncated.push(number);
      for (const block of assembler.write(input)) yield stamp(block);
    }
    for (const block of assembler.end()) yield stamp(block);
    warnings.push(...assembler.warnings());
    if (truncated.length > 0) {
      warnings.push(`${pageList(truncated)} ${truncated.length === 1 ? 'has' : 'have'} more than ${MAX_PAGE_ITEMS} runs of text: the runs past those are not in the output`);
    }
    if (scanned.length > 0) {
      warnings.push(
        `${scanned.length} of ${pages} page${pages === 1 ? '' : 's'} ${scanned.length === 1 ? 'has' : 'have'} images but no text layer (${pageList(scanned)}): ` +
          'their text needs OCR and is not in the output',
      );
    }
    const unreadable = assembler.unreadablePages();
    if (unreadable.length > 0) {
      warnings.push(
        `${unreadable.length} of ${pages} page${pages === 1 ? '' : 's'} ${unreadable.length === 1 ? 'has' : 'have'} text in fonts without a usable Unicode mapping (${pageList(unreadable)}): ` +
          'it reads as junk, so it is not in the output and needs OCR',
      );
    }
    onInfo?.({ pages, needsOcr: scanned.length > 0 || unreadable.length > 0, warnings });
  } finally {
    await session.close();
  }
}

/**
 * What the assembler is given of a page: its text and, when read, what it draws. Every field is set (to undefined when
 * unknown) so that every page's input has one hidden class: copies with fields added (`{ ...input, graphics }`) got
 * a new one each, and the layout code reading them was compiled again for each.
 */
function pageInput(number: number, page: SandboxPage, read: SandboxGraphics | null): PdfPageInput {
  return { number, items: page.items, frame: page.frame, graphics: read?.graphics, fonts: read?.fonts, reversedWords: read?.reversedWords };
}

function aborted(config: ParseConfig): boolean {
  return config.signal?.aborted === true;
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

/**
 * Puts the document's title on the first block given (`documentTitle`): the metadata title an author wrote, else the
 * cover's, read when that block comes; passes the others as they are.
 */
function titleStamp(titleOf: () => string | undefined): (block: Block) => Block {
  const state = { first: true };
  return (block) => {
    if (!state.first) return block;
    state.first = false;
    const title = titleOf();
    return title === undefined ? block : { ...block, documentTitle: title };
  };
}
