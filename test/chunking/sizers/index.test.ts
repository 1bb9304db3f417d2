import { describe, expect, it } from 'vitest';
import { isChunkError } from '../../../src/errors.js';
import { charSizer, countTokens, createSizer } from '../../../src/chunking/sizers/index.js';
import type { SizeUnit } from '../../../src/config.js';

const base = { unit: 'tokens', encoding: 'cl100k_base', graphemes: false, locale: 'en' } as const;

describe('createSizer', () => {
  it('measures tokens of the configured encoding', () => {
    const text = 'Tokenization of “smart quotes” 🤖 and 12345.';
    expect(createSizer(base).size(text)).toBe(countTokens(text, 'cl100k_base'));
    expect(createSizer({ ...base, encoding: 'o200k_base' }).size(text)).toBe(countTokens(text, 'o200k_base'));
    expect(countTokens(text, 'cl100k_base')).not.toBe(countTokens(text, 'o200k_base'));
  });

  it('measures UTF-16 units for chars, grapheme clusters with graphemes', () => {
    expect(createSizer({ ...base, unit: 'chars' })).toBe(charSizer);
    expect(createSizer({ ...base, unit: 'chars' }).size('e\u0301👍🏽')).toBe(6);
    expect(createSizer({ ...base, unit: 'chars', graphemes: true }).size('e\u0301👍🏽')).toBe(2);
  });

  it('measures word-like segments for words', () => {
    expect(createSizer({ ...base, unit: 'words' }).size('One, two — three.')).toBe(3);
  });

  it('rejects an unknown unit with ERR_INVALID_OPTION', () => {
    try {
      createSizer({ ...base, unit: 'bytes' as SizeUnit });
      expect.unreachable();
    } catch (error) {
      expect(isChunkError(error, 'ERR_INVALID_OPTION')).toBe(true);
      expect((error as Error).message).toMatch(/unit.*'tokens'.*"bytes"/);
    }
  });
});
