import { describe, expect, it } from 'vitest';
import { normalizeOptions } from '../../src/config.js';
import { charSizer, createWordSizer } from '../../src/chunking/sizers/basic.js';
import { createStrategy } from '../../src/api/strategies.js';

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
