/**
 * The text levels' shortcut for words below the combining marks (`visitPlainWords`): it must visit the ranges the
 * general path (`subranges`, through the range trimmer and its cluster checks) gives at the same level.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createDescent, createSpanList, type Levels } from '../../src/chunking/levels.js';
import { SPACED_WORD, subranges, visitPlainWords, type Segmenters } from '../../src/chunking/text-levels.js';
import { fcParams } from '../support/property.js';

const SEGMENTERS: Segmenters = {
  sentence: new Intl.Segmenter('en', { granularity: 'sentence' }),
  word: new Intl.Segmenter('en', { granularity: 'word' }),
  grapheme: new Intl.Segmenter('en', { granularity: 'grapheme' }),
  abbreviation: null,
};

/** Levels that keep every span whole: the descent records what it is given. */
const KEEP_ALL: Levels<undefined> = { measure: () => 1, keepsWhole: () => true, cutBelow: () => undefined };

function plainWordRanges(text: string, start: number, end: number, enough = Number.POSITIVE_INFINITY): { start: number; end: number }[] {
  const list = createSpanList(-1, enough);
  visitPlainWords(text, start, end, 99, createDescent(KEEP_ALL, 10, list));
  return list.spans.map((s) => ({ start: s.start, end: s.end }));
}

/** Text below U+0300: letters, Latin-1, spacing modifiers, every kind of whitespace and line end, controls. */
const plainText = fc.array(fc.constantFrom('a', 'Z', '7', '.', 'é', '\u02ff', '\u00ad', ' ', '  ', '\n', '\r\n', '\r', '\t', '\u00a0', '\x01', '\x7f'), { maxLength: 80 }).map((parts) => parts.join(''));

describe('visitPlainWords', () => {
  it('visits the words subranges gives at the spaced-word level, in order', () => {
    fc.assert(
      fc.property(
        plainText.chain((text) => fc.tuple(fc.constant(text), fc.integer({ min: 0, max: text.length }), fc.integer({ min: 0, max: text.length }))),
        ([text, a, b]) => {
          const [start, end] = a <= b ? [a, b] : [b, a];
          expect(plainWordRanges(text, start, end)).toEqual(subranges(text, start, end, SPACED_WORD, SEGMENTERS));
        },
      ),
      fcParams(300),
    );
  });

  it('stops once the span list has enough', () => {
    const text = 'one two three four five six';
    // Done once the spans between the first and the last measure more than 2 (each measures 1): after the fifth.
    expect(plainWordRanges(text, 0, text.length, 2).map((r) => text.slice(r.start, r.end))).toEqual(['one', 'two', 'three', 'four', 'five']);
  });

  it('passes the size of a word that is the whole range on, without measuring it', () => {
    const list = createSpanList();
    visitPlainWords('  word  ', 2, 6, 42, createDescent(KEEP_ALL, 10, list));
    expect(list.spans.map((s) => s.size)).toEqual([42]);
  });
});
