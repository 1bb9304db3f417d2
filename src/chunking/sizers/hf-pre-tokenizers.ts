/**
 * The pre-tokenizers of Hugging Face tokenizers: where a normalized text is cut into the pre-tokens the model
 * sees one at a time. Two forms:
 *
 * - a scanner (`PreTokenScanner`) for the shapes real models use (a Split regex with or without ByteLevel after
 *   it, GPT-2's ByteLevel, BERT's, Metaspace, none at all): it gives the pre-tokens as ranges of one string, so that
 *   a cache can look them up in place, without making a string of each;
 * - the general form (`splitPieces`), which follows the Rust library's `split` step by step over a list of pieces,
 *   for any other sequence of pre-tokenizers.
 *
 * Both follow the Rust library's rules: a split by a character predicate matches each character alone; a
 * delimiter behaviour (removed, isolated, merged with the previous or the next piece, contiguous) decides what
 * becomes of the matches; empty pieces are dropped; ByteLevel may add a space in front of a split, Metaspace its
 * replacement character (always, on the first split only, or never).
 */
import { invalidOption } from '../../config.js';
import { isBertPunctuation, isWhitespace } from './hf-chars.js';
import { translateRegex } from './hf-normalizers.js';
import { GPT2_PATTERN, patternScanner } from './hf-pattern-scanners.js';

type Json = Record<string, unknown>;


/** A piece of a split: its text, and where it starts in the normalized split (for Metaspace's `first`). */
export interface Piece {
  readonly text: string;
  readonly start: number;
}

/** Visits pre-token `[start, end)` of the scanned text; returns false to stop. */
export type VisitSpan = (start: number, end: number) => boolean;

/**
 * A pre-tokenizer of one of the common shapes, as a scanner: `prepare` turns a normalized split into the text the
 * pre-tokens are ranges of (with a prefix space, or Metaspace's replacement), `scan` visits those ranges.
 */
export interface PreTokenScanner {
  readonly kind: 'regex' | 'bert' | 'metaspace' | 'whole';
  prepare(text: string, firstSplit: boolean): string;
  scan(text: string, visit: VisitSpan): void;
}

/** What the model counter needs to know of the pre-tokenizer. */
export interface PreTokenizerShape {
  /** The scanner, when the pre-tokenizer has one of the common shapes. */
  readonly scanner: PreTokenScanner | undefined;
  /** The general form, always there. */
  readonly split: (pieces: Piece[], firstSplit: boolean) => Piece[];
  /** True when a ByteLevel step maps bytes to characters: the model then reads the pieces' UTF-8 bytes. */
  readonly byteLevel: boolean;
}

/** The pre-tokenizer a `tokenizer.json` describes. */
export function createPreTokenizer(config: unknown): PreTokenizerShape {
  const steps = flatten(config);
  const byteLevelAt = steps.findIndex((s) => s.type === 'ByteLevel');
  if (byteLevelAt !== -1 && byteLevelAt !== steps.length - 1) {
    throw invalidOption('tokenizer', 'has a ByteLevel pre-tokenizer followed by other pre-tokenizers, which chunkstream does not count with', steps.map((s) => s.type).join(', '));
  }
  const splits = steps.map(generalStep);
  return {
    scanner: scannerOf(steps),
    split: (pieces, firstSplit) => splits.reduce((p, step) => step(p, firstSplit), pieces),
    byteLevel: byteLevelAt !== -1,
  };
}

/** The steps of a pre-tokenizer, Sequences flattened (a Sequence applies its parts in turn). */
function flatten(config: unknown): Json[] {
  if (config === null || config === undefined) return [];
  const c = config as Json;
  if (c.type === 'Sequence') return (c.pretokenizers as unknown[]).flatMap(flatten);
  return [c];
}

// ---------------------------------------------------------------------------------------------------------------
// Scanners

function scannerOf(steps: Json[]): PreTokenScanner | undefined {
  const [first, second] = steps;
  if (first === undefined) return wholeScanner(identityPrepare);
  if (steps.length === 1 && first.type === 'BertPreTokenizer') return bertScanner;
  if (steps.length === 1 && first.type === 'Metaspace') {
    const meta = metaspaceOf(first);
    return meta.split ? metaspaceScanner(meta) : wholeScanner((text, firstSplit) => metaspacePrepare(text, meta, firstSplit, 0));
  }
  if (steps.length === 1 && first.type === 'ByteLevel') {
    const prefix = first.add_prefix_space === true;
    const prepare = prefix ? (text: string) => (text.startsWith(' ') ? text : ` ${text}`) : identityPrepare;
    return first.use_regex === false ? wholeScanner(prepare) : patternOrRegexScanner(GPT2_PATTERN, prepare);
  }
  const isolatedRegex = first.type === 'Split' && first.behavior === 'Isolated' && first.invert !== true && typeof (first.pattern as Json | undefined)?.Regex === 'string';
  const plainByteLevel = second === undefined || (second.type === 'ByteLevel' && second.use_regex === false && second.add_prefix_space !== true);
  if (isolatedRegex && plainByteLevel && steps.length <= 2) return patternOrRegexScanner((first.pattern as Json).Regex as string, identityPrepare);
  return undefined;
}

