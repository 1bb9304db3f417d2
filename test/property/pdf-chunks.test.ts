/**
 * The chunk contracts (DESIGN.md 1–3, 5) for PDF input at several sizes, against the extracted document text;
 * chunk pages against the pages the characters came from; running headers absent from chunk text. Over PDFs the
 * tests typeset themselves, and over every corpus PDF when the corpus is there.
 */
import { basename } from 'node:path';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { chunkBlocks, chunkFile } from '../../src/api/chunk.js';
import { normalizeOptions, type ChunkOptions } from '../../src/config.js';
import { runCore } from '../../src/core.js';
import { createHeadingStage } from '../../src/chunking/heading-tracker.js';
import { createSizer } from '../../src/chunking/sizers/index.js';
import { parsePdf, type PdfDocument } from '../../src/parsers/pdf/reader.js';
import type { Chunk } from '../../src/types.js';
import { checkChunks } from '../support/chunk-contracts.js';
import { corpusFiles, describeCorpus, itWithCorpusFile } from '../support/corpus.js';
import { buildPdf, typeset } from '../support/pdf-builder.js';
import { corpusPdf } from '../support/pdf-corpus.js';
import { boxLetters, lettersBeyond, lettersInBoxes, pdfGlyphs } from '../support/pdf-boxes.js';
import { GUIDE_HEADER, guidePdf, guidePdfWithOutline, longPdf } from '../support/pdf-samples.js';
import { pdfDocumentArbitrary } from '../support/pdf-arbitrary.js';
import { fcParams } from '../support/property.js';
import { tempDir } from '../support/temp-dir.js';

const SIZES: ChunkOptions[] = [
  { unit: 'tokens', maxSize: 128 },
  { unit: 'tokens', maxSize: 512, overlap: 32 },
  { unit: 'chars', maxSize: 1500, contextualize: true },
];

/** Pages of each corpus PDF whose chunks' boxes are checked against pdf.js's glyphs (bounded for CI time). */
const BOX_PAGES = 12;
/**
 * Letters a chunk's boxes may miss or hold beyond its text, as a share of its letters (plus three): glyphs of other
 * text drawn over or under a line lie inside its box (freeculture's cover sets its title twice, in two sizes, one
 * over the other; GeoTopo's formulas set sub- and superscripts into the lines around and build symbols of two
 * glyphs), and a glyph's place is taken from its run's width, laid evenly. A box on a wrong line or column misses
 * most of its letters.
 */
const BOX_SLACK = 0.03;

/** The page each character of the document text came from (0 for the separators between blocks). */
function pageOfOffsets(doc: PdfDocument): Uint16Array {
  const pages = new Uint16Array(doc.text.length);
  for (const b of doc.blocks) {
    pages.fill(b.page as number, b.start, b.end);
    (b.pageBreaks ?? []).forEach((at, i) => { pages.fill((b.page as number) + i + 1, at, b.end); });
  }
  return pages;
}

