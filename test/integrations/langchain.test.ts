/**
 * chunkstream/langchain with the real @langchain/core: files through the loader into a vector store and back,
 * documents through the splitter, and LangChain's `index()` run twice around a one-paragraph edit.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Document } from '@langchain/core/documents';
import { index } from '@langchain/core/indexing';
import { FakeVectorStore } from '@langchain/core/utils/testing';
import { TextSplitter } from '@langchain/textsplitters';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chunkFile } from '../../src/api/chunk.js';
import { createTokenSizer } from '../../src/chunking/sizers/index.js';
import { ChunkstreamLoader, ChunkstreamTextSplitter } from '../../src/integrations/langchain/index.js';
import { parsePdf } from '../../src/parsers/pdf/reader.js';
import { guidePdf } from '../support/pdf-samples.js';
import { HashEmbeddings, InMemoryRecordManager, KeyedMemoryVectorStore } from '../support/frameworks.js';

const tokens = createTokenSizer('cl100k_base');
const guide = readFileSync(new URL('../../samples/guide.md', import.meta.url), 'utf8');
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'chunkstream-langchain-'));
  writeFileSync(join(dir, 'guide.md'), guide);
  writeFileSync(join(dir, 'guide.pdf'), guidePdf());
  writeFileSync(join(dir, 'notes.txt'), 'Not a heading\n=============\n\n    not code\n\nA last paragraph of notes.\n');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A long Markdown document: three sections of numbered paragraphs. */
function longDocument(edit?: (paragraph: string, section: number, i: number) => string): string {
  const out: string[] = ['# Field notes'];
  for (let s = 0; s < 3; s++) {
    out.push(`## Section ${s}`);
    for (let i = 0; i < 10; i++) {
      const p = `Paragraph ${i} of section ${s} records what the team saw on day ${s * 10 + i}: the tide, the wind, and the boats that went out before dawn.`;
      out.push(edit ? edit(p, s, i) : p);
    }
  }
  return out.join('\n\n') + '\n';
}

