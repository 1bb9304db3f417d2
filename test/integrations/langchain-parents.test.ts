/**
 * The parents recipe of docs/retrieval-context.md, run on the source: chunks in a vector store, parents in LangChain's
 * in-memory document store keyed by `parentId`; a query retrieves a chunk and answers with its section.
 */
import { readFileSync } from 'node:fs';
import { Document } from '@langchain/core/documents';
import { InMemoryStore } from '@langchain/core/stores';
import { describe, expect, it } from 'vitest';
import { chunkText } from '../../src/api/chunk.js';
import { toDocuments, toParentDocuments } from '../../src/sinks/documents.js';
import { HashEmbeddings, KeyedMemoryVectorStore } from '../support/frameworks.js';

describe('LangChain parents recipe', () => {
  it('retrieves a chunk and returns its parent section', async () => {
    const markdown = readFileSync(new URL('../../samples/guide.md', import.meta.url), 'utf8');
    const { chunks, parents = [] } = chunkText(markdown, { maxSize: 64, documentId: 'guide.md', parents: { maxSize: 512 } });
    const vectorStore = new KeyedMemoryVectorStore(new HashEmbeddings());
    await vectorStore.addDocuments(toDocuments(chunks).map((d) => new Document(d)), { ids: chunks.map((c) => c.id) });
    const docstore = new InMemoryStore<Document>();
    await docstore.mset(toParentDocuments(parents).map((d) => [d.id, new Document(d)]));

    const hits = await vectorStore.similaritySearch('tar xzf the archive on Linux', 4);
    const parentIds = [...new Set(hits.map((hit) => String(hit.metadata.parentId)))];
    const sections = (await docstore.mget(parentIds)).filter((d) => d !== undefined);

    expect(hits.length).toBeGreaterThan(0);
    expect(sections.length).toBe(parentIds.length);
    const hit = chunks.find((c) => c.id === hits[0]?.id) ?? chunks.find((c) => c.text === hits[0]?.pageContent);
    const section = sections[0] as Document;
    // The section holds the chunk, is larger than it, and is an exact slice of the document.
    expect(section.pageContent).toContain(hit?.text);
    expect(section.pageContent.length).toBeGreaterThan((hit?.text ?? '').length);
    expect(markdown.slice(section.metadata.start, section.metadata.end)).toBe(section.pageContent);
    console.log(`parents recipe: ${chunks.length} chunks, ${parents.length} parents; a ${hit?.text.length}-character chunk → its ${section.pageContent.length}-character section "${section.metadata.breadcrumb}"`);
  });
});
