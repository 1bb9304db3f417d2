import { describe, expect, it } from 'vitest';
import { normalizeOptions, normalizeParseOptions } from '../src/config.js';

function failure(f: () => unknown): { code: string; option?: string; message: string } {
  try {
    f();
  } catch (error) {
    return error as { code: string; option?: string; message: string };
  }
  throw new Error('expected a failure');
}

describe('normalizeOptions', () => {
  it('fills defaults for a 512-token embedding model and freezes the result', () => {
    const c = normalizeOptions();
    expect(c).toMatchObject({ unit: 'tokens', encoding: 'cl100k_base', maxSize: 512, targetSize: 384, minSize: 96, overlap: 0, splitLevels: [1, 2, 3], strategy: 'semantic' });
    expect(Object.isFrozen(c)).toBe(true);
    expect(Object.isFrozen(c.splitLevels)).toBe(true);
  });

  it("doesn't modify the options object", () => {
    const options = { maxSize: 100, splitLevels: [2, 1, 2] };
    const c = normalizeOptions(options);
    expect(options).toEqual({ maxSize: 100, splitLevels: [2, 1, 2] });
    expect(c.splitLevels).toEqual([1, 2]);
  });

  const cases: [string, Record<string, unknown>, RegExp][] = [
    ['unit', { unit: 'bytes' }, /Invalid option unit: must be one of 'tokens', 'chars', 'words', got "bytes"/],
    ['encoding', { encoding: 'gpt2' }, /Invalid option encoding: "gpt2" is not a name chunkstream knows \('cl100k_base', 'o200k_base'\) nor a file/],
    ['tokenizer', { tokenizer: 42 }, /Invalid option tokenizer: 42 must be 'cl100k_base', 'o200k_base', the path of a Hugging Face tokenizer.json/],
    ['strategy', { strategy: 'magic' }, /Invalid option strategy: must be one of .*'turns', got "magic"/],
    ['graphemes', { graphemes: 'yes' }, /Invalid option graphemes: must be a boolean, got "yes"/],
    ['maxSize', { maxSize: 0 }, /Invalid option maxSize: must be an integer >= 1, got 0/],
    ['targetSize', { maxSize: 100, targetSize: 200 }, /Invalid option targetSize: must not exceed maxSize \(100\), got 200/],
    ['minSize', { maxSize: 100, targetSize: 50, minSize: 60 }, /Invalid option minSize: must not exceed targetSize \(50\), got 60/],
    ['overlap', { maxSize: 100, overlap: 100 }, /Invalid option overlap: must be less than maxSize \(100\), or no chunk could advance, got 100/],
    ['splitLevels', { splitLevels: [0, 7] }, /Invalid option splitLevels: must be an array of heading depths between 1 and 6, got \[0,7\]/],
    ['locale', { locale: 'not a locale!' }, /Invalid option locale: must be a BCP 47 language tag/],
    ['preserveTables', { preserveTables: 1 }, /Invalid option preserveTables: must be a boolean, got 1/],
    ['tableSplit', { tableSplit: 'cells' }, /Invalid option tableSplit: must be one of 'rows', got "cells"/],
    ['preserveCode', { preserveCode: 'no' }, /Invalid option preserveCode: must be a boolean/],
    ['contextualize', { contextualize: null }, /Invalid option contextualize: must be a boolean or an object such as \{ title: true \}, got null/],
    ['contextualize.title', { contextualize: { title: 'yes' } }, /Invalid option contextualize.title: must be a boolean, got "yes"/],
    ['contextualize.titel', { contextualize: { titel: true } }, /Invalid option contextualize.titel: is not a known option \(known: title\), got true/],
    ['parents', { parents: 'yes' }, /Invalid option parents: must be a boolean or an object such as \{ levels: \[1, 2\], maxSize: 2048 \}, got "yes"/],
    ['parents', { strategy: 'window', parents: true }, /Invalid option parents: needs the semantic strategy, whose chunks never cross a section \(strategy is 'window'\), got true/],
    ['parents.levels', { parents: { levels: [4] } }, /Invalid option parents.levels: must be a non-empty array of heading depths among splitLevels \(1, 2, 3\), whose sections no chunk crosses, got \[4\]/],
    ['parents.maxSize', { maxSize: 256, parents: { maxSize: 100 } }, /Invalid option parents.maxSize: must be an integer >= 256, got 100/],
    ['parents.size', { parents: { size: 100 } }, /Invalid option parents.size: is not a known option \(known: levels, maxSize\), got 100/],
    ['documentId', { documentId: 7 as unknown as string }, /Invalid option documentId: must be a string \(or '' for a document without an id\), got 7/],
    ['origin', { origin: 5 }, /Invalid option origin: must be a string, got 5/],
    ['fixedSize', { fixedSize: 0 }, /Invalid option fixedSize: must be an integer >= 1, got 0/],
    ['markers', { markers: [] }, /Invalid option markers: must be a non-empty array/],
    ['turnsPerChunk', { turnsPerChunk: 0 }, /Invalid option turnsPerChunk: must be an integer >= 1, got 0/],
    ['overlapTurns', { overlapTurns: -1 }, /Invalid option overlapTurns: must be an integer >= 0, got -1/],
    ['signal', { signal: 'abort' }, /Invalid option signal: must be an AbortSignal/],
    ['maxsize', { maxsize: 10 }, /Invalid option maxsize: is not a known option/],
  ];
  for (const [option, options, message] of cases) {
    it(`rejects an invalid ${option} with ERR_INVALID_OPTION naming it`, () => {
      const e = failure(() => normalizeOptions(options as never));
      expect(e.code).toBe('ERR_INVALID_OPTION');
      expect(e.option).toBe(option);
      expect(e.message).toMatch(message);
    });
  }

  it('reads contextualize as a boolean or { title }, and takes its own normalized form back', () => {
    expect(normalizeOptions({ contextualize: true }).contextualize).toBe(true);
    expect(normalizeOptions({ contextualize: { title: false } }).contextualize).toBe(true);
    const withTitle = normalizeOptions({ contextualize: { title: true } });
    expect(withTitle.contextualize).toEqual({ title: true });
    expect(normalizeOptions(withTitle as never).contextualize).toEqual({ title: true });
  });

  it('reads parents as true (the defaults) or { levels, maxSize }, and takes its own normalized form back', () => {
    expect(normalizeOptions({}).parents).toBeUndefined();
    // By default a parent is the section around the chunks' own: the split levels but the deepest.
    expect(normalizeOptions({ maxSize: 100, parents: true }).parents).toEqual({ levels: [1, 2], maxSize: 400 });
    expect(normalizeOptions({ maxSize: 100, splitLevels: [1, 3, 5], parents: true }).parents).toEqual({ levels: [1, 3], maxSize: 400 });
    expect(normalizeOptions({ maxSize: 100, splitLevels: [2], parents: true }).parents).toEqual({ levels: [2], maxSize: 400 });
    const config = normalizeOptions({ parents: { levels: [2, 1, 2], maxSize: 1000 } });
    expect(config.parents).toEqual({ levels: [1, 2], maxSize: 1000 });
    expect(normalizeOptions(config as never).parents).toEqual({ levels: [1, 2], maxSize: 1000 });
  });

  it('clamps overlapTurns below the window', () => {
    expect(normalizeOptions({ turnsPerChunk: 3, overlapTurns: 5 }).overlapTurns).toBe(2);
  });
});

