import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunkBlocks, chunkFile } from '../../../src/api/chunk.js';
import { normalizeOptions } from '../../../src/config.js';
import { runCore } from '../../../src/core.js';
import { createHeadingStage } from '../../../src/chunking/heading-tracker.js';
import { createSizer } from '../../../src/chunking/sizers/index.js';
import { parseText } from '../../../src/parsers/text/parse.js';
import { parse } from '../../../src/stream/parse.js';
import type { Block } from '../../../src/types.js';
import { checkChunks } from '../../support/chunk-contracts.js';
import { cutInto } from '../../support/markdown-arbitrary.js';
import { fcParams } from '../../support/property.js';

async function streamBlocks(pieces: (string | Uint8Array)[], options: object = {}): Promise<Block[]> {
  const out: Block[] = [];
  await pipeline(
    Readable.from(pieces, { objectMode: true }),
    parse({ format: 'text', ...options }),
    new Writable({ objectMode: true, write: (b, _e, cb) => (out.push(b), cb()) }),
  );
  return out;
}

/** Plain text that Markdown would misread: setext underlines, indented lines, list and heading markers, tables, HTML. */
const line = fc.oneof(
  fc.constantFrom('Title', '=====', '-----', '    indented, not code', '# not a heading', '* not a list', '| a | b |', '<div>', '```', 'é 日本語 👩‍👩‍👧‍👦', '1. one', '> quote'),
  fc.array(fc.constantFrom('plain', 'words', 'here', 'and', 'there.', 'Mr.', 'Smith'), { minLength: 1, maxLength: 12 }).map((w) => w.join(' ')),
);
const gap = fc.constantFrom('\n', '\n\n', '\n  \n', '\r\n\r\n', '\n\t\n\n', '\n\u00a0\n');
const document = fc
  .array(fc.tuple(fc.array(line, { minLength: 1, maxLength: 4 }), gap), { minLength: 1, maxLength: 12 })
  .chain((paragraphs) =>
    fc.tuple(fc.constantFrom('', '\n', '  '), fc.constantFrom('', '\n', '\n\n')).map(([lead, tail]) => lead + paragraphs.map(([lines, g]) => lines.join(g.includes('\r') ? '\r\n' : '\n') + g).join('') + tail),
  );

describe('plain text', () => {
  it('gives a paragraph per run of non-blank lines, interpreting nothing', () => {
    const text = 'Title\n=====\n\n    indented line\n# hash\n\n\n* star\r\n\r\n| a | b |\n';
    const blocks = parseText(text);
    expect(blocks.map((b) => [b.kind, b.text, b.startLine, b.endLine])).toEqual([
      ['paragraph', 'Title\n=====', 1, 2],
      ['paragraph', 'indented line\n# hash', 4, 5],
      ['paragraph', '* star', 8, 8],
      ['paragraph', '| a | b |', 10, 10],
    ]);
    expect(blocks.map((b) => b.gapBefore)).toEqual(['', '\n\n    ', '\n\n\n', '\r\n\r\n']);
  });

  it('drops a BOM and reads bytes; a line longer than maxBufferBytes fails with ERR_BUFFER_OVERFLOW', () => {
    const blocks = parseText(Buffer.from('\ufeffone\n\ntwo', 'utf8'));
    expect(blocks.map((b) => [b.text, b.start])).toEqual([['one', 0], ['two', 5]]);
    expect(() => parseText('x'.repeat(2000), { maxBufferBytes: 1024, batchSize: 1024 })).toThrow(expect.objectContaining({ code: 'ERR_BUFFER_OVERFLOW' }));
  });

  it('cuts a paragraph that grows past maxBufferBytes after the line that took it past', () => {
    const text = Array.from({ length: 40 }, (_, i) => `line ${i} ${'w'.repeat(50)}`).join('\n');
    const blocks = parseText(text, { maxBufferBytes: 1024, batchSize: 1024 });
    expect(blocks.length).toBeGreaterThan(1);
    for (const b of blocks) expect(text.slice(b.start, b.end)).toBe(b.text);
    expect(blocks.map((b) => b.gapBefore + b.text).join('')).toBe(text);
  });

  it('exact slices, gaps that rebuild the text, and the same blocks from the stream under any write sizes', async () => {
    await fc.assert(
      fc.asyncProperty(document, fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 6 }), async (text, cuts) => {
        const blocks = parseText(text);
        for (const b of blocks) {
          expect(text.slice(b.start, b.end)).toBe(b.text);
          expect(b.text).toBe(b.text.trim());
          expect(b.text).not.toMatch(/\n[^\S\n]*\n/);
          expect(b.kind).toBe('paragraph');
        }
        expect(blocks.map((b) => b.gapBefore + b.text).join('') + text.slice(blocks.at(-1)?.end ?? 0)).toBe(text);
        const bytes = Buffer.from(text, 'utf8');
        expect(await streamBlocks(cutInto(bytes, cuts))).toEqual(blocks);
      }),
      fcParams(60),
    );
  });

  it('chunks keep every contract', () => {
    fc.assert(
      fc.property(document, fc.constantFrom(24, 40, 128), (text, maxSize) => {
        const config = normalizeOptions({ maxSize, documentId: 't' });
        const blocks = runCore(createHeadingStage(), parseText(text));
        const { chunks } = chunkBlocks(parseText(text), { maxSize, documentId: 't' });
        checkChunks(text, blocks, chunks, config, createSizer(config));
        expect(chunks.every((c) => c.heading.path.length === 0 && c.metadata.kinds.every((k) => k === 'paragraph'))).toBe(true);
      }),
      fcParams(60),
    );
  });

  it('chunkFile reads .txt as plain text', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chunkstream-text-'));
    try {
      writeFileSync(join(dir, 'notes.txt'), 'Heading?\n========\n\n    not code\n');
      const result = await chunkFile(join(dir, 'notes.txt'), { maxSize: 64 });
      expect(result.format).toBe('text');
      expect(result.chunks.map((c) => c.text)).toEqual(['Heading?\n========\n\n    not code']);
      expect(result.chunks[0]!.metadata.kinds).toEqual(['paragraph']);
      expect(result.chunks[0]!.metadata.hasCode).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