/** The hand-run scanner of a known pattern (`hf-pattern-scanners.ts`), else its regular expression. */
function patternOrRegexScanner(pattern: string, prepare: (text: string, firstSplit: boolean) => string): PreTokenScanner {
  const end = patternScanner(pattern);
  if (end === undefined) return regexScanner(translateRegex(pattern), prepare);
  return {
    kind: 'regex',
    prepare,
    scan(text, visit) {
      for (let at = 0; at < text.length; ) {
        const next = end(text, at);
        if (!visit(at, next)) return;
        at = next;
      }
    },
  };
}

function identityPrepare(text: string): string {
  return text;
}

/** Pre-tokens of a regular expression, its matches and the gaps between them (Split, behaviour Isolated). */
function regexScanner(pattern: RegExp, prepare: (text: string, firstSplit: boolean) => string): PreTokenScanner {
  const sticky = new RegExp(pattern.source, pattern.flags.replace('g', '') + 'y');
  return {
    kind: 'regex',
    prepare,
    scan(text, visit) {
      let at = 0;
      while (at < text.length) {
        sticky.lastIndex = at;
        let end: number;
        if (sticky.test(text) && sticky.lastIndex > at) {
          end = sticky.lastIndex;
        } else {
          // A gap: it runs to where the next match starts.
          pattern.lastIndex = at;
          const next = pattern.exec(text);
          end = next === null ? text.length : next.index > at ? next.index : at + 1;
        }
        if (!visit(at, end)) return;
        at = end;
      }
    },
  };
}

const BERT_WORD = 1;
const BERT_SPACE = 2;
const BERT_PUNCTUATION = 3;
/** The BERT pre-tokenizer's class of each BMP unit, found the first time it is met (0: not yet). */
const BERT_CLASS = new Uint8Array(0x10000);

/** The class of the code point at `at` (a surrogate pair is classed by its code point, each time). */
function bertClassAt(text: string, at: number): number {
  const unit = text.charCodeAt(at);
  if (unit < 0xd800 || unit > 0xdfff) {
    const known = BERT_CLASS[unit]!;
    if (known !== 0) return known;
    const k = isWhitespace(unit) ? BERT_SPACE : isBertPunctuation(unit) ? BERT_PUNCTUATION : BERT_WORD;
    BERT_CLASS[unit] = k;
    return k;
  }
  const cp = text.codePointAt(at)!;
  return isWhitespace(cp) ? BERT_SPACE : isBertPunctuation(cp) ? BERT_PUNCTUATION : BERT_WORD;
}

function widthAt(text: string, at: number): number {
  const unit = text.charCodeAt(at);
  return unit >= 0xd800 && unit <= 0xdbff && at + 1 < text.length && (text.charCodeAt(at + 1) & 0xfc00) === 0xdc00 ? 2 : 1;
}

/** BERT's pre-tokenizer: whitespace removed, each punctuation character its own pre-token. */
const bertScanner: PreTokenScanner = {
  kind: 'bert',
  prepare: identityPrepare,
  scan(text, visit) {
    let at = 0;
    while (at < text.length) {
      const k = bertClassAt(text, at);
      if (k === BERT_SPACE) {
        at += widthAt(text, at);
        continue;
      }
      let end = at + widthAt(text, at);
      if (k === BERT_WORD) while (end < text.length && bertClassAt(text, end) === BERT_WORD) end += widthAt(text, end);
      if (!visit(at, end)) return;
      at = end;
    }
  },
};

interface MetaspaceConfig {
  readonly replacement: string;
  readonly scheme: 'always' | 'first' | 'never';
  readonly split: boolean;
}

function metaspaceOf(c: Json): MetaspaceConfig {
  const replacement = typeof c.replacement === 'string' && c.replacement !== '' ? c.replacement : '\u2581';
  let scheme: MetaspaceConfig['scheme'] = c.prepend_scheme === 'first' || c.prepend_scheme === 'never' ? c.prepend_scheme : 'always';
  if (c.prepend_scheme === undefined && c.add_prefix_space === false) scheme = 'never';
  return { replacement, scheme, split: c.split !== false };
}

