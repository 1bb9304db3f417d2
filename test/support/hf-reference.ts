/**
 * The reference every Hugging Face count is held to: the Rust `tokenizers` library through its official Node
 * binding (a development dependency, `tokenizers` on npm, prebuilt), encoding with the special tokens the
 * post-processor adds, without truncation or padding.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Tokenizer } from 'tokenizers';
import { corpusPath } from './corpus.js';

/** The test tokenizers written by `scripts/make-tokenizer-fixtures.mjs`, one per family. */
export const FIXTURE_TOKENIZERS = ['wordpiece', 'roberta', 'llama', 'mistral', 'unigram'] as const;

/** The path of a fixture tokenizer's `tokenizer.json`. */
export function fixtureTokenizer(name: (typeof FIXTURE_TOKENIZERS)[number]): string {
  return resolve(import.meta.dirname, '../fixtures/tokenizers', name, 'tokenizer.json');
}

/** Qwen3's tokenizer in the corpus, when the corpus is there. */
export const QWEN3 = corpusPath('tok', 'hf', 'qwen3', 'tokenizer.json');
export const HAS_QWEN3 = existsSync(QWEN3);

/** Counts of the reference library. */
export interface ReferenceCounter {
  /** Token counts of each text, special tokens included. */
  counts(texts: readonly string[]): Promise<number[]>;
}

const references = new Map<string, ReferenceCounter>();

/** The reference counter of a `tokenizer.json` (or of the folder holding one). */
export function referenceCounter(path: string): ReferenceCounter {
  let found = references.get(path);
  if (found === undefined) {
    const tokenizer = Tokenizer.fromFile(path.endsWith('.json') ? path : join(path, 'tokenizer.json'));
    tokenizer.disableTruncation();
    tokenizer.disablePadding();
    found = {
      async counts(texts) {
        if (texts.length === 0) return [];
        const encodings = await tokenizer.encodeBatch([...texts], { addSpecialTokens: true });
        return encodings.map((e) => e.getLength());
      },
    };
    references.set(path, found);
  }
  return found;
}