describe('chunkstream/langchain', () => {
  it('is a TextSplitter whose splitText gives exact slices within maxSize', async () => {
    const splitter = new ChunkstreamTextSplitter({ maxSize: 64 });
    expect(splitter).toBeInstanceOf(TextSplitter);
    const pieces = await splitter.splitText(guide);
    expect(pieces.length).toBeGreaterThan(2);
    let from = 0;
    for (const p of pieces) {
      const at = guide.indexOf(p, from);
      expect(at).toBeGreaterThanOrEqual(0);
      from = at + p.length;
      expect(tokens.size(p)).toBeLessThanOrEqual(64);
    }
  });

  it('round trip: files through the loader into a vector store, retrieved with metadata intact, every embedded string within maxSize', async () => {
    const maxSize = 96;
    const docs = await new ChunkstreamLoader([join(dir, 'guide.md'), join(dir, 'guide.pdf'), join(dir, 'notes.txt')], { maxSize, contextualize: true }).load();
    const sources = new Set(docs.map((d) => d.metadata.source));
    expect(sources).toEqual(new Set([join(dir, 'guide.md'), join(dir, 'guide.pdf'), join(dir, 'notes.txt')]));
    const pdfText = (await parsePdf(join(dir, 'guide.pdf'))).text;
    for (const d of docs) {
      const text = d.metadata.source.endsWith('.pdf') ? pdfText : d.metadata.source.endsWith('.txt') ? readFileSync(join(dir, 'notes.txt'), 'utf8') : guide;
      // pageContent is the embed text: the breadcrumb line, then the exact slice.
      expect(d.pageContent.endsWith(text.slice(d.metadata.start, d.metadata.end))).toBe(true);
      expect(d.id).toBe(d.metadata.id);
    }
    expect(docs.filter((d) => d.metadata.source.endsWith('.pdf')).every((d) => d.metadata.pageStart >= 1 && d.metadata.boxes.length >= 1)).toBe(true);
    expect(docs.filter((d) => d.metadata.source.endsWith('.txt')).map((d) => d.metadata.headingPath)).toEqual([[]]);

    const embeddings = new HashEmbeddings();
    const store = await FakeVectorStore.fromDocuments(docs, embeddings);
    expect(embeddings.embedded.length).toBe(docs.length);
    const sizes = embeddings.embedded.map((s) => tokens.size(s));
    console.log(`langchain round trip: ${docs.length} documents, embedded sizes ${Math.min(...sizes)}–${Math.max(...sizes)} tokens, maxSize ${maxSize}`);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(maxSize);

    const wanted = docs.find((d) => d.pageContent.includes('tar xzf'))!;
    const [hit] = await store.similaritySearch(wanted.pageContent, 1);
    expect(hit!.pageContent).toBe(wanted.pageContent);
    expect(hit!.metadata).toEqual(wanted.metadata);
    expect(hit!.metadata.headingPath).toContain('Install');
    expect(hit!.metadata).toMatchObject({ breadcrumb: hit!.metadata.headingPath.join(' > '), loc: { lines: { from: wanted.metadata.startLine, to: wanted.metadata.endLine } } });
    expect(guide.split('\n')[hit!.metadata.startLine - 1]).toBe(guide.slice(hit!.metadata.start, hit!.metadata.end).split('\n')[0]);
  });

  it('splitDocuments keeps each document\'s metadata under chunkstream\'s, and ids unique across sources', async () => {
    const splitter = new ChunkstreamTextSplitter({ maxSize: 48 });
    const out = await splitter.transformDocuments([
      new Document({ pageContent: guide, metadata: { source: 'a.md', author: 'Ann', start: 'overwritten' } }),
      new Document({ pageContent: guide, metadata: { source: 'b.md' } }),
    ]);
    const a = out.filter((d) => d.metadata.source === 'a.md');
    expect(a.length).toBe(out.length / 2);
    expect(a.every((d) => d.metadata.author === 'Ann' && typeof d.metadata.start === 'number')).toBe(true);
    expect(new Set(out.map((d) => d.id)).size).toBe(out.length);
    // Repeated text gets its own lines, not those of its first occurrence (LangChain's indexOf gives the first).
    const twice = await splitter.createDocuments(['Same words here.\n\nSame words here.\n'], [], {});
    expect(twice.map((d) => [d.metadata.startLine, d.metadata.start])).toEqual([[1, 0]]);
    const small = new ChunkstreamTextSplitter({ maxSize: 5, unit: 'words' });
    const lines = await small.createDocuments(['Same words here.\n\nSame words here.\n']);
    expect(lines.map((d) => [d.metadata.loc.lines.from, d.metadata.start])).toEqual([[1, 0], [3, 18]]);
    expect(lines[0]!.id).not.toBe(lines[1]!.id);
  });

  it('reads a file in the format chunkFile reads it in: a .jsonl conversation in turn windows', async () => {
    const talk = join(dir, 'talk.jsonl');
    writeFileSync(talk, Array.from({ length: 9 }, (_, i) => JSON.stringify({ speaker: i % 2 ? 'b' : 'a', text: `Turn ${i} of the call.` })).join('\n') + '\n');
    const docs = await new ChunkstreamLoader(talk, { turnsPerChunk: 4 }).load();
    const { chunks } = await chunkFile(talk, { turnsPerChunk: 4 });
    expect(docs.map((d) => d.id)).toEqual(chunks.map((c) => c.id));
    expect(docs.map((d) => d.pageContent)).toEqual(chunks.map((c) => c.text));
    expect(docs.length).toBe(3);
  });

  it('reads HTML files and HTML strings (format: html) as chunkFile reads them', async () => {
    const page = join(dir, 'page.html');
    writeFileSync(page, '<nav>Menu</nav><main><h1>Guide</h1><p>Read the <b>whole</b> guide.</p><table><tr><th>a</th></tr><tr><td>1</td></tr></table></main>');
    const docs = await new ChunkstreamLoader(page, { maxSize: 64 }).load();
    const { chunks } = await chunkFile(page, { maxSize: 64 });
    expect(docs.map((d) => d.pageContent)).toEqual(chunks.map((c) => c.text));
    expect(docs.map((d) => d.pageContent).join(' ')).not.toContain('Menu');
    const split = await new ChunkstreamTextSplitter({ format: 'html', maxSize: 64 }).splitText('<h1>Guide</h1><p>Read the <b>whole</b> guide.</p>');
    expect(split).toEqual(['Guide\n\nRead the whole guide.']);
  });

  it('fails a missing or broken file with a coded error', async () => {
    await expect(new ChunkstreamLoader(join(dir, 'missing.md')).load()).rejects.toMatchObject({ code: 'ERR_READ' });
    writeFileSync(join(dir, 'broken.pdf'), '%PDF-1.7\nnot really a pdf');
    await expect(new ChunkstreamLoader(join(dir, 'broken.pdf')).load()).rejects.toMatchObject({ code: 'ERR_PDF_INVALID' });
  });

  it('refuses bad options with ERR_INVALID_OPTION', () => {
    expect(() => new ChunkstreamTextSplitter({ maxSize: 0 })).toThrow(expect.objectContaining({ code: 'ERR_INVALID_OPTION', option: 'maxSize' }));
    expect(() => new ChunkstreamTextSplitter({ positions: 'nowhere' as 'metadata' })).toThrow(expect.objectContaining({ code: 'ERR_INVALID_OPTION', option: 'positions' }));
  });

  it("index() twice around a one-paragraph edit: only the edited chunks are added and deleted, the rest skipped", async () => {
    const run = async (positions: 'incremental' | 'metadata') => {
      const options = positions === 'incremental' ? { maxSize: 64, incremental: true } : { maxSize: 64, positions: 'metadata' as const };
      const splitter = new ChunkstreamTextSplitter(options);
      const recordManager = new InMemoryRecordManager();
      const embeddings = new HashEmbeddings();
      const vectorStore = new KeyedMemoryVectorStore(embeddings);
      const indexOptions = { cleanup: 'incremental' as const, sourceIdKey: 'source' };
      const before = await splitter.createDocuments([longDocument()], [{ source: 'notes.md' }]);
      const first = await index({ docsSource: before, recordManager, vectorStore, options: indexOptions });
      const edited = longDocument((p, s, i) => (s === 0 && i === 2 ? p.replace('the boats', 'the ferries') : p));
      const after = await splitter.createDocuments([edited], [{ source: 'notes.md' }]);
      embeddings.embedded.length = 0;
      const second = await index({ docsSource: after, recordManager, vectorStore, options: indexOptions });
      console.log(`index() with ${positions} positions, ${before.length} chunks: first run ${JSON.stringify(first)}, after a one-paragraph edit ${JSON.stringify(second)}`);
      return { first, second, chunks: before.length, store: vectorStore.records.size, reembedded: embeddings.embedded.length };
    };
    const incremental = await run('incremental');
    expect(incremental.first).toMatchObject({ numAdded: incremental.chunks, numDeleted: 0, numSkipped: 0 });
    expect(incremental.second.numAdded).toBeGreaterThanOrEqual(1);
    expect(incremental.second.numAdded).toBeLessThanOrEqual(2);
    expect(incremental.second.numDeleted).toBe(incremental.second.numAdded);
    expect(incremental.second.numSkipped).toBe(incremental.chunks - incremental.second.numAdded);
    expect(incremental.reembedded).toBe(incremental.second.numAdded);
    expect(incremental.store).toBe(incremental.chunks);
    // With positions hashed, every chunk after the edit looks new.
    const hashed = await run('metadata');
    expect(hashed.second.numAdded).toBeGreaterThan(incremental.second.numAdded * 5);
  });
});
