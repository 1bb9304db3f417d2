/**
 * What the docs' examples take as given (`<!-- snippet: given=model,store -->`), in place of the network: the AI
 * SDK's own mock embedding model (hashed-word vectors), an in-memory stand-in with a Mastra vector store's methods,
 * and LangChain's `index()` parts in memory (from `frameworks.ts`). Every string embedded and every store call is
 * recorded, for the snippet test to check. This file is compiled inside the packed project beside the examples, so
 * it imports nothing of the repository but `frameworks.ts`.
 */
import { MockEmbeddingModelV3 } from 'ai/test';
import { HashEmbeddings, hashVector, InMemoryRecordManager, KeyedMemoryVectorStore } from './frameworks.js';

/** What the examples did with the things given to them. */
export interface SnippetReport {
  embedded: string[];
  calls: { method: string; indexName?: string; dimension?: number; count?: number; ids?: string[]; metadata?: Record<string, unknown>[] }[];
}

const report: SnippetReport = { embedded: [], calls: [] };

/** The report so far. */
export function snippetReport(): SnippetReport {
  return { embedded: [...report.embedded], calls: [...report.calls] };
}

/** Forgets what earlier examples did. */
export function resetSnippetReport(): void {
  report.embedded.length = 0;
  report.calls.length = 0;
  indexes.clear();
}

/** An AI SDK embedding model that never leaves the process (as `openai.embedding('text-embedding-3-small')` would). */
export const model = new MockEmbeddingModelV3({
  maxEmbeddingsPerCall: 64,
  doEmbed: async ({ values }) => {
    report.embedded.push(...values);
    return { embeddings: values.map(hashVector), warnings: [] };
  },
});

/** One vector and its metadata in the stand-in store. */
interface StoredVector {
  vector: number[];
  metadata: Record<string, unknown> | undefined;
}

const indexes = new Map<string, Map<string, StoredVector>>();

/** The methods of a Mastra vector store (`PgVector`, `LibSQLVector`, …) that the examples use, in memory. */
export const store = {
  async createIndex({ indexName, dimension }: { indexName: string; dimension: number }): Promise<void> {
    report.calls.push({ method: 'createIndex', indexName, dimension });
    indexes.set(indexName, new Map());
  },
  async upsert({ indexName, vectors, metadata = [], ids }: { indexName: string; vectors: number[][]; metadata?: Record<string, unknown>[]; ids: string[] }): Promise<string[]> {
    report.calls.push({ method: 'upsert', indexName, count: vectors.length, ids, metadata });
    const index = indexOf(indexName);
    vectors.forEach((vector, i) => {
      index.set(ids[i] as string, { vector, metadata: metadata[i] });
    });
    return ids;
  },
  async query({ indexName, queryVector, topK = 10 }: { indexName: string; queryVector: number[]; topK?: number }): Promise<{ id: string; score: number; metadata: Record<string, unknown> | undefined }[]> {
    const dot = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * (b[i] ?? 0), 0);
    return [...indexOf(indexName)]
      .map(([id, r]) => ({ id, score: dot(queryVector, r.vector), metadata: r.metadata }))
      .sort((a, b) => b.score - a.score)
      .slice(0, topK);
  },
};

function indexOf(name: string): Map<string, StoredVector> {
  const index = indexes.get(name);
  if (index === undefined) throw new Error(`no index ${name}: call createIndex first`);
  return index;
}

/** LangChain embeddings in memory (as `new OpenAIEmbeddings()` would be). */
export const embeddings = new HashEmbeddings();
/** A LangChain vector store that `index()` can add to and delete from. */
export const vectorStore = new KeyedMemoryVectorStore(embeddings);
/** A LangChain record manager in memory (as `new PostgresRecordManager(…)` would be). */
export const recordManager = new InMemoryRecordManager();
