/**
 * `ChunkstreamTextSplitter`: chunkstream as a LangChain.js `TextSplitter`. LangChain's own `createDocuments`
 * finds each chunk's lines again with `indexOf` (wrong for repeated text); this one overrides `createDocuments`,
 * `splitDocuments` and `transformDocuments` as well as `splitText`, so every document carries chunkstream's exact
 * positions, heading path and breadcrumb, pages and stable id.
 */
import { Document } from '@langchain/core/documents';
import { TextSplitter, type TextSplitterChunkHeaderOptions } from '@langchain/textsplitters';
import type { ChunkDeps } from '../../chunking/chunker.js';
import { toDocument } from '../../sinks/documents.js';
import type { Chunk } from '../../types.js';
import { chunkString, documentIdOf, resolveAdapterOptions, type AdapterConfig, type AdapterOptions } from '../shared.js';

/** Options of `ChunkstreamTextSplitter`: chunkstream's chunking options plus the adapter's. */
export type ChunkstreamTextSplitterOptions = AdapterOptions;

/** A chunk as a LangChain `Document`, its metadata merged over `base` (the input document's own). */
export function chunkToDocument(chunk: Chunk, config: AdapterConfig, base: Record<string, unknown> = {}): Document {
  const { pageContent, metadata, id } = toDocument(chunk, { positions: config.positions });
  // Positions hidden from hashing stay hidden in the merged copy: they are copied as properties, not spread.
  const merged: Record<string, unknown> = { ...base, ...metadata };
  for (const key of Object.getOwnPropertyNames(metadata)) {
    if (!Object.prototype.propertyIsEnumerable.call(metadata, key)) {
      Object.defineProperty(merged, key, Object.getOwnPropertyDescriptor(metadata, key) as PropertyDescriptor);
    }
  }
  return new Document({ pageContent, metadata: merged, id });
}

/**
 * A LangChain `TextSplitter` that chunks with chunkstream. `chunkSize` and `chunkOverlap` mirror `maxSize` and
 * `overlap`; sizes are in chunkstream's `unit` (tokens by default), and every `pageContent` measures at most
 * `maxSize` (it is `embedText`, breadcrumb included, with `contextualize`).
 *
 * ```ts
 * const splitter = new ChunkstreamTextSplitter({ maxSize: 256 });
 * const docs = await splitter.createDocuments([markdown], [{ source: 'guide.md' }]);
 * ```
 */
export class ChunkstreamTextSplitter extends TextSplitter {
  static override lc_name(): string {
    return 'ChunkstreamTextSplitter';
  }

  readonly #config: AdapterConfig;

  constructor(options: ChunkstreamTextSplitterOptions = {}, deps?: ChunkDeps) {
    const config = resolveAdapterOptions(options, deps);
    super({ chunkSize: config.maxSize, chunkOverlap: config.chunkOptions.overlap ?? 0, keepSeparator: false });
    this.#config = config;
  }

  /** The chunks of one text, as `chunkText` gives them. */
  chunks(text: string, documentId = this.#config.chunkOptions.documentId ?? 'doc', origin?: string): Chunk[] {
    return chunkString(text, this.#config, documentId, origin);
  }

  /** What each chunk of `text` should be embedded as: `embedText` when contextualized, else the exact slice. */
  override async splitText(text: string): Promise<string[]> {
    return this.chunks(text).map((c) => c.embedText ?? c.text);
  }

  /**
   * One `Document` per chunk of each text, with chunkstream's metadata over the text's own (`metadatas[i]`). A
   * text's `source` metadata, when set, is its document id (so chunk ids are unique across sources). A chunk header
   * is put before `pageContent` as LangChain does; it is not counted in `maxSize`.
   */
  override async createDocuments(texts: string[], metadatas: Record<string, unknown>[] = [], chunkHeaderOptions: TextSplitterChunkHeaderOptions = {}): Promise<Document[]> {
    const { chunkHeader = '', chunkOverlapHeader = '(cont\'d) ', appendChunkOverlapHeader = false } = chunkHeaderOptions;
    const out: Document[] = [];
    texts.forEach((text, i) => {
      const base = metadatas[i] ?? {};
      const source = typeof base.source === 'string' ? base.source : undefined;
      const chunks = this.chunks(text, documentIdOf(source, this.#config, i, texts.length), source);
      chunks.forEach((c, k) => {
        const doc = chunkToDocument(c, this.#config, base);
        if (chunkHeader !== '' || appendChunkOverlapHeader) {
          const overlapped = appendChunkOverlapHeader && k > 0 && c.start < (chunks[k - 1] as Chunk).end;
          doc.pageContent = chunkHeader + (overlapped ? chunkOverlapHeader : '') + doc.pageContent;
        }
        out.push(doc);
      });
    });
    return out;
  }

  /** Splits each document's `pageContent`, keeping its metadata under chunkstream's. */
  override async splitDocuments(documents: Document[], chunkHeaderOptions: TextSplitterChunkHeaderOptions = {}): Promise<Document[]> {
    const usable = documents.filter((d) => d.pageContent !== undefined);
    return this.createDocuments(usable.map((d) => d.pageContent), usable.map((d) => ({ ...d.metadata })), chunkHeaderOptions);
  }

  /** `splitDocuments`, as a `BaseDocumentTransformer`. */
  override async transformDocuments(documents: Document[], chunkHeaderOptions: TextSplitterChunkHeaderOptions = {}): Promise<Document[]> {
    return this.splitDocuments(documents, chunkHeaderOptions);
  }
}
