/**
 * The formats chunkstream reads, in one table: per format, how it is detected (extensions, a signature in the first
 * bytes), its reader (how it takes its input and what it gives), its default strategy and the parse options it
 * takes. `parse()`, `chunkFile`, `inspect`, the command line, the framework adapters and the queue workers all
 * read this table; a new format is a room under `src/parsers/` and a row here.
 *
 * A reader's module is loaded on first use (a dynamic `import()`), so users of one format never load another's
 * library; Markdown and plain text, which every build needs, are loaded with this module.
 */
import { readFile } from 'node:fs/promises';
import type { DocumentFormat, ParseConfig, ParseOptions, StrategyName } from '../config.js';
import type { StageCore, StageOutput } from '../core.js';
import { ChunkError } from '../errors.js';
import type { Block } from '../types.js';
import { MAX_DOCX_BYTES } from './docx/zip-check.js';
import { createMarkdownStreamCore } from './markdown/batch-scheduler.js';
import { parseMarkdown } from './markdown/parse.js';
import { createTextCore, parseText } from './text/parse.js';
import { checkedTextCore, createTextInputCheck, replacementWarnings, taggedLater } from './text-input.js';
import { createUtf8Decoder } from './utf8-decoder.js';

/** What a reader reports besides its blocks, once it has read the whole input (a PDF's pages, needsOcr, warnings). */
export type ReaderInfo = object;

/** Where a reader sends what it learns besides blocks. */
export interface ReaderEvents {
  /** Called once, after the last block, with what the reader learnt (`PdfInfo` for a PDF). */
  info?(info: ReaderInfo): void;
}

/** A reader that takes its input as it arrives: a core of bytes or strings in, blocks out. */
export interface StreamReader {
  readonly input: 'stream';
  createCore(config: ParseConfig, events: ReaderEvents): StageCore<string | Uint8Array, Block>;
}

/**
 * A reader that needs the whole input before it reads (random access, a format without a streaming parser): a
 * stream holds the input in memory, or writes it to a temporary file, up to `limit` bytes, then hands it over.
 */
export interface WholeReader {
  /** `memory`: the bytes are handed over; `file`: the path of the file they were written to. */
  readonly input: 'memory' | 'file';
  /** The most bytes a stream holds for this reader. */
  limit(config: ParseConfig): number;
  /** The error of an input past `limit`. */
  tooLarge(config: ParseConfig): ChunkError;
  read(source: Uint8Array | string, config: ParseConfig, events: ReaderEvents): Promise<AsyncIterable<Block>>;
}

/** A document read whole, for `chunkFile` and `inspect`: the text chunk offsets point into, and its blocks. */
export interface ReadDocument {
  /** The decoded document (Markdown without its BOM), or for a format read into text (PDF), the extracted text. */
  readonly text: string;
  readonly blocks: Iterable<Block>;
  /** Pages read (PDF). */
  readonly pages?: number;
  /** True when pages need OCR (PDF). */
  readonly needsOcr?: boolean;
  readonly warnings?: readonly string[];
}

/** One format: how it is detected and read. */
export interface FormatEntry {
  readonly name: DocumentFormat;
  /** Its name in prose: `'Markdown'`, `'PDF'`. */
  readonly title: string;
  /** Extensions (lower case, with the dot) that say a file is in this format. */
  readonly extensions: readonly string[];
  /**
   * Extensions that say so only of a file a user named, not of one found walking a folder: `.jsonl` is also what
   * the command line writes, and an output folder inside an input folder must not be read back.
   */
  readonly namedExtensions?: readonly string[];
  /** True when the first bytes of an input (at most `DETECT_BYTES`, as Latin-1) are in this format. */
  readonly signature?: (head: string) => boolean;
  /** The strategy a document of this format is chunked with when none is asked for (else `semantic`). */
  readonly defaultStrategy?: StrategyName;
  /** The parse options this format's reader reads (besides `format` and `signal`, which every reader takes). */
  readonly parseOptions: readonly (keyof ParseOptions)[];
  /** How a stream hands the input to the reader, and the reader. */
  readonly reader: StreamReader | WholeReader;
  /** Reads a whole file: what `chunkFile` and `inspect` chunk. */
  readDocument(path: string, config: ParseConfig): Promise<ReadDocument>;
}

