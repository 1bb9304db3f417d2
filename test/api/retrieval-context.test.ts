/**
 * Retrieval context on every chunk: the document's title (from each format), `contextualize: { title: true }`
 * within `maxSize`, and the ids of the neighbours, the same from the stream as from `chunkText`.
 */
import { readFileSync } from 'node:fs';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { describe, expect, it } from 'vitest';
import { chunkBlocks, chunkFile, chunkText } from '../../src/api/chunk.js';
import { diffChunks } from '../../src/api/diff.js';
import { normalizeOptions } from '../../src/config.js';
import { createBreadcrumbLine } from '../../src/chunking/embed-text.js';
import { createSizer } from '../../src/chunking/sizers/index.js';
import { parseHtml } from '../../src/parsers/html/parse.js';
import { chunk } from '../../src/stream/chunk.js';
import { parse } from '../../src/stream/parse.js';
import type { Chunk } from '../../src/types.js';

const guide = readFileSync(new URL('../../samples/guide.md', import.meta.url), 'utf8');

async function streamChunks(pieces: string[], options = {}): Promise<Chunk[]> {
  const out: Chunk[] = [];
  await pipeline(Readable.from(pieces), parse(), chunk(options), new Writable({ objectMode: true, write: (c, _e, cb) => (out.push(c), cb()) }));
  return out;
}

describe("the document's title", () => {
  it('is on the result and on every chunk, from front matter first', () => {
    const { chunks, document } = chunkText(guide, { maxSize: 64 });
    expect(document.title).toBe('Harbor Pilot Handbook');
    expect(new Set(chunks.map((c) => c.documentTitle))).toEqual(new Set(['Harbor Pilot Handbook']));
  });

  it('comes from a first level-1 heading, and is absent when the document has none', () => {
    expect(chunkText('<p>badges</p>\n\n# Release notes\n\n## 2.0\n\ntext\n').document.title).toBe('Release notes');
    const untitled = chunkText('## Only a section\n\ntext\n');
    expect(untitled.document).not.toHaveProperty('title');
    expect(untitled.chunks.every((c) => !('documentTitle' in c))).toBe(true);
  });

  it("comes from HTML's <title>, not from an SVG's", () => {
    const { blocks } = parseHtml('<html><head><title>Release &amp; notes</title></head><body><svg><title>icon</title></svg><main><h2>New</h2><p>Text.</p></main></body></html>');
    const { chunks, document } = chunkBlocks(blocks);
    expect(document.title).toBe('Release & notes');
    expect(chunks.every((c) => c.documentTitle === 'Release & notes')).toBe(true);
  });

  it("comes from a PDF's metadata Title", async () => {
    const { document, chunks } = await chunkFile(new URL('../../samples/handbook.pdf', import.meta.url).pathname, { maxSize: 512 });
    expect(document.title).toBe('The Indexing Handbook');
    expect(chunks[0]?.documentTitle).toBe('The Indexing Handbook');
  });

  it('with contextualize: { title: true }, leads the embed text, said once, within maxSize', () => {
    const maxSize = 48;
    const options = { maxSize, contextualize: { title: true } };
    const sizer = createSizer(normalizeOptions(options));
    const titled = `intro before the title\n\n${guide.replace(/^---[\s\S]*?---\n/, '')}`;
    const { chunks } = chunkText(titled, options);
    expect(chunks[0]?.embedText?.startsWith('Harbor Pilot Handbook\n\nintro')).toBe(true);
    for (const c of chunks) {
      expect(c.size).toBe(sizer.size(c.embedText as string));
      expect(c.size).toBeLessThanOrEqual(maxSize);
      // A chunk whose text cannot be cut further may go without its line (`dropBreadcrumb`).
      if (c.embedText === c.prefix + c.text + c.suffix) continue;
      const line = (c.embedText as string).split('\n\n')[0] as string;
      // The level-1 heading is the title: the line does not say it twice.
      expect(line.startsWith('Harbor Pilot Handbook') || line.startsWith('…')).toBe(true);
      expect(line.includes('Handbook > Harbor Pilot')).toBe(false);
    }
    const plain = chunkText(titled, { maxSize, contextualize: true }).chunks;
    expect(plain[0]?.embedText?.startsWith('intro')).toBe(true);
  });

  it('keeps the title and drops outer headings first when the line is long, then the title, then cuts', () => {
    const sizer = createSizer(normalizeOptions({ unit: 'chars' }));
    const heading = { path: ['One', 'Two', 'Three'], levels: [1, 2, 3], breadcrumb: 'One > Two > Three' };
    // The allowance is half of maxSize, counting the blank line after the line.
    const lineAt = (maxSize: number, title?: string) => createBreadcrumbLine(sizer, maxSize, () => title)(heading).line;
    expect(lineAt(200, 'Handbook')).toBe('Handbook > One > Two > Three');
    expect(lineAt(50, 'Handbook')).toBe('Handbook > … > Three');
    expect(lineAt(30, 'Handbook')).toBe('… > Three');
    // Past that the line is cut: 7 units of allowance leave 5 for it.
    expect(lineAt(14, 'Handbook')).toBe('… >…');
    expect(lineAt(200, 'One')).toBe('One > Two > Three');
    expect(lineAt(200)).toBe('One > Two > Three');
  });
});

describe('parents', () => {
  it('of an edited section are the only ones diffChunks reports', () => {
    const options = { maxSize: 64, documentId: 'guide', parents: true };
    const before = chunkText(guide, options).parents ?? [];
    const after = chunkText(guide.replace('Download the archive, unpack it', 'Download the archive, then unpack it'), options).parents ?? [];
    expect(before.length).toBeGreaterThan(3);
    const { added, removed, kept } = diffChunks(before, after);
    expect([added.length, removed.length, kept.length]).toEqual([1, 1, before.length - 1]);
    expect(added[0]?.text).toContain('Download the archive, then unpack it');
  });
});

describe('neighbours', () => {
  it("link each chunk to the ids before and after it, and the stream links the same, whatever the writes", async () => {
    const { chunks } = chunkText(guide, { maxSize: 64, documentId: 'guide' });
    expect(chunks.length).toBeGreaterThan(3);
    chunks.forEach((c, i) => {
      expect(c.prevId).toBe(chunks[i - 1]?.id);
      expect(c.nextId).toBe(chunks[i + 1]?.id);
    });
    const pieces = guide.match(/[\s\S]{1,7}/g) as string[];
    expect(await streamChunks(pieces, { maxSize: 64, documentId: 'guide' })).toEqual(chunks);
  });

  it('a single chunk has neither', () => {
    const [only] = chunkText('One short paragraph.\n').chunks;
    expect(only).not.toHaveProperty('prevId');
    expect(only).not.toHaveProperty('nextId');
  });
});
