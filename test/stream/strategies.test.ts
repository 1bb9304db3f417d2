import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { describe, expect, it } from 'vitest';
import { byMarkers } from '../../src/chunking/strategies/markers.js';
import { byTurns } from '../../src/api/strategies.js';
import { fixedSize } from '../../src/chunking/strategies/fixed.js';
import { slidingWindow } from '../../src/chunking/strategies/window.js';
import { parse } from '../../src/stream/parse.js';
import { byMarkersStream, fixedSizeStream, slidingWindowStream, turnGroups } from '../../src/stream/strategies.js';
import type { Chunk } from '../../src/types.js';
import type { Transform } from 'node:stream';

async function run(stages: Transform[], input: unknown[]): Promise<Chunk[]> {
  const out: Chunk[] = [];
  await pipeline(Readable.from(input, { objectMode: true }), ...(stages as [Transform]), async (source: AsyncIterable<Chunk>) => {
    for await (const c of source) out.push(c);
  });
  return out;
}

/** The UTF-8 bytes of `text` in pieces of `size` bytes, cutting multi-byte sequences. */
function bytePieces(text: string, size: number): Buffer[] {
  const bytes = Buffer.from(text);
  const out: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size));
  return out;
}

const text = 'Première ligne — avec des mots.\r\n\r\nZweite Zeile 😀 und mehr Wörter hier.\n\nThird paragraph, the last one.\n';
const source = { id: 'doc', origin: 'in.md', text };

describe('strategy streams', () => {
  it('fixedSizeStream gives the chunks of fixedSize, bytes cut anywhere', async () => {
    for (const size of [1, 2, 7]) {
      const out = await run([fixedSizeStream(9, { documentId: 'doc', origin: 'in.md' })], bytePieces(text, size));
      expect(out).toEqual(fixedSize(9)(source));
    }
  });

  it('slidingWindowStream gives the chunks of slidingWindow, bytes cut anywhere', async () => {
    for (const size of [1, 3, 64]) {
      const out = await run([slidingWindowStream({ size: 20, overlap: 8, documentId: 'doc', origin: 'in.md' })], bytePieces(text, size));
      expect(out).toEqual(slidingWindow({ size: 20, overlap: 8 })(source));
    }
  });

  it('byMarkersStream gives the chunks of byMarkers', async () => {
    const out = await run([byMarkersStream({ maxSize: 40, minSize: 10, documentId: 'doc', origin: 'in.md' })], bytePieces(text, 5));
    expect(out).toEqual(byMarkers({ maxSize: 40, minSize: 10 })(source));
  });

  it('byMarkersStream fails with ERR_BUFFER_OVERFLOW past maxBufferChars', async () => {
    await expect(run([byMarkersStream({ maxSize: 40, maxBufferChars: 10 })], ['0123456789', 'x'])).rejects.toMatchObject({ code: 'ERR_BUFFER_OVERFLOW' });
  });

  it('turnGroups after parse gives the chunks of byTurns', async () => {
    const transcript = 'A: one\nB: two\nA: three\nB: four\nA: five\n';
    const out = await run([parse({ format: 'transcript' }), turnGroups({ turnsPerChunk: 3, overlapTurns: 1, documentId: 'doc' })], bytePieces(transcript, 4));
    expect(out).toEqual(byTurns({ turnsPerChunk: 3, overlapTurns: 1 })({ id: 'doc', text: transcript }));
    expect(out.length).toBe(2);
  });

  it('text streams refuse objects with ERR_INVALID_INPUT', async () => {
    await expect(run([fixedSizeStream(4)], [{ not: 'text' }])).rejects.toMatchObject({ code: 'ERR_INVALID_INPUT' });
  });

  it('refuses an empty documentId', () => {
    expect(() => slidingWindowStream({ size: 5, documentId: 7 as unknown as string })).toThrow("Invalid option documentId: must be a string (or '' for a document without an id), got 7");
  });

  it('ends with an AbortError when aborted', async () => {
    const controller = new AbortController();
    const stream = slidingWindowStream({ size: 5, signal: controller.signal });
    const done = run([stream], (async function* () {
      yield 'some words ';
      controller.abort();
      await new Promise((r) => setTimeout(r, 10));
      yield 'more words';
    })() as unknown as unknown[]);
    await expect(done).rejects.toMatchObject({ name: 'AbortError' });
  });
});
