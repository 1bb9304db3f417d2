/**
 * Hostile PDFs (`test/support/pdf-hostile.ts`) at random small sizes, within tight limits: every shape ends with
 * blocks that keep the PDF contracts and chunk into exact slices, or with a coded PDF error (never
 * `ERR_INTERNAL`); the stream gives the blocks of `parsePdf`, and when it fails at a page, the blocks of the pages
 * before come out first.
 */
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunkBlocks } from '../../src/api/chunk.js';
import { normalizeOptions, type ParseOptions } from '../../src/config.js';
import { runCore } from '../../src/core.js';
import { createHeadingStage } from '../../src/chunking/heading-tracker.js';
import { createSizer } from '../../src/chunking/sizers/index.js';
import { isChunkError } from '../../src/errors.js';
import { parsePdf, type PdfDocument } from '../../src/parsers/pdf/reader.js';
import { parse } from '../../src/stream/parse.js';
import type { Block } from '../../src/types.js';
import { checkChunks } from '../support/chunk-contracts.js';
import { cutInto } from '../support/markdown-arbitrary.js';
import { checkDocument } from '../support/pdf-contracts.js';
import { BEFORE_TEXT, HOSTILE_PDF_SHAPES } from '../support/pdf-hostile.js';
import { fcParams } from '../support/property.js';

/** Tight limits, so that a shape that would run for minutes or take gigabytes ends fast. */
const LIMITS: ParseOptions = { maxPdfSeconds: 3, maxPdfMemoryMb: 160 };

/** The blocks the stream gave before it ended, and its error if it failed. */
async function streamOutcome(pieces: Uint8Array[], options: ParseOptions): Promise<{ blocks: Block[]; error: unknown }> {
  const blocks: Block[] = [];
  try {
    await pipeline(Readable.from(pieces, { objectMode: true }), parse(options), new Writable({ objectMode: true, write: (b, _e, cb) => (blocks.push(b), cb()) }));
    return { blocks, error: undefined };
  } catch (error) {
    return { blocks, error };
  }
}

describe('hostile PDFs', () => {
  it('every shape at a random small size ends with blocks that keep the contracts, or with a coded PDF error', async () => {
    const seen = new Map<string, string>();
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...HOSTILE_PDF_SHAPES),
        fc.integer({ min: 2_000, max: 60_000 }),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 6 }),
        async (shape, size, cuts) => {
          const bytes = shape.make(size);
          let doc: PdfDocument | undefined;
          let error: unknown;
          try {
            doc = await parsePdf(bytes, LIMITS);
          } catch (e) {
            error = e;
          }
          const streamed = await streamOutcome(cutInto(bytes, cuts), { ...LIMITS, format: 'pdf' });
          if (doc !== undefined) {
            seen.set(shape.name, 'blocks');
            checkDocument(doc);
            // The first page's sentence may run on into a hostile page that starts in lower case.
            expect(doc.blocks[0]).toMatchObject({ page: 1, text: expect.stringMatching(new RegExp(`^${BEFORE_TEXT.replace('.', '\\.')}`)) });
            const config = normalizeOptions({ maxSize: 64 });
            const { chunks } = chunkBlocks(doc.blocks, { maxSize: 64 });
            checkChunks(doc.text, runCore(createHeadingStage(), doc.blocks), chunks, config, createSizer(config));
            // A shape that ends near a limit may end on the other side of it in the second reading.
            if (streamed.error === undefined) expect(streamed.blocks).toEqual(doc.blocks);
            else expect(isChunkError(streamed.error, 'ERR_PDF_LIMIT')).toBe(true);
          } else {
            expect(isChunkError(error), String(error)).toBe(true);
            const code = (error as { code: string }).code;
            seen.set(shape.name, code);
            expect(['ERR_PDF_LIMIT', 'ERR_PDF_INVALID']).toContain(code);
            if (streamed.error !== undefined) expect(['ERR_PDF_LIMIT', 'ERR_PDF_INVALID']).toContain((streamed.error as { code?: string }).code);
            // Failing at a later page, the stream has emitted the first page's text before the error.
            const page = (streamed.error as { page?: number } | undefined)?.page;
            if (page !== undefined && page > 1) expect(streamed.blocks[0]?.text.startsWith(BEFORE_TEXT)).toBe(true);
          }
        },
      ),
      fcParams(20),
    );
    console.log(`hostile shapes and their outcome: ${[...seen].map(([name, outcome]) => `${name}: ${outcome}`).join(', ')}`);
  });
});
