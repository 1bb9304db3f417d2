/**
 * The normalizers of Hugging Face tokenizers, each a function over a whole text (the normalizer sees the whole
 * input, never a pre-token), written to give what the Rust library gives: lowercasing character by character
 * (JavaScript's `toLowerCase` turns a final Σ into ς, Rust's `char::to_lowercase` does not), the BERT clean-up and
 * accent stripping with the Unicode 9 classes the library uses, whitespace as Rust's `char::is_whitespace`.
 */
import { createRequire } from 'node:module';
import { invalidOption } from '../../config.js';
import { isBertControl, isChineseChar, isWhitespace, NONSPACING_MARK_9 } from './hf-chars.js';

/** A normalizer: the whole text in, the normalized text out. */
export type Normalize = (text: string) => string;

type Json = Record<string, unknown>;

const identity: Normalize = (text) => text;

/** The normalizer a `tokenizer.json` describes (identity for none). */
export function createNormalizer(config: unknown): Normalize {
  if (config === null || config === undefined) return identity;
  const c = config as Json;
  switch (c.type) {
    case 'Sequence': {
      const parts = (c.normalizers as unknown[]).map(createNormalizer);
      return (text) => parts.reduce((t, n) => n(t), text);
    }
    case 'NFC':
    case 'NFD':
    case 'NFKC':
    case 'NFKD': {
      const form = c.type;
      // ASCII is in every normal form.
      return (text) => (NON_ASCII.test(text) ? text.normalize(form) : text);
    }
    case 'Lowercase':
      return lowercase;
    case 'StripAccents':
      return (text) => text.replace(COMBINING_MARK, '');
    case 'Strip':
      return strip(c.left !== false && c.strip_left !== false, c.right !== false && c.strip_right !== false);
    case 'Prepend': {
      const prefix = typeof c.prepend === 'string' ? c.prepend : '';
      return (text) => (text === '' ? text : prefix + text);
    }
    case 'Replace':
      return replace(c);
    case 'BertNormalizer':
      return bertNormalizer(c);
    default:
      throw invalidOption('tokenizer', 'has a normalizer chunkstream does not count with', c.type);
  }
}

/** Unicode's General_Category=Mark (`is_combining_mark`), which StripAccents removes. */
const COMBINING_MARK = /\p{M}/gu;
const NON_ASCII = /[^\x00-\x7f]/;
const CAPITAL_SIGMA = 'Σ';

/**
 * Lowercases each character on its own (`char::to_lowercase`): the string's own `toLowerCase` where no final
 * sigma can differ, character by character where a Σ is.
 */
export function lowercase(text: string): string {
  if (!text.includes(CAPITAL_SIGMA)) return text.toLowerCase();
  let out = '';
  for (const ch of text) out += ch.toLowerCase();
  return out;
}

/** `Strip`: removes leading and/or trailing `char::is_whitespace` characters. */
function strip(left: boolean, right: boolean): Normalize {
  return (text) => {
    let start = 0;
    let end = text.length;
    if (left) while (start < end && isWhitespace(text.codePointAt(start)!)) start += text.codePointAt(start)! > 0xffff ? 2 : 1;
    if (right) {
      while (end > start) {
        const low = text.charCodeAt(end - 1);
        const width = low >= 0xdc00 && low <= 0xdfff && end - 2 >= start ? 2 : 1;
        if (!isWhitespace(text.codePointAt(end - width)!)) break;
        end -= width;
      }
    }
    return text.slice(start, end);
  };
}

/** `Replace`: every match of a string or of a regular expression (Oniguruma's, read as JavaScript's). */
function replace(c: Json): Normalize {
  const content = typeof c.content === 'string' ? c.content : '';
  const pattern = (c.pattern ?? {}) as Json;
  if (typeof pattern.String === 'string') {
    const literal = pattern.String;
    return literal === '' ? identity : (text) => text.replaceAll(literal, content);
  }
  if (typeof pattern.Regex === 'string') {
    const regex = translateRegex(pattern.Regex);
    // A function as replacement: `$` in the content is literal, as in the Rust library.
    return (text) => text.replace(regex, () => content);
  }
  throw invalidOption('tokenizer', 'has a Replace normalizer without a String or Regex pattern', c.pattern);
}

