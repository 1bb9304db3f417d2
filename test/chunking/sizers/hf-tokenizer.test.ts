/**
 * Hugging Face tokenizers: what the `tokenizer` option takes, the errors it raises, and counts equal to the Rust
 * library's (special tokens included) for one tokenizer of each family, on chosen edge cases and generated text.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Tokenizer as JsTokenizer } from '@huggingface/tokenizers';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeOptions } from '../../../src/config.js';
import { type ChunkError, isChunkError } from '../../../src/errors.js';
import { countTokens, createSizer, createTokenSizer } from '../../../src/chunking/sizers/index.js';
import { chunkText } from '../../../src/api/chunk.js';
import { describeCorpus } from '../../support/corpus.js';
import { FIXTURE_TOKENIZERS, fixtureTokenizer, HAS_QWEN3, QWEN3, referenceCounter } from '../../support/hf-reference.js';
import { fcParams } from '../../support/property.js';
import { tokenizerText } from '../../support/tokenizer-text.js';
import { tempDir } from '../../support/temp-dir.js';

const WORDPIECE = fixtureTokenizer('wordpiece');

function failure(run: () => unknown): ChunkError {
  try {
    run();
  } catch (error) {
    if (isChunkError(error)) return error;
    throw error;
  }
  throw new Error('no error');
}

/** Edge cases each family has a rule for. */
const EDGES = [
  '',
  ' ',
  '\n',
  'Hello, world!',
  '  leading and trailing  ',
  'two  spaces and\ttabs\r\nand CRLF',
  'ΑΣ ΟΔΟΣ σοφός',
  'İstanbul ǅ Straße ﬁnance Ａｂｃ',
  'café cafe\u0301 naïve e\u0301\u0301',
  '你好世界 日本語 한국어',
  '👋🏽 👩‍👩‍👧‍👦 🇯🇵 🥺',
  'a\u0000b\u0001c\u007fd\u200be\u0890f\u2066g',
  'x\u2e4fy a§b',
  'a'.repeat(99),
  'a'.repeat(101),
  '中'.repeat(300),
  'end. Next, one.\nLine',
  '▁ ▁▁ a▁b',
  '[CLS] text [SEP] [MASK]',
  '<s> x </s> y <mask> z<mask> <unk>',
  '<|endoftext|><|im_start|>user',
  'lone \ud800 surrogate',
];

