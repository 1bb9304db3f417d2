/** The sizer a normalized config asks for. */
import { invalidOption, type SizeUnit, type TokenEncoding } from '../../config.js';
import type { Sizer } from '../../protocols.js';
import { charSizer, createGraphemeSizer, createWordSizer } from './basic.js';
import { createTokenSizer } from './tokens.js';

export { charSizer, createGraphemeSizer, createWordSizer } from './basic.js';
export { countTokens, createTokenSizer, MAX_PIECE_LENGTH } from './tokens.js';

/** The fields of a `ChunkConfig` that choose a sizer. */
export interface SizerConfig {
  readonly unit: SizeUnit;
  readonly encoding: TokenEncoding;
  readonly graphemes: boolean;
  readonly locale: string;
}

/**
 * Tokens of `encoding` for `unit: 'tokens'`, UTF-16 units (or grapheme clusters with `graphemes`) for `'chars'`,
 * word-like segments of `locale` for `'words'`.
 */
export function createSizer(config: SizerConfig): Sizer {
  switch (config.unit) {
    case 'tokens':
      return createTokenSizer(config.encoding);
    case 'chars':
      return config.graphemes ? createGraphemeSizer(config.locale) : charSizer;
    case 'words':
      return createWordSizer(config.locale);
    default:
      throw invalidOption('unit', "must be one of 'tokens', 'chars', 'words'", config.unit);
  }
}
