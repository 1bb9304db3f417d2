/**
 * Word files: made here with the `docx` writer, read through mammoth and the HTML reader into headings, lists and
 * tables; detected by extension and signature; corrupt files and ZIP bombs end in coded errors.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Document, FootnoteReferenceRun, HeadingLevel, Packer, Paragraph, Table, TableCell, TableRow, TextRun } from 'docx';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chunkFile } from '../../../src/api/chunk.js';
import { detectFileFormat, detectFormat } from '../../../src/parsers/detect.js';
import { readDocx } from '../../../src/parsers/docx/read.js';
import { MAX_PART_BYTES } from '../../../src/parsers/docx/zip-check.js';
import { parse } from '../../../src/stream/parse.js';
import type { Block } from '../../../src/types.js';
import { writeZip } from '../../support/zip-writer.js';

const dir = mkdtempSync(join(tmpdir(), 'chunkstream-docx-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const cell = (text: string) => new TableCell({ children: [new Paragraph(text)] });

/** A Word file of a heading tree, a paragraph with bold text, a bulleted list and a table with a header row. */
async function guideDocx(): Promise<Buffer> {
  const doc = new Document({
    sections: [
      {
        children: [
          new Paragraph({ text: 'Guide', heading: HeadingLevel.HEADING_1 }),
          new Paragraph({ children: [new TextRun('Read this '), new TextRun({ text: 'first', bold: true }), new TextRun('.')] }),
          new Paragraph({ text: 'Install', heading: HeadingLevel.HEADING_2 }),
          new Paragraph({ text: 'Download the installer', bullet: { level: 0 } }),
          new Paragraph({ text: 'Run it', bullet: { level: 0 } }),
          new Paragraph({ text: 'Options', heading: HeadingLevel.HEADING_3 }),
          new Table({ rows: [new TableRow({ tableHeader: true, children: [cell('Name'), cell('Default')] }), new TableRow({ children: [cell('verbose'), cell('false')] })] }),
        ],
      },
    ],
  });
  return Packer.toBuffer(doc);
}

let guide: Buffer;
beforeAll(async () => {
  guide = await guideDocx();
});

async function streamBlocks(bytes: Buffer, pieces = 7): Promise<Block[]> {
  const size = Math.ceil(bytes.length / pieces);
  const parts = Array.from({ length: pieces }, (_, i) => bytes.subarray(i * size, (i + 1) * size));
  const out: Block[] = [];
  await pipeline(Readable.from(parts), parse(), new Writable({ objectMode: true, write: (b, _e, cb) => (out.push(b), cb()) }));
  return out;
}

describe('Word files', () => {
  it('reads headings, paragraphs, lists and tables with their header row', async () => {
    const { blocks, text } = await readDocx(guide, { fatal: false });
    expect(blocks.map((b) => [b.kind, b.text])).toEqual([
      ['heading', 'Guide'],
      ['paragraph', 'Read this first.'],
      ['heading', 'Install'],
      ['list', '- Download the installer\n- Run it'],
      ['heading', 'Options'],
      ['table', '| Name | Default |\n| --- | --- |\n| verbose | false |'],
    ]);
    for (const b of blocks) expect(text.slice(b.start, b.end)).toBe(b.text);
  });

  it("reads footnotes without mammoth's back-link arrows, their source ranges still in mammoth's HTML", async () => {
    const doc = new Document({
      footnotes: { 1: { children: [new Paragraph('A tachyon walks into a bar.')] } },
      sections: [{ children: [new Paragraph({ children: [new TextRun('Ouch'), new FootnoteReferenceRun(1), new TextRun('.')] })] }],
    });
    const { blocks, text } = await readDocx(await Packer.toBuffer(doc), { fatal: false });
    expect(text).toContain('A tachyon walks into a bar.');
    expect(text).not.toContain('\u2191');
    for (const b of blocks) expect(text.slice(b.start, b.end)).toBe(b.text);
    const note = blocks.find((b) => b.text.includes('tachyon')) as Block;
    expect(note.sourceEnd as number).toBeGreaterThan(note.sourceStart as number);
  });

  it('is detected by extension and by its ZIP signature; chunkFile and the stream agree', async () => {
    const path = join(dir, 'guide.docx');
    writeFileSync(path, guide);
    writeFileSync(join(dir, 'guide'), guide);
    expect(detectFormat(guide)).toBe('docx');
    expect(await detectFileFormat(join(dir, 'guide'))).toBe('docx');
    const result = await chunkFile(path, { maxSize: 24 });
    expect(result.format).toBe('docx');
    for (const c of result.chunks) expect(result.text.slice(c.start, c.end)).toBe(c.text);
    expect(result.chunks.find((c) => c.metadata.hasTable)?.heading.path).toEqual(['Guide', 'Install', 'Options']);
    expect(await streamBlocks(guide)).toEqual((await readDocx(guide, { fatal: false })).blocks);
  });

  it('fails a corrupt file with ERR_DOCX_INVALID', async () => {
    await expect(readDocx(guide.subarray(0, guide.length - 100), { fatal: false })).rejects.toMatchObject({ code: 'ERR_DOCX_INVALID' });
    await expect(readDocx(Buffer.from('PK\x03\x04 not really a zip'), { fatal: false })).rejects.toMatchObject({ code: 'ERR_DOCX_INVALID' });
    const noDocument = writeZip([{ name: '[Content_Types].xml', data: Buffer.from('<Types/>') }]);
    await expect(readDocx(noDocument, { fatal: false })).rejects.toMatchObject({ code: 'ERR_DOCX_INVALID', message: expect.stringContaining('word/document.xml') });
    const badXml = writeZip([{ name: '[Content_Types].xml', data: Buffer.from('<Types/>') }, { name: 'word/document.xml', data: Buffer.from('<w:document><unclosed') }]);
    await expect(readDocx(badXml, { fatal: false })).rejects.toMatchObject({ code: 'ERR_DOCX_INVALID' });
  });

  it('stops a ZIP bomb and an oversized part with ERR_DOCX_LIMIT before inflating past the cap', async () => {
    // 40 MB of spaces deflate to some 40 KB, and the archive says the part holds 100 bytes.
    const bomb = writeZip([
      { name: '[Content_Types].xml', data: Buffer.from('<Types/>') },
      { name: 'word/document.xml', data: Buffer.alloc(MAX_PART_BYTES + 8 * 1024 * 1024, 0x20), declaredSize: 100 },
    ]);
    expect(bomb.length).toBeLessThan(200 * 1024);
    await expect(readDocx(bomb, { fatal: false })).rejects.toMatchObject({ code: 'ERR_DOCX_LIMIT' });
    const declared = writeZip([{ name: 'word/document.xml', data: Buffer.from('<x/>'), declaredSize: MAX_PART_BYTES + 1 }]);
    await expect(readDocx(declared, { fatal: false })).rejects.toMatchObject({ code: 'ERR_DOCX_LIMIT' });
  });
});