describe('normalizeParseOptions', () => {
  it('fills defaults', () => {
    expect(normalizeParseOptions()).toMatchObject({ format: 'auto', fatal: false, maxBufferBytes: 16 * 1024 * 1024, batchSize: 8192, maxBatchSize: 32768, strict: false, workers: 'auto' });
    // A larger batch raises the default bound with it.
    expect(normalizeParseOptions({ batchSize: 65536 }).maxBatchSize).toBe(4 * 65536);
    expect(normalizeParseOptions()).toMatchObject({ maxPdfSeconds: 25, maxPdfMemoryMb: 256 });
    expect(normalizeParseOptions({ maxPdfSeconds: 0.5 }).maxPdfSeconds).toBe(0.5);
  });

  const cases: [string, Record<string, unknown>, RegExp][] = [
    ['format', { format: 'rtf' }, /Invalid option format: must be one of 'markdown', 'pdf', 'transcript', 'text', 'html', 'docx', 'auto', got "rtf"/],
    ['fatal', { fatal: 'true' }, /Invalid option fatal: must be a boolean/],
    ['maxBufferBytes', { maxBufferBytes: 10 }, /Invalid option maxBufferBytes: must be an integer >= 1024, got 10/],
    ['batchSize', { batchSize: 4096, maxBatchSize: 1024 }, /Invalid option batchSize: must not exceed maxBatchSize \(1024\), got 4096/],
    ['maxBatchSize', { maxBatchSize: 10 }, /Invalid option maxBatchSize: must be an integer >= 64, got 10/],
    ['strict', { strict: 1 }, /Invalid option strict: must be a boolean, got 1/],
    ['workers', { workers: -1 }, /Invalid option workers: must be an integer between 0 and 64, got -1/],
    ['maxPdfBytes', { maxPdfBytes: 0 }, /Invalid option maxPdfBytes: must be an integer >= 1, got 0/],
    ['password', { password: 1234 }, /Invalid option password: must be a string, got 1234/],
    ['maxPdfSeconds', { maxPdfSeconds: 0 }, /Invalid option maxPdfSeconds: must be a number of seconds above 0 and at most 604800 \(a week\), got 0/],
    ['maxPdfSeconds', { maxPdfSeconds: Number.NaN }, /Invalid option maxPdfSeconds: must be a number of seconds above 0 .*, got NaN/],
    ['maxPdfMemoryMb', { maxPdfMemoryMb: 64 }, /Invalid option maxPdfMemoryMb: must be an integer between 96 and 65536, got 64/],
    ['options', [] as unknown as Record<string, unknown>, /Invalid option options: must be an object/],
  ];
  for (const [option, options, message] of cases) {
    it(`rejects an invalid ${option} with ERR_INVALID_OPTION naming it`, () => {
      const e = failure(() => normalizeParseOptions(options as never));
      expect(e.code).toBe('ERR_INVALID_OPTION');
      expect(e.option).toBe(option);
      expect(e.message).toMatch(message);
    });
  }
});
