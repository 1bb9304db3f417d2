import { describe, expect, it } from 'vitest';
import { joinLines, wordsOf } from '../../../src/parsers/pdf/text.js';
import { line } from '../../support/pdf-lines.js';

const vocabulary = new Set(['information', 'tracemonkey', 'self', 'made', 'inter-procedural', 'in']);
const knows = (w: string) => vocabulary.has(w);

describe('joinLines', () => {
  it('joins soft-wrapped lines with a space', () => {
    expect(joinLines([line('one two', 0, 100), line('three', 0, 88)], knows)).toBe('one two three');
  });

  it('joins a hyphenated word when the joined word is a word of the document', () => {
    expect(joinLines([line('more infor-', 0, 100), line('mation here', 0, 88)], knows)).toBe('more information here');
    expect(joinLines([line('Trace-', 0, 100), line('Monkey runs', 0, 88)], knows)).toBe('TraceMonkey runs');
  });

  it('keeps the hyphen of a compound, without a space', () => {
    expect(joinLines([line('a self-', 0, 100), line('made man', 0, 88)], knows)).toBe('a self-made man');
    expect(joinLines([line('cheap inter-', 0, 100), line('procedural', 0, 88)], knows)).toBe('cheap inter-procedural');
  });

  it('joins a word whose first piece is no word of its own', () => {
    expect(joinLines([line('lazily discov-', 0, 100), line('ered paths', 0, 88)], knows)).toBe('lazily discovered paths');
    expect(joinLines([line('in-', 0, 100), line('formation', 0, 88)], knows)).toBe('information');
  });

  it('does not treat a dash or a hyphen before a number as a broken word', () => {
    expect(joinLines([line('long--', 0, 100), line('ago', 0, 88)], knows)).toBe('long-- ago');
    expect(joinLines([line('IEEE-', 0, 100), line('754 numbers', 0, 88)], knows)).toBe('IEEE- 754 numbers');
  });

  it('keeps the line breaks of code and of table-like rows, unless told not to', () => {
    const code = [line('for (;;) {', 0, 100, { monospace: true }), line('}', 0, 88, { monospace: true })];
    expect(joinLines(code, knows)).toBe('for (;;) {\n}');
    expect(joinLines(code, knows, false)).toBe('for (;;) { }');
    expect(joinLines([line('a b', 0, 100, { cells: 2 }), line('c d', 0, 88, { cells: 2 })], knows)).toBe('a b\nc d');
  });
});

describe('wordsOf', () => {
  it('lower-cases words of two letters or more, keeps compounds whole, and skips a piece hyphenated at the end', () => {
    expect(wordsOf('The Über-cool a X9 café infor-')).toEqual(['the', 'über-cool', 'über', 'cool', 'café']);
  });

  it('reads a word, a compound or a surrogate pair that ends the text, and no letter in a lone surrogate there', () => {
    expect(wordsOf('x ab')).toEqual(['ab']);
    expect(wordsOf('ab-cd')).toEqual(['ab-cd', 'ab', 'cd']);
    expect(wordsOf('ab-')).toEqual([]);
    expect(wordsOf('de\uD835')).toEqual(['de']);
    expect(wordsOf('d\uD835\uDC00')).toEqual(['d\uD835\uDC00']);
  });
});
