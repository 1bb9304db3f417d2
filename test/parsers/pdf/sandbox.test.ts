/**
 * The PDF sandbox and its budget: hostile files end in `ERR_PDF_LIMIT` naming the page reached, after the blocks of
 * the pages before it; time the consumer holds the stream back is not counted; a sandbox is reused when healthy and
 * never after a kill; aborting stops a file stuck inside pdf.js.
 */
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { ParseOptions } from '../../../src/config.js';
import { isChunkError } from '../../../src/errors.js';
import { parsePdf } from '../../../src/parsers/pdf/reader.js';
import { MAX_PAGE_ITEMS } from '../../../src/parsers/pdf/sandbox-messages.js';
import { sandboxStats } from '../../../src/parsers/pdf/sandbox.js';
import { parse } from '../../../src/stream/parse.js';
import type { Block } from '../../../src/types.js';
import { checkDocument } from '../../support/pdf-contracts.js';
import {
  AFTER_TEXT,
  BEFORE_TEXT,
  deepArrayPdf,
  HOSTILE_PDF_SHAPES,
  inflateBombPdf,
  saveFloodPdf,
  textFloodPdf,
} from '../../support/pdf-hostile.js';
import { longPdf } from '../../support/pdf-samples.js';

/** The blocks a stream over `bytes` gave before it ended (the consumer waiting `delayMs` on each), and its error. */
async function streamed(bytes: Uint8Array, options: ParseOptions, delayMs = 0): Promise<{ blocks: Block[]; error: unknown }> {
  const blocks: Block[] = [];
  const sink = new Writable({
    objectMode: true,
    highWaterMark: 1,
    write: (b: Block, _e, cb) => {
      blocks.push(b);
      if (delayMs === 0) cb();
      else setTimeout(cb, delayMs);
    },
  });
  try {
    await pipeline(Readable.from([bytes]), parse({ format: 'pdf', ...options }), sink);
    return { blocks, error: undefined };
  } catch (error) {
    return { blocks, error };
  }
}

describe('PDF limits', () => {
  it('a decompression bomb ends in ERR_PDF_LIMIT naming page 2 and maxPdfMemoryMb, after the blocks of page 1', async () => {
    // 300 KB of file, some 300 MB of content stream.
    const bomb = inflateBombPdf(300_000);
    const { blocks, error } = await streamed(bomb, { maxPdfMemoryMb: 160 });
    expect(error).toMatchObject({ name: 'ChunkError', code: 'ERR_PDF_LIMIT', page: 2 });
    expect((error as Error).message).toMatch(/more than maxPdfMemoryMb \(160 MB\) of memory while reading page 2 of 3/);
    expect(blocks.map((b) => [b.page, b.text])).toEqual([[1, BEFORE_TEXT]]);
  });

  it('two million nested q in 4.5 KB end in ERR_PDF_LIMIT naming page 2 and maxPdfSeconds, after the blocks of page 1', async () => {
    const flood = saveFloodPdf(4_600, { compress: true });
    expect(flood.length).toBeLessThan(6_000);
    // Page 2 alone takes pdf.js well over 30 s; 3 s leaves page 1 room on a machine other work loads.
    const { blocks, error } = await streamed(flood, { maxPdfSeconds: 3 });
    expect(error).toMatchObject({ name: 'ChunkError', code: 'ERR_PDF_LIMIT', page: 2 });
    expect((error as Error).message).toMatch(/took longer than maxPdfSeconds \(3 s\) while reading page 2 of 3/);
    expect(blocks.map((b) => [b.page, b.text])).toEqual([[1, BEFORE_TEXT]]);
    // parsePdf fails the same way, naming the page.
    await expect(parsePdf(flood, { maxPdfSeconds: 3 })).rejects.toMatchObject({ code: 'ERR_PDF_LIMIT', page: 2 });
  });

  it('a page pdf.js cannot read (an array nested 10,000 deep) fails with ERR_PDF_INVALID naming it, after page 1', async () => {
    const { blocks, error } = await streamed(deepArrayPdf(20_000), {});
    expect(error).toMatchObject({ name: 'ChunkError', code: 'ERR_PDF_INVALID', page: 2 });
    expect(blocks.map((b) => b.page)).toEqual([1]);
  });

  it('keeps the first runs of text of a page that floods them, and says so', async () => {
    const doc = await parsePdf(textFloodPdf(19 * (MAX_PAGE_ITEMS + 5_000)));
    checkDocument(doc);
    expect(doc.warnings).toEqual([`page 2 has more than ${MAX_PAGE_ITEMS} runs of text: the runs past those are not in the output`]);
    expect(doc.blocks.at(-1)).toMatchObject({ page: 3, text: AFTER_TEXT });
  });

  it('does not count the time the consumer holds the stream back', async () => {
    const bytes = longPdf(3);
    const free = await streamed(bytes, {});
    expect(free.error).toBeUndefined();
    // Each block waits long enough that the whole read, counted in wall time, would exceed the budget.
    const budget = 1.5;
    const delay = Math.ceil((budget * 1000 * 2) / free.blocks.length);
    const held = await streamed(bytes, { maxPdfSeconds: budget }, delay);
    expect(held.error).toBeUndefined();
    expect(held.blocks).toEqual(free.blocks);
  });

  it('reuses a sandbox for the next document, and starts a new one after a limit killed it', async () => {
    await parsePdf(longPdf(1));
    const before = sandboxStats().spawned;
    await parsePdf(longPdf(2));
    await parsePdf(longPdf(1));
    expect(sandboxStats().spawned).toBe(before);
    await expect(parsePdf(saveFloodPdf(4_600, { compress: true }), { maxPdfSeconds: 0.5 })).rejects.toMatchObject({ code: 'ERR_PDF_LIMIT' });
    const doc = await parsePdf(longPdf(1));
    expect(doc.blocks.length).toBeGreaterThan(2);
    expect(sandboxStats().spawned).toBeGreaterThan(before);
  });

  it('stops a PDF stuck inside pdf.js when the signal aborts', async () => {
    const controller = new AbortController();
    const parsing = parsePdf(saveFloodPdf(4_600, { compress: true }), { maxPdfSeconds: 600, signal: controller.signal });
    await sleep(300);
    controller.abort();
    await expect(parsing).rejects.toMatchObject({ name: 'AbortError' });
    // The next document gets a working sandbox.
    expect((await parsePdf(longPdf(1))).pages).toBeGreaterThan(0);
  });
});

describe('every hostile shape, small', () => {
  it.each(HOSTILE_PDF_SHAPES.map((s) => [s.name, s] as const))('%s ends with blocks that keep the contracts or a coded PDF error', async (_name, shape) => {
    const bytes = shape.make(8_000);
    try {
      const doc = await parsePdf(bytes, { maxPdfSeconds: 3, maxPdfMemoryMb: 160 });
      checkDocument(doc);
      expect(doc.blocks[0]?.text.startsWith(BEFORE_TEXT)).toBe(true);
    } catch (error) {
      expect(isChunkError(error), String(error)).toBe(true);
      expect(['ERR_PDF_LIMIT', 'ERR_PDF_INVALID']).toContain((error as { code: string }).code);
    }
  });
});