const PDF_MAGIC = '%PDF-';

/**
 * Reads a file and decodes it as UTF-8 (a BOM dropped, invalid bytes as U+FFFD or, with `fatal`, an error), after
 * the text check (`text-input.ts`): binary data is `ERR_UNSUPPORTED_FORMAT`, and the replacements are counted.
 */
async function readText(path: string, config: ParseConfig): Promise<{ text: string; warnings: string[] }> {
  const bytes = await readFile(path);
  const warnings = replacementWarnings(bytes);
  const decoder = createUtf8Decoder({ fatal: config.fatal });
  return { text: decoder.write(bytes) + decoder.end(), warnings };
}

const markdown: FormatEntry = {
  name: 'markdown',
  title: 'Markdown',
  extensions: ['.md', '.markdown', '.mdown', '.mkd', '.mkdn'],
  parseOptions: ['fatal', 'batchSize', 'maxBatchSize', 'strict', 'workers'],
  reader: { input: 'stream', createCore: (config) => checkedTextCore(createMarkdownStreamCore(config)) },
  async readDocument(path, config) {
    const { text, warnings } = await readText(path, config);
    return { text, warnings, blocks: parseMarkdown(text, { batchSize: config.batchSize, maxBatchSize: config.maxBatchSize, strict: config.strict }) };
  },
};

const pdf: FormatEntry = {
  name: 'pdf',
  title: 'PDF',
  extensions: ['.pdf'],
  // The PDF header may follow a few bytes of garbage; readers accept it within the first kilobyte.
  signature: (head) => head.includes(PDF_MAGIC),
  parseOptions: ['maxPdfBytes', 'password', 'maxPdfSeconds', 'maxPdfMemoryMb'],
  reader: {
    input: 'file',
    limit: (config) => config.maxPdfBytes,
    tooLarge: (config) =>
      new ChunkError('ERR_PDF_TOO_LARGE', `PDF input exceeds maxPdfBytes (${config.maxPdfBytes} bytes); raise maxPdfBytes or pass a file path`, {
        byteOffset: config.maxPdfBytes,
      }),
    async read(source, config, events) {
      const { readPdfFileBlocks } = await import('./pdf/reader.js');
      return readPdfFileBlocks(source as string, config, events.info);
    },
  },
  async readDocument(path, config) {
    const { parsePdf } = await import('./pdf/reader.js');
    return parsePdf(path, config);
  },
};

const transcript: FormatEntry = {
  name: 'transcript',
  title: 'transcript',
  extensions: ['.transcript'],
  namedExtensions: ['.jsonl'],
  defaultStrategy: 'turns',
  parseOptions: ['fatal', 'maxBufferBytes'],
  reader: {
    input: 'memory',
    limit: (config) => config.maxBufferBytes,
    tooLarge: (config) =>
      new ChunkError('ERR_BUFFER_OVERFLOW', `Transcript input exceeds maxBufferBytes (${config.maxBufferBytes} bytes)`, { byteOffset: config.maxBufferBytes }),
    async read(source, config) {
      const { readTranscriptBlocks } = await import('./transcript/reader.js');
      const check = createTextInputCheck();
      check.write(source);
      check.end();
      return taggedLater(check, readTranscriptBlocks(source as Uint8Array, config));
    },
  },
  async readDocument(path, config) {
    const { readTurns } = await import('./transcript/turns.js');
    const { text, warnings } = await readText(path, config);
    return { text, warnings, blocks: readTurns(text) };
  },
};

const text: FormatEntry = {
  name: 'text',
  title: 'plain text',
  // Plain text, not Markdown: a line of `===` or an indented line would otherwise become a heading or code.
  extensions: ['.txt'],
  parseOptions: ['fatal', 'maxBufferBytes'],
  reader: { input: 'stream', createCore: (config) => checkedTextCore(createTextCore(config)) },
  async readDocument(path, config) {
    const { text: decoded, warnings } = await readText(path, config);
    return { text: decoded, warnings, blocks: parseText(decoded, { maxBufferBytes: config.maxBufferBytes }) };
  },
};

