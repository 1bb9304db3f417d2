/**
 * `ChunkstreamFileTransform`: an async LlamaIndex `TransformComponent` that chunks files (Markdown, PDF, plain
 * text) on chunkstream's stream stages, for an `IngestionPipeline`.
 */
import { Document, MetadataMode, TransformComponent, type BaseNode, type TextNode } from '@llamaindex/core/schema';
import type { ChunkDeps } from '../../chunking/chunker.js';
import type { ParseOptions } from '../../config.js';
import { chunkFileStream, chunkString, resolveAdapterOptions, type AdapterConfig, type AdapterOptions } from '../shared.js';
import { chunkToNode, documentIdOfNode, linkNeighbours } from './nodes.js';

/** Options of `ChunkstreamFileTransform`: the adapter's, plus what a PDF may need. */
export type ChunkstreamFileTransformOptions = AdapterOptions & Pick<ParseOptions, 'password' | 'maxPdfBytes'>;

/**
 * Turns documents into chunk nodes. A document with a `file_path` (as LlamaIndex's file readers set it) is read
 * again from that file by chunkstream, so a PDF gets chunkstream's layout and pages; any other is chunked from its
 * text.
 *
 * ```ts
 * const transform = new ChunkstreamFileTransform({ maxSize: 512 });
 * const nodes = await transform.fromFiles(['guide.md', 'paper.pdf']);
 * ```
 */
export class ChunkstreamFileTransform extends TransformComponent<Promise<TextNode[]>> {
  readonly config: AdapterConfig;
  readonly parseOptions: ParseOptions;

  constructor(options: ChunkstreamFileTransformOptions = {}, deps?: ChunkDeps) {
    super(async (nodes: BaseNode[]) => this.transformNodes(nodes));
    const { password, maxPdfBytes, ...adapterOptions } = options;
    this.config = resolveAdapterOptions(adapterOptions, deps);
    this.parseOptions = { ...(password !== undefined ? { password } : {}), ...(maxPdfBytes !== undefined ? { maxPdfBytes } : {}) };
  }

  /** The chunk nodes of each document, read from its file when it names one. */
  async transformNodes(nodes: BaseNode[]): Promise<TextNode[]> {
    const out: TextNode[] = [];
    for (const doc of nodes) {
      const path = (doc.metadata as Record<string, unknown>).file_path;
      if (typeof path === 'string' && path !== '') {
        for await (const c of chunkFileStream(path, this.config, this.parseOptions)) out.push(chunkToNode(c, this.config, doc));
      } else {
        const source = (doc.metadata as Record<string, unknown>).source;
        const chunks = chunkString(doc.getContent(MetadataMode.NONE), this.config, documentIdOfNode(doc), typeof source === 'string' ? source : undefined);
        for (const c of chunks) out.push(chunkToNode(c, this.config, doc));
      }
    }
    return linkNeighbours(out);
  }

  /** The chunk nodes of files given by path, each linked to a `Document` whose id is the path. */
  async fromFiles(paths: readonly string[]): Promise<TextNode[]> {
    return this.transformNodes(paths.map((path) => new Document({ id_: path, text: '', metadata: { file_path: path } })));
  }
}
