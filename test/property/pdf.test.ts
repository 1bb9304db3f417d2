/**
 * Contracts of PDF parsing over PDFs the tests typeset and over every corpus PDF: exact slices against the extracted document text, blocks in order
 * and disjoint with the defined separator between them, lines and pages consistent, list items inside their block,
 * and the stream (bytes written in random pieces) giving exactly the blocks of `parsePdf`.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { parsePdf, type PdfDocument } from '../../src/parsers/pdf/reader.js';
import { cutInto } from '../support/markdown-arbitrary.js';
import { corpusFiles, describeCorpus } from '../support/corpus.js';
import { buildPdf, typeset } from '../support/pdf-builder.js';
import { pdfDocumentArbitrary } from '../support/pdf-arbitrary.js';
import { checkDocument, streamBlocks } from '../support/pdf-contracts.js';
import { guidePdf, guidePdfWithOutline, longPdf } from '../support/pdf-samples.js';
import { fcParams } from '../support/property.js';

/** The stream under random writes gives the blocks of `parsePdf`: `runs` random cuttings. */
async function checkStream(bytes: Uint8Array, doc: PdfDocument, runs: number): Promise<void> {
  await fc.assert(
    fc.asyncProperty(fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 30 }), async (cuts) => {
      const blocks = await streamBlocks(cutInto(bytes, cuts));
      expect(blocks.length).toBe(doc.blocks.length);
      expect(blocks).toEqual(doc.blocks);
    }),
    fcParams(runs),
  );
}

describe('PDF contracts over generated documents', () => {
  it('the guide, the guide with an outline and a long document: contracts, and the stream equals parsePdf', async () => {
    for (const bytes of [guidePdf(), guidePdfWithOutline(), longPdf(12)]) {
      const doc = await parsePdf(bytes);
      expect(doc.blocks.length).toBeGreaterThan(10);
      checkDocument(doc);
      await checkStream(bytes, doc, 3);
    }
  });

  it('random typeset documents: contracts, and the stream equals parsePdf', async () => {
    await fc.assert(
      fc.asyncProperty(pdfDocumentArbitrary, fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 20 }), async ({ elements, options }, cuts) => {
        const bytes = buildPdf(typeset(elements, options));
        const doc = await parsePdf(bytes);
        checkDocument(doc);
        expect(await streamBlocks(cutInto(bytes, cuts))).toEqual(doc.blocks);
      }),
      fcParams(30),
    );
  });
});

const files = corpusFiles('', ['.pdf']);

describeCorpus('PDF contracts', () => {
  const docs = new Map<string, { bytes: Uint8Array; doc?: PdfDocument; error?: unknown }>();
  beforeAll(async () => {
    for (const file of files) {
      const bytes = new Uint8Array(readFileSync(file));
      try {
        docs.set(file, { bytes, doc: await parsePdf(bytes) });
      } catch (error) {
        docs.set(file, { bytes, error });
      }
    }
  });

  it.each(files.map((f) => [basename(f), f]))('%s: exact slices, order, separators, lines, pages, list items', (_name, file) => {
    const { doc, error } = docs.get(file)!;
    // A PDF that cannot be read (encrypted, broken) must say so with a PDF error code.
    if (doc === undefined) expect(error).toMatchObject({ name: 'ChunkError', code: expect.stringMatching(/^ERR_PDF_/) });
    else checkDocument(doc);
  });

  it.each(files.map((f) => [basename(f), f]))('%s: the stream under random writes gives the blocks of parsePdf', async (_name, file) => {
    const { bytes, doc } = docs.get(file)!;
    // Every stream run reads the whole PDF again: one run for the large files, a few for the small ones.
    if (doc !== undefined) await checkStream(bytes, doc, bytes.length > 1_500_000 ? 1 : 2);
  });
});
