/**
 * Boxes: where a block's and a chunk's text is drawn, so that a viewer can highlight a chunk. Pages the tests' writer
 * sets (whose every line's place it knows) against the boxes the reader gives; chunk boxes against the glyphs pdf.js
 * reports inside them; the cutting and joining of boxes on hand-made ones.
 */
import { describe, expect, it } from 'vitest';
import { chunkBlocks } from '../../../src/api/chunk.js';
import { boxesOf } from '../../../src/chunking/chunk-boxes.js';
import { parsePdf, type PdfDocument } from '../../../src/parsers/pdf/reader.js';
import type { TextBox } from '../../../src/types.js';
import { buildPdf, columnPages, HELVETICA_DESCENT, helveticaWidth, type SetLine } from '../../support/pdf-builder.js';
import { boxLetters, lettersInBoxes, pdfGlyphs } from '../../support/pdf-boxes.js';
import { checkDocument } from '../../support/pdf-contracts.js';
import { prose } from '../../support/pdf-samples.js';

const PAGE_HEIGHT = 792;
const PARAGRAPHS = Array.from({ length: 14 }, (_, i) => prose(60 + (i % 5) * 25, 300 + i));
const STAMP = (page: number) => `VerDate Sep<11>2014 Jkt 26200${page}`;
const TABLE = [
  ['Region', 'Office', 'Budget', 'Staff'],
  ['North Harbour', 'Lantern Street', '1,200.50', '14'],
  ['South Meadow', 'Copper Road', '980.00', '9'],
  ['East Orchard', 'Granite Lane', '2,310.75', '21'],
  ['West River', 'Violin Square', '415.20', '5'],
];

/** Every box of a document's blocks, with the text it holds. */
function boxesWithText(doc: PdfDocument): { box: TextBox; text: string }[] {
  return doc.blocks.flatMap((b) => (b.boxes ?? []).map((box) => ({ box, text: doc.text.slice(box.start, box.end) })));
}

/** Where a line the writer set in Helvetica is drawn: its em boxes, from the font's descent, measured from the top. */
function expectedBox(line: SetLine) {
  return { page: line.page, x: line.x, y: PAGE_HEIGHT - line.y - (1 + HELVETICA_DESCENT / 1000) * line.size, width: line.width, height: line.size };
}

describe('block boxes on pages the writer set', () => {
  it('three justified columns, a running header, a ruled frame and a stamp: every line set has its box, within a point', async () => {
    const { pages, lines } = columnPages({ columns: 3, paragraphs: PARAGRAPHS, header: (p) => `Federal Register / Notices ${3100 + p}`, stamp: STAMP, frame: true });
    const doc = await parsePdf(buildPdf(pages));
    checkDocument(doc);
    const boxes = boxesWithText(doc);
    // pdf.js splits a widely justified line at its word spaces: a line may be drawn in several runs, each its box.
    const misplaced = lines.filter((line) => {
      const want = expectedBox(line);
      const runs = boxes.filter(({ box }) => box.page === want.page && Math.abs(box.y - want.y) <= 1 && box.x >= want.x - 1 && box.x + box.width <= want.x + want.width + 1);
      if (runs.length === 0) return true;
      const x0 = Math.min(...runs.map(({ box }) => box.x));
      const x1 = Math.max(...runs.map(({ box }) => box.x + box.width));
      const text = runs.map((r) => r.text).join(' ');
      return text !== line.text || Math.abs(x0 - want.x) > 1 || Math.abs(x1 - (want.x + want.width)) > 1 || runs.some(({ box }) => Math.abs(box.height - want.height) > 1);
    });
    expect(lines.length).toBeGreaterThan(100);
    expect(misplaced.map((l) => `p${l.page} ${l.x},${l.y}: ${l.text}`)).toEqual([]);
  });

  it('a stamp set bottom-up in the margin: one box up the page, as tall as the stamp is long', async () => {
    const { pages } = columnPages({ columns: 2, paragraphs: PARAGRAPHS.slice(0, 3), size: 10, stamp: STAMP });
    const doc = await parsePdf(buildPdf(pages));
    const stamp = doc.blocks.find((b) => b.text === STAMP(1));
    const size = 10;
    const length = helveticaWidth(STAMP(1), size);
    // columnPages sets the stamp's baseline at x = 40, from y = 200 upwards.
    const [box, ...rest] = stamp?.boxes ?? [];
    expect(rest).toEqual([]);
    expect(box?.direction).toBe('up');
    expect(box?.x).toBeCloseTo(40 - (1 + HELVETICA_DESCENT / 1000) * size, 0);
    expect(box?.width).toBeCloseTo(size, 0);
    expect(box?.height).toBeCloseTo(length, 0);
    expect(box?.y).toBeCloseTo(PAGE_HEIGHT - 200 - length, 0);
  });
});

