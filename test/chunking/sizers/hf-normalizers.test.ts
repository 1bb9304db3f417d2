/**
 * Each normalizer gives the text the Rust library's gives (its Node binding's normalizers), on generated text:
 * BERT's in its settings, the Unicode forms, lowercasing (no final sigma), accent stripping, Strip, Replace,
 * Prepend, and SentencePiece's precompiled character map read grapheme by grapheme.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import * as rust from 'tokenizers';
import { describe, expect, it } from 'vitest';
import { createNormalizer } from '../../../src/chunking/sizers/hf-normalizers.js';
import { fixtureTokenizer } from '../../support/hf-reference.js';
import { fcParams } from '../../support/property.js';
import { tokenizerText } from '../../support/tokenizer-text.js';

const charsmap = (JSON.parse(readFileSync(fixtureTokenizer('unigram'), 'utf8')).normalizer.normalizers as { type: string; precompiled_charsmap?: string }[]).find((n) => n.type === 'Precompiled')!.precompiled_charsmap!;

const cases: [string, object, rust.Normalizer][] = [
  ['BERT, lowercase', { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true }, rust.bertNormalizer({ cleanText: true, handleChineseChars: true, lowercase: true })],
  ['BERT, cased', { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: false, strip_accents: false, lowercase: false }, rust.bertNormalizer({ cleanText: true, handleChineseChars: false, stripAccents: false, lowercase: false })],
  ['BERT, accents kept, lowercase', { type: 'BertNormalizer', clean_text: false, handle_chinese_chars: true, strip_accents: false, lowercase: true }, rust.bertNormalizer({ cleanText: false, handleChineseChars: true, stripAccents: false, lowercase: true })],
  ['NFKC', { type: 'NFKC' }, rust.nfkcNormalizer()],
  ['NFD', { type: 'NFD' }, rust.nfdNormalizer()],
  ['Lowercase', { type: 'Lowercase' }, rust.lowercase()],
  ['StripAccents', { type: 'StripAccents' }, rust.stripAccentsNormalizer()],
  ['StripAccents after NFD', { type: 'Sequence', normalizers: [{ type: 'NFD' }, { type: 'StripAccents' }] }, rust.sequenceNormalizer([rust.nfdNormalizer(), rust.stripAccentsNormalizer()])],
  ['Strip', { type: 'Strip', strip_left: true, strip_right: true }, rust.stripNormalizer(true, true)],
  ['Replace and Prepend', { type: 'Sequence', normalizers: [{ type: 'Prepend', prepend: '▁' }, { type: 'Replace', pattern: { String: ' ' }, content: '▁' }] }, rust.sequenceNormalizer([rust.prependNormalizer('▁'), rust.replace(' ', '▁')])],
  ['Precompiled', { type: 'Precompiled', precompiled_charsmap: charsmap }, rust.precompiled([...Buffer.from(charsmap, 'base64')])],
];

const text = fc.oneof(tokenizerText(30), fc.string({ unit: 'grapheme', maxLength: 30 }), fc.constantFrom('a\r\nb', 'e\u0301\u0301x', '\u1100\u1161\u11a8', 'ＡＢＣ　ﬁ①', '👩‍👩‍👧‍👦e\u0301', 'x\u0000y'));

describe('normalizers', () => {
  for (const [name, config, reference] of cases) {
    it(`${name}: the Rust library's text`, () => {
      const normalize = createNormalizer(config);
      fc.assert(
        fc.property(text, (t) => {
          const wellFormed = (t as unknown as { toWellFormed(): string }).toWellFormed();
          expect(normalize(wellFormed)).toBe(reference.normalizeString(wellFormed));
        }),
        fcParams(150),
      );
    });
  }
});
