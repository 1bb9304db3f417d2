/**
 * The hand-run pre-token scanners give the pre-tokens the Rust library's own Split pre-tokenizer gives for their
 * patterns (Oniguruma, `\s` as White_Space, `(?i)` folding ſ into s), on generated text.
 */
import fc from 'fast-check';
import { Tokenizer } from 'tokenizers';
import { describe, expect, it } from 'vitest';
import { cl100kFamilyPreTokenEnd, GPT2_PATTERN, gpt2PreTokenEnd } from '../../../src/chunking/sizers/hf-pattern-scanners.js';
import { fcParams } from '../../support/property.js';
import { tokenizerText } from '../../support/tokenizer-text.js';

const QWEN_PATTERN = "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+";
const LLAMA3_PATTERN = QWEN_PATTERN.replace('\\p{N}|', '\\p{N}{1,3}|');

/** The Rust library's Split pre-tokenizer of `pattern` (behaviour Isolated), in a tokenizer of its own. */
function rustSplit(pattern: string): (text: string) => string[] {
  const json = {
    version: '1.0',
    added_tokens: [],
    normalizer: null,
    pre_tokenizer: { type: 'Split', pattern: { Regex: pattern }, behavior: 'Isolated', invert: false },
    post_processor: null,
    decoder: null,
    model: { type: 'WordLevel', vocab: { '[UNK]': 0 }, unk_token: '[UNK]' },
  };
  const pre = Tokenizer.fromString(JSON.stringify(json)).getPreTokenizer()!;
  return (text) => pre.preTokenizeString(text).map(([piece]) => piece);
}

function scanned(text: string, end: (text: string, at: number) => number): string[] {
  const out: string[] = [];
  for (let at = 0; at < text.length; ) {
    const next = end(text, at);
    out.push(text.slice(at, next));
    at = next;
  }
  return out;
}

const text = fc.oneof(tokenizerText(30), fc.string({ unit: 'grapheme', maxLength: 40 }), fc.constantFrom("it'ſx IT'S we'LL 'd", ' \u00a0\u0085\ufeff\u3000x', '12345 ١٢٣ ⅷ', 'a \n\n b\r\n\tc   d'));
const cases = [
  ['GPT-2', GPT2_PATTERN, gpt2PreTokenEnd],
  ['Qwen (one digit)', QWEN_PATTERN, (t: string, at: number) => cl100kFamilyPreTokenEnd(t, at, 1)],
  ['Llama 3 (three digits)', LLAMA3_PATTERN, (t: string, at: number) => cl100kFamilyPreTokenEnd(t, at, 3)],
] as const;

describe('hand-run pre-token scanners', () => {
  for (const [name, pattern, end] of cases) {
    it(`${name}: the Rust library's pre-tokens`, () => {
      const rust = rustSplit(pattern);
      fc.assert(
        fc.property(text, (t) => {
          const wellFormed = (t as unknown as { toWellFormed(): string }).toWellFormed();
          expect(scanned(wellFormed, end)).toEqual(rust(wellFormed));
        }),
        fcParams(150),
      );
    });
  }
});
