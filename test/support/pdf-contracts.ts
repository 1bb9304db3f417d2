/**
 * The block contracts of a parsed PDF (exact slices of the extracted document text, order, separators, lines,
 * pages, list items), and the stream path that must give the same blocks as `parsePdf`.
 */
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { PDF_BLOCK_SEPARATOR } from '../../src/parsers/pdf/document.js';
import type { PdfDocument } from '../../src/parsers/pdf/reader.js';
import { parse } from '../../src/stream/parse.js';
import type { ParseOptions } from '../../src/config.js';
import type { Block } from '../../src/types.js';

/** Asserts the block contracts of a parsed PDF; throws naming the first broken one. */
export function checkDocument(doc: PdfDocument): void {
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
    // Boxes hold spans of the block's text in its order (chunks take theirs by offset), on the block's pages.
    let boxStart = b.start;
    for (const box of b.boxes ?? []) {
      if (box.start < boxStart || box.end <= box.start || box.end > b.end) throw new Error(`box [${box.start}, ${box.end}) of the block at ${b.start}`);
      if (box.page < page || box.page > (b.pageEnd ?? page)) throw new Error(`box on page ${box.page} of the block at ${b.start}`);
      if (![box.x, box.y, box.width, box.height].every(Number.isFinite) || box.width < 0 || box.height < 0) throw new Error(`box of the block at ${b.start}`);
      boxStart = box.start;
    }
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

/** The blocks `parse()` gives for a PDF written in `pieces`. */
export async function streamBlocks(pieces: Uint8Array[], options: ParseOptions = {}): Promise<Block[]> {
  const out: Block[] = [];
  await pipeline(Readable.from(pieces, { objectMode: true }), parse(options), new Writable({ objectMode: true, write: (b, _e, cb) => (out.push(b), cb()) }));
  return out;
}

