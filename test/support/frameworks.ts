/**
 * Deterministic stand-ins for the network parts of LangChain.js and LlamaIndex.TS pipelines, built on the
 * frameworks' own base classes: an embedding that hashes words into a small vector (and records every string it
 * was asked to embed), a LangChain vector store with ids and deletion (what `index()` needs; the frameworks'
 * in-memory stores have no deletion), a LangChain record manager in memory with a strictly increasing clock, and
 * a LlamaIndex vector store in memory.
 */
import { createHash } from 'node:crypto';
import type { DocumentInterface } from '@langchain/core/documents';
import { Document } from '@langchain/core/documents';
import { Embeddings } from '@langchain/core/embeddings';
import { RecordManager, type ListKeyOptions, type UpdateOptions } from '@langchain/core/indexing';
import { VectorStore } from '@langchain/core/vectorstores';
import { BaseEmbedding, getTopKEmbeddings } from '@llamaindex/core/embeddings';
import type { BaseNode } from '@llamaindex/core/schema';
import { BaseVectorStore, type VectorStoreQuery, type VectorStoreQueryResult } from '@llamaindex/core/vector-store';

const DIMENSIONS = 64;

/** A vector of word counts hashed into `DIMENSIONS` buckets, normalized: texts sharing words are near. */
export function hashVector(text: string): number[] {
  const v = new Array<number>(DIMENSIONS).fill(0);
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    const bucket = createHash('sha1').update(word).digest().readUInt16BE(0) % DIMENSIONS;
    v[bucket] = (v[bucket] as number) + 1;
  }
  const norm = Math.hypot(...v) || 1;
  return v.map((x) => x / norm);
}

/** LangChain embeddings that hash words; `embedded` holds every document string embedded, in order. */
export class HashEmbeddings extends Embeddings {
  readonly embedded: string[] = [];
  constructor() {
    super({});
  }
  async embedDocuments(texts: string[]): Promise<number[][]> {
    this.embedded.push(...texts);
    return texts.map(hashVector);
  }
  async embedQuery(text: string): Promise<number[]> {
    return hashVector(text);
  }
}

/** A LangChain vector store in memory, keyed by id, with deletion. */
export class KeyedMemoryVectorStore extends VectorStore {
  declare FilterType: (doc: Document) => boolean;
  readonly records = new Map<string, { vector: number[]; doc: Document }>();
  _vectorstoreType(): string {
    return 'keyed-memory';
  }
  constructor(embeddings: Embeddings) {
    super(embeddings, {});
  }
  async addDocuments(documents: DocumentInterface[], options?: { ids?: string[] }): Promise<string[]> {
    return this.addVectors(await this.embeddings.embedDocuments(documents.map((d) => d.pageContent)), documents, options);
  }
  async addVectors(vectors: number[][], documents: DocumentInterface[], options?: { ids?: string[] }): Promise<string[]> {
    const ids = options?.ids ?? documents.map((d, i) => d.id ?? `auto-${this.records.size + i}`);
    ids.forEach((id, i) => { this.records.set(id, { vector: vectors[i] as number[], doc: new Document(documents[i] as DocumentInterface) }); });
    return ids;
  }
  override async delete(params?: { ids?: string[] }): Promise<void> {
    for (const id of params?.ids ?? []) this.records.delete(id);
  }
  async similaritySearchVectorWithScore(query: number[], k: number): Promise<[Document, number][]> {
    const dot = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * (b[i] as number), 0);
    return [...this.records.values()].map((r) => [r.doc, dot(query, r.vector)] as [Document, number]).sort((a, b) => b[1] - a[1]).slice(0, k);
  }
}

/** A LangChain record manager in memory. Its clock advances on every reading, so two runs never share a time. */
export class InMemoryRecordManager extends RecordManager {
  override lc_namespace = ['chunkstream', 'test'];
  readonly records = new Map<string, { updatedAt: number; groupId: string | null }>();
  #clock = 0;
  async createSchema(): Promise<void> {}
  async getTime(): Promise<number> {
    return ++this.#clock;
  }
  async update(keys: string[], options: UpdateOptions = {}): Promise<void> {
    const now = await this.getTime();
    if (options.timeAtLeast !== undefined && now < options.timeAtLeast) throw new Error('time went backwards');
    keys.forEach((key, i) => { this.records.set(key, { updatedAt: now, groupId: options.groupIds?.[i] ?? null }); });
  }
  async exists(keys: string[]): Promise<boolean[]> {
    return keys.map((k) => this.records.has(k));
  }
  async listKeys(options: ListKeyOptions = {}): Promise<string[]> {
    const out: string[] = [];
    for (const [key, r] of this.records) {
      if (options.before !== undefined && r.updatedAt >= options.before) continue;
      if (options.after !== undefined && r.updatedAt <= options.after) continue;
      if (options.groupIds !== undefined && !options.groupIds.includes(r.groupId)) continue;
      out.push(key);
    }
    return options.limit === undefined ? out : out.slice(0, options.limit);
  }
  async deleteKeys(keys: string[]): Promise<void> {
    for (const k of keys) this.records.delete(k);
  }
}

/** LlamaIndex embedding that hashes words; `embedded` holds every string embedded, in order. */
export class HashEmbedding extends BaseEmbedding {
  readonly embedded: string[] = [];
  async getTextEmbedding(text: string): Promise<number[]> {
    this.embedded.push(text);
    return hashVector(text);
  }
}

/** A LlamaIndex vector store in memory: nodes as given (with their embeddings), top-k by cosine similarity. */
export class MemoryNodeStore extends BaseVectorStore {
  storesText = true;
  readonly nodes = new Map<string, BaseNode>();
  constructor(embedModel: BaseEmbedding) {
    super({ embedModel });
  }
  client(): unknown {
    return this.nodes;
  }
  async add(nodes: BaseNode[]): Promise<string[]> {
    for (const n of nodes) this.nodes.set(n.id_, n);
    return nodes.map((n) => n.id_);
  }
  async delete(refDocId: string): Promise<void> {
    for (const [id, n] of this.nodes) if (n.sourceNode?.nodeId === refDocId) this.nodes.delete(id);
  }
  async query(query: VectorStoreQuery): Promise<VectorStoreQueryResult> {
    const all = [...this.nodes.values()];
    const [similarities, ids] = getTopKEmbeddings(query.queryEmbedding ?? [], all.map((n) => n.getEmbedding()), query.similarityTopK, all.map((n) => n.id_));
    return { similarities, ids, nodes: ids.map((id: string) => this.nodes.get(id) as BaseNode) };
  }
}
