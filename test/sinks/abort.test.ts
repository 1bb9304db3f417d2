import { createReadStream, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { describe, expect, it } from 'vitest';
import { chunkFile } from '../../src/api/chunk.js';
import { collect } from '../../src/sinks/collect.js';
import { chunk } from '../../src/stream/chunk.js';
import { parse } from '../../src/stream/parse.js';
import { longPdf } from '../support/pdf-samples.js';
import { tempDir } from '../support/temp-dir.js';

function bigMarkdown(): string {
  return Array.from({ length: 4000 }, (_, i) => `## Part ${i}\n\nText of part ${i}, long enough to matter.\n`).join('\n');
}

describe('AbortSignal in parse(), chunk() and chunkFile()', () => {
  it('parse({ signal }) ends the pipeline with an AbortError', async () => {
    const controller = new AbortController();
    const source = Readable.from((function* () {
      for (let i = 0; i < 1000; i++) {
        if (i === 10) controller.abort();
        yield Buffer.from(`Paragraph ${i}.\n\n`);
      }
    })());
    await expect(pipeline(source, parse({ signal: controller.signal }), collect)).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('chunk({ signal }) ends the pipeline with an AbortError', async () => {
    const controller = new AbortController();
    const run = pipeline(Readable.from([bigMarkdown()]), parse(), chunk({ signal: controller.signal }), async (source: AsyncIterable<unknown>) => {
      for await (const _c of source) controller.abort();
    });
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('chunkFile(path, { signal }) rejects with an AbortError, when its signal is aborted', async () => {
    const dir = tempDir('abort');
    const path = join(dir, 'big.md');
    writeFileSync(path, bigMarkdown());
    await expect(chunkFile(path, { signal: AbortSignal.abort() })).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('parse({ signal }) on a PDF ends with an AbortError between pages', async () => {
    const path = join(tempDir('abort'), 'long.pdf');
    writeFileSync(path, longPdf(12));
    const controller = new AbortController();
    const run = pipeline(createReadStream(path), parse({ signal: controller.signal }), async (source: AsyncIterable<unknown>) => {
      for await (const _b of source) controller.abort();
    });
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
    await expect(chunkFile(path, { signal: AbortSignal.abort() })).rejects.toMatchObject({ name: 'AbortError' });
  });
});
