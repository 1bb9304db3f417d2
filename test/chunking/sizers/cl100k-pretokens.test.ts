/**
 * The ASCII scanner must find exactly the pre-token ends of cl100k_base's own pattern, or step aside (-1) for the
 * pattern to decide.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import cl100k from 'js-tiktoken/ranks/cl100k_base';
import { describe, expect, it } from 'vitest';
import { cl100kPreTokenEnd } from '../../../src/chunking/sizers/cl100k-pretokens.js';
import { corpusFiles, describeCorpus } from '../../support/corpus.js';
import { fcParams } from '../../support/property.js';
import { sampleMarkdownFiles } from '../../support/samples.js';

const sticky = new RegExp(cl100k.pat_str, 'uy');

/** Walks `text` by the pattern; at each pre-token start, the scanner must agree or step aside. */
function compare(text: string): { tokens: number; scanned: number; mismatches: string[] } {
  let at = 0;
  let tokens = 0;
  let scanned = 0;
  const mismatches: string[] = [];
  while (at < text.length) {
    sticky.lastIndex = at;
    if (!sticky.test(text)) throw new Error(`the pattern matches nothing at ${at}`);
    const end = sticky.lastIndex;
    const scannedEnd = cl100kPreTokenEnd(text, at);
    if (scannedEnd !== -1) {
      scanned++;
      if (scannedEnd !== end) mismatches.push(`${JSON.stringify(text.slice(at, Math.max(end, scannedEnd) + 1))}: pattern ${end - at}, scanner ${scannedEnd - at}`);
    }
    tokens++;
    at = end;
  }
  return { tokens, scanned, mismatches };
}

describe('cl100kPreTokenEnd', () => {
  it('agrees with the pattern on every alternative', () => {
    const cases = [
      "it's", "IT'S", "we'Re", "they've", "I'm", "you'll", "he'd", "'x", "'", "''s", 'word', ' word', '\tword', '.word',
      '1234567', ' 12', 'a1b2', ' ...', '...\n\n', ' !?\r\n', '$$', 'a  b', 'a \n b', '  \n\n  x', '   ', ' \t x', '\n',
      '\r\n\r\n', ' \u000b\f', 'x\u001cy', 'a.b', ' \u00e9t\u00e9', 'caf\u00e9', '12\u00b3', 'a\u00a0b', '\u2014 dash', '\ud83d\ude00 ok',
    ];
    for (const text of cases) expect(compare(text).mismatches, text).toEqual([]);
    expect(compare("it's 1234 words.\n\n  x").scanned).toBe(compare("it's 1234 words.\n\n  x").tokens);
  });

  it('agrees with the pattern on generated text', () => {
    const unit = fc.constantFrom(
      'a', 'Z', 's', 'e', 'l', 'r', 'v', 'd', 'm', 't', "'", '1', '0', ' ', '  ', '\t', '\n', '\r', '\r\n', '\u000b', '\f', '.', ',',
      '!', '-', '_', '#', '|', '`', '/', '\u001c', '\u00e9', '\u00a0', '\u2014', '\u00b2', '\u4e2d', '\ud83d\ude00', '\u0301',
      // Outside ASCII: the replacement character, Unicode spaces and separators, long s, letters and digits of
      // other scripts, marks of an abugida, a lone surrogate.
      '\ufffd', '\u3000', '\u2028', '\u2029', '\ufeff', '\u0085', '\u017f', '\u212a', '\u0627', '\u0661', '\uff11', '\u0915\u094d', '\u00bd', '\ud800',
    );
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 40 }).map((u) => u.join('')), (text) => {
        expect(compare(text).mismatches).toEqual([]);
      }),
      fcParams(3000),
    );
  });

  it('agrees with the pattern on arbitrary UTF-16 text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 60 }), fc.string({ unit: 'binary-ascii', maxLength: 20 }), (a, b) => {
        expect(compare(a + b + a).mismatches).toEqual([]);
      }),
      fcParams(3000),
    );
  });

  it('decides the pre-tokens of text in the BMP itself, leaving only those that reach above it', () => {
    const text = 'Grüße aus Köln: 12½ km — “quotes”, \ufffd\ufffd junk, 中文文本 ١٢٣ and\u3000ideographic space.';
    const { tokens, scanned, mismatches } = compare(text);
    expect(mismatches).toEqual([]);
    expect(scanned).toBe(tokens);
    expect(compare('a \ud83d\ude00 b').scanned).toBeLessThan(compare('a \ud83d\ude00 b').tokens);
  });

  it('agrees with the pattern on the samples, and decides nearly every pre-token of English text itself', () => {
    expect(compareFiles(sampleMarkdownFiles())).toBeGreaterThan(0.95);
  });
});

describeCorpus('ASCII pre-token scanner on the Markdown', () => {
  it('agrees with the pattern on every file, and decides nearly every pre-token itself', () => {
    expect(compareFiles(corpusFiles('', ['.md']))).toBeGreaterThan(0.9);
  });
});

/** Compares scanner and pattern on every file (no mismatch allowed); returns the share of pre-tokens the scanner decided. */
function compareFiles(files: string[]): number {
  expect(files.length).toBeGreaterThan(0);
  let tokens = 0;
  let scanned = 0;
  for (const file of files) {
    const r = compare(readFileSync(file, 'utf8'));
    expect(r.mismatches, file).toEqual([]);
    tokens += r.tokens;
    scanned += r.scanned;
  }
  return scanned / tokens;
}
