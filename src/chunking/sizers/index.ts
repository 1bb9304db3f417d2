/** The sizer a normalized config asks for. */
import { invalidOption, type SizeUnit } from '../../config.js';
import type { Sizer } from '../../protocols.js';
import { resolveTokenizer, type TokenizerOption, type TokenizerSource } from '../../tokenizer-source.js';
import { charSizer, createGraphemeSizer, createWordSizer } from './basic.js';
import { huggingFaceCounter } from './hf-tokenizer.js';
import { countTokens as countTiktokenTokens, createTokenSizer as createTiktokenSizer } from './tokens.js';

export { charSizer, createGraphemeSizer, createWordSizer } from './basic.js';
export { MAX_PIECE_LENGTH } from './tokens.js';

/** The fields of a `ChunkConfig` that choose a sizer. */
export interface SizerConfig {
  readonly unit: SizeUnit;
  /** The tokenizer of `unit: 'tokens'`: a config's resolved one, or any value `ChunkOptions.tokenizer` takes. */
  readonly tokenizer?: TokenizerSource | TokenizerOption;
  /** `tokenizer` by its former name, read when `tokenizer` is not given. */
  readonly encoding?: TokenizerOption;
  readonly graphemes: boolean;
  readonly locale: string;
}

/** The tokenizer a sizer config names: a config's resolved one as it is, any other value resolved. */
function tokenizerOf(config: SizerConfig): TokenizerSource {
  const t = config.tokenizer as { kind?: unknown } | undefined;
  if (typeof t === 'object' && t !== null && (t.kind === 'tiktoken' || t.kind === 'huggingface')) return t as TokenizerSource;
  return config.tokenizer !== undefined ? resolveTokenizer(config.tokenizer) : resolveTokenizer(config.encoding, 'encoding');
}

/**
 * Tokens of `tokenizer` for `unit: 'tokens'`, UTF-16 units (or grapheme clusters with `graphemes`) for `'chars'`,
 * word-like segments of `locale` for `'words'`.
 */
export function createSizer(config: SizerConfig): Sizer {
  switch (config.unit) {
    case 'tokens':
      return tokenizerSizer(tokenizerOf(config));
    case 'chars':
      return config.graphemes ? createGraphemeSizer(config.locale) : charSizer;
    case 'words':
      return createWordSizer(config.locale);
    default:
      throw invalidOption('unit', "must be one of 'tokens', 'chars', 'words'", config.unit);
  }
}

/**
 * A `Sizer` counting tokens of `tokenizer` (default `cl100k_base`; see `ChunkOptions.tokenizer` for what it takes).
 * For a Hugging Face tokenizer, `size` counts the tokens of the text and `overhead` the special tokens its
 * post-processor adds to every input ([CLS] and [SEP], BOS): sizes of parts then add up, and the chunker adds
 * `overhead` to each chunk's size. Throws `ERR_INVALID_OPTION` for a tokenizer it cannot count with.
 */
export function createTokenSizer(tokenizer?: TokenizerOption): Sizer {
  return tokenizerSizer(resolveTokenizer(tokenizer));
}

/**
 * The number of tokens the embedder sees for `text` with `tokenizer` (default `cl100k_base`): for a Hugging Face
 * tokenizer, the special tokens its post-processor adds included, as `encode(text).ids.length` of the Rust
 * library with `add_special_tokens`.
 */
export function countTokens(text: string, tokenizer?: TokenizerOption): number {
  const source = resolveTokenizer(tokenizer);
  if (source.kind === 'tiktoken') return countTiktokenTokens(text, source.name);
  const counter = huggingFaceCounter(source.definition);
  return counter.count(text) + counter.specialTokens;
}

function tokenizerSizer(source: TokenizerSource): Sizer {
  if (source.kind === 'tiktoken') return createTiktokenSizer(source.name);
  const counter = huggingFaceCounter(source.definition);
  return { size: (text) => counter.count(text), sizeUpTo: (text, limit) => counter.count(text, limit), overhead: counter.specialTokens };
}
