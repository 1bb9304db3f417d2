import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countWords, EMPTY_METADATA, finishChunk } from '../../src/chunking/chunk-factory.js';
import { fcParams } from '../support/property.js';

describe('countWords', () => {
  it('counts the runs /\\S+/g finds', () => {
    expect(countWords('')).toBe(0);
    expect(countWords('  one two\tthree\nfour  ')).toBe(4);
    expect(countWords('a\u00a0b\u2003c\u3000d\ufeffe\u200bf')).toBe(5);
    const unit = fc.constantFrom('a', 'é', '中', '\ud83d\ude00', ' ', '\t', '\n', '\r', '\u000b', '\f', '\u00a0', '\u1680', '\u2000', '\u200a', '\u200b', '\u2028', '\u2029', '\u202f', '\u205f', '\u3000', '\ufeff', '\u0085', '\u001f');
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 30 }).map((u) => u.join('')), (text) => {
        expect(countWords(text)).toBe((text.match(/\S+/g) ?? []).length);
      }),
      fcParams(2000),
    );
  });
});

describe('finishChunk', () => {
  it('gives the metadata of { ...EMPTY_METADATA, ...draft.metadata }: the same fields, values and order', () => {
    const owner = { documentId: 'doc' };
    const draft = { text: 'a b', start: 0, end: 3, startLine: 1, endLine: 1, size: 2 };
    const partials = [undefined, {}, { hasCode: true, kinds: ['code' as const] }, { oversizedReason: 'too long', isSplit: true }, { images: ['x.png'], fallback: 'text-splitter' as const, hasImage: true }];
    for (const metadata of partials) {
      const { metadata: made } = finishChunk({ ...draft, ...(metadata === undefined ? {} : { metadata }) }, owner, 0, 'doc#1');
      const expected = { ...EMPTY_METADATA, ...metadata };
      expect(Object.keys(made)).toEqual(Object.keys(expected));
      expect(made).toEqual(expected);
    }
  });
});
