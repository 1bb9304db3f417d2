import { describe, expect, it } from 'vitest';
import { charSizer, createGraphemeSizer, createWordSizer } from '../../../src/chunking/sizers/basic.js';

/** Counts on the whole string at once: the reference the windowed sizers must match. */
const wholeWords = (text: string): number =>
  [...new Intl.Segmenter('en', { granularity: 'word' }).segment(text)].filter((s) => s.isWordLike).length;
const wholeGraphemes = (text: string): number => [...new Intl.Segmenter('en', { granularity: 'grapheme' }).segment(text)].length;

const mixed = 'Hello, world! Ça va? 👨‍👩‍👧‍👦 e\u0301 🇫🇷🇩🇪 日本語のテキスト。 can\'t 3.14 \r\n\r\n'.repeat(150);

describe('charSizer', () => {
  it('counts UTF-16 code units', () => {
    expect(charSizer.size('')).toBe(0);
    expect(charSizer.size('abc')).toBe(3);
    expect(charSizer.size('😀')).toBe(2);
  });
});

describe('createGraphemeSizer', () => {
  const sizer = createGraphemeSizer('en');

  it('counts user-perceived characters', () => {
    expect(sizer.size('abc')).toBe(3);
    expect(sizer.size('e\u0301')).toBe(1);
    expect(sizer.size('👨‍👩‍👧‍👦')).toBe(1);
    expect(sizer.size('a\r\nb')).toBe(3);
  });

  it('counts long text in windows exactly as on the whole string', () => {
    expect(mixed.length).toBeGreaterThan(2 * 4096);
    expect(sizer.size(mixed)).toBe(wholeGraphemes(mixed));
    const flags = '🇫🇷'.repeat(3000) + ' x';
    expect(sizer.size(flags)).toBe(wholeGraphemes(flags));
  });
});

describe('createWordSizer', () => {
  const sizer = createWordSizer('en');

  it('counts word-like segments only', () => {
    expect(sizer.size('Hello, world!')).toBe(2);
    expect(sizer.size(' ... ')).toBe(0);
    expect(sizer.size("can't 3.14")).toBe(2);
  });

  it('counts long text in windows exactly as on the whole string', () => {
    expect(sizer.size(mixed)).toBe(wholeWords(mixed));
  });

  it('counts a long run without whitespace within one word per window of the whole-string count', () => {
    const run = '日本語のテキストです'.repeat(1000);
    const windows = Math.ceil(run.length / 4096);
    expect(Math.abs(sizer.size(run) - wholeWords(run))).toBeLessThanOrEqual(windows);
  });
});
