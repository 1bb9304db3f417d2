/**
 * What the framework adapters share: their options, how a document's chunks are made from its text or its file,
 * and the document id a text gets. No framework is imported here.
 */
import { createReadStream } from 'node:fs';
import { chunkBlocks, chunkText, type ChunkTextOptions } from '../api/chunk.js';
import type { ChunkDeps } from '../chunking/chunker.js';
import { invalidOption, normalizeOptions, type ChunkOptions, type InputFormat, type ParseOptions } from '../config.js';
import { toChunkError } from '../errors.js';
import { formatFromExtension } from '../parsers/detect.js';
import { defaultStrategyOf } from '../parsers/formats.js';
import { parseHtml } from '../parsers/html/parse.js';
import { parseText } from '../parsers/text/parse.js';
import type { PositionMode } from '../sinks/documents.js';
import { chunk } from '../stream/chunk.js';
import { parse } from '../stream/parse.js';
import type { Chunk } from '../types.js';

/** How the adapters read texts handed over as strings. */
export type StringFormat = 'markdown' | 'text' | 'html';

/** Options of the adapters: chunking options, the format of texts, and where positions go. */
export interface AdapterOptions extends ChunkTextOptions {
  /**
   * How texts handed over as strings are read: `'markdown'` (default), `'text'` (paragraphs at blank lines only) or
   * `'html'` (a page's content; chunk offsets then point into its extracted text).
   */
  readonly format?: StringFormat;
  /**
   * Where positions go in the metadata (see `PositionMode`). Default `'unhashed'` with `incremental`, else
   * `'metadata'`.
   */
  readonly positions?: PositionMode;
  /**
   * Set when the documents go to an index that skips what it has seen by a hash of content and metadata
   * (LangChain's `index()` with a RecordManager, a LlamaIndex docstore): positions are then left out of what is
   * hashed, so a chunk an edit only moved is skipped instead of embedded again.
   */
  readonly incremental?: boolean;
}

/** The adapter options checked once, split into what each part takes. */
export interface AdapterConfig {
  readonly format: StringFormat;
  readonly positions: PositionMode;
  readonly chunkOptions: ChunkTextOptions;
  readonly deps: ChunkDeps | undefined;
  /** The chunks' `maxSize`, given or the default (which a Hugging Face tokenizer's model length may set). */
  readonly maxSize: number;
}

/** Checks adapter options (chunking options with `normalizeOptions`, so errors read as everywhere else). */
export function resolveAdapterOptions(options: AdapterOptions = {}, deps?: ChunkDeps): AdapterConfig {
  const { format = 'markdown', positions, incremental = false, ...chunkOptions } = options;
  if (format !== 'markdown' && format !== 'text' && format !== 'html') throw invalidOption('format', "must be 'markdown', 'text' or 'html'", format);
  if (typeof incremental !== 'boolean') throw invalidOption('incremental', 'must be a boolean', incremental);
  if (positions !== undefined && positions !== 'metadata' && positions !== 'unhashed') {
    throw invalidOption('positions', "must be 'metadata' or 'unhashed'", positions);
  }
  const { fatal, maxBufferBytes, batchSize, ...rest } = chunkOptions;
  const { maxSize } = normalizeOptions(rest);
  return Object.freeze({ format, positions: positions ?? (incremental ? 'unhashed' : 'metadata'), chunkOptions, deps, maxSize });
}

/** Chunks one text in the configured format, as the document `documentId` from `origin`. */
export function chunkString(text: string, config: AdapterConfig, documentId: string, origin: string | undefined): Chunk[] {
  const options: ChunkTextOptions = { ...config.chunkOptions, documentId, ...(origin !== undefined ? { origin } : {}) };
  if (config.format === 'markdown') return chunkText(text, options, config.deps).chunks;
  const { fatal, maxBufferBytes, batchSize, ...chunkOptions } = options;
  if (config.format === 'html') return chunkBlocks(parseHtml(text, fatal !== undefined ? { fatal } : {}).blocks, chunkOptions, config.deps).chunks;
  return chunkBlocks(parseText(text, { ...(fatal !== undefined ? { fatal } : {}), ...(maxBufferBytes !== undefined ? { maxBufferBytes } : {}), ...(batchSize !== undefined ? { batchSize } : {}) }), chunkOptions, config.deps).chunks;
}

/**
 * The document id of the `i`-th of `count` texts: its `source` when it has one, else the configured `documentId`
 * (default `'doc'`), numbered `/i` when several texts share it, so that their chunk ids never meet.
 */
export function documentIdOf(source: unknown, config: AdapterConfig, i: number, count: number): string {
  if (typeof source === 'string' && source !== '') return source;
  const base = config.chunkOptions.documentId ?? 'doc';
  return count > 1 ? `${base}/${i}` : base;
}

/**
 * The parse format of a file, by `chunkFile`'s rule: its extension, else `auto`, where `parse()` looks at the
 * first bytes as `chunkFile` does (`%PDF-` within the first kilobyte is a PDF, anything else Markdown).
 */
function fileFormat(path: string): InputFormat {
  return formatFromExtension(path) ?? 'auto';
}

/**
 * The chunks of a file, read on the stream stages (`createReadStream → parse() → chunk()`), one at a time: a large
 * file is never held whole, except a PDF, which pdf.js reads at random (up to `maxPdfBytes`).
 */
export async function* chunkFileStream(path: string, config: AdapterConfig, parseOptions: ParseOptions = {}): AsyncGenerator<Chunk> {
  const { fatal, maxBufferBytes, batchSize, ...chunkOptions } = config.chunkOptions;
  const format = parseOptions.format ?? fileFormat(path);
  const parseStage = parse({
    ...(fatal !== undefined ? { fatal } : {}),
    ...(maxBufferBytes !== undefined ? { maxBufferBytes } : {}),
    ...(batchSize !== undefined ? { batchSize } : {}),
    ...parseOptions,
    format,
  });
  // As in chunkFile(), a format's default strategy (turn windows for a conversation) unless another is asked for.
  const strategy = chunkOptions.strategy ?? defaultStrategyOf(format);
  const chunkStage = chunk({ ...(chunkOptions as ChunkOptions), ...(strategy ? { strategy } : {}), documentId: path, origin: path }, config.deps);
  const input = createReadStream(path);
  input.on('error', (error) => parseStage.destroy(toChunkError(error, 'ERR_READ', { source: path })));
  parseStage.on('error', (error) => chunkStage.destroy(error));
  input.pipe(parseStage).pipe(chunkStage);
  try {
    for await (const c of chunkStage) yield c as Chunk;
  } finally {
    input.destroy();
    parseStage.destroy();
  }
}