/** The BERT normalizer: clean-up, spaces around CJK ideographs, accents stripped after NFD, lowercase. */
function bertNormalizer(c: Json): Normalize {
  const clean = c.clean_text !== false;
  const chinese = c.handle_chinese_chars !== false;
  const lower = c.lowercase !== false;
  const stripAccents = typeof c.strip_accents === 'boolean' ? c.strip_accents : lower;
  return (text) => {
    let t = text;
    // ASCII needs no more than lowercasing, and the clean-up of its control characters and whitespace.
    if (!NON_ASCII.test(t)) {
      if (clean) t = cleanAscii(t);
      return lower ? t.toLowerCase() : t;
    }
    if (clean || chinese) t = cleanAndPad(t, clean, chinese);
    if (stripAccents) t = stripNonspacing(t.normalize('NFD'));
    return lower ? lowercase(t) : t;
  };
}

/** ASCII control characters the clean-up removes (tab and line breaks are whitespace, made spaces). */
const ASCII_CONTROL = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/g;
const ASCII_BREAK = /[\t\n\r]/g;

function cleanAscii(text: string): string {
  return text.replace(ASCII_CONTROL, '').replace(ASCII_BREAK, ' ');
}

/** The clean-up (controls out, whitespace to a space) and the spaces around CJK ideographs, in one pass. */
function cleanAndPad(text: string, clean: boolean, chinese: boolean): string {
  let out = '';
  for (let i = 0; i < text.length; ) {
    const cp = text.codePointAt(i)!;
    const width = cp > 0xffff ? 2 : 1;
    i += width;
    if (clean && (cp === 0 || cp === 0xfffd || isBertControl(cp))) continue;
    if (clean && isWhitespace(cp)) out += ' ';
    else if (chinese && isChineseChar(cp)) out += ` ${String.fromCodePoint(cp)} `;
    else out += String.fromCodePoint(cp);
  }
  return out;
}

/** Removes the nonspacing marks (Mn of Unicode 9) the BERT normalizer strips. */
function stripNonspacing(text: string): string {
  let out = '';
  let from = 0;
  for (let i = 0; i < text.length; ) {
    const cp = text.codePointAt(i)!;
    const width = cp > 0xffff ? 2 : 1;
    if (cp >= 0x300 && NONSPACING_MARK_9.has(cp)) {
      out += text.slice(from, i);
      from = i + width;
    }
    i += width;
  }
  return from === 0 ? text : out + text.slice(from);
}

const requireLibrary = createRequire(import.meta.url);
const translated = new Map<string, RegExp>();

/**
 * An Oniguruma pattern of a `tokenizer.json` as a global JavaScript regular expression, translated by
 * `@huggingface/tokenizers` (inline case-insensitive groups, `\s` as Unicode White_Space, possessive quantifiers…):
 * a maintained translation rather than one more of our own. Loaded only for a tokenizer that has such a pattern.
 */
export function translateRegex(source: string): RegExp {
  let regex = translated.get(source);
  if (regex === undefined) {
    const { SplitPreTokenizer } = requireLibrary('@huggingface/tokenizers') as { SplitPreTokenizer: new (config: object) => { pattern: RegExp | null } };
    const made = new SplitPreTokenizer({ pattern: { Regex: source }, behavior: 'Isolated', invert: false }).pattern;
    if (made === null) throw invalidOption('tokenizer', 'has a regular expression that cannot be read', source);
    regex = new RegExp(made.source, made.flags.includes('g') ? made.flags : `${made.flags}g`);
    translated.set(source, regex);
  }
  return new RegExp(regex.source, regex.flags);
}
