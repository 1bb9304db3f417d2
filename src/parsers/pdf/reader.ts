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
import { createPdfAssembler, PDF_BLOCK_SEPARATOR, type PdfAssembler, type PdfPageInput } from './document.js';
import { openPdfSession, type PdfSession } from './sandbox.js';
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

/**
 * The generator itself does only what happens once a document (open, end, close) and hands blocks on: the work of a
 * page is `PdfReading.page`, an async method, which V8 never inlines into a generator. Holding the page loop's body,
 * this generator was compiled with the whole layout inlined (85 ms of TurboFan on freeculture.pdf) and thrown away at
 * every document's start and end, where its once-a-document code had no type feedback: compiled again in each pass.
 */
async function* readPdf(source: SandboxSource, config: ParseConfig, onInfo?: PdfInfoListener): AsyncGenerator<Block> {
  if (aborted(config)) throw abortError(config.signal as AbortSignal);
  const session = await openPdfSession(source, {
    password: config.password,
    limits: { seconds: config.maxPdfSeconds, memoryMb: config.maxPdfMemoryMb },
    signal: config.signal,
  });
  try {
    const reading = new PdfReading(session, config);
    for (let number = 1; number <= session.pages; number++) {
      const step = await reading.page(number);
      for (const block of step.blocks) yield block;
      if (step.failure !== undefined) throw step.failure;
    }
    for (const block of reading.end()) yield block;
    onInfo?.(reading.info());
  } finally {
    await session.close();
  }
}

/** The blocks a page settled, and the failure to throw once they are out (a page that could not be read). */
interface PageStep {
  readonly blocks: readonly Block[];
  readonly failure: unknown;
}

/** One document being read: its session, its assembler, and what its warnings will say. */
class PdfReading {
  readonly #session: PdfSession;
  readonly #config: ParseConfig;
  readonly #assembler: PdfAssembler;
  /** No block has come out yet: the first takes the document's title. */
  #first = true;
  readonly #scanned: number[] = [];
  readonly #truncated: number[] = [];
  #next: Promise<SandboxPage> | null;

  constructor(session: PdfSession, config: ParseConfig) {
    this.#session = session;
    this.#config = config;
    const assembler = createPdfAssembler({ outline: session.outline });
    this.#assembler = assembler;
    this.#next = session.pages >= 1 ? session.page(1) : null;
  }

  /**
   * Reads page `number` (asked for ahead by the previous call), asks for the next one, and lays the page out. A page
   * that fails to be read ends the document: the pages read before it are laid out and come with the failure.
   */
  async page(number: number): Promise<PageStep> {
    const config = this.#config;
    if (aborted(config)) throw abortError(config.signal as AbortSignal);
    const session = this.#session;
    let page: SandboxPage;
    try {
      page = await (this.#next as Promise<SandboxPage>);
    } catch (error) {
      return this.#failed(error);
    }
    // What the page draws is read only when its text calls for it (a table, no text, fonts to name).
    const drawing = this.#assembler.needsGraphics(page) ? session.graphics(number) : null;
    // The sandbox reads the next page while this one is laid out and its blocks are consumed.
    const next = number < session.pages ? session.page(number + 1) : null;
    // A failure while this page is read (a limit, an abort) rejects the next page too, which nobody may await
    // then: marked as handled here, so it does not end the process as an unhandled rejection.
    next?.catch(() => {});
    this.#next = next;
    let read: SandboxGraphics | null = null;
    if (drawing !== null) {
      try {
        read = await drawing;
      } catch (error) {
        return this.#failed(error);
      }
      if (!page.items.some((i) => /\S/.test(i.str)) && (read.graphics.images.length > 0 || read.graphics.unlisted === true)) this.#scanned.push(number);
    }
    if (page.truncated) this.#truncated.push(number);
    return { blocks: this.#stamped(this.#assembler.write(pageInput(number, page, read))), failure: undefined };
  }

  /** The blocks of the pages still held, once the last page is written. */
  end(): Block[] {
    return this.#stamped(this.#assembler.end());
  }

  /** The page count, `needsOcr` and the warnings, once `end` has been called. */
  info(): PdfInfo {
    const pages = this.#session.pages;
    const warnings = [...this.#session.warnings, ...this.#assembler.warnings()];
    const truncated = this.#truncated;
    const scanned = this.#scanned;
    if (truncated.length > 0) {
      warnings.push(`${pageList(truncated)} ${truncated.length === 1 ? 'has' : 'have'} more than ${MAX_PAGE_ITEMS} runs of text: the runs past those are not in the output`);
    }
    if (scanned.length > 0) {
      warnings.push(
        `${scanned.length} of ${pages} page${pages === 1 ? '' : 's'} ${scanned.length === 1 ? 'has' : 'have'} images but no text layer (${pageList(scanned)}): ` +
          'their text needs OCR and is not in the output',
      );
    }
    const unreadable = this.#assembler.unreadablePages();
    if (unreadable.length > 0) {
      warnings.push(
        `${unreadable.length} of ${pages} page${pages === 1 ? '' : 's'} ${unreadable.length === 1 ? 'has' : 'have'} text in fonts without a usable Unicode mapping (${pageList(unreadable)}): ` +
          'it reads as junk, so it is not in the output and needs OCR',
      );
    }
    return { pages, needsOcr: scanned.length > 0 || unreadable.length > 0, warnings };
  }

  /** A page that could not be read: the pages before it come out first when the failure names its page. */
  #failed(error: unknown): PageStep {
    if (error instanceof ChunkError && error.page !== undefined) return { blocks: this.end(), failure: error };
    throw error;
  }

  /**
   * Puts the document's title on the first block (`documentTitle`): the metadata title an author wrote, else the
   * cover's, known by then since the first block comes once page 1 is laid out. A method rather than a closure made
   * for each document, which the caller's compiled code took for another function at each new document.
   */
  #stamped(blocks: Block[]): Block[] {
    if (!this.#first || blocks.length === 0) return blocks;
    this.#first = false;
    const title = authoredTitle(this.#session.title) ?? this.#assembler.coverTitle();
    if (title !== undefined) blocks[0] = { ...(blocks[0] as Block), documentTitle: title };
    return blocks;
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

