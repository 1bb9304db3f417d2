/**
 * Prose in columns is columns, not a table: pages the tests' writer sets in two and three justified columns (with a
 * running header, a title, a ruled frame, margin stamps, a figure or a real table set across them) come out as
 * paragraphs in column reading order, blocks in page order, and the real table as a table.
 */
import { describe, expect, it } from 'vitest';
import { chunkBlocks } from '../../../src/api/chunk.js';
import { parsePdf, type PdfDocument } from '../../../src/parsers/pdf/reader.js';
import type { TableBlock } from '../../../src/types.js';
import { buildPdf, columnPages, typeset, type ColumnLayout } from '../../support/pdf-builder.js';
import { checkDocument } from '../../support/pdf-contracts.js';
import { prose } from '../../support/pdf-samples.js';

const PARAGRAPHS = Array.from({ length: 24 }, (_, i) => prose(60 + (i % 5) * 25, 100 + i));
const LABELS = ['USER = ALICE', 'CURRENT USER = JOE', 'Request', 'Response'];
const REAL_TABLE = [
  ['Region', 'Office', 'Budget', 'Staff'],
  ['North Harbour', 'Lantern Street', '1,200.50', '14'],
  ['South Meadow', 'Copper Road', '980.00', '9'],
  ['East Orchard', 'Granite Lane', '2,310.75', '21'],
  ['West River', 'Violin Square', '415.20', '5'],
];

/** Letters and digits, words one space apart: text compared whatever its spacing and punctuation. */
const words = (text: string): string => text.replace(/[^\p{L}\p{N}]+/gu, ' ').trim();

/** Sets a layout and parses it; checks the block contracts (page order among them). */
async function read(layout: ColumnLayout): Promise<{ doc: PdfDocument; body: string }> {
  const { pages, lines } = columnPages(layout);
  const doc = await parsePdf(buildPdf(pages));
  checkDocument(doc);
  return { doc, body: words(lines.map((l) => l.text).join(' ')) };
}

/** The document's body text: its paragraphs, without the stamps, the running header and the figure's labels. */
function bodyText(doc: PdfDocument): string {
  const labelWords = new Set(words(LABELS.join(' ')).split(' '));
  const body = doc.blocks.filter((b) => b.kind === 'paragraph' && !/^(VerDate|Federal Register)/.test(b.text) && !words(b.text).split(' ').every((w) => labelWords.has(w)));
  return words(body.map((b) => b.text).join(' '));
}

const tables = (doc: PdfDocument): TableBlock[] => doc.blocks.filter((b): b is TableBlock => b.kind === 'table');

describe('prose in columns', () => {
  it.each([
    ['two justified columns', { columns: 2, paragraphs: PARAGRAPHS.slice(0, 10), size: 10 }],
    ['three justified columns', { columns: 3, paragraphs: PARAGRAPHS.slice(0, 12) }],
    ['two columns broken by a figure set across them', { columns: 2, paragraphs: PARAGRAPHS.slice(0, 8), size: 10, across: { top: 200, figure: LABELS } }],
    ['three columns broken by a figure set across them', { columns: 3, paragraphs: PARAGRAPHS.slice(0, 12), across: { top: 250, figure: LABELS } }],
  ] as [string, ColumnLayout][])('%s: no table, the columns read in order', async (_name, layout) => {
    const { doc, body } = await read(layout);
    expect(tables(doc)).toEqual([]);
    expect(bodyText(doc)).toBe(body);
    expect(doc.blocks.filter((b) => b.kind === 'heading')).toEqual([]);
  });

  it('a notice in three columns under a running header and a title, a ruled frame on page 1, a stamp on every page: paragraphs in reading order, page by page', async () => {
    const { doc, body } = await read({
      columns: 3,
      paragraphs: PARAGRAPHS,
      title: 'Proposed Amendment of Class E Airspace',
      header: (page) => `Federal Register / Vol. 89, No. 12 / Thursday, January 18, 2024 / Notices ${3100 + page}`,
      stamp: (page) => `VerDate Sep<11>2014 17:20 Jan 17, 2024 Jkt 262001 PO 00000 Frm 0000${page}`,
      frame: true,
    });
    expect(doc.pages).toBe(3);
    expect(tables(doc)).toEqual([]);
    expect(bodyText(doc)).toBe(body);
    expect(doc.blocks.filter((b) => b.kind === 'heading').map((b) => b.text)).toEqual(['Proposed Amendment of Class E Airspace']);
    // Each page's stamp is a block of that page, after the page's text began and before the next page's.
    const stamps = doc.blocks.filter((b) => b.text.startsWith('VerDate'));
    expect(stamps.map((b) => b.page)).toEqual([1, 2, 3]);
  });

  it('a page mixing three columns of prose with a table set across them: the table found whole, the prose in order', async () => {
    const { doc, body } = await read({ columns: 3, paragraphs: PARAGRAPHS.slice(0, 12), across: { top: 180, table: REAL_TABLE } });
    const found = tables(doc);
    expect(found).toHaveLength(1);
    expect(found[0]?.rows.map((r) => doc.text.slice(r.start, r.end))).toEqual(REAL_TABLE.map((r) => `| ${r.join(' | ')} |`));
    expect(bodyText(doc)).toBe(body);
  });
});

describe('a table across pages', () => {
  it('continues as a table part with its header repeated where a stamp of the page comes between, blocks in page order', async () => {
    const rows = [['State', 'Count', 'Share'], ...Array.from({ length: 70 }, (_, i) => [`Region ${i + 1}`, String(1000 + i * 37), `${(i % 9) + 1}.5%`])];
    const doc = await parsePdf(buildPdf(typeset([{ paragraph: prose(200, 7) }, { table: rows, ruled: true }, { paragraph: prose(30, 8) }], { stamp: (page) => `STAMP ${page}` })));
    checkDocument(doc);
    const parts = tables(doc);
    expect(parts.length).toBeGreaterThan(1);
    // Every row once, in order, over the parts; every part after the first repeats the header as its frame.
    const body = parts.flatMap((t) => t.rows.slice(t.continuation?.previous === true ? 0 : 1).map((r) => doc.text.slice(r.start, r.end)));
    expect(body).toEqual(rows.slice(1).map((r) => `| ${r.join(' | ')} |`));
    for (const part of parts.slice(1)) expect(part.continuation).toMatchObject({ previous: true, frame: '| State | Count | Share |\n| --- | --- | --- |' });
    expect(parts.slice(0, -1).every((t) => t.continuation?.next === true)).toBe(true);
    // Chunks of a later part carry the header for the embedder.
    const { chunks } = chunkBlocks(doc.blocks, { unit: 'chars', maxSize: 400 });
    const later = chunks.filter((c) => c.text.startsWith('| Region') && (c.pageStart as number) > parts[0]!.page!);
    expect(later.length).toBeGreaterThan(0);
    for (const c of later) expect(c.prefix).toBe('| State | Count | Share |\n| --- | --- | --- |\n');
  });
});
