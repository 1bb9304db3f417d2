import { describe, expect, it } from 'vitest';
import { isChunkError } from '../../src/errors.js';
import { charSizer, createTokenSizer, createWordSizer } from '../../src/chunking/sizers/index.js';
import { createTextSplitter } from '../../src/chunking/text-splitter.js';
import type { Sizer } from '../../src/protocols.js';
import type { Span } from '../../src/types.js';
import { checkSpans } from '../support/span-checks.js';

const slices = (text: string, spans: Span[]): string[] => spans.map((s) => text.slice(s.start, s.end));

function expectInvalid(run: () => unknown, option: string, pattern: RegExp): void {
  try {
    run();
    expect.unreachable();
  } catch (error) {
    expect(isChunkError(error, 'ERR_INVALID_OPTION')).toBe(true);
    expect((error as { option?: string }).option).toBe(option);
    expect((error as Error).message).toMatch(pattern);
  }
}

describe('createTextSplitter: level choice', () => {
  it('cuts two paragraphs that each fit exactly between them', () => {
    const a = 'First paragraph. It has two sentences.';
    const b = 'Second paragraph, also short. Still two sentences.';
    const text = `${a}\n\n${b}\n`;
    const spans = createTextSplitter({ sizer: charSizer }).split(text, 60);
    expect(slices(text, spans)).toEqual([a, b]);
  });

  it('packs small paragraphs together up to the target', () => {
    // Where a piece ends among places that all fit is chosen by content (content-cuts.ts), not as late as possible.
    const words = ['One.', 'Two.', 'Three.', 'Four.', 'Five.', 'Six.', 'Seven.', 'Eight.'];
    const paragraphs = Array.from({ length: 40 }, (_, i) => `${words[i % 8]}${i}`);
    const text = paragraphs.join('\n\n');
    const pieces = slices(text, createTextSplitter({ sizer: charSizer }).split(text, 100, 30));
    expect(pieces.join('\n\n')).toBe(text);
    expect(pieces.every((p) => p.length <= 30)).toBe(true);
    expect(pieces.length).toBeLessThan(paragraphs.length / 1.8);
  });

  it('cuts a paragraph that does not fit at sentence ends', () => {
    const text = 'The cat sat on the mat. The dog lay on the rug. The bird sang in the tree. The fish swam.';
    const spans = createTextSplitter({ sizer: createWordSizer() }).split(text, 12);
    // 19 words in pieces of at most 12, each ending a sentence (which sentences go together is the content's choice).
    const pieces = slices(text, spans);
    expect(pieces.join(' ')).toBe(text);
    for (const s of pieces) expect(s.endsWith('.') && s.split(' ').length <= 12).toBe(true);
  });

  it('keeps a fitting paragraph whole next to one cut into sentences', () => {
    const short = 'A short paragraph.';
    const long = 'Sentence one is here. Sentence two is here. Sentence three is here.';
    const text = `${short}\n\n${long}`;
    const spans = createTextSplitter({ sizer: charSizer }).split(text, 45, 20);
    expect(slices(text, spans)).toEqual([short, 'Sentence one is here.', 'Sentence two is here.', 'Sentence three is here.']);
  });

  it('cuts a sentence that does not fit between words', () => {
    const text = 'alpha beta gamma delta epsilon zeta eta theta iota kappa';
    const spans = createTextSplitter({ sizer: charSizer }).split(text, 20);
    const parts = slices(text, spans);
    expect(parts.length).toBeGreaterThan(1);
    expect(parts.every((s) => s.length <= 20)).toBe(true);
    // Cut between words, never inside one.
    expect(parts.join(' ')).toBe(text);
  });

  it('cuts a script without spaces at dictionary words, not inside them', () => {
    const text = '今日は良い天気です明日も晴れるでしょう';
    const spans = createTextSplitter({ sizer: charSizer, locale: 'ja' }).split(text, 6);
    checkSpans(text, spans, charSizer, 6);
    expect(slices(text, spans).join('')).toBe(text);
    const words = new Set([...new Intl.Segmenter('ja', { granularity: 'word' }).segment(text)].map((s) => s.index));
    for (const span of spans) expect(words.has(span.start)).toBe(true);
  });

  it('cuts a run too long for dictionary segmentation between plain words and single ideographs', () => {
    // Over 1,024 units with no space and no sentence end: CJK between links, as a list exported without spaces.
    const item = '[链接](https://example.org/docs/Web/CSS/:active)、第二個項目';
    const text = item.repeat(40);
    const spans = createTextSplitter({ sizer: charSizer }).split(text, 30);
    checkSpans(text, spans, charSizer, 30);
    expect(slices(text, spans).join('')).toBe(text);
    // A word of a spaced script is never cut: each is shorter than maxSize.
    for (const span of spans) {
      expect(/[a-z]/i.test(text[span.start - 1] ?? '') && /[a-z]/i.test(text[span.start] ?? '')).toBe(false);
    }
  });

  it('cuts a run without letters or digits into runs of clusters as long as fit', () => {
    const text = '>'.repeat(5000);
    const spans = createTextSplitter({ sizer: charSizer }).split(text, 512);
    checkSpans(text, spans, charSizer, 512);
    expect(spans.map((s) => s.end - s.start)).toEqual([512, 512, 512, 512, 512, 512, 512, 512, 512, 392]);
  });

  it('cuts a word longer than maxSize between grapheme clusters, never inside one', () => {
    const text = 'x👨‍👩‍👧‍👦e\u0301🇫🇷'.repeat(4);
    const spans = createTextSplitter({ sizer: charSizer }).split(text, 12);
    checkSpans(text, spans, charSizer, 12);
    expect(spans.length).toBeGreaterThan(4);
  });

  it('returns a single cluster larger than maxSize as its own span', () => {
    const family = '👨‍👩‍👧‍👦';
    const text = `ab ${family} cd`;
    const spans = createTextSplitter({ sizer: charSizer }).split(text, 3);
    expect(slices(text, spans)).toEqual(['ab', family, 'cd']);
  });

  it('keeps a space that carries a combining mark with its mark', () => {
    const text = 'abc \u0301def';
    const spans = createTextSplitter({ sizer: charSizer }).split(text, 5);
    expect(slices(text, spans)).toEqual(['abc', ' \u0301def']);
  });

  it('treats CRLF blank lines as paragraph breaks', () => {
    const text = 'First line\r\n\r\nSecond line\r\n';
    const spans = createTextSplitter({ sizer: charSizer }).split(text, 12);
    expect(slices(text, spans)).toEqual(['First line', 'Second line']);
  });

  it('returns no span for empty or whitespace-only text', () => {
    const splitter = createTextSplitter({ sizer: charSizer });
    expect(splitter.split('', 10)).toEqual([]);
    expect(splitter.split(' \n\r\n\t\u3000 ', 10)).toEqual([]);
  });
});

