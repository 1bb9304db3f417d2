import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSizer } from '../../src/chunking/sizers/index.js';
import { createTextSplitter } from '../../src/chunking/text-splitter.js';
import type { Sizer } from '../../src/protocols.js';
import { corpusFiles, describeCorpus } from '../support/corpus.js';
import { fcParams } from '../support/property.js';
import { sampleMarkdownFiles } from '../support/samples.js';
import { checkSpans, clusterBoundaries } from '../support/span-checks.js';

const sizerOf = (unit: 'tokens' | 'chars' | 'words', graphemes = false): Sizer =>
  createSizer({ unit, encoding: 'cl100k_base', graphemes, locale: 'en' });

const tokens = sizerOf('tokens');
const chars = sizerOf('chars');
const graphemeChars = sizerOf('chars', true);
const words = sizerOf('words');

interface Setting {
  readonly name: string;
  readonly sizer: Sizer;
  readonly maxSize: number;
}

const SETTINGS: Setting[] = [
  { name: 'tokens 32', sizer: tokens, maxSize: 32 },
  { name: 'tokens 128', sizer: tokens, maxSize: 128 },
  { name: 'tokens 512', sizer: tokens, maxSize: 512 },
  { name: 'chars 200', sizer: chars, maxSize: 200 },
  { name: 'chars 2000', sizer: chars, maxSize: 2000 },
  { name: 'graphemes 200', sizer: graphemeChars, maxSize: 200 },
  { name: 'words 50', sizer: words, maxSize: 50 },
];

const codePoints = (min: number, max: number, maxLength: number): fc.Arbitrary<string> =>
  fc.array(fc.integer({ min, max }), { minLength: 1, maxLength }).map((cps) => String.fromCodePoint(...cps));

/** Pieces of text chosen for their boundaries: words, sentence ends, blank lines, scripts without spaces, clusters. */
const fragment: fc.Arbitrary<string> = fc.oneof(
  { weight: 8, arbitrary: fc.stringMatching(/^[A-Za-z]{1,12}$/) },
  { weight: 6, arbitrary: fc.constantFrom(' ', ' ', ' ', '. ', '? ', '! ', ', ', '.', '\n', '\n\n', '\r\n', '\r\n\r\n', '\t', '  \n \n', '\u3000', '\u00a0') },
  { weight: 2, arbitrary: codePoints(0x4e00, 0x9fa5, 40) },
  { weight: 1, arbitrary: fc.constantFrom('。', '！', '？', '…', '»', '«') },
  { weight: 2, arbitrary: fc.constantFrom('👨‍👩‍👧‍👦', '🏳️‍🌈', '🇫🇷🇩🇪', '🇯', '👍🏽', '❤️', '😀') },
  { weight: 2, arbitrary: fc.constantFrom('e\u0301', 'a\u0308\u0323', ' \u0301', '\u0301', '\u200d', 'ก\u0e31', '\u1100\u1161\u11a8', '\u0600', '\u0915\u094d\u0937', '\ud83d') },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 8 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 8 }) },
  { weight: 1, arbitrary: fc.integer({ min: 100, max: 5_000 }).map((n) => 'x'.repeat(n)) },
  { weight: 1, arbitrary: fc.integer({ min: 100, max: 3_000 }).map((n) => '的'.repeat(n)) },
  { weight: 1, arbitrary: fc.integer({ min: 50, max: 1_000 }).map((n) => '👍🏽'.repeat(n)) },
);

const generatedText = fc.array(fragment, { maxLength: 120 }).map((parts) => parts.join(''));

