/**
 * The synchronous and promise APIs: `chunkText` for one string, `chunkFile` for one file. Both run the same cores
 * as the stream stages, so they give the same chunks.
 */
import { readFile } from 'node:fs/promises';
import { normalizeOptions, normalizeParseOptions, type ChunkConfig, type ChunkOptions, type InputFormat, type ParseOptions } from '../config.js';
import { createChunkCore, resolveDeps, type ChunkDeps } from '../chunking/chunker.js';
import { runCore } from '../core.js';
import { readTurns } from '../parsers/transcript/turns.js';
import { createUtf8Decoder } from '../parsers/utf8-decoder.js';
import { ChunkError } from '../errors.js';
import { optionScope } from '../options.js';
import { detectFileFormat } from '../parsers/detect.js';
import { parseMarkdown } from '../parsers/markdown/parse.js';
import { parseText } from '../parsers/text/parse.js';
import { abortError } from '../stream/to-transform.js';
import type { PdfDocument } from '../parsers/pdf/reader.js';
import type { Block, ChunkedDocument, ChunkingResult } from '../types.js';

/** Options of `chunkText` and `chunkFile`: chunking options plus the parse options that apply. */
export type ChunkTextOptions = ChunkOptions & Pick<ParseOptions, 'fatal' | 'maxBufferBytes' | 'batchSize' | 'maxBatchSize' | 'strict'>;

/** Options of `chunkFile`. */
export type ChunkFileOptions = ChunkTextOptions & Pick<ParseOptions, 'format' | 'maxPdfBytes' | 'password' | 'workers' | 'maxPdfSeconds' | 'maxPdfMemoryMb'>;

/** What `chunkFile` returns: the chunks, their statistics, and the document text their offsets point into. */
export interface ChunkFileResult extends ChunkingResult {
  /** The decoded document (Markdown without its BOM; for a PDF, the extracted text). */
  readonly text: string;
  readonly format: Exclude<InputFormat, 'auto'>;
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
  const core = createChunkCore(config, resolveDeps(config, deps));
  const chunks = runCore(core, blocks);
  return { chunks, statistics: core.statistics(), document: { documentId: config.documentId, format } };
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
  const result = chunkBlocksWith(normalizeOptions(options), document.blocks, deps, 'pdf');
  const statistics = {
    ...result.statistics,
    documents: 1,
    pages: document.pages,
    ...(document.needsOcr ? { needsOcr: true } : {}),
    warnings: [...result.statistics.warnings, ...document.warnings],
  };
  return { ...result, statistics, text: document.text, format: 'pdf' };
}

/** The format asked for, else the file's own: from its extension, then from its first bytes. */
async function formatOf(path: string, requested: InputFormat): Promise<Exclude<InputFormat, 'auto'>> {
  return requested === 'auto' ? detectFileFormat(path) : requested;
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
  let format: Exclude<InputFormat, 'auto'>;
  try {
    format = await formatOf(path, parseConfig.format);
  } catch (error) {
    throw readError(path, error);
  }
  if (format === 'pdf') {
    const { parsePdf } = await import('../parsers/pdf/reader.js');
    return chunkPdfDocument(await parsePdf(path, { ...parseOptions, format: 'pdf' }), withOrigin, deps);
  }
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (error) {
    throw readError(path, error);
  }
  // The Markdown chunking below is synchronous: an abort during the read is honoured here, before it starts.
  if (signal?.aborted) throw abortError(signal);
  // Decoded once; the document text is part of the result, so the parse runs on it directly.
  const decoder = createUtf8Decoder({ fatal: parseConfig.fatal });
  const text = decoder.write(bytes) + decoder.end();
  if (format === 'transcript') {
    // A transcript is chunked in turn windows unless another strategy is asked for.
    const result = chunkBlocksWith(normalizeOptions({ strategy: 'turns', ...withOrigin }), readTurns(text), undefined, format);
    return { ...result, statistics: { ...result.statistics, documents: 1 }, text, format };
  }
  if (format === 'text') {
    const result = chunkBlocksWith(normalizeOptions(withOrigin), parseText(text, { maxBufferBytes: parseConfig.maxBufferBytes }), deps, format);
    return { ...result, statistics: { ...result.statistics, documents: 1 }, text, format };
  }
  const result = chunkText(text, { ...withOrigin, batchSize: parseConfig.batchSize, maxBatchSize: parseConfig.maxBatchSize, strict: parseConfig.strict }, deps);
  return { ...result, statistics: { ...result.statistics, documents: 1 }, text, format };
}

function readError(path: string, error: unknown): Error {
  if (error instanceof ChunkError) return error;
  const e = error as NodeJS.ErrnoException;
  return new ChunkError('ERR_READ', `Cannot read ${path}: ${e.code ?? ''} ${e.message}`.trim(), { source: path, cause: error });
}