describe('the tokenizer option', () => {
  it('takes the file, its folder, the parsed object and a Tokenizer of @huggingface/tokenizers alike', () => {
    const json = JSON.parse(readFileSync(WORDPIECE, 'utf8'));
    const config = JSON.parse(readFileSync(join(dirname(WORDPIECE), 'tokenizer_config.json'), 'utf8'));
    const text = 'Chunking text for an embedding model, counted as [CLS] it counts.';
    const expected = countTokens(text, WORDPIECE);
    expect(expected).toBeGreaterThan(10);
    expect(countTokens(text, dirname(WORDPIECE))).toBe(expected);
    expect(countTokens(text, json)).toBe(expected);
    expect(countTokens(text, new JsTokenizer(json, config))).toBe(expected);
  });

  it('counts the special tokens in countTokens, and in a sizer as its overhead', () => {
    const sizer = createTokenSizer(WORDPIECE);
    expect(sizer.overhead).toBe(2);
    expect(sizer.size('hello')).toBe(countTokens('hello', WORDPIECE) - 2);
    expect(countTokens('', WORDPIECE)).toBe(2);
    expect(createTokenSizer(fixtureTokenizer('llama')).overhead).toBe(1);
    expect(createTokenSizer('cl100k_base').overhead).toBeUndefined();
  });

  it('is the same option as encoding, which keeps its old values', () => {
    expect(normalizeOptions({ encoding: 'o200k_base' }).tokenizer).toEqual({ kind: 'tiktoken', name: 'o200k_base' });
    expect(normalizeOptions({ encoding: WORDPIECE }).encoding).toBe(WORDPIECE);
    expect(normalizeOptions({ tokenizer: WORDPIECE, encoding: WORDPIECE }).tokenizer.kind).toBe('huggingface');
    const e = failure(() => normalizeOptions({ tokenizer: WORDPIECE, encoding: 'o200k_base' }));
    expect(e).toMatchObject({ code: 'ERR_INVALID_OPTION', option: 'encoding' });
  });

  it("takes maxSize from tokenizer_config.json's model_max_length up to 8,192, else 512", () => {
    expect(normalizeOptions({ tokenizer: WORDPIECE }).maxSize).toBe(256);
    expect(normalizeOptions({ tokenizer: WORDPIECE, maxSize: 100 }).maxSize).toBe(100);
    expect(normalizeOptions({ tokenizer: WORDPIECE, unit: 'chars' }).maxSize).toBe(512);
    const dir = tempDir('tok');
    writeFileSync(join(dir, 'tokenizer.json'), readFileSync(WORDPIECE));
    writeFileSync(join(dir, 'tokenizer_config.json'), JSON.stringify({ model_max_length: 1e30 }));
    expect(normalizeOptions({ tokenizer: dir }).maxSize).toBe(512);
  });

  it('adds the tokens tokenizer_config.json declares beyond tokenizer.json', () => {
    const dir = tempDir('tok');
    writeFileSync(join(dir, 'tokenizer.json'), readFileSync(WORDPIECE));
    const plain = countTokens('say <extra> now', dir);
    writeFileSync(join(dir, 'tokenizer_config.json'), JSON.stringify({ added_tokens_decoder: { 9999: { content: '<extra>', special: true, normalized: false } } }));
    // A new file: the same path is read again when it changes.
    writeFileSync(join(dir, 'tokenizer.json'), `${readFileSync(WORDPIECE, 'utf8')} `);
    expect(countTokens('say <extra> now', dir)).toBeLessThan(plain);
    expect(countTokens('say <extra> now', dir)).toBe(countTokens('say x now', dir));
  });

  const dir = tempDir('tok');
  writeFileSync(join(dir, 'broken.json'), '{"model": {"type": "BPE", ');
  writeFileSync(join(dir, 'wordlevel-less.json'), JSON.stringify({ model: { type: 'Magic', vocab: {} } }));
  writeFileSync(join(dir, 'byte-level-normalizer.json'), JSON.stringify({ ...JSON.parse(readFileSync(WORDPIECE, 'utf8')), normalizer: { type: 'Sequence', normalizers: [{ type: 'NFC' }, { type: 'ByteLevel' }] } }));
  writeFileSync(join(dir, 'array.json'), '[1, 2]');
  const badMerge = JSON.parse(readFileSync(fixtureTokenizer('roberta'), 'utf8'));
  badMerge.model.merges.push(['nope', 'never']);
  writeFileSync(join(dir, 'bad-merge.json'), JSON.stringify(badMerge));
  const cases: [string, string, RegExp][] = [
    ['a missing file', join(dir, 'missing/tokenizer.json'), /cannot be read: ENOENT/],
    ['a folder without tokenizer.json', dir, /cannot be read: ENOENT/],
    ['malformed JSON', join(dir, 'broken.json'), /is not valid JSON/],
    ['not an object', join(dir, 'array.json'), /is not a tokenizer.json: not a JSON object/],
    ['an unsupported model type', join(dir, 'wordlevel-less.json'), /has a model of type "Magic", which chunkstream does not count with/],
    ['an unsupported normalizer', join(dir, 'byte-level-normalizer.json'), /has a normalizer of type "ByteLevel"/],
    ['a name it does not know', 'gpt2', /is not a name chunkstream knows/],
  ];
  for (const [what, path, message] of cases) {
    it(`rejects ${what} when the options are checked, naming the option, the path and the reason`, () => {
      const e = failure(() => normalizeOptions({ tokenizer: path }));
      expect(e.code).toBe('ERR_INVALID_OPTION');
      expect(e.option).toBe('tokenizer');
      expect(e.message).toMatch(message);
      expect(e.message).toContain(JSON.stringify(path));
      expect(e.source).toBeDefined();
    });
  }

  it('rejects a merge of tokens outside the vocabulary before any text is counted', () => {
    expect(() => chunkText('x', { tokenizer: join(dir, 'bad-merge.json') })).toThrow(/merge .* not in its vocabulary/);
  });

  it("rejects a maxSize that leaves no room beside the tokenizer's special tokens", () => {
    const e = failure(() => chunkText('some text', { tokenizer: WORDPIECE, maxSize: 2 }));
    expect(e).toMatchObject({ code: 'ERR_INVALID_OPTION', option: 'maxSize' });
    expect(e.message).toMatch(/above the 2 special tokens/);
  });
});

describe('counts equal to the Rust tokenizers library', () => {
  for (const name of FIXTURE_TOKENIZERS) {
    const path = fixtureTokenizer(name);
    it(`${name}: edge cases`, async () => {
      const expected = await referenceCounter(path).counts(EDGES);
      expect(EDGES.map((t) => countTokens(t, path))).toEqual(expected);
    });

    it(`${name}: generated text, and sizeUpTo stops past a limit only`, async () => {
      const sizer = createSizer({ unit: 'tokens', tokenizer: path, graphemes: false, locale: 'en' });
      await fc.assert(
        fc.asyncProperty(tokenizerText(), fc.integer({ min: 0, max: 60 }), async (text, limit) => {
          const [expected] = await referenceCounter(path).counts([text]);
          expect(countTokens(text, path)).toBe(expected);
          const size = sizer.size(text);
          const upTo = sizer.sizeUpTo!(text, limit);
          if (size <= limit) expect(upTo).toBe(size);
          else expect(upTo).toBeGreaterThan(limit);
        }),
        fcParams(60),
      );
    });
  }
});

describeCorpus('Qwen3 counts equal to the Rust tokenizers library', () => {
  it.skipIf(!HAS_QWEN3)('on edge cases and generated text', async () => {
    expect(EDGES.map((t) => countTokens(t, QWEN3))).toEqual(await referenceCounter(QWEN3).counts(EDGES));
    await fc.assert(
      fc.asyncProperty(tokenizerText(), async (text) => {
        expect(countTokens(text, QWEN3)).toBe((await referenceCounter(QWEN3).counts([text]))[0]);
      }),
      fcParams(60),
    );
  });
});