describe('createTextSplitter: measurement', () => {
  it('measures each piece once and each packed span once more', () => {
    const calls: string[] = [];
    const sizer: Sizer = { size: (t) => (calls.push(t), t.length) };
    const text = Array.from({ length: 50 }, (_, i) => `Paragraph number ${i} is here.`).join('\n\n');
    const spans = createTextSplitter({ sizer }).split(text, 200);
    checkSpans(text, spans, charSizer, 200);
    // 50 pieces, plus at most two measurements (first piece alone, finished span) per span.
    expect(calls.length).toBeLessThanOrEqual(50 + 2 * spans.length);
    const measured = calls.reduce((n, t) => n + t.length, 0);
    expect(measured).toBeLessThanOrEqual(3 * text.length);
  });

  it('shrinks a span the sizer finds too large though its pieces add up', () => {
    // Every space costs 5 units inside a span, but pieces are measured with one space at most.
    const sizer: Sizer = { size: (t) => t.length + 4 * ((t.match(/ /g)?.length ?? 0) > 1 ? t.match(/ /g)!.length : 0) };
    const text = 'aa bb cc dd ee ff gg hh ii jj';
    const spans = createTextSplitter({ sizer }).split(text, 12);
    checkSpans(text, spans, sizer, 12);
  });

  it('stays within maxSize in tokens where whitespace changes the count', () => {
    const sizer = createTokenSizer('cl100k_base');
    const text = 'Хорошо Хорошо Хорошо. Привет мир! 你好世界。 '.repeat(40);
    for (const max of [3, 8, 32]) checkSpans(text, createTextSplitter({ sizer }).split(text, max), sizer, max);
  });

  it('splits a 2 MB paragraph without blank lines', () => {
    const sentence = 'A sentence that goes on, with words and commas; then it ends. ';
    const text = sentence.repeat(Math.ceil(2_000_000 / sentence.length));
    const sizer = createTokenSizer('cl100k_base');
    const spans = createTextSplitter({ sizer }).split(text, 512, 384);
    expect(spans.length).toBeGreaterThan(1_000);
    expect(spans[0]!.start).toBe(0);
    expect(spans[spans.length - 1]!.end).toBe(text.length - 1);
    for (let i = 1; i < spans.length; i++) expect(text[spans[i]!.start - 1]).toBe(' ');
  });

  it('splits 2 MB without any whitespace or punctuation', () => {
    const text = 'x'.repeat(2_000_000);
    const spans = createTextSplitter({ sizer: charSizer }).split(text, 1_000);
    expect(spans).toHaveLength(2_000);
  });

  it('always advances with a constant sizer over the limit: one cluster per span', () => {
    const text = 'ab c\u0301 d';
    const spans = createTextSplitter({ sizer: { size: () => 99 } }).split(text, 5);
    expect(slices(text, spans)).toEqual(['a', 'b', 'c\u0301', 'd']);
  });

  it('returns one span with a sizer that always says 0', () => {
    const text = ' one\n\ntwo three. four ';
    expect(createTextSplitter({ sizer: { size: () => 0 } }).split(text, 1)).toEqual([{ start: 1, end: text.length - 1 }]);
  });
});