describe('boxes on a page a viewer turns (/Rotate)', () => {
  const PAGE_WIDTH = 612;
  /** Where an upright page's box is once a viewer turns the page clockwise by `rotate`. */
  const turned = (box: TextBox, rotate: 90 | 180 | 270) => {
    const { x, y, width: w, height: h } = box;
    if (rotate === 90) return { x: PAGE_HEIGHT - (y + h), y: x, width: h, height: w };
    if (rotate === 180) return { x: PAGE_WIDTH - (x + w), y: PAGE_HEIGHT - (y + h), width: w, height: h };
    return { x: y, y: PAGE_WIDTH - (x + w), width: h, height: w };
  };

  it('the same text, each box where the turned page shows it', async () => {
    const { pages } = columnPages({ columns: 2, paragraphs: PARAGRAPHS.slice(0, 4), size: 10 });
    const upright = await parsePdf(buildPdf(pages));
    const boxes = upright.blocks.flatMap((b) => b.boxes ?? []);
    expect(boxes.length).toBeGreaterThan(20);
    for (const rotate of [90, 180, 270] as const) {
      const doc = await parsePdf(buildPdf(pages.map((page) => ({ ...page, rotate }))));
      expect(doc.text).toBe(upright.text);
      const got = doc.blocks.flatMap((b) => b.boxes ?? []);
      expect(got.map((b) => [b.start, b.end])).toEqual(boxes.map((b) => [b.start, b.end]));
      const off = got.filter((box, i) => {
        const want = turned(boxes[i] as TextBox, rotate);
        return Math.abs(box.x - want.x) > 0.02 || Math.abs(box.y - want.y) > 0.02 || Math.abs(box.width - want.width) > 0.02 || Math.abs(box.height - want.height) > 0.02;
      });
      expect(off, `rotate ${rotate}`).toEqual([]);
    }
  });
});

describe('chunk boxes', () => {
  it('a page mixing a table with three columns of prose: the glyphs inside each chunk\'s boxes read its text', async () => {
    const { pages } = columnPages({ columns: 3, paragraphs: PARAGRAPHS.slice(0, 10), across: { top: 180, table: TABLE }, stamp: STAMP });
    const bytes = buildPdf(pages);
    const doc = await parsePdf(bytes);
    expect(doc.blocks.filter((b) => b.kind === 'table')).toHaveLength(1);
    const glyphs = await pdfGlyphs(bytes, doc.pages);
    for (const options of [{ unit: 'chars', maxSize: 400 }, { unit: 'chars', maxSize: 900, overlap: 120 }] as const) {
      const { chunks } = chunkBlocks(doc.blocks, options);
      expect(chunks.filter((c) => c.boxes === undefined)).toEqual([]);
      const wrong = chunks.filter((c) => lettersInBoxes(glyphs, c.boxes ?? []) !== boxLetters(c.text));
      expect(wrong.map((c) => `#${c.index}: ${c.text.slice(0, 60)}`)).toEqual([]);
    }
  });

  it('cuts a box where a chunk begins or ends inside it, and joins the pieces of one line', () => {
    const line = { page: 1, x: 100, y: 50, width: 200, height: 10 };
    const boxes: TextBox[] = [
      { ...line, start: 0, end: 20 },
      { ...line, x: 300, width: 50, start: 20, end: 25 },
      { ...line, y: 62, start: 26, end: 46 },
      { page: 1, x: 30, y: 400, width: 10, height: 100, start: 47, end: 57, direction: 'up' },
      { ...line, page: 2, width: 100, start: 58, end: 68, direction: 'rtl' },
    ];
    // Characters 5-25 of the first line: the last three quarters of its first run and its second run, one box.
    expect(boxesOf(boxes, 0, 5, 25)).toEqual([{ page: 1, x: 150, y: 50, width: 200, height: 10 }]);
    // The first half of the line below, then (26-50) the whole line and the first three characters of a run set bottom-up.
    expect(boxesOf(boxes, 0, 26, 36)).toEqual([{ page: 1, x: 100, y: 62, width: 100, height: 10 }]);
    expect(boxesOf(boxes, 0, 26, 50)).toEqual([
      { page: 1, x: 100, y: 62, width: 200, height: 10 },
      { page: 1, x: 30, y: 470, width: 10, height: 30 },
    ]);
    // The first two characters of a right-to-left run are at its right.
    expect(boxesOf(boxes, 0, 58, 60)).toEqual([{ page: 2, x: 180, y: 50, width: 20, height: 10 }]);
    expect(boxesOf(boxes, 0, 25, 26)).toEqual([]);
  });
});
