/**
 * `ChunkstreamLoader`: files (Markdown, PDF, plain text) as LangChain `Document`s, one per chunk, read on the
 * stream stages so a large file is never held whole.
 */
import { BaseDocumentLoader } from '@langchain/core/document_loaders/base';
import type { Document } from '@langchain/core/documents';
import type { ChunkDeps } from '../../chunking/chunker.js';
import type { ParseOptions } from '../../config.js';
import { chunkFileStream, resolveAdapterOptions, type AdapterConfig, type AdapterOptions } from '../shared.js';
import { chunkToDocument } from './text-splitter.js';

/** Options of `ChunkstreamLoader`: the adapter's, plus what a PDF may need. */
export type ChunkstreamLoaderOptions = AdapterOptions & Pick<ParseOptions, 'password' | 'maxPdfBytes'>;

/**
 * Loads files as chunk documents. Each file's path is its document id and `source`; `.pdf` (or a file starting
 * with `%PDF-`) is read as PDF, `.txt` as plain text, anything else as Markdown.
 *
 * ```ts
 * const docs = await new ChunkstreamLoader(['guide.md', 'paper.pdf'], { maxSize: 512 }).load();
 * ```
 */
export class ChunkstreamLoader extends BaseDocumentLoader {
  readonly #paths: readonly string[];
  readonly #config: AdapterConfig;
  readonly #parseOptions: ParseOptions;

  constructor(paths: string | readonly string[], options: ChunkstreamLoaderOptions = {}, deps?: ChunkDeps) {
    super();
    const { password, maxPdfBytes, ...adapterOptions } = options;
    this.#paths = typeof paths === 'string' ? [paths] : [...paths];
    this.#config = resolveAdapterOptions(adapterOptions, deps);
    this.#parseOptions = { ...(password !== undefined ? { password } : {}), ...(maxPdfBytes !== undefined ? { maxPdfBytes } : {}) };
  }

  /** The documents of every file, in order, one chunk at a time. */
  async *lazyLoad(): AsyncGenerator<Document> {
    for (const path of this.#paths) {
      for await (const c of chunkFileStream(path, this.#config, this.#parseOptions)) yield chunkToDocument(c, this.#config);
    }
  }

  /** Every document of every file. */
  override async load(): Promise<Document[]> {
    const out: Document[] = [];
    for await (const doc of this.lazyLoad()) out.push(doc);
    return out;
  }
}
