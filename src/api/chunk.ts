/**
 * The synchronous and promise APIs: `chunkText` for one string, `chunkFile` for one file. Both run the same cores
 * as the stream stages, so they give the same chunks.
 */
import { normalizeOptions, normalizeParseOptions, type ChunkConfig, type ChunkOptions, type DocumentFormat, type InputFormat, type ParseOptions } from '../config.js';
import { createChunkCore, resolveDeps, type ChunkDeps } from '../chunking/chunker.js';
import { runCore } from '../core.js';
import { ChunkError, systemErrorReason, toChunkError } from '../errors.js';
import { optionScope } from '../options.js';
import { detectFileFormat } from '../parsers/detect.js';
import { defaultStrategyOf, formatEntry, type ReadDocument } from '../parsers/formats.js';
import { parseMarkdown } from '../parsers/markdown/parse.js';
import { abortError } from '../stream/to-transform.js';
import type { PdfDocument } from '../parsers/pdf/reader.js';
import type { Block, ChunkedDocument, ChunkingResult } from '../types.js';
import type { ParentRecord } from '../types.js';

/** Options of `chunkText` and `chunkFile`: chunking options plus the parse options that apply. */
export type ChunkTextOptions = ChunkOptions & Pick<ParseOptions, 'fatal' | 'maxBufferBytes' | 'batchSize' | 'maxBatchSize' | 'strict'>;

/** Options of `chunkFile`. */
export type ChunkFileOptions = ChunkTextOptions & Pick<ParseOptions, 'format' | 'maxPdfBytes' | 'password' | 'workers' | 'maxPdfSeconds' | 'maxPdfMemoryMb'>;

/** What `chunkFile` returns: the chunks, their statistics, and the document text their offsets point into. */
export interface ChunkFileResult extends ChunkingResult {
  /** The decoded document (Markdown without its BOM; for a PDF, the extracted text). */
  readonly text: string;
  readonly format: DocumentFormat;
}

/**
 * Separates parse options from chunking options (each normalizer accepts only its own), by the option table: the
 * signal goes to both, and a key no parse option has goes with the chunking options, whose normalizer names it.
 */
export function splitOptions(options: ChunkFileOptions = {}): { parseOptions: ParseOptions; chunkOptions: ChunkOptions } {
  const parseOptions: Record<string, unknown> = {};
  const chunkOptions: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(options)) {
    const scope = optionScope(key);
    if (scope === 'parse' || scope === 'both') parseOptions[key] = value;
    if (scope !== 'parse') chunkOptions[key] = value;
  }
  return { parseOptions, chunkOptions };
}

/** Chunks blocks with the semantic chunker (or `options.strategy`), synchronously. */
export function chunkBlocks(blocks: Iterable<Block>, options?: ChunkOptions, deps?: ChunkDeps): ChunkingResult {
  return chunkBlocksWith(normalizeOptions(options), blocks, deps, 'blocks');
}

/** Runs the chunk core of `config` over blocks read as `format`. */
function chunkBlocksWith(config: ChunkConfig, blocks: Iterable<Block>, deps: ChunkDeps | undefined, format: ChunkedDocument['format']): ChunkingResult {
  const parents: ParentRecord[] = [];
  const core = createChunkCore(config, resolveDeps(config, deps), { parent: (p) => parents.push(p) });
  const chunks = runCore(core, blocks);
  const title = core.title();
  const document = { documentId: config.documentId, format, ...(title !== undefined ? { title } : {}) };
  return { chunks, statistics: core.statistics(), document, ...(config.parents !== undefined ? { parents } : {}) };
}

/**
 * Chunks a Markdown document held in one string (or its UTF-8 bytes), synchronously.
 *
 * ```ts
 * const { chunks, statistics } = chunkText(markdown, { maxSize: 512, unit: 'tokens' });
 * ```
 */
export function chunkText(markdown: string | Uint8Array, options?: ChunkTextOptions, deps?: ChunkDeps): ChunkingResult {
  const { parseOptions, chunkOptions } = splitOptions(options);
  // Options are checked before the document is parsed, so a typo fails at once.
  const config = normalizeOptions(chunkOptions);
  return chunkBlocksWith(config, parseMarkdown(markdown, { ...parseOptions, signal: undefined }), deps, 'markdown');
}

/** Chunks a parsed PDF; the statistics tell its pages, whether it needs OCR, and its warnings. */
export function chunkPdfDocument(document: PdfDocument, options?: ChunkOptions, deps?: ChunkDeps): ChunkFileResult {
  return chunkReadDocument(document, 'pdf', options ?? {}, deps);
}

/** The format asked for, else the file's own: from its extension, then from its first bytes. */
async function formatOf(path: string, requested: InputFormat): Promise<DocumentFormat> {
  return requested === 'auto' ? detectFileFormat(path) : requested;
}

/**
 * Chunks a document read whole (`FormatEntry.readDocument`) as `chunkFile` does: with the format's default
 * strategy unless the options name one, the reader's pages, OCR flag and warnings in the statistics.
 */
export function chunkReadDocument(document: ReadDocument, format: DocumentFormat, options: ChunkOptions, deps?: ChunkDeps): ChunkFileResult {
  const strategy = defaultStrategyOf(format);
  const config = normalizeOptions(strategy === undefined ? options : { strategy, ...options });
  const result = chunkBlocksWith(config, document.blocks, deps, format);
  const statistics = {
    ...result.statistics,
    documents: 1,
    ...(document.pages !== undefined ? { pages: document.pages } : {}),
    ...(document.needsOcr === true ? { needsOcr: true } : {}),
    warnings: [...result.statistics.warnings, ...(document.warnings ?? [])],
  };
  return { ...result, statistics, text: document.text, format };
}

/**
 * Chunks one file (Markdown, PDF, transcript or plain text, from the extension or the first bytes). The promise resolves with
 * every chunk, the statistics and the document text; for files larger than memory, use the stream stages.
 */
export async function chunkFile(path: string, options?: ChunkFileOptions, deps?: ChunkDeps): Promise<ChunkFileResult> {
  const { parseOptions, chunkOptions } = splitOptions(options);
  const parseConfig = normalizeParseOptions(parseOptions);
  const signal = parseConfig.signal;
  if (signal?.aborted) throw abortError(signal);
  const withOrigin: ChunkOptions = { documentId: path, origin: path, ...chunkOptions };
  normalizeOptions(withOrigin);
  let document: ReadDocument;
  let format: DocumentFormat;
  try {
    format = await formatOf(path, parseConfig.format);
    document = await formatEntry(format).readDocument(path, parseConfig);
  } catch (error) {
    throw readError(path, error);
  }
  // The chunking below is synchronous: an abort during the read is honoured here, before it starts.
  if (signal?.aborted) throw abortError(signal);
  return chunkReadDocument(document, format, withOrigin, deps);
}

function readError(path: string, error: unknown): Error {
  if (error instanceof ChunkError) return error;
  // Only the file system's errors (ENOENT, EACCES, EISDIR) say the file could not be read.
  if (!isSystemError(error)) return toChunkError(error);
  const e = error as NodeJS.ErrnoException;
  return new ChunkError('ERR_READ', systemErrorReason(e), { source: path, cause: error });
}

function isSystemError(error: unknown): boolean {
  const e = error as NodeJS.ErrnoException | undefined;
  return typeof e?.syscall === 'string' || (typeof e?.code === 'string' && /^E[A-Z]+$/.test(e.code));
}