/** `<!doctype html` or `<html` first, after a BOM, whitespace and comments. */
const HTML_START = /^(?:\xef\xbb\xbf)?(?:\s|<!--[\s\S]*?-->)*<(?:!doctype\s+html|html)[\s>]/i;

const html: FormatEntry = {
  name: 'html',
  title: 'HTML',
  extensions: ['.html', '.htm', '.xhtml'],
  signature: (head) => HTML_START.test(head),
  parseOptions: ['fatal', 'htmlContent'],
  reader: { input: 'stream', createCore: (config) => lazyCore(async () => (await import('./html/parse.js')).createHtmlCore(config)) },
  async readDocument(path, config) {
    const { readHtmlFile } = await import('./html/parse.js');
    return readHtmlFile(path, config);
  },
};

/** A ZIP archive whose first entries are a Word document's (the content types, or a part under `word/`). */
function isDocxHead(head: string): boolean {
  return head.startsWith('PK\x03\x04') && (head.includes('[Content_Types].xml') || head.includes('word/')) && !/\b(?:xl|ppt)\//.test(head);
}

const docx: FormatEntry = {
  name: 'docx',
  title: 'Word',
  extensions: ['.docx'],
  signature: isDocxHead,
  // mammoth reads the archive; its HTML is text already, so no decoding option applies.
  parseOptions: [],
  reader: {
    input: 'file',
    limit: () => MAX_DOCX_BYTES,
    tooLarge: () => new ChunkError('ERR_DOCX_LIMIT', `The Word file is past a limit: more than ${MAX_DOCX_BYTES} bytes`),
    async read(source, config, events) {
      const { readDocxFileBlocks } = await import('./docx/read.js');
      return readDocxFileBlocks(source as string, config, events.info);
    },
  },
  async readDocument(path, config) {
    const { readDocxFile } = await import('./docx/read.js');
    return readDocxFile(path, config);
  },
};

/** Every format, by name. */
export const FORMAT_TABLE: Readonly<Record<DocumentFormat, FormatEntry>> = { markdown, pdf, transcript, text, html, docx };

/** The formats whose signature `detectFormat` looks for, in the order it tries them. */
export const SIGNATURE_ORDER: readonly DocumentFormat[] = ['docx', 'pdf', 'html'];

/**
 * A core whose implementation is loaded on first use: the first write waits for the module (its output comes
 * asynchronously), the later ones go straight to the loaded core.
 */
function lazyCore<In, Out>(load: () => Promise<StageCore<In, Out>>): StageCore<In, Out> {
  const state: { core: StageCore<In, Out> | null; loading: Promise<StageCore<In, Out>> | null } = { core: null, loading: null };
  const loaded = async (): Promise<StageCore<In, Out>> => (state.core ??= await (state.loading ??= load()));
  async function* later(call: (core: StageCore<In, Out>) => StageOutput<Out>): AsyncGenerator<Out> {
    yield* call(await loaded());
  }
  return {
    write: (item) => (state.core !== null ? state.core.write(item) : later((core) => core.write(item))),
    end: () => (state.core !== null ? state.core.end() : later((core) => core.end())),
    close: () => state.core?.close?.(),
  };
}

/** The entry of `format`. */
export function formatEntry(format: DocumentFormat): FormatEntry {
  return FORMAT_TABLE[format];
}

/** True when `name` is a format chunkstream reads. */
export function isDocumentFormat(name: unknown): name is DocumentFormat {
  return typeof name === 'string' && Object.hasOwn(FORMAT_TABLE, name);
}

/** The strategy a document of `format` is chunked with when the options name none. */
export function defaultStrategyOf(format: DocumentFormat | 'auto'): StrategyName | undefined {
  return format === 'auto' ? undefined : FORMAT_TABLE[format].defaultStrategy;
}
