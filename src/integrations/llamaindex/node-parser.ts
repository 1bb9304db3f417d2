/**
 * `ChunkstreamNodeParser`: chunkstream as a LlamaIndex.TS `NodeParser`, for Markdown and plain text held in
 * documents. LlamaIndex's own post-processing finds each node again with `indexOf` and spreads the document's
 * metadata over the node's (into what is embedded); this parser keeps chunkstream's offsets and puts the
 * document's metadata under its own, excluded from embedding.
 */
import { NodeParser } from '@llamaindex/core/node-parser';
import { MetadataMode, type TextNode } from '@llamaindex/core/schema';
import type { ChunkDeps } from '../../chunking/chunker.js';
import { chunkString, resolveAdapterOptions, type AdapterConfig, type AdapterOptions } from '../shared.js';
import { chunkToNode, documentIdOfNode, linkNeighbours } from './nodes.js';

/** Options of `ChunkstreamNodeParser`: chunkstream's chunking options plus the adapter's. */
export type ChunkstreamNodeParserOptions = AdapterOptions;

/**
 * Parses documents into chunk nodes, synchronously. A document's id is its `file_path` or `source` metadata when
 * set, else its `id_`: give documents stable ids and the node ids are stable too.
 *
 * ```ts
 * const nodes = new ChunkstreamNodeParser({ maxSize: 256 }).getNodesFromDocuments([new Document({ id_: 'guide.md', text })]);
 * ```
 */
export class ChunkstreamNodeParser extends NodeParser<TextNode[]> {
  readonly config: AdapterConfig;

  constructor(options: ChunkstreamNodeParserOptions = {}, deps?: ChunkDeps) {
    super();
    this.config = resolveAdapterOptions(options, deps);
  }

  /** The chunk nodes of each document, in order. */
  protected override parseNodes(documents: TextNode[]): TextNode[] {
    return documents.flatMap((doc) => {
      const id = documentIdOfNode(doc);
      const origin = (doc.metadata as Record<string, unknown>).file_path ?? (doc.metadata as Record<string, unknown>).source;
      return chunkString(doc.getContent(MetadataMode.NONE), this.config, id, typeof origin === 'string' ? origin : undefined).map((c) => chunkToNode(c, this.config, doc));
    });
  }

  /** Keeps the offsets and metadata the nodes were made with; adds PREVIOUS / NEXT between neighbours. */
  protected override postProcessParsedNodes(nodes: TextNode[]): TextNode[] {
    return linkNeighbours(nodes);
  }
}
