import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { chunkFile } from '../../src/api/chunk.js';
import { expandInputs } from '../../src/files/inputs.js';
import { DETECT_BYTES, detectFileFormat, detectFormat, detectInputFormat, formatFromExtension } from '../../src/parsers/detect.js';
import { guidePdf } from '../support/pdf-samples.js';

const dir = mkdtempSync(join(tmpdir(), 'chunkstream-detect-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Writes `content` to `name` in the test folder and returns its path. */
function file(name: string, content: string | Uint8Array): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

/** A PDF after `junk` bytes of garbage, as some writers and mail gateways leave them. */
const pdfAfter = (junk: number): Buffer => Buffer.concat([Buffer.alloc(junk, 'x'), Buffer.from(guidePdf())]);

describe('detectFormat', () => {
  it('reads %PDF- anywhere in the first kilobyte as a PDF, and nothing else', () => {
    expect(detectFormat(Buffer.from('%PDF-1.7\n'))).toBe('pdf');
    expect(detectFormat(pdfAfter(500))).toBe('pdf');
    expect(detectFormat(pdfAfter(DETECT_BYTES - 5))).toBe('pdf');
    expect(detectFormat(pdfAfter(DETECT_BYTES - 4))).toBe('markdown');
    expect(detectFormat('# Title\n\n%PDF is a format')).toBe('markdown');
    expect(detectFormat('')).toBe('markdown');
  });
});

describe('formatFromExtension', () => {
  it('maps extensions to formats, whatever their case', () => {
    expect(formatFromExtension('x.PDF')).toBe('pdf');
    expect(formatFromExtension('x.transcript')).toBe('transcript');
    expect(formatFromExtension('x.txt')).toBe('text');
    for (const ext of ['.md', '.markdown', '.mdown', '.mkd', '.Mkdn']) expect(formatFromExtension(`x${ext}`)).toBe('markdown');
    expect(formatFromExtension('x.rtf')).toBeUndefined();
    expect(formatFromExtension('README')).toBeUndefined();
  });

  it('reads .jsonl as a transcript only when the file is named, not when a folder walk finds it', () => {
    expect(formatFromExtension('chat.jsonl')).toBe('transcript');
    expect(formatFromExtension('out.jsonl', { walked: true })).toBeUndefined();
    expect(formatFromExtension('chat.transcript', { walked: true })).toBe('transcript');
  });
});

describe('detectFileFormat', () => {
  it('goes by the extension first, without opening the file', async () => {
    expect(await detectFileFormat(join(dir, 'absent.pdf'))).toBe('pdf');
    expect(await detectFileFormat(file('about-pdf.md', '# The format\n\nA file begins with %PDF-1.7.\n'))).toBe('markdown');
    expect(await detectFileFormat(file('call.jsonl', '{"speaker":"a","text":"hi"}\n'))).toBe('transcript');
  });

  it('then by the first bytes: a PDF header after junk within the first kilobyte, else Markdown', async () => {
    expect(await detectFileFormat(file('scan', pdfAfter(300)))).toBe('pdf');
    expect(await detectFileFormat(file('late', pdfAfter(2 * DETECT_BYTES)))).toBe('markdown');
    expect(await detectFileFormat(file('notes', 'Some notes.\n'))).toBe('markdown');
  });

  it('rejects with the file system error when the file cannot be read', async () => {
    await expect(detectFileFormat(join(dir, 'absent'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('is the rule chunkFile reads by', async () => {
    for (const [name, content] of [['scan.bin', pdfAfter(300)], ['paper.md', '# Paper\n\nText.\n'], ['note.txt', 'A note.\n'], ['talk.jsonl', '{"speaker":"a","text":"hi"}\n']] as const) {
      const path = file(name, content);
      expect((await chunkFile(path)).format, name).toBe(await detectFileFormat(path));
    }
  });
});

describe('detectInputFormat', () => {
  it('reads a named file of unknown type as Markdown when it looks like text, and a binary one not at all', async () => {
    const text = file('LICENSE', 'Permission is hereby granted.\n');
    const binary = file('image.bin', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x00, 0x0d, 0x0a]));
    expect(await detectInputFormat(text)).toBe('markdown');
    expect(await detectInputFormat(binary)).toBeUndefined();
  });

  it('in a folder walk, takes only what an extension or a PDF header names: no binary, no unknown text, no .jsonl', async () => {
    const walked = { walked: true };
    expect(await detectInputFormat(file('photo.jpg', Buffer.from([0xff, 0xd8, 0xff, 0x00, 0x10])), walked)).toBeUndefined();
    expect(await detectInputFormat(file('Makefile', 'all:\n\techo hi\n'), walked)).toBeUndefined();
    expect(await detectInputFormat(file('out.jsonl', '{"id":"x"}\n'), walked)).toBeUndefined();
    expect(await detectInputFormat(file('scan.dat', pdfAfter(300)), walked)).toBe('pdf');
    expect(await detectInputFormat(file('guide.md', '# Guide\n'), walked)).toBe('markdown');
  });

  it('is the rule of the command line, which names what it skips', async () => {
    const folder = join(dir, 'walk');
    mkdirSync(folder);
    writeFileSync(join(folder, 'a.md'), '# A\n');
    writeFileSync(join(folder, 'blob.bin'), Buffer.from([0, 1, 2, 3]));
    writeFileSync(join(folder, 'scan'), pdfAfter(100));
    const r = await expandInputs([folder], undefined);
    expect(r.files.map((f) => [f.source, f.format])).toEqual([[join(folder, 'a.md'), 'markdown'], [join(folder, 'scan'), 'pdf']]);
    expect(r.skipped).toEqual([{ source: join(folder, 'blob.bin'), reason: 'unsupported file type (.bin)', folder }]);
  });
});
