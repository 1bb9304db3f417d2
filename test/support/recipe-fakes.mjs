/**
 * What the README recipes run with in tests, in place of the network: the AI SDK's own mock embedding model
 * (hashed-word vectors), and an in-memory stand-in with a Mastra vector store's methods. Every string embedded and
 * every store call is recorded and printed as one JSON line (`RECIPE-REPORT …`) when the recipe's process ends.
 */
import { createHash } from 'node:crypto';
import { MockEmbeddingModelV3 } from 'ai/test';

const report = { embedded: [], calls: [] };
process.on('beforeExit', () => {
  if (report.printed) return;
  report.printed = true;
  process.stdout.write(`\nRECIPE-REPORT ${JSON.stringify({ embedded: report.embedded, calls: report.calls })}\n`);
});

function vector(text) {
  const v = new Array(32).fill(0);
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) v[createHash('sha1').update(word).digest()[0] % 32] += 1;
  const norm = Math.hypot(...v) || 1;
  return v.map((x) => x / norm);
}

/** An AI SDK embedding model that never leaves the process. */
export const model = new MockEmbeddingModelV3({
  maxEmbeddingsPerCall: 64,
  doEmbed: async ({ values }) => {
    report.embedded.push(...values);
    return { embeddings: values.map(vector), warnings: [] };
  },
});

const indexes = new Map();
/** The methods of a Mastra vector store that the recipe uses, in memory. */
export const store = {
  async createIndex({ indexName, dimension }) {
    report.calls.push({ method: 'createIndex', indexName, dimension });
    indexes.set(indexName, new Map());
  },
  async upsert({ indexName, vectors, metadata = [], ids }) {
    report.calls.push({ method: 'upsert', indexName, count: vectors.length, ids, metadata });
    const index = indexes.get(indexName);
    vectors.forEach((v, i) => { index.set(ids[i], { vector: v, metadata: metadata[i] }); });
    return ids;
  },
  async query({ indexName, queryVector, topK = 10 }) {
    const dot = (a, b) => a.reduce((s, x, i) => s + x * b[i], 0);
    return [...indexes.get(indexName)].map(([id, r]) => ({ id, score: dot(queryVector, r.vector), metadata: r.metadata })).sort((a, b) => b.score - a.score).slice(0, topK);
  },
};
