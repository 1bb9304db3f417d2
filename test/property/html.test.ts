/**
 * The contracts over generated HTML pages and hostile shapes: blocks are slices of the extracted text and point
 * into the source, the stream under any write split (single bytes, UTF-8 sequences and CR LF pairs cut) gives the
 * blocks of `parseHtml`, and the chunks keep every contract of DESIGN.md. Hostile input ends in chunks or a coded
 * error, never `ERR_INTERNAL`, a crash or a hang.
 */
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunkBlocks } from '../../src/api/chunk.js';
import { createHeadingStage } from '../../src/chunking/heading-tracker.js';
import { createSizer } from '../../src/chunking/sizers/index.js';
import { normalizeOptions, type ChunkOptions } from '../../src/config.js';
import { runCore } from '../../src/core.js';
import { parseHtml } from '../../src/parsers/html/parse.js';
import { parse } from '../../src/stream/parse.js';
import type { Block } from '../../src/types.js';
import { checkChunks } from '../support/chunk-contracts.js';
import { HOSTILE_HTML } from '../support/hostile-html.js';
import { htmlDocument } from '../support/html-arbitrary.js';
import { cutInto } from '../support/markdown-arbitrary.js';
import { fcParams } from '../support/property.js';

async function streamBlocks(pieces: readonly (string | Uint8Array)[], format: 'html' | 'auto' = 'html'): Promise<Block[]> {
  const out: Block[] = [];
  await pipeline(
    Readable.from(pieces, { objectMode: true }),
    parse({ format }),
    new Writable({ objectMode: true, write: (b, _e, cb) => (out.push(b), cb()) }),
  );
  return out;
}

/** Exact slices, gaps that rebuild the text, source ranges inside the source, continuations in order. */
function checkBlocks(html: string, blocks: readonly Block[], text: string): void {
  expect(blocks.map((b) => (b.gapBefore ?? '') + b.text).join('')).toBe(text);
  blocks.forEach((b, i) => {
    expect(text.slice(b.start, b.end)).toBe(b.text);
    expect(b.text.trim()).not.toBe('');
    expect(b.sourceStart).toBeGreaterThanOrEqual(0);
    expect(b.sourceEnd).toBeGreaterThanOrEqual(b.sourceStart as number);
    expect(b.sourceEnd).toBeLessThanOrEqual(html.length);
    if (b.continuation?.previous === true) expect(blocks[i - 1]?.continuation?.next).toBe(true);
    if (b.kind === 'table') for (const r of b.rows) expect(r.start >= b.start && r.end <= b.end).toBe(true);
  });
}

const SETTINGS: ChunkOptions[] = [{ maxSize: 64 }, { maxSize: 40, overlap: 6 }, { unit: 'chars', maxSize: 200, contextualize: true }];

function checkChunkContracts(blocks: Block[], text: string, options: ChunkOptions): void {
  const config = normalizeOptions({ ...options, documentId: 'h' });
  const { chunks } = chunkBlocks(blocks, { ...options, documentId: 'h' });
  checkChunks(text, runCore(createHeadingStage(), blocks), chunks, config, createSizer(config));
}

describe('HTML contracts', () => {
  it('exact slices and source ranges; the stream under random writes gives the blocks of parseHtml', async () => {
    await fc.assert(
      fc.asyncProperty(htmlDocument, fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 8 }), async (html, cuts) => {
        const { blocks, text } = parseHtml(html);
        checkBlocks(html, blocks, text);
        expect(await streamBlocks(cutInto(Buffer.from(html, 'utf8'), cuts))).toEqual(blocks);
      }),
      fcParams(80),
    );
  });

  it('one-byte writes give the same blocks', async () => {
    await fc.assert(
      fc.asyncProperty(htmlDocument, async (html) => {
        const bytes = Buffer.from(`<!doctype html>${html}`, 'utf8');
        const pieces = Array.from(bytes, (_, i) => bytes.subarray(i, i + 1));
        expect(await streamBlocks(pieces, 'auto')).toEqual(parseHtml(bytes).blocks);
      }),
      fcParams(12),
    );
  });

  it('chunks keep every contract', () => {
    fc.assert(
      fc.property(htmlDocument, fc.constantFrom(...SETTINGS), (html, options) => {
        const { blocks, text } = parseHtml(html);
        checkChunkContracts(blocks, text, options);
      }),
      fcParams(80),
    );
  });
});

describe('hostile HTML', () => {
  for (const shape of HOSTILE_HTML) {
    it(`${shape.name}: ${shape.description}`, async () => {
      const made = shape.make(200 * 1024);
      const bytes = typeof made === 'string' ? Buffer.from(made, 'utf8') : made;
      let read: ReturnType<typeof parseHtml>;
      try {
        read = parseHtml(bytes);
      } catch (error) {
        expect((error as { code?: string }).code).toMatch(/^ERR_(?!INTERNAL)/);
        return;
      }
      checkBlocks(typeof made === 'string' && shape.name !== 'wrong-charset' ? made : '\u0000'.repeat(bytes.length), read.blocks, read.text);
      checkChunkContracts(read.blocks, read.text, { maxSize: 128 });
      const streamed = await streamBlocks(cutInto(bytes, [0.13, 0.5, 0.51, 0.77]));
      // Compared as one string: a deep diff of thousands of blocks would take minutes to print.
      expect(JSON.stringify(streamed) === JSON.stringify(read.blocks)).toBe(true);
    });
  }
});
