import { describe, expect, it } from 'vitest';
import { normalizeOptions } from '../../src/config.js';
import { charSizer, createWordSizer } from '../../src/chunking/sizers/basic.js';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { chunkText } from '../../src/api/chunk.js';
import { byTurns, createStrategy } from '../../src/api/strategies.js';
import { byMarkers, fixedSize, slidingWindow } from '../../src/chunking/strategies/index.js';
import { fixedSizeStream } from '../../src/stream/strategies.js';
import type { Chunk } from '../../src/types.js';

const source = { id: 'd', origin: 'd.md', text: 'one two three four five six seven eight nine ten' };

describe('createStrategy', () => {
  it('fixed: cuts fixedSize characters', () => {
    const chunker = createStrategy(normalizeOptions({ strategy: 'fixed', fixedSize: 20 }), charSizer);
    expect(chunker(source).map((c) => c.text.length)).toEqual([20, 20, 8]);
  });

  it('fixed: falls back to maxSize when the unit is chars', () => {
    const chunker = createStrategy(normalizeOptions({ strategy: 'fixed', unit: 'chars', maxSize: 25 }), charSizer);
    expect(chunker(source).map((c) => c.text.length)).toEqual([25, 23]);
  });

  it('fixed: explains that fixedSize is required when the unit is not chars', () => {
    expect(() => createStrategy(normalizeOptions({ strategy: 'fixed', unit: 'tokens' }), charSizer)).toThrow(
      "Invalid option fixedSize: is required with unit 'tokens': the fixed strategy cuts characters, so maxSize only stands in for it when unit is 'chars', got undefined",
    );
  });

  it('fixed: measures size with the sizer', () => {
    const [chunk] = createStrategy(normalizeOptions({ strategy: 'fixed', fixedSize: 13 }), createWordSizer())(source);
    expect(chunk).toMatchObject({ text: 'one two three', size: 3 });
  });

  it('window: maxSize as the window and overlap as the overlap', () => {
    const config = normalizeOptions({ strategy: 'window', unit: 'words', maxSize: 4, overlap: 1 });
    const chunks = createStrategy(config, createWordSizer())(source);
    expect(chunks.map((c) => c.text)).toEqual(['one two three four', 'four five six seven', 'seven eight nine ten']);
  });

  it('markers: markers, minSize and maxSize', () => {
    const config = normalizeOptions({ strategy: 'markers', unit: 'words', markers: [' five '], maxSize: 6, targetSize: 6, minSize: 0 });
    const chunks = createStrategy(config, createWordSizer())(source);
    expect(chunks.map((c) => c.text)).toEqual(['one two three four', 'five six seven eight nine ten']);
  });

  it('turns: turnsPerChunk, overlapTurns, maxSize as maxTokens, minSize as minTokens', () => {
    const config = normalizeOptions({ strategy: 'turns', unit: 'words', turnsPerChunk: 2, overlapTurns: 0, maxSize: 4, minSize: 3 });
    const chunks = createStrategy(config, createWordSizer())({ id: 't', text: 'A: hi\nB: a b c\nA: x\nB: y' });
    // 'A: hi\nB: a b c' is 6 words > 4: shrunk to 'A: hi' (2 words) and dropped below minSize 3.
    expect(chunks.map((c) => c.text)).toEqual(['B: a b c', 'A: x\nB: y']);
  });

  it('refuses the semantic strategy, which is not a whole-source chunker', () => {
    expect(() => createStrategy(normalizeOptions({}), charSizer)).toThrow(expect.objectContaining({ code: 'ERR_INVALID_OPTION', option: 'strategy' }));
  });
});

describe('the standalone strategies link neighbours', () => {
  it('as the semantic chunker does: prevId and nextId within the source, none past its ends, the same from the streams', async () => {
    const text = `# Guide\n\n${'Some words of a longer text. '.repeat(40)}\n\nLast paragraph.\n`;
    const transcript = 'A: hi there\nB: hello\nA: how are you\nB: fine\nA: bye\n';
    const lists = [fixedSize(200)({ id: 'g', text }), slidingWindow({ size: 300 })({ id: 'g', text }), byMarkers({ markers: ['. '], maxSize: 300 })({ id: 'g', text }), byTurns({ turnsPerChunk: 2, overlapTurns: 0 })({ id: 't', text: transcript })];
    for (const chunks of lists) {
      expect(chunks.length).toBeGreaterThan(2);
      expect(chunks[0]?.prevId).toBeUndefined();
      expect(chunks.at(-1)?.nextId).toBeUndefined();
      chunks.slice(1).forEach((c, i) => {
        expect(c.prevId).toBe(chunks[i]?.id);
        expect(chunks[i]?.nextId).toBe(c.id);
      });
    }
    const streamed: Chunk[] = [];
    await pipeline(Readable.from([text.slice(0, 333), text.slice(333)]), fixedSizeStream(200, { documentId: 'g' }), new Writable({ objectMode: true, write: (c, _e, cb) => (streamed.push(c), cb()) }));
    expect(streamed).toEqual(lists[0]);
  });

  it('through chunkText, carry the title chunk() reads from the document, the markers strategy too', () => {
    const text = `# Guide\n\n${'Some words of a longer text. '.repeat(40)}\n`;
    for (const strategy of ['fixed', 'window', 'markers'] as const) {
      const { chunks } = chunkText(text, { strategy, unit: 'chars', maxSize: 300, markers: ['. '] });
      expect(chunks.length, strategy).toBeGreaterThan(2);
      expect(chunks.every((c) => c.documentTitle === 'Guide'), strategy).toBe(true);
    }
  });
});
