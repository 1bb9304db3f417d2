import { describe, expect, it } from 'vitest';
import { splitOptions } from '../src/api/chunk.js';
import { normalizeOptions, normalizeParseOptions } from '../src/config.js';
import { CLI_PARSE_KEYS, OPTION_TABLE, optionKeys, optionScope } from '../src/options.js';

const sorted = (keys: Iterable<string>): string[] => [...keys].sort();
const rowsOf = (...scopes: string[]) => OPTION_TABLE.filter((o) => scopes.includes(o.scope)).map((o) => o.key);

describe('the option table', () => {
  it('holds every key normalizeOptions accepts, and no other chunking key', () => {
    // A normalized config has one field per option, so its keys are the options the normalizer takes.
    expect(sorted(rowsOf('chunk', 'both'))).toEqual(sorted(Object.keys(normalizeOptions())));
    for (const key of optionKeys('chunk')) expect(() => normalizeOptions({ [key]: undefined })).not.toThrow();
    for (const key of rowsOf('parse', 'run')) {
      expect(() => normalizeOptions({ [key]: undefined } as never)).toThrow(expect.objectContaining({ code: 'ERR_INVALID_OPTION', message: expect.stringMatching(new RegExp(`^Invalid option ${key}: is not a known option`)) }));
    }
  });

  it('holds every key normalizeParseOptions accepts, and no other parse key', () => {
    expect(sorted(rowsOf('parse', 'both'))).toEqual(sorted(Object.keys(normalizeParseOptions())));
    for (const key of optionKeys('parse')) expect(() => normalizeParseOptions({ [key]: undefined })).not.toThrow();
    for (const key of rowsOf('chunk', 'run')) {
      expect(() => normalizeParseOptions({ [key]: undefined } as never)).toThrow(expect.objectContaining({ code: 'ERR_INVALID_OPTION' }));
    }
  });

  it('names each key once', () => {
    const keys = OPTION_TABLE.map((o) => o.key);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('gives the signal to both normalizers and only to them: a program passes it, the command line has none', () => {
    expect(OPTION_TABLE.filter((o) => o.scope === 'both').map((o) => o.key)).toEqual(['signal']);
    expect(OPTION_TABLE.find((o) => o.key === 'signal')?.flag).toBeUndefined();
  });

  it('passes to every file of a run the parse options that have a flag, but the format', () => {
    expect(CLI_PARSE_KEYS).toEqual(['password', 'fatal', 'maxPdfBytes']);
  });
});

describe('splitOptions', () => {
  it('sends each option to its normalizer by the table, the signal to both and unknown keys to chunking', () => {
    const signal = new AbortController().signal;
    const { parseOptions, chunkOptions } = splitOptions({ maxSize: 100, fatal: true, workers: 0, format: 'pdf', signal, bogus: 1 } as never);
    expect(parseOptions).toEqual({ fatal: true, workers: 0, format: 'pdf', signal });
    expect(chunkOptions).toEqual({ maxSize: 100, signal, bogus: 1 });
  });

  it('leaves no option behind', () => {
    const all = Object.fromEntries(OPTION_TABLE.filter((o) => o.scope !== 'run').map((o) => [o.key, undefined]));
    const { parseOptions, chunkOptions } = splitOptions(all);
    expect(sorted(new Set([...Object.keys(parseOptions), ...Object.keys(chunkOptions)]))).toEqual(sorted(Object.keys(all)));
    for (const key of Object.keys(parseOptions)) expect(['parse', 'both']).toContain(optionScope(key));
    for (const key of Object.keys(chunkOptions)) expect(['chunk', 'both']).toContain(optionScope(key));
  });
});