describe('TextSplitter on generated text', () => {
  for (const setting of SETTINGS) {
    it(`keeps the span contract, ${setting.name}`, () => {
      const splitter = createTextSplitter({ sizer: setting.sizer, locale: 'en' });
      fc.assert(
        fc.property(generatedText, fc.constantFrom(1, 0.75, 0.3), (text, share) => {
          const spans = splitter.split(text, setting.maxSize, Math.max(1, Math.floor(setting.maxSize * share)));
          checkSpans(text, spans, setting.sizer, setting.maxSize);
        }),
        fcParams(40),
      );
    });
  }

  for (const setting of SETTINGS) {
    it(`splitHead gives the first span of split, ${setting.name}`, () => {
      const splitter = createTextSplitter({ sizer: setting.sizer, locale: 'en' });
      fc.assert(
        fc.property(generatedText, fc.constantFrom(1, 0.5, 0.1, 0.02), (text, share) => {
          // Heads are asked for at a budget down to a few units, where the text runs on far past the head.
          const budget = Math.max(1, Math.floor(setting.maxSize * share));
          const head = splitter.splitHead(text, budget);
          const first = splitter.splitSized(text, budget)[0];
          expect(head).toEqual(first);
          expect(head === undefined ? undefined : { start: head.start, end: head.end }).toEqual(splitter.split(text, budget)[0]);
        }),
        fcParams(40),
      );
    });
  }

  for (const setting of SETTINGS) {
    it(`splitSized gives the spans of split, with their exact sizes, ${setting.name}`, () => {
      const splitter = createTextSplitter({ sizer: setting.sizer, locale: 'en' });
      fc.assert(
        fc.property(generatedText, fc.constantFrom(1, 0.5), (text, share) => {
          const target = Math.max(1, Math.floor(setting.maxSize * share));
          const sized = splitter.splitSized(text, setting.maxSize, target);
          expect(sized.map(({ start, end }) => ({ start, end }))).toEqual(splitter.split(text, setting.maxSize, target));
          for (const span of sized) {
            const size = setting.sizer.size(text.slice(span.start, span.end));
            // Every span that fits comes with its size; only a lone cluster over the limit may come without.
            if (span.size !== undefined || size <= setting.maxSize) expect(span.size).toBe(size);
          }
        }),
        fcParams(40),
      );
    });
  }

  for (const setting of SETTINGS.filter((s) => ['tokens 32', 'chars 200', 'words 50'].includes(s.name))) {
    it(`splitFramed keeps the span contract measured with its prefix, ${setting.name}`, () => {
      const splitter = createTextSplitter({ sizer: setting.sizer, locale: 'en' });
      // A label whose space joins the next word's token, one before a number (a token of its own), a long one.
      fc.assert(
        fc.property(generatedText, fc.constantFrom('Ana: ', 'Dr. Ben Carter: ', '> 2024 '), (text, prefix) => {
          const spans = splitter.splitFramed(text, prefix, setting.maxSize);
          checkSpans(text, spans, { size: (t) => setting.sizer.size(prefix + t) }, setting.maxSize);
        }),
        fcParams(25),
      );
    });
  }

  it('returns the whole text as one span when it fits (chars, target = max)', () => {
    const splitter = createTextSplitter({ sizer: chars });
    fc.assert(
      fc.property(generatedText, (text) => {
        const trimmed = text.trim();
        fc.pre(trimmed.length > 0 && text.length <= 3_000);
        const spans = splitter.split(text, text.length);
        expect(spans).toHaveLength(1);
      }),
      fcParams(40),
    );
  });

  it('makes progress with adversarial sizers: constant over the limit, zero, NaN', () => {
    const adversaries: Sizer[] = [{ size: () => 1_000 }, { size: () => 0 }, { size: () => Number.NaN }, { size: (t) => t.length * t.length }];
    fc.assert(
      fc.property(fc.array(fragment, { maxLength: 20 }).map((p) => p.join('')), fc.constantFrom(...adversaries), (text, sizer) => {
        const spans = createTextSplitter({ sizer }).split(text, 10);
        checkSpans(text, spans, undefined, 10);
      }),
      fcParams(40),
    );
  });
});

/** The span contract on every file, at every setting. */
function splitFiles(files: string[]): void {
  const texts = files.map((file) => ({ file, text: readFileSync(file, 'utf8') }));
  const boundaries = new Map(texts.map(({ file, text }) => [file, clusterBoundaries(text)]));
  for (const setting of SETTINGS) {
    it(`keeps the span contract on every file, ${setting.name}`, () => {
      expect(texts.length).toBeGreaterThan(0);
      const splitter = createTextSplitter({ sizer: setting.sizer, locale: 'en' });
      let spansSeen = 0;
      for (const { file, text } of texts) {
        const spans = splitter.split(text, setting.maxSize, Math.floor(setting.maxSize * 0.75));
        try {
          checkSpans(text, spans, setting.sizer, setting.maxSize, boundaries.get(file));
        } catch (error) {
          throw new Error(`${file}: ${(error as Error).message}`);
        }
        spansSeen += spans.length;
      }
      expect(spansSeen).toBeGreaterThan(texts.length);
    });
  }
}

describe('TextSplitter on the samples', () => splitFiles(sampleMarkdownFiles()));

describeCorpus('TextSplitter on the Markdown', () => splitFiles(corpusFiles('', ['.md', '.txt'])));
