/**
 * Text or not: binary data (a NUL byte, a binary format's signature) is `ERR_UNSUPPORTED_FORMAT` wherever a
 * document comes in (chunkText, parseMarkdown, parseText, parse(), chunkFile, inspect), and every invalid UTF-8
 * sequence replaced with U+FFFD is counted in the statistics' warnings, the same count by every path.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { chunkFile, chunkText } from '../../src/api/chunk.js';
import { binaryKind, detectFormat } from '../../src/parsers/detect.js';
import { parseMarkdown } from '../../src/parsers/markdown/parse.js';
import { countReplacements, createTextInputCheck } from '../../src/parsers/text-input.js';
import { parseText } from '../../src/parsers/text/parse.js';
import { chunk } from '../../src/stream/chunk.js';
import { parse } from '../../src/stream/parse.js';
import type { ChunkStatistics } from '../../src/types.js';
import { cutInto } from '../support/markdown-arbitrary.js';
import { fcParams } from '../support/property.js';

const dir = mkdtempSync(join(tmpdir(), 'chunkstream-text-input-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** U+FFFD in what TextDecoder makes of `bytes`: the count to match when `bytes` hold no U+FFFD of their own (no 0xEF). */
const decoderReplacements = (bytes: Uint8Array): number => [...new TextDecoder().decode(bytes)].filter((c) => c === '\ufffd').length;

/** Bytes without NUL (binary) and without 0xEF (which a U+FFFD of the text's own starts with). */
const junk = fc.uint8Array({ maxLength: 300 }).map((a) => a.map((b) => (b === 0 || b === 0xef ? 0x41 : b)));

async function streamed(pieces: Uint8Array[], format: 'auto' | 'markdown' | 'text'): Promise<ChunkStatistics> {
  const stage = chunk({ unit: 'chars', maxSize: 200 });
  await pipeline(Readable.from(pieces, { objectMode: true }), parse({ format, workers: 0 }), stage, new Writable({ objectMode: true, write: (_c, _e, cb) => cb() }));
  return stage.statistics();
}

describe('invalid UTF-8, replaced and counted', () => {
  it('countReplacements gives the decoder\'s count of U+FFFD, and so does the check over any write cuts', () => {
    fc.assert(
      fc.property(junk, fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 8 }), (bytes, cuts) => {
        const expected = decoderReplacements(bytes);
        expect(countReplacements(bytes)).toBe(expected);
        const check = createTextInputCheck();
        for (const piece of cutInto(bytes, cuts)) check.write(piece);
        check.end();
        expect(check.pending).toBe(expected);
      }),
      fcParams(300),
    );
  });

  it('are one warning in the statistics, with the exact count, from chunkText, parse() → chunk() and chunkFile alike', async () => {
    const latin1 = Buffer.from('# Café\n\nCrème brûlée, à la carte.\n\nNaïve façade.\n', 'latin1');
    const n = decoderReplacements(latin1);
    expect(n).toBe(7);
    const warning = `invalid UTF-8 replaced with U+FFFD (×${n})`;
    expect(chunkText(latin1, { unit: 'chars', maxSize: 200 }).statistics.warnings).toEqual([warning]);
    expect((await streamed(cutInto(latin1, [0.1, 0.3, 0.31, 0.7]), 'auto')).warnings).toEqual([warning]);
    const path = join(dir, 'latin1.md');
    writeFileSync(path, latin1);
    expect((await chunkFile(path, { unit: 'chars', maxSize: 200 })).statistics.warnings).toEqual([warning]);
    const txt = join(dir, 'latin1.txt');
    writeFileSync(txt, latin1);
    expect((await chunkFile(txt, { unit: 'chars', maxSize: 200 })).statistics.warnings).toEqual([warning]);
    expect((await streamed([latin1], 'text')).warnings).toEqual([warning]);
    expect(parseText(latin1).flatMap((b) => b.warnings ?? [])).toEqual([warning]);
  });

  it('are not counted where the text holds U+FFFD of its own', () => {
    expect(chunkText(Buffer.from('# A\n\nA replacement character \ufffd, written in UTF-8.'), { maxSize: 100 }).statistics.warnings).toEqual([]);
  });
});

describe('binary data is not a document', () => {
  const png = Buffer.concat([Buffer.from('\x89PNG\r\n\x1a\n', 'latin1'), Buffer.from([0, 0, 0, 13]), Buffer.from('IHDR')]);
  const elf = Buffer.concat([Buffer.from('\x7fELF', 'latin1'), Buffer.from([2, 1, 1, 0]), Buffer.alloc(8)]);
  const nulLate = Buffer.concat([Buffer.from(`# Notes\n\n${'Some text. '.repeat(500)}\n\n`), Buffer.from([0]), Buffer.from('more')]);

  it('detectFormat names what the first bytes are, and reads text as Markdown', () => {
    expect(() => detectFormat(png)).toThrow(expect.objectContaining({ code: 'ERR_UNSUPPORTED_FORMAT', message: 'Not a format chunkstream reads: a PNG image' }));
    expect(() => detectFormat(elf)).toThrow('Not a format chunkstream reads: an ELF program');
    expect(() => detectFormat(Buffer.from('text\0more'))).toThrow('Not a format chunkstream reads: binary data (a NUL byte at byte offset 4)');
    expect(binaryKind(Buffer.from('BZh91AY&SY'))).toBe('a bzip2 archive');
    expect(detectFormat('# Title\n\nText.')).toBe('markdown');
    expect(detectFormat('%PDF-1.7')).toBe('pdf');
  });

  it('is ERR_UNSUPPORTED_FORMAT from the synchronous parsers and chunkText, naming where the NUL is', () => {
    for (const run of [() => chunkText(nulLate), () => parseMarkdown(nulLate), () => parseText(nulLate), () => chunkText('text with a \0 inside')]) {
      expect(run).toThrow(expect.objectContaining({ code: 'ERR_UNSUPPORTED_FORMAT', message: expect.stringMatching(/^Binary data, not text: a NUL (byte at byte offset \d+|character at offset 12)$/) }));
    }
  });

  it('ends a stream with ERR_UNSUPPORTED_FORMAT, detected or not, the NUL at the start or far into it', async () => {
    for (const [pieces, format] of [
      [[png], 'auto'],
      [cutInto(nulLate, [0.2, 0.5]), 'auto'],
      [cutInto(nulLate, [0.2, 0.5]), 'markdown'],
      [[elf], 'text'],
    ] as const) {
      await expect(streamed([...pieces], format)).rejects.toMatchObject({ code: 'ERR_UNSUPPORTED_FORMAT' });
    }
  });

  it('is ERR_UNSUPPORTED_FORMAT from chunkFile, whatever the file is named', async () => {
    const files: [string, Buffer][] = [
      ['picture.png', png],
      ['program', elf],
      ['disguised.md', png],
      ['notes.txt', nulLate],
    ];
    for (const [name, bytes] of files) {
      const path = join(dir, name);
      writeFileSync(path, bytes);
      await expect(chunkFile(path), name).rejects.toMatchObject({ code: 'ERR_UNSUPPORTED_FORMAT' });
    }
  });
});