/** Chunks `doc` at each size and checks the contracts and every chunk's pages. */
function checkPdfChunks(doc: PdfDocument, sizes: readonly ChunkOptions[] = SIZES): void {
  const blocks = runCore(createHeadingStage(), doc.blocks);
  const pages = pageOfOffsets(doc);
  for (const size of sizes) {
    const config = normalizeOptions(size);
    const { chunks } = chunkBlocks(doc.blocks, size);
    if (doc.blocks.length > 0) expect(chunks.length).toBeGreaterThan(0);
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
}

describe('PDF chunks over generated documents', () => {
  it('the guide, the guide with an outline and a long document: contracts and pages', async () => {
    for (const bytes of [guidePdf(), guidePdfWithOutline(), longPdf(12)]) checkPdfChunks(await parsePdf(bytes));
  });

  it('random typeset documents: contracts and pages', async () => {
    await fc.assert(
      fc.asyncProperty(pdfDocumentArbitrary, async ({ elements, options }) => {
        checkPdfChunks(await parsePdf(buildPdf(typeset(elements, options))), [SIZES[0] as ChunkOptions, { unit: 'chars', maxSize: 300, overlap: 40 }]);
      }),
      fcParams(25),
    );
  });

  it('leaves no running header or page number in chunk text', async () => {
    const doc = await parsePdf(longPdf(20));
    for (const size of SIZES) {
      const { chunks } = chunkBlocks(doc.blocks, size);
      expect(chunks.filter((c) => c.text.includes('LONG DOCUMENT') || /(^|\n)\d{1,3}($|\n)/.test(c.text)).map((c) => c.text.slice(0, 60))).toEqual([]);
    }
  });
});

describe('chunkFile on a PDF', () => {
  it('reports pages and gives every chunk its pages', async () => {
    const { writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const path = join(tempDir('pdf'), 'guide.pdf');
    writeFileSync(path, guidePdfWithOutline());
    const { chunks, statistics, text, format } = await chunkFile(path, { maxSize: 256 });
    expect(format).toBe('pdf');
    expect(statistics).toMatchObject({ pages: 4, warnings: [] });
    expect(statistics.needsOcr).toBeUndefined();
    for (const c of chunks) expect(text.slice(c.start, c.end)).toBe(c.text);
    expect(chunks[0]).toMatchObject({ pageStart: 1 });
    expect(chunks[chunks.length - 1]).toMatchObject({ pageEnd: 4 });
    expect(chunks.some((c) => c.text.includes(GUIDE_HEADER))).toBe(false);
    expect(chunks.find((c) => c.text.startsWith('Choosing a Size'))?.heading.path).toEqual(['Getting Started', 'Choosing a Size']);
  });
});

describeCorpus('PDF chunks', () => {
  const files = corpusFiles('', ['.pdf']);
  const docs = new Map<string, PdfDocument | Error>();
  beforeAll(async () => {
    for (const file of files) docs.set(file, await parsePdf(file).catch((error: Error) => error));
  });

  it.each(files.map((f) => [basename(f), f]))('%s: exact slices, sizes, order and coverage, headings, pages', (_name, file) => {
    const doc = docs.get(file) as PdfDocument | Error;
    // A PDF that cannot be read (encrypted, broken) must say so with a PDF error code.
    if (doc instanceof Error) expect(doc).toMatchObject({ name: 'ChunkError', code: expect.stringMatching(/^ERR_PDF_/) });
    else checkPdfChunks(doc);
  });

  it.each(files.map((f) => [basename(f), f]))('%s: the glyphs inside each chunk\'s boxes are its text', async (_name, file) => {
    const doc = docs.get(file) as PdfDocument | Error;
    if (doc instanceof Error || doc.blocks.length === 0) return;
    const glyphs = await pdfGlyphs(file, BOX_PAGES);
    const rightToLeft = doc.blocks.filter((b) => b.boxes?.some((x) => x.direction === 'rtl')).length * 2 > doc.blocks.length;
    for (const size of SIZES.slice(1)) {
      const chunks = chunkBlocks(doc.blocks, size).chunks.filter((c) => (c.pageEnd as number) <= BOX_PAGES);
      const wrong = chunks.flatMap((c) => {
        if (c.boxes === undefined) return [`#${c.index} has no boxes`];
        const text = boxLetters(c.text);
        const drawn = lettersInBoxes(glyphs, c.boxes, rightToLeft);
        // A table may repeat a label set once over several columns: its letters are looked for, not counted.
        const missing = c.metadata.kinds.includes('table') ? [...new Set(text)].filter((ch) => !drawn.includes(ch)).join('') : lettersBeyond(text, drawn);
        const extra = lettersBeyond(drawn, text);
        const slack = 3 + Math.ceil(BOX_SLACK * text.length);
        return missing.length > slack || extra.length > slack ? [`#${c.index} p${c.pageStart}: missing '${missing}', extra '${extra}' of ${text.length}`] : [];
      });
      expect(wrong).toEqual([]);
    }
  });

  itWithCorpusFile('pdf/freeculture.pdf')('leaves no running header or footer of freeculture.pdf in chunk text', () => {
    const doc = docs.get(corpusPdf('freeculture.pdf')) as PdfDocument;
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

  itWithCorpusFile('pdf/multi_page.pdf')('chunkFile reports the pages of multi_page.pdf and its section headings', async () => {
    const { chunks, statistics } = await chunkFile(corpusPdf('multi_page.pdf'), { maxSize: 256 });
    expect(statistics).toMatchObject({ pages: 5, warnings: [] });
    expect(chunks.at(-1)).toMatchObject({ pageEnd: 5 });
    expect(chunks.find((c) => c.text.includes('Undo/Redo'))?.heading.path.at(-1)).toBe('Key Features That Changed Word Processing');
  });
});
