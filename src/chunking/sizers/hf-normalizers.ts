/**
 * The normalizers of Hugging Face tokenizers, each a function over a whole text (the normalizer sees the whole
 * input, never a pre-token), written to give what the Rust library gives: lowercasing character by character
 * (JavaScript's `toLowerCase` turns a final Σ into ς, Rust's `char::to_lowercase` does not), the BERT clean-up and
 * accent stripping with the Unicode 9 classes the library uses, whitespace as Rust's `char::is_whitespace`.
 */
import { createRequire } from 'node:module';
import { invalidOption } from '../../config.js';
import { segmentWindows } from '../../unicode/segment-windows.js';
import { segmenterFor } from '../../unicode/segmenters.js';
import { ASSIGNED_9, type CharClass, isBertControl, isChineseChar, isWhitespace, MARK_9, NONSPACING_MARK_9 } from './hf-chars.js';
import { utf8Into } from './utf8-bytes.js';

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
      return (text) => normalizeAsUnicode9(text, form);
    }
    case 'Lowercase':
      return lowercase;
    case 'StripAccents':
      return (text) => removeMarks(text, MARK_9);
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
    case 'Precompiled':
      return precompiled(c);
    default:
      throw invalidOption('tokenizer', 'has a normalizer chunkstream does not count with', c.type);
  }
}

/**
 * A Unicode normal form as the Rust library computes it, with the tables of Unicode 9 (its unicode-normalization
 * crate): a character assigned since is left as it is, a starter nothing composes with, where V8's tables (of a
 * later Unicode) would decompose or reorder it (U+10781 is ː in NFKC since Unicode 14). The text is normalized
 * between such characters.
 */
export function normalizeAsUnicode9(text: string, form: 'NFC' | 'NFD' | 'NFKC' | 'NFKD'): string {
  // ASCII is in every normal form.
  if (!NON_ASCII.test(text)) return text;
  let out = '';
  let from = 0;
  for (let i = 0; i < text.length; ) {
    const cp = text.codePointAt(i)!;
    const width = cp > 0xffff ? 2 : 1;
    if (cp >= 0x80 && !ASSIGNED_9.has(cp)) {
      out += text.slice(from, i).normalize(form) + text.slice(i, i + width);
      from = i + width;
    }
    i += width;
  }
  return from === 0 ? text.normalize(form) : out + text.slice(from).normalize(form);
}

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
    if (stripAccents) t = stripNonspacing(normalizeAsUnicode9(t, 'NFD'));
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
  return removeMarks(text, NONSPACING_MARK_9);
}

