import { Document as LangChainDocument } from '@langchain/core/documents';
import { Document as LlamaDocument } from '@llamaindex/core/schema';
import { describe, expect, it } from 'vitest';
import { POSITION_KEYS, toDocument, toDocuments } from '../../src/sinks/documents.js';
import { sampleChunks } from './fixtures.js';

describe('toDocuments', () => {
  it('maps each chunk to { pageContent, metadata, id }', () => {
    const chunks = sampleChunks();
    const [plain, code, page] = toDocuments(chunks);
    expect(plain).toEqual({
      pageContent: 'Intro text.',
      id: chunks[0]!.id,
      metadata: {
        id: chunks[0]!.id,
        documentId: 'guide.md',
        source: 'docs/guide.md',
        index: 0,
        start: 0,
        end: 11,
        startLine: 1,
        endLine: 1,
        loc: { lines: { from: 1, to: 1 } },
        headingPath: [],
        breadcrumb: '',
        hasCode: false,
        hasTable: false,
        hasList: false,
        hasImage: false,
        hasFormula: false,
        isSplit: false,
        oversized: false,
        size: 3,
        hash: sampleChunks()[0]!.hash,
      },
    });
    expect(code!.metadata).toMatchObject({ headingPath: ['Install', 'Linux'], breadcrumb: 'Install > Linux', hasCode: true, oversized: true });
    expect(code!.metadata).not.toHaveProperty('pageStart');
    // The embed text, breadcrumb included, is what a contextualized chunk should be embedded as.
    expect(page!.pageContent).toBe('Install\n\nPage text');
    expect(page!.metadata).toMatchObject({ pageStart: 2, pageEnd: 3, loc: { lines: { from: 7, to: 8 } }, boxes: sampleChunks()[2]!.boxes });
    expect(code!.metadata).not.toHaveProperty('boxes');
  });

  it('loads into a LangChain Document as is', () => {
    const chunk = sampleChunks()[1]!;
    const doc = new LangChainDocument(toDocument(chunk));
    expect(doc.pageContent).toBe('```js\nx\n```');
    expect(doc.metadata.breadcrumb).toBe('Install > Linux');
    expect(doc.id).toBe(chunk.id);
  });

  it('loads into a LlamaIndex Document', () => {
    const chunk = sampleChunks()[0]!;
    const d = toDocument(chunk);
    const doc = new LlamaDocument({ text: d.pageContent, metadata: d.metadata, id_: d.id });
    expect(doc.getText()).toBe('Intro text.');
    expect(doc.id_).toBe(chunk.id);
    expect(doc.metadata.source).toBe('docs/guide.md');
  });

  it("with positions: 'unhashed', keeps positions readable but out of keys, spreads and JSON", () => {
    const chunk = { ...sampleChunks()[2]!, documentTitle: 'Guide', prevId: 'doc#1', nextId: 'doc#3', parentId: 'doc#p-1' };
    const { metadata } = toDocument(chunk, { positions: 'unhashed' });
    expect([metadata.index, metadata.start, metadata.end, metadata.startLine, metadata.endLine, metadata.pageStart, metadata.pageEnd]).toEqual([2, 40, 49, 7, 8, 2, 3]);
    // The neighbours' ids change when a neighbour does: positions too. The title is content.
    expect([metadata.prevId, metadata.nextId, metadata.documentTitle]).toEqual(['doc#1', 'doc#3', 'Guide']);
    expect(Object.keys(metadata)).toContain('documentTitle');
    expect(metadata.loc).toEqual({ lines: { from: 7, to: 8 } });
    expect(metadata.boxes).toEqual(chunk.boxes);
    for (const key of POSITION_KEYS) expect(Object.keys(metadata)).not.toContain(key);
    expect(Object.keys(JSON.parse(JSON.stringify(metadata)))).toEqual(Object.keys(metadata));
    expect(Object.keys(metadata)).toEqual(expect.arrayContaining(['id', 'documentId', 'breadcrumb', 'hash', 'size']));
    expect(Object.keys(toDocument(chunk).metadata)).toEqual(expect.arrayContaining([...POSITION_KEYS]));
    expect(() => toDocument(chunk, { positions: 'hidden' as 'unhashed' })).toThrow(expect.objectContaining({ code: 'ERR_INVALID_OPTION', option: 'positions' }));
  });

  it('gives an empty array for no chunks', () => {
    expect(toDocuments([])).toEqual([]);
  });
});
