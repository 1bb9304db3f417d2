/**
 * The chunk contracts (DESIGN.md 1–3, 5) for PDF input, over every corpus PDF at several sizes, against the extracted
 * document text; chunk pages against the pages the characters came from; running headers absent from chunk text.
 */
import { basename } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { chunkBlocks, chunkFile } from '../../src/api.js';
import { normalizeOptions, type ChunkOptions } from '../../src/config.js';
import { runCore } from '../../src/core/core.js';
import { createHeadingStage } from '../../src/core/heading-tracker.js';
import { createSizer } from '../../src/core/sizers/index.js';
import { parsePdf, type PdfDocument } from '../../src/parsers/pdf.js';
import type { Block, Chunk } from '../../src/types.js';
import { checkChunks } from '../support/chunk-contracts.js';
import { corpusPdf } from '../support/pdf-corpus.js';
import { corpusFiles } from '../support/property.js';

const SIZES: ChunkOptions[] = [
  { unit: 'tokens', maxSize: 128 },
  { unit: 'tokens', maxSize: 512, overlap: 32 },
  { unit: 'chars', maxSize: 1500, contextualize: true },
];

/** The page each character of the document text came from (0 for the separators between blocks). */
function pageOfOffsets(doc: PdfDocument): Uint16Array {
  const pages = new Uint16Array(doc.text.length);
  for (const b of doc.blocks) {
    pages.fill(b.page as number, b.start, b.end);
    (b.pageBreaks ?? []).forEach((at, i) => pages.fill((b.page as number) + i + 1, at, b.end));
  }
  return pages;
}

const files = corpusFiles('pdf', ['.pdf']);

describe('PDF chunks over the corpus', () => {
  const docs = new Map<string, { doc: PdfDocument; blocks: Block[]; pages: Uint16Array }>();
  beforeAll(async () => {
    for (const file of files) {
      const doc = await parsePdf(file);
      docs.set(file, { doc, blocks: runCore(createHeadingStage(), doc.blocks), pages: pageOfOffsets(doc) });
    }
  });

  it.each(files.map((f) => [basename(f), f]))('%s: exact slices, sizes, order and coverage, headings, pages', (_name, file) => {
    const { doc, blocks, pages } = docs.get(file)!;
    for (const size of SIZES) {
      const config = normalizeOptions(size);
      const { chunks } = chunkBlocks(doc.blocks, size);
      expect(chunks.length).toBeGreaterThan(0);
      checkChunks(doc.text, blocks, chunks, config, createSizer(config));
      // With overlap, a chunk may open inside the previous chunk's last block, whose first page it then reports:
      // its pages then cover its characters' pages. Without overlap they are exactly those pages.
      const wrong = chunks.filter((c: Chunk) =>
        config.overlap === 0
          ? c.pageStart !== pages[c.start] || c.pageEnd !== pages[c.end - 1]
          : (c.pageStart as number) > (pages[c.start] as number) || c.pageEnd !== pages[c.end - 1],
      );
      expect(wrong.map((c) => `#${c.index} p${c.pageStart}-${c.pageEnd}, characters from p${pages[c.start]}-${pages[c.end - 1]}`)).toEqual([]);
    }
  });

  it('leaves no running header or footer of freeculture.pdf in chunk text', () => {
    const { doc } = docs.get(corpusPdf('freeculture.pdf'))!;
    for (const size of SIZES) {
      const { chunks } = chunkBlocks(doc.blocks, size);
      const furniture = chunks.filter(
        (c) =>
          (c.pageStart as number) > 10 &&
          (c.pageEnd as number) < 339 &&
          (/(^|\n)\d{1,3} FREE CULTURE($|\n)/.test(c.text) ||
            c.text.includes('free-culture.org/get-it') ||
            /(^|\n)(INTRODUCTION|PREFACE|CONCLUSION|AFTERWORD|“PIRACY”|“PROPERTY”|PUZZLES|BALANCES) \d+($|\n)/.test(c.text) ||
            /(^|\n)\d{1,3}($|\n)/.test(c.text)),
      );
      expect(furniture.map((c) => `p${c.pageStart}: ${c.text.slice(0, 60)}`)).toEqual([]);
    }
  });
});

describe('chunkFile on a PDF', () => {
  it('reports pages and gives every chunk its pages', async () => {
    const { chunks, statistics, text, format } = await chunkFile(corpusPdf('multi_page.pdf'), { maxSize: 256 });
    expect(format).toBe('pdf');
    expect(statistics).toMatchObject({ pages: 5, warnings: [] });
    expect(statistics.needsOcr).toBeUndefined();
    for (const c of chunks) expect(text.slice(c.start, c.end)).toBe(c.text);
    expect(chunks[0]).toMatchObject({ pageStart: 1 });
    expect(chunks[chunks.length - 1]).toMatchObject({ pageEnd: 5 });
    expect(chunks.find((c) => c.text.includes('Undo/Redo'))?.heading.path.at(-1)).toBe('Key Features That Changed Word Processing');
  });
});