/** Removes the characters of `marks` (no mark is below U+0300). */
function removeMarks(text: string, marks: CharClass): string {
  if (!NON_ASCII.test(text)) return text;
  let out = '';
  let from = 0;
  for (let i = 0; i < text.length; ) {
    const cp = text.codePointAt(i)!;
    const width = cp > 0xffff ? 2 : 1;
    if (cp >= 0x300 && marks.has(cp)) {
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

// ---------------------------------------------------------------------------------------------------------------
// Precompiled

/** Index of the first character at or after `from` outside ASCII, or -1. */
function firstNonAscii(text: string, from: number): number {
  for (let i = from; i < text.length; i++) if (text.charCodeAt(i) >= 0x80) return i;
  return -1;
}

/**
 * SentencePiece's precompiled character map (`Precompiled`, the normalizer of XLM-R and the models built on it),
 * as the `spm_precompiled` crate applies it: the map is a double-array trie of UTF-8 keys and a blob of
 * replacements; each grapheme cluster shorter than six bytes is replaced whole by the replacement of the shortest
 * key that begins it, when there is one; any other cluster character by character.
 */
function precompiled(c: Json): Normalize {
  const map = readCharsMap(c.precompiled_charsmap);
  const graphemes = segmenterFor('en', 'grapheme');
  let bytes = new Uint8Array(64);
  /** The replacement of `text[start..end)`, or undefined. */
  const transform = (text: string, start: number, end: number): string | undefined => {
    if (bytes.length < 3 * (end - start)) bytes = new Uint8Array(3 * (end - start));
    const n = utf8Into(text.slice(start, end), bytes);
    return map.replacement(bytes, n);
  };
  /** One grapheme cluster, normalized. */
  const cluster = (text: string, start: number, end: number): string => {
    const whole = Buffer.byteLength(text.slice(start, end), 'utf8') < 6 ? transform(text, start, end) : undefined;
    if (whole !== undefined) return whole;
    let out = '';
    for (let i = start; i < end; ) {
      const width = text.codePointAt(i)! > 0xffff ? 2 : 1;
      out += transform(text, i, i + width) ?? text.slice(i, i + width);
      i += width;
    }
    return out;
  };
  // ASCII clusters are single characters, but for a carriage return before a line feed: the ASCII characters
  // a cluster of ASCII can change with (itself, or CR LF), found once.
  let changing = '';
  for (let c = 1; c < 128; c++) {
    const ch = String.fromCharCode(c);
    if (cluster(ch, 0, 1) !== ch) changing += ch;
  }
  if (cluster('\r\n', 0, 2) !== '\r\n' && !changing.includes('\r')) changing += '\r';
  const asciiChanges = changing === '' ? undefined : new RegExp(`[${changing.replace(/[\\\]^-]/g, '\\$&')}]`);
  /** ASCII `text[start..end)`, its clusters single characters but for CR LF. */
  const asciiRun = (text: string, start: number, end: number): string => {
    const run = start === 0 && end === text.length ? text : text.slice(start, end);
    if (asciiChanges === undefined || !asciiChanges.test(run)) return run;
    let out = '';
    for (let i = start; i < end; ) {
      const next = text.charCodeAt(i) === 0x0d && text.charCodeAt(i + 1) === 0x0a && i + 2 <= end ? i + 2 : i + 1;
      out += map.inert(text.charCodeAt(i)) ? text.slice(i, next) : cluster(text, i, next);
      i = next;
    }
    return out;
  };
  return (text) => {
    if (!NON_ASCII.test(text)) return asciiRun(text, 0, text.length);
    // Clusters are segmented only around runs of non-ASCII characters, one character more on each side (an ASCII
    // letter before a combining mark is its cluster; a cluster may end in an ASCII character after a prepended
    // mark). Anywhere else a cluster boundary falls before each ASCII character, but inside CR LF.
    let out = '';
    let from = 0;
    for (let at = firstNonAscii(text, 0); at !== -1; ) {
      let start = Math.max(from, at - 1);
      if (start > from && text.charCodeAt(start) === 0x0a && text.charCodeAt(start - 1) === 0x0d) start--;
      let end = at;
      // To the end of the run and one character more; runs one ASCII character apart are segmented together.
      for (;;) {
        while (end < text.length && text.charCodeAt(end) >= 0x80) end++;
        if (end < text.length) end++;
        if (end < text.length && text.charCodeAt(end) === 0x0a && text.charCodeAt(end - 1) === 0x0d) end++;
        if (end >= text.length || text.charCodeAt(end) < 0x80) break;
      }
      out += asciiRun(text, from, start);
      segmentWindows(text, start, end, graphemes, graphemes, (a, b) => {
        out += cluster(text, a, b);
      });
      from = end;
      at = firstNonAscii(text, end);
    }
    return out + asciiRun(text, from, text.length);
  };
}

/** A precompiled character map, read. */
interface CharsMap {
  /** The replacement of the shortest key that begins `bytes[0..n)`, or undefined. */
  replacement(bytes: Uint8Array, n: number): string | undefined;
  /** True when no key begins with the ASCII character `unit` (nothing that starts with it changes). */
  inert(unit: number): boolean;
}

function readCharsMap(encoded: unknown): CharsMap {
  if (typeof encoded !== 'string') throw invalidOption('tokenizer', 'has a Precompiled normalizer without its precompiled_charsmap', typeof encoded);
  const blob = Buffer.from(encoded, 'base64');
  const trieBytes = blob.length >= 4 ? blob.readUInt32LE(0) : -1;
  if (trieBytes < 4 || trieBytes % 4 !== 0 || 4 + trieBytes > blob.length) throw invalidOption('tokenizer', 'has a precompiled_charsmap that cannot be read', blob.length);
  const units = new Uint32Array(trieBytes / 4);
  for (let i = 0; i < units.length; i++) units[i] = blob.readUInt32LE(4 + 4 * i);
  const normalized = blob.subarray(4 + trieBytes);
  const unit = (pos: number): number => (pos < units.length ? units[pos]! : 0);
  // darts-clone's unit fields.
  const offset = (u: number): number => (u >>> 10) << ((u & (1 << 9)) >>> 6);
  const label = (u: number): number => u & 0x800000ff;
  const hasLeaf = (u: number): boolean => ((u >>> 8) & 1) === 1;
  const value = (u: number): number => u & 0x7fffffff;
  const texts = new Map<number, string>();
  const textAt = (index: number): string => {
    let found = texts.get(index);
    if (found === undefined) {
      let end = index;
      while (end < normalized.length && normalized[end] !== 0) end++;
      found = normalized.subarray(index, end).toString('utf8');
      texts.set(index, found);
    }
    return found;
  };
  /** `DoubleArray::common_prefix_search`, stopping at the first (shortest) result. */
  const first = (bytes: Uint8Array, n: number): number => {
    let pos = offset(unit(0));
    for (let i = 0; i < n; i++) {
      const c = bytes[i]!;
      if (c === 0) break;
      pos ^= c;
      const u = unit(pos);
      if (label(u) !== c) return -1;
      pos ^= offset(u);
      if (hasLeaf(u)) return value(unit(pos));
    }
    return -1;
  };
  const ascii = new Uint8Array(128);
  for (let c = 1; c < 128; c++) {
    const u = unit(offset(unit(0)) ^ c);
    ascii[c] = label(u) === c ? 2 : 1;
  }
  return {
    replacement(bytes, n) {
      const index = first(bytes, n);
      return index === -1 ? undefined : textAt(index);
    },
    inert: (c) => ascii[c] === 1,
  };
}
