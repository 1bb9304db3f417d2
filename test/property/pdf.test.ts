/**
 * Contracts of PDF parsing over PDFs the tests typeset and over every corpus PDF: exact slices against the extracted document text, blocks in order
 * and disjoint with the defined separator between them, lines and pages consistent, list items inside their block,
 * and the stream (bytes written in random pieces) giving exactly the blocks of `parsePdf`.
 */
import { readFileSync } from 'node:fs';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { basename } from 'node:path';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { PDF_BLOCK_SEPARATOR } from '../../src/parsers/pdf/document.js';
import { parsePdf, type PdfDocument } from '../../src/parsers/pdf/reader.js';
import { parse } from '../../src/stream/parse.js';
import type { Block } from '../../src/types.js';
import { cutInto } from '../support/markdown-arbitrary.js';
import { corpusFiles, describeCorpus } from '../support/corpus.js';
import { buildPdf, typeset } from '../support/pdf-builder.js';
import { pdfDocumentArbitrary } from '../support/pdf-arbitrary.js';
import { guidePdf, guidePdfWithOutline, longPdf } from '../support/pdf-samples.js';
import { fcParams } from '../support/property.js';

/** Asserts the block contracts of a parsed PDF. */
function checkDocument(doc: PdfDocument): void {
  const { text, blocks } = doc;
  let previous: Block | undefined;
  for (const b of blocks) {
    if (text.slice(b.start, b.end) !== b.text) throw new Error(`inexact slice at ${b.start}`);
    if (b.text.length === 0 || b.text.trim() !== b.text) throw new Error(`empty or untrimmed block at ${b.start}`);
    const expectedStart = previous === undefined ? 0 : previous.end + PDF_BLOCK_SEPARATOR.length;
    if (b.start !== expectedStart) throw new Error(`block at ${b.start} should start at ${expectedStart}`);
    if (b.gapBefore !== text.slice(previous?.end ?? 0, b.start)) throw new Error(`gapBefore of the block at ${b.start}`);
    if (b.startLine !== text.slice(0, b.start).split('\n').length) throw new Error(`startLine of the block at ${b.start}`);
    if (b.endLine !== b.startLine + b.text.split('\n').length - 1) throw new Error(`endLine of the block at ${b.start}`);
    const page = b.page as number;
    if (!Number.isInteger(page) || page < 1 || page > doc.pages) throw new Error(`page ${page} out of range`);
    if (b.pageEnd !== undefined && !(b.pageEnd > page && b.pageEnd <= doc.pages)) throw new Error(`pageEnd ${b.pageEnd} of a block on page ${page}`);
    if (previous !== undefined && page < (previous.pageEnd ?? (previous.page as number))) throw new Error(`pages go back at ${b.start}`);
    const breaks = b.pageBreaks ?? [];
    if (breaks.length !== (b.pageEnd ?? page) - page) throw new Error(`pageBreaks of the block at ${b.start}: one per page after the first`);
    if (breaks.some((at, i) => at <= b.start || at >= b.end || at < (breaks[i - 1] ?? 0))) throw new Error(`pageBreaks of the block at ${b.start} out of order`);
    if (b.kind === 'heading' && (b.depth < 1 || b.depth > 6 || b.title.trim() === '')) throw new Error(`bad heading at ${b.start}`);
    if (b.kind === 'list') {
      let at = b.start;
      for (const item of b.items) {
        if (item.start !== at || item.end > b.end || text.slice(item.start, item.end).includes('\n')) throw new Error(`list item at ${item.start}`);
        at = item.end + 1;
      }
      if (at - 1 !== b.end) throw new Error(`list items do not cover the list at ${b.start}`);
    }
    previous = b;
  }
  if (text !== blocks.map((b) => b.text).join(PDF_BLOCK_SEPARATOR)) throw new Error('text is not the joined blocks');
}

async function streamBlocks(pieces: Uint8Array[]): Promise<Block[]> {
  const out: Block[] = [];
  await pipeline(Readable.from(pieces, { objectMode: true }), parse(), new Writable({ objectMode: true, write: (b, _e, cb) => (out.push(b), cb()) }));
  return out;
}

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
