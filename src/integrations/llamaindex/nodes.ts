/**
 * Chunks as LlamaIndex `TextNode`s: the chunk id as `id_`, `startCharIdx`/`endCharIdx` from the chunk's exact
 * offsets, the SOURCE relationship to the document, flat metadata, and every metadata key excluded from embedding,
 * so that `getContent(MetadataMode.EMBED)` is exactly what chunkstream measured against `maxSize`.
 */
import { NodeRelationship, TextNode, type BaseNode, type Metadata } from '@llamaindex/core/schema';
import { toDocument } from '../../sinks/documents.js';
import type { Chunk } from '../../types.js';
import type { AdapterConfig } from '../shared.js';

/** Keys an LLM is still shown (`MetadataMode.LLM`): where the chunk comes from, not how it was cut. */
const LLM_KEYS = new Set(['source', 'documentTitle', 'breadcrumb', 'pageStart', 'pageEnd', 'file_path', 'file_name']);

/** Keys of a document's metadata that hold objects, which a node leaves out. */
const NESTED_KEYS = new Set(['loc', 'headingPath', 'boxes']);

/**
 * The node of one chunk. `text` is `embedText` when contextualized, else the exact slice; `parent` (the source
 * document) gives the SOURCE relationship and metadata placed under chunkstream's.
 */
export function chunkToNode(chunk: Chunk, config: AdapterConfig, parent?: BaseNode): TextNode {
  const { metadata: flat } = toDocument(chunk, { positions: config.positions });
  // LlamaIndex stores want flat metadata: `loc`, `headingPath` and `boxes` are objects (the breadcrumb says the same
  // as the path; a PDF chunk's boxes stay on the chunk, and its pages and offsets are on the node).
  const { loc, headingPath, boxes, ...ours } = flat as unknown as Record<string, unknown>;
  const metadata: Metadata = { ...(parent?.metadata ?? {}), ...ours };
  for (const key of Object.getOwnPropertyNames(flat)) {
    if (!NESTED_KEYS.has(key) && !Object.prototype.propertyIsEnumerable.call(flat, key)) {
      Object.defineProperty(metadata, key, Object.getOwnPropertyDescriptor(flat, key) as PropertyDescriptor);
    }
  }
  const keys = Object.keys(metadata);
  const node = new TextNode({
    id_: chunk.id,
    text: chunk.embedText ?? chunk.text,
    metadata,
    excludedEmbedMetadataKeys: keys,
    excludedLlmMetadataKeys: keys.filter((k) => !LLM_KEYS.has(k)),
    relationships: {
      ...(parent === undefined ? {} : { [NodeRelationship.SOURCE]: parent.asRelatedNodeInfo() }),
      // The chunk's section (the option `parents`): the id of a node made of the parent's text, as auto-merging expects.
      ...(chunk.parentId === undefined ? {} : { [NodeRelationship.PARENT]: { nodeId: chunk.parentId, metadata: {} } }),
    },
  });
  // Set after construction: TextNode's constructor skips a start of 0.
  node.startCharIdx = chunk.start;
  node.endCharIdx = chunk.end;
  return node;
}

/** Links each node to its neighbours of the same source document (PREVIOUS / NEXT), as LlamaIndex's parsers do. */
export function linkNeighbours(nodes: TextNode[]): TextNode[] {
  nodes.forEach((node, i) => {
    const source = node.sourceNode?.nodeId;
    if (source === undefined) return;
    const previous = nodes[i - 1];
    const next = nodes[i + 1];
    if (previous?.sourceNode?.nodeId === source) node.relationships[NodeRelationship.PREVIOUS] = previous.asRelatedNodeInfo();
    if (next?.sourceNode?.nodeId === source) node.relationships[NodeRelationship.NEXT] = next.asRelatedNodeInfo();
  });
  return nodes;
}

/** The document id of a LlamaIndex document: its file path or source when it has one (stable across runs), else `id_`. */
export function documentIdOfNode(node: BaseNode): string {
  const m = node.metadata as Record<string, unknown>;
  for (const key of ['file_path', 'filePath', 'source']) {
    const value = m[key];
    if (typeof value === 'string' && value !== '') return value;
  }
  return node.id_;
}