describe('createTextSplitter: validation', () => {
  const splitter = createTextSplitter({ sizer: charSizer });

  it('rejects a maxSize that is not a number > 0', () => {
    for (const bad of [0, -1, Number.NaN, '10' as unknown as number]) {
      expectInvalid(() => splitter.split('text', bad), 'maxSize', /maxSize.*must be a number > 0/);
    }
  });

  it('rejects a targetSize that is not a number > 0', () => {
    expectInvalid(() => splitter.split('text', 10, 0), 'targetSize', /targetSize.*must be a number > 0, got 0/);
  });

  it('rejects text that is not a string with ERR_INVALID_INPUT', () => {
    try {
      splitter.split(42 as unknown as string, 10);
      expect.unreachable();
    } catch (error) {
      expect(isChunkError(error, 'ERR_INVALID_INPUT')).toBe(true);
      expect((error as Error).message).toMatch(/needs a string, got number/);
    }
  });

  it('rejects a locale that is not a language tag', () => {
    expectInvalid(() => createTextSplitter({ sizer: charSizer, locale: 'not a locale!' }), 'locale', /locale.*BCP 47.*"not a locale!"/);
  });

  it('rejects a sizer without a size method', () => {
    expectInvalid(() => createTextSplitter({ sizer: {} as Sizer }), 'sizer', /sizer.*size\(text\)/);
  });

  it('caps targetSize at maxSize', () => {
    const text = 'aaaa bbbb cccc dddd';
    expect(splitter.split(text, 9, 1_000)).toEqual(splitter.split(text, 9));
  });
});
