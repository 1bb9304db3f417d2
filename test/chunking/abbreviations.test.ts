/**
 * Sentence ends after abbreviations, on a corpus of sentences that each hold one where `Intl.Segmenter` ends a
 * sentence (`test/fixtures/abbreviation-sentences.txt`, one sentence a line, written for this test).
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { abbreviationsFor, createAbbreviationTest, SENTENCE_ABBREVIATIONS } from '../../src/chunking/abbreviations.js';
import { charSizer } from '../../src/chunking/sizers/basic.js';
import { createTextSplitter } from '../../src/chunking/text-splitter.js';
import { createTokenSizer } from '../../src/chunking/sizers/index.js';
import { fcParams } from '../support/property.js';

const sentences = readFileSync(new URL('../fixtures/abbreviation-sentences.txt', import.meta.url), 'utf8').trim().split('\n');
const paragraph = sentences.join(' ');
/** Offsets where one corpus sentence ends and the next begins: the only places a sentence-level cut belongs. */
const trueEnds = new Set<number>();
for (let at = 0, i = 0; i < sentences.length; i++) {
  at += (sentences[i] as string).length;
  trueEnds.add(at);
  at += 1;
}
const tokens = createTokenSizer('cl100k_base');
const longest = Math.max(...sentences.map((s) => tokens.size(s)));

/** Cuts between spans that are not at a true sentence end, each shown with the text before it. */
function wrongCuts(abbreviations: readonly string[] | false | undefined, maxSize: number): string[] {
  const splitter = createTextSplitter({ sizer: tokens, locale: 'en', ...(abbreviations === undefined ? {} : { abbreviations }) });
  const spans = splitter.split(paragraph, maxSize);
  return spans.slice(0, -1).filter((s) => !trueEnds.has(s.end)).map((s) => paragraph.slice(Math.max(0, s.end - 12), s.end));
}

describe('sentence boundaries and abbreviations', () => {
  it('never cuts after an abbreviation of the corpus, at any size that holds each sentence', () => {
    for (const maxSize of [longest, longest + 5, 40, 64, 100]) {
      if (maxSize < longest) continue;
      expect(wrongCuts(undefined, maxSize)).toEqual([]);
    }
  });

  it('would cut there with abbreviations off: the test can fail', () => {
    const cuts = wrongCuts(false, 40);
    const isAbbreviation = createAbbreviationTest(abbreviationsFor('en'));
    console.log(`abbreviations off, 40 tokens: ${cuts.length} cuts inside a sentence: ${JSON.stringify(cuts)}`);
    expect(cuts.length).toBeGreaterThan(2);
    expect(cuts.every((c) => isAbbreviation(c, c.length))).toBe(true);
  });

  it('on a long paragraph full of "Mr.", cuts only between sentences', () => {
    const names = ['Smith', 'Brown', 'Jones', 'Taylor', 'Wilson', 'Davies', 'Evans', 'Thomas', 'Roberts', 'Walker'];
    const text = names.map((n, i) => `On day ${i + 1} of the visit, Mr. ${n} walked along the harbour and talked with the fishermen about the weather.`).join(' ');
    const afterMr = (abbreviations?: false) => {
      const spans = createTextSplitter({ sizer: tokens, ...(abbreviations === false ? { abbreviations } : {}) }).split(text, 40);
      return { cuts: spans.length - 1, afterMr: spans.slice(0, -1).filter((s) => text.slice(0, s.end).endsWith('Mr.')).length };
    };
    const off = afterMr(false);
    const on = afterMr();
    console.log(`"Mr." paragraph at 40 tokens: abbreviations off ${off.afterMr} of ${off.cuts} cuts after "Mr.", on ${on.afterMr} of ${on.cuts}`);
    expect(off.afterMr).toBeGreaterThan(0);
    expect(on.afterMr).toBe(0);
  });

  it('recognises listed words, initials and dotted letters, but not "I." or a word that merely ends a sentence', () => {
    const test = createAbbreviationTest(abbreviationsFor('en-GB'));
    const ends = (text: string) => test(text, text.length);
    for (const yes of ['Ask Mr. ', 'see e.g.', 'in the U.S. ', 'at 5 p.m.', 'John F. ', '(cf. ', 'Ph.D.']) expect(ends(yes)).toBe(true);
    for (const no of ['He said no. ', 'so did I. ', 'in 1999. ', 'Mr', 'the end.', 'ABC. ', '中.文. ']) expect(ends(no)).toBe(false);
    expect(createAbbreviationTest(['z.B.'])('siehe z.B.', 10)).toBe(true);
    expect(abbreviationsFor('de-CH')).toBe(SENTENCE_ABBREVIATIONS.de);
    expect(abbreviationsFor('ja')).toEqual([]);
  });

  it('refuses a malformed list with ERR_INVALID_OPTION', () => {
    expect(() => createTextSplitter({ sizer: charSizer, abbreviations: ['Mr'] })).toThrow(expect.objectContaining({ code: 'ERR_INVALID_OPTION', option: 'abbreviations' }));
  });

  it('leaves CJK and other scripts without case exactly as Intl.Segmenter cuts them', () => {
    const word = fc.constantFrom('日本語', '中文', '東京', '한국어', 'ภาษาไทย', 'العربية', 'עברית', 'हिन्दी', '中', '文', 'ก', 'ب');
    const end = fc.constantFrom('。', '！', '？', '.', '. ', '। ', '؟ ', '!');
    const text = fc.array(fc.tuple(fc.array(word, { minLength: 1, maxLength: 6 }), fc.constantFrom('', ' '), end), { minLength: 1, maxLength: 30 }).map((s) => s.map(([w, sep, e]) => w.join(sep) + e).join(''));
    fc.assert(
      fc.property(text, fc.constantFrom(4, 8, 16, 40), fc.constantFrom('ja', 'zh', 'th', 'ar', 'hi', 'en'), (t, maxSize, locale) => {
        const withList = createTextSplitter({ sizer: tokens, locale }).split(t, maxSize);
        const without = createTextSplitter({ sizer: tokens, locale, abbreviations: false }).split(t, maxSize);
        expect(withList).toEqual(without);
      }),
      fcParams(100),
    );
  });
});