/** Metaspace's own change to a piece: spaces become the replacement, which is put in front by the scheme. */
function metaspacePrepare(text: string, meta: MetaspaceConfig, firstSplit: boolean, start: number): string {
  const replaced = text.replaceAll(' ', meta.replacement);
  const prepend = meta.scheme === 'always' || (meta.scheme === 'first' && firstSplit && start === 0);
  return prepend && !replaced.startsWith(meta.replacement) ? meta.replacement + replaced : replaced;
}

/** Metaspace that splits: each replacement character starts a pre-token (behaviour MergedWithNext). */
function metaspaceScanner(meta: MetaspaceConfig): PreTokenScanner {
  const mark = meta.replacement;
  return {
    kind: 'metaspace',
    prepare: (text, firstSplit) => metaspacePrepare(text, meta, firstSplit, 0),
    scan(text, visit) {
      let start = 0;
      for (let at = text.indexOf(mark, 1); at !== -1; at = text.indexOf(mark, at + mark.length)) {
        if (!visit(start, at)) return;
        start = at;
      }
      if (start < text.length) visit(start, text.length);
    },
  };
}

/** No pre-tokenizer (or Metaspace without splitting): the whole split is one pre-token. */
function wholeScanner(prepare: (text: string, firstSplit: boolean) => string): PreTokenScanner {
  return {
    kind: 'whole',
    prepare,
    scan(text, visit) {
      if (text !== '') visit(0, text.length);
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// The general form

/** How the matches of a split are kept (`SplitDelimiterBehavior`). */
type Behavior = 'Removed' | 'Isolated' | 'MergedWithPrevious' | 'MergedWithNext' | 'Contiguous';

/** A segment of a piece: `[start, end)`, and whether it is a match. */
type Segment = [number, number, boolean];

const BEHAVIORS: readonly Behavior[] = ['Removed', 'Isolated', 'MergedWithPrevious', 'MergedWithNext', 'Contiguous'];

function behaviorOf(value: unknown, fallback: Behavior): Behavior {
  if (value === undefined || value === null) return fallback;
  if (typeof value === 'string' && BEHAVIORS.includes(value as Behavior)) return value as Behavior;
  throw invalidOption('tokenizer', `has a split behaviour chunkstream does not know (${BEHAVIORS.join(', ')})`, value);
}

/** One pre-tokenizer as a step over pieces. */
function generalStep(c: Json): (pieces: Piece[], firstSplit: boolean) => Piece[] {
  switch (c.type) {
    case 'BertPreTokenizer':
      return (pieces) => splitEach(splitEach(pieces, byChar(isWhitespace), 'Removed'), byChar(isBertPunctuation), 'Isolated');
    case 'WhitespaceSplit':
      return (pieces) => splitEach(pieces, byChar(isWhitespace), 'Removed');
    case 'Whitespace': {
      // Rust's regex `\w+|[^\w\s]+`, its classes Unicode's.
      const pattern = /[\p{Alphabetic}\p{M}\p{Nd}\p{Pc}\p{Join_Control}]+|[^\p{Alphabetic}\p{M}\p{Nd}\p{Pc}\p{Join_Control}\p{White_Space}]+/gu;
      return (pieces) => splitEach(pieces, inverted(byRegex(pattern)), 'Removed');
    }
    case 'Punctuation':
      return (pieces) => splitEach(pieces, byChar(isBertPunctuation), behaviorOf(c.behavior, 'Isolated'));
    case 'Digits': {
      const numeric = (cp: number) => NUMERIC.test(String.fromCodePoint(cp));
      return (pieces) => splitEach(pieces, byChar(numeric), c.individual_digits === true ? 'Isolated' : 'Contiguous');
    }
    case 'CharDelimiterSplit': {
      const delimiter = typeof c.delimiter === 'string' ? c.delimiter.codePointAt(0)! : -1;
      return (pieces) => splitEach(pieces, byChar((cp) => cp === delimiter), 'Removed');
    }
    case 'Split':
      return splitStep(c);
    case 'Metaspace': {
      const meta = metaspaceOf(c);
      const mark = meta.replacement.codePointAt(0)!;
      return (pieces, firstSplit) => {
        const replaced = pieces.map((p) => ({ text: metaspacePrepare(p.text, meta, firstSplit, p.start), start: p.start }));
        return meta.split ? splitEach(replaced, byChar((cp) => cp === mark), 'MergedWithNext') : replaced;
      };
    }
    case 'ByteLevel': {
      const prefix = c.add_prefix_space === true;
      const regex = c.use_regex === false ? undefined : byRegex(translateRegex(GPT2_PATTERN));
      return (pieces) => {
        const prefixed = prefix ? pieces.map((p) => (p.text.startsWith(' ') ? p : { text: ` ${p.text}`, start: p.start })) : pieces;
        return regex === undefined ? prefixed : splitEach(prefixed, regex, 'Isolated');
      };
    }
    default:
      throw invalidOption('tokenizer', 'has a pre-tokenizer chunkstream does not count with', c.type);
  }
}

/** Rust's `char::is_numeric`: General_Category N. */
const NUMERIC = /^\p{N}$/u;

function splitStep(c: Json): (pieces: Piece[]) => Piece[] {
  const pattern = (c.pattern ?? {}) as Json;
  let find: (text: string) => Segment[];
  if (typeof pattern.Regex === 'string') find = byRegex(translateRegex(pattern.Regex));
  else if (typeof pattern.String === 'string') find = byLiteral(pattern.String);
  else throw invalidOption('tokenizer', 'has a Split pre-tokenizer without a String or Regex pattern', c.pattern);
  if (c.invert === true) find = inverted(find);
  const behavior = behaviorOf(c.behavior, 'Isolated');
  return (pieces) => splitEach(pieces, find, behavior);
}

/** Segments of `text` by a character predicate: each matching character alone, the runs between them. */
function byChar(matches: (cp: number) => boolean): (text: string) => Segment[] {
  return (text) => {
    const out: Segment[] = [];
    let last = 0;
    for (let i = 0; i < text.length; ) {
      const cp = text.codePointAt(i)!;
      const width = cp > 0xffff ? 2 : 1;
      if (matches(cp)) {
        if (last < i) out.push([last, i, false]);
        out.push([i, i + width, true]);
        last = i + width;
      }
      i += width;
    }
    if (last < text.length) out.push([last, text.length, false]);
    return out;
  };
}

/** Segments of `text` by a global regular expression's matches. */
function byRegex(pattern: RegExp): (text: string) => Segment[] {
  return (text) => {
    const out: Segment[] = [];
    let last = 0;
    for (const m of text.matchAll(pattern)) {
      if (last !== m.index) out.push([last, m.index, false]);
      out.push([m.index, m.index + m[0].length, true]);
      last = m.index + m[0].length;
    }
    if (last !== text.length) out.push([last, text.length, false]);
    return out;
  };
}

function byLiteral(literal: string): (text: string) => Segment[] {
  return (text) => {
    const out: Segment[] = [];
    let last = 0;
    if (literal !== '') {
      for (let at = text.indexOf(literal); at !== -1; at = text.indexOf(literal, at + literal.length)) {
        if (last !== at) out.push([last, at, false]);
        out.push([at, at + literal.length, true]);
        last = at + literal.length;
      }
    }
    if (last !== text.length) out.push([last, text.length, false]);
    return out;
  };
}

function inverted(find: (text: string) => Segment[]): (text: string) => Segment[] {
  return (text) => find(text).map(([a, b, m]) => [a, b, !m]);
}

/** `NormalizedString::split` of every piece: segments found, kept by the behaviour, empty pieces dropped. */
function splitEach(pieces: Piece[], find: (text: string) => Segment[], behavior: Behavior): Piece[] {
  const out: Piece[] = [];
  for (const piece of pieces) {
    for (const [start, end] of keep(find(piece.text), behavior)) {
      if (end > start) out.push({ text: piece.text.slice(start, end), start: piece.start + start });
    }
  }
  return out;
}

/** The ranges a behaviour keeps of a piece's segments (the Rust library's folds, one for one). */
function keep(segments: Segment[], behavior: Behavior): [number, number][] {
  switch (behavior) {
    case 'Removed':
      return segments.filter((s) => !s[2]).map(([a, b]) => [a, b]);
    case 'Isolated':
      return segments.map(([a, b]) => [a, b]);
    case 'Contiguous': {
      const out: [number, number][] = [];
      let previous = false;
      for (const [a, b, match] of segments) {
        const last = out.at(-1);
        if (match === previous && last !== undefined) last[1] = b;
        else out.push([a, b]);
        previous = match;
      }
      return out;
    }
    case 'MergedWithPrevious': {
      const out: [number, number][] = [];
      let previous = false;
      for (const [a, b, match] of segments) {
        const last = out.at(-1);
        if (match && !previous && last !== undefined) last[1] = b;
        else out.push([a, b]);
        previous = match;
      }
      return out;
    }
    case 'MergedWithNext': {
      const out: [number, number][] = [];
      let previous = false;
      for (let i = segments.length - 1; i >= 0; i--) {
        const [a, b, match] = segments[i]!;
        const last = out.at(-1);
        if (match && !previous && last !== undefined) last[0] = a;
        else out.push([a, b]);
        previous = match;
      }
      return out.reverse();
    }
  }
}
