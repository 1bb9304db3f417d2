import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { atxOpenLength, isSetextUnderline } from '../../../src/parsers/markdown/block-syntax.js';

/** The regular expressions the two loops replace: what micromark reads as an ATX opening and a setext underline. */
const ATX_OPEN = /#{1,6}(?=[ \t]|$)/y;
const SETEXT_UNDERLINE = /(?:=+|-+)[ \t]*\r?$/y;

function atxByPattern(line: string, from: number): number {
  ATX_OPEN.lastIndex = from;
  return ATX_OPEN.test(line) ? ATX_OPEN.lastIndex - from : 0;
}

function setextByPattern(line: string, from: number): boolean {
  SETEXT_UNDERLINE.lastIndex = from;
  return SETEXT_UNDERLINE.test(line);
}

/** Lines of the characters the two read, and the place they are read from. */
const lines = fc.tuple(fc.array(fc.constantFrom('#', '=', '-', ' ', '\t', '\r', '\n', 'a'), { maxLength: 12 }).map((cs) => cs.join('')), fc.nat(3));

describe('block syntax read by loops', () => {
  it('atxOpenLength reads what /#{1,6}(?=[ \\t]|$)/ matches', () => {
    fc.assert(fc.property(lines, ([line, from]) => atxOpenLength(line, from) === atxByPattern(line, from)), { numRuns: 5000 });
    expect([atxOpenLength('###### a', 0), atxOpenLength('####### a', 0), atxOpenLength('#\r', 0), atxOpenLength('x ## a', 2)]).toEqual([6, 0, 0, 2]);
  });

  it('isSetextUnderline reads what /(?:=+|-+)[ \\t]*\\r?$/ matches', () => {
    fc.assert(fc.property(lines, ([line, from]) => isSetextUnderline(line, from) === setextByPattern(line, from)), { numRuns: 5000 });
    expect([isSetextUnderline('=== \t\r', 0), isSetextUnderline('=-', 0), isSetextUnderline('--\r\r', 0), isSetextUnderline('a ==', 2)]).toEqual([true, false, false, true]);
  });
});
