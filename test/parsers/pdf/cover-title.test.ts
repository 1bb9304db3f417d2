import { describe, expect, it } from 'vitest';
import { chunkFile } from '../../../src/api/chunk.js';
import { authoredTitle, coverTitle } from '../../../src/parsers/pdf/cover-title.js';
import { parsePdf } from '../../../src/parsers/pdf/reader.js';
import { buildPdf, textAt } from '../../support/pdf-builder.js';
import { line } from '../../support/pdf-lines.js';
import { tempDir } from '../../support/temp-dir.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A first page: a title set at `size` over three lines of 10-point body text. */
function coverPage(title: string, size: number): string {
  return [textAt(72, 700, title, size), ...['Body text of the first page, set at ten points.', 'It goes on for a line or two,', 'as body text does.'].map((t, i) => textAt(72, 640 - 14 * i, t, 10))].join('\n');
}

describe('coverTitle', () => {
  const body = (text: string, y: number) => line(text, 72, y, { fontSize: 10 });

  it('takes the lines set in the largest size when it stands well above the body', () => {
    expect(coverTitle([line('Shared MIME-info', 72, 720, { fontSize: 24 }), line('Database', 72, 700, { fontSize: 24 }), line('Thomas Leonard', 72, 660, { fontSize: 17 }), body('Some text.', 600)], 10)).toBe('Shared MIME-info Database');
  });

  it('finds none when the largest size is near the body, numbered, repeated down the page, or long', () => {
    expect(coverTitle([line('Section title', 72, 720, { fontSize: 13 }), body('Some text.', 700)], 10)).toBeUndefined();
    expect(coverTitle([line('1. Introduction', 72, 720, { fontSize: 18 }), body('Some text.', 700)], 10)).toBeUndefined();
    expect(coverTitle([line('BIG', 72, 720, { fontSize: 30 }), body('Some text.', 700), line('SALE', 72, 600, { fontSize: 30 })], 10)).toBeUndefined();
    expect(coverTitle([line('word '.repeat(60), 72, 720, { fontSize: 18 }), body('Some text.', 700)], 10)).toBeUndefined();
    expect(coverTitle([], 0)).toBeUndefined();
  });
});

describe('authoredTitle', () => {
  it('keeps a title an author wrote and drops what a tool left', () => {
    expect(authoredTitle('  Trace-based Just-in-Time  Type Specialization ')).toBe('Trace-based Just-in-Time Type Specialization');
    for (const tool of ['PowerPoint Presentation', 'Microsoft Word - report.docx', '10811.exe', 'draft.pdf', '905_Precinct_NoOU', 'Untitled', '  ']) {
      expect(authoredTitle(tool), tool).toBeUndefined();
    }
    expect(authoredTitle(undefined)).toBeUndefined();
    expect(authoredTitle('PD KIDS')).toBe('PD KIDS');
  });
});

describe('a PDF without an authored title', () => {
  it('takes its cover title, on the first block and on every chunk', async () => {
    const pdf = buildPdf([{ content: coverPage('Field Guide to Chunks', 26) }, { content: textAt(72, 700, 'Second page text.', 10) }], { title: 'Microsoft Word - guide.docx' });
    const doc = await parsePdf(pdf);
    expect(doc.blocks[0]?.documentTitle).toBe('Field Guide to Chunks');
    const path = join(tempDir('cover'), 'guide.pdf');
    writeFileSync(path, pdf);
    const { chunks } = await chunkFile(path, { maxSize: 16 });
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.every((c) => c.documentTitle === 'Field Guide to Chunks')).toBe(true);
  });

  it('keeps the metadata title an author wrote, and has none when neither exists', async () => {
    expect((await parsePdf(buildPdf([{ content: coverPage('Field Guide to Chunks', 26) }], { title: 'The Guide' }))).blocks[0]?.documentTitle).toBe('The Guide');
    expect((await parsePdf(buildPdf([{ content: coverPage('Field Guide to Chunks', 11) }]))).blocks[0]?.documentTitle).toBeUndefined();
  });
});
