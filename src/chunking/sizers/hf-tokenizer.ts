/**
 * Token counts of a Hugging Face `tokenizer.json`, exactly as the Rust `tokenizers` library encodes a text (what an
 * embedding model running it sees), and fast.
 *
 * The pipeline is the library's: added tokens (`[CLS]`, `<|endoftext|>`, … written in the text) are cut out and
 * count one each; the rest of each split is normalized, cut into pre-tokens, and each pre-token goes through the
 * model; the post-processor adds its special tokens (`[CLS]`/`[SEP]`, BOS/EOS) to every input. The normalizer
 * and the pre-tokenizer always see the whole split, so whatever they do at its edges (Metaspace's `first` scheme,
 * ByteLevel's prefix space, the BERT clean-up, Strip) happens as in the library. What is cached is what the library
 * itself computes one piece at a time: the model's count of one pre-token. A text's count is the sum of its
 * pre-tokens' counts, each looked up in a bounded cache (`count-tables.ts`) in place, without making its string.
 *
 * Where a model sees one long pre-token (no pre-tokenizer, or Metaspace without splitting: Llama 2 and Gemma
 * style SentencePiece BPE), the pre-token is cut before its word markers (`▁`) and line feeds wherever no merge of
 * the model can join the characters on either side: BPE then counts each part alone exactly as inside the whole, so the parts
 * are cached like pre-tokens. Where that cannot be proved (a merge across the marker, a continuing-subword prefix),
 * the pre-token is counted whole.
 */
import type { HuggingFaceDefinition } from '../../tokenizer-source.js';
import { modelType } from '../../tokenizer-source.js';
import { invalidOption } from '../../config.js';
import { createPieceCache } from './count-tables.js';
import { createModelCounter, type BpeCounter, type ModelCounter } from './hf-models.js';
import { createNormalizer, type Normalize } from './hf-normalizers.js';
import { createPreTokenizer, type PreTokenizerShape } from './hf-pre-tokenizers.js';

/** Counts of one tokenizer. */
export interface HuggingFaceCounter {
  /** Special tokens the post-processor adds to every input. */
  readonly specialTokens: number;
  /**
   * Tokens of `text` without the special tokens when at most `limit`; otherwise a count above `limit` (the
   * pre-tokens up to where the count went past it: counts only grow).
   */
  count(text: string, limit?: number): number;
}

type Json = Record<string, unknown>;

/** Pre-tokens up to this length (UTF-16 units) are cached. */
const MAX_CACHED_LENGTH = 128;
/** As the cl100k counter's cache: some 60,000 distinct pre-tokens in Node's API docs. */
const CACHE_GENERATION = { entries: 50_000, units: 50_000 * 12 };
/** Long pre-tokens (a run of CJK in a byte-level BPE, a Llama-style part without markers) come back too. */
const LONG_CACHE_GENERATION = { entries: 256, units: 256 * 1024 };
const WORD_MARKER = 0x2581;
const LINE_FEED = 0x0a;

/** Built counters, one per definition. */
const counters = new WeakMap<HuggingFaceDefinition, HuggingFaceCounter>();

/** The counter of a definition, built on first use. */
export function huggingFaceCounter(definition: HuggingFaceDefinition): HuggingFaceCounter {
  let counter = counters.get(definition);
  if (counter === undefined) {
    counter = createCounter(definition);
    counters.set(definition, counter);
  }
  return counter;
}

/** ES2024's string methods, in Node since 20. */
interface WellFormed {
  isWellFormed(): boolean;
  toWellFormed(): string;
}

/** The state of one count: the running total and where it stops. */
interface Tally {
  total: number;
  readonly limit: number;
}

function createCounter(definition: HuggingFaceDefinition): HuggingFaceCounter {
  const { json, config } = definition;
  const type = modelType(json.model) ?? '';
  const normalize = createNormalizer(json.normalizer);
  const pre = createPreTokenizer(json.pre_tokenizer);
  const model = createModelCounter(json.model as Json, type, pre.byteLevel);
  const added = createAddedTokens(json.added_tokens, config?.added_tokens_decoder, normalize);
  const pieces = createPieceCounter(pre, model, type === 'BPE' && pre.scanner?.kind === 'whole' ? (model as BpeCounter) : undefined);

  /** One split of the text (between added tokens), normalized and counted. */
  const countSplit = (raw: string, first: boolean, tally: Tally): void => {
    const normalized = normalize(raw);
    added.normalizedSplits(normalized, (start, end, isToken) => {
      if (isToken) tally.total += 1;
      else pieces(start === 0 && end === normalized.length ? normalized : normalized.slice(start, end), first && start === 0, tally);
      return tally.total <= tally.limit;
    });
  };

  return {
    specialTokens: specialTokensOf(json.post_processor),
    count(input, limit = Number.POSITIVE_INFINITY) {
      const tally: Tally = { total: 0, limit };
      // The Rust library holds UTF-8: a lone surrogate reaches it as U+FFFD.
      const wellFormed = input as unknown as WellFormed;
      const text = wellFormed.isWellFormed() ? input : wellFormed.toWellFormed();
      added.rawSplits(text, (start, end, isToken) => {
        if (isToken) tally.total += 1;
        else countSplit(start === 0 && end === text.length ? text : text.slice(start, end), start === 0, tally);
        return tally.total <= tally.limit;
      });
      return tally.total;
    },
  };
}

/**
 * Counts the pre-tokens of one normalized split into a tally: by the scanner and the caches where the
 * pre-tokenizer has one, by the general split otherwise.
 */
function createPieceCounter(pre: PreTokenizerShape, model: ModelCounter, cutter: BpeCounter | undefined): (normalized: string, first: boolean, tally: Tally) => void {
  const cache = createPieceCache(CACHE_GENERATION);
  const longCache = createPieceCache(LONG_CACHE_GENERATION);
  // Parts of a pre-token cut where the model adds (`whole: false`) are counted and cached apart from whole ones:
  // a BPE model that ignores merges for words of its vocabulary does so for whole pre-tokens only.
  const partCache = createPieceCache(CACHE_GENERATION);
  const longPartCache = createPieceCache(LONG_CACHE_GENERATION);
  const countWhole = (piece: string): number => model.count(piece, true);
  const countPart = (piece: string): number => model.count(piece, false);
  /** Count of pre-token `text[start..end)`. */
  const countOf = (text: string, start: number, end: number, whole: boolean): number => {
    const short = end - start <= MAX_CACHED_LENGTH;
    if (whole) return (short ? cache : longCache).countOf(text, start, end, countWhole);
    return (short ? partCache : longPartCache).countOf(text, start, end, countPart);
  };
  const scanner = pre.scanner;
  if (scanner === undefined) {
    return (normalized, first, tally) => {
      for (const piece of pre.split([{ text: normalized, start: 0 }], first)) {
        tally.total += countOf(piece.text, 0, piece.text.length, true);
        if (tally.total > tally.limit) return;
      }
    };
  }
  if (cutter !== undefined) {
    // One pre-token for the whole split: cut it where BPE provably adds, counting each part as it is found.
    const isCut = createCutTest(cutter);
    return (normalized, first, tally) => {
      const text = scanner.prepare(normalized, first);
      let start = 0;
      for (let at = 1; at < text.length; at++) {
        if (!isCut(text, at)) continue;
        tally.total += countOf(text, start, at, false);
        if (tally.total > tally.limit) return;
        start = at;
      }
      if (start < text.length) tally.total += countOf(text, start, text.length, start === 0);
    };
  }
  return (normalized, first, tally) => {
    const text = scanner.prepare(normalized, first);
    scanner.scan(text, (start, end) => {
      tally.total += countOf(text, start, end, true);
      return tally.total <= tally.limit;
    });
  };
}

/**
 * Whether a pre-token may be cut before `text[at]`: before a word marker (`▁`) or a line feed, where no merge of the
 * model joins the character before to it, both characters of the vocabulary (see the module comment). The answers
 * for characters of the BMP before the cut are kept in a table per character after it.
 */
function createCutTest(model: BpeCounter): (text: string, at: number) => boolean {
  const UNKNOWN = 0;
  const SAFE = 1;
  const tables = new Map<number, Uint8Array>([
    [WORD_MARKER, new Uint8Array(0x10000)],
    [LINE_FEED, new Uint8Array(0x10000)],
  ]);
  return (text, at) => {
    const c = text.charCodeAt(at);
    const table = c === WORD_MARKER || c === LINE_FEED ? tables.get(c)! : undefined;
    if (table === undefined) return false;
    const low = text.charCodeAt(at - 1);
    if (low >= 0xdc00 && low <= 0xdfff) return at >= 2 && model.safeCut(text.codePointAt(at - 2)!, c);
    let known = table[low]!;
    if (known === UNKNOWN) {
      known = model.safeCut(low, c) ? SAFE : 2;
      table[low] = known;
    }
    return known === SAFE;
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Added tokens

/** An added token of `tokenizer.json` (or of `tokenizer_config.json`'s `added_tokens_decoder`). */
interface AddedToken {
  readonly content: string;
  readonly singleWord: boolean;
  readonly lstrip: boolean;
  readonly rstrip: boolean;
  readonly normalized: boolean;
}

/** Visits the splits of a text, added tokens (`isToken`) and the text between them; returns false to stop. */
type VisitSplit = (start: number, end: number, isToken: boolean) => boolean;

interface AddedTokens {
  /** Splits by the tokens matched in the raw text (`normalized: false`). */
  rawSplits(text: string, visit: VisitSplit): void;
  /** Splits of a normalized split by the tokens matched after normalization (`normalized: true`). */
  normalizedSplits(text: string, visit: VisitSplit): void;
}

function addedTokenOf(entry: unknown): AddedToken | undefined {
  if (typeof entry !== 'object' || entry === null) return undefined;
  const e = entry as Json;
  if (typeof e.content !== 'string' || e.content === '') return undefined;
  const special = e.special === true;
  return {
    content: e.content,
    singleWord: e.single_word === true,
    lstrip: e.lstrip === true,
    rstrip: e.rstrip === true,
    normalized: typeof e.normalized === 'boolean' ? e.normalized : !special,
  };
}

/**
 * The added tokens: those of `tokenizer.json`, and those `tokenizer_config.json` declares beyond them (which
 * `transformers` adds when it loads the tokenizer).
 */
function createAddedTokens(list: unknown, declared: unknown, normalize: Normalize): AddedTokens {
  const tokens = (Array.isArray(list) ? list : []).map(addedTokenOf).filter((t) => t !== undefined);
  const known = new Set(tokens.map((t) => t.content));
  if (typeof declared === 'object' && declared !== null) {
    for (const entry of Object.values(declared)) {
      const token = addedTokenOf(entry);
      if (token !== undefined && !known.has(token.content)) {
        tokens.push(token);
        known.add(token.content);
      }
    }
  }
  const raw = createMatcher(tokens.filter((t) => !t.normalized).map((t) => [t.content, t]));
  // A normalized token is looked for as the normalizer writes it.
  const normalized = createMatcher(tokens.filter((t) => t.normalized).map((t) => [normalize(t.content), t]));
  return { rawSplits: raw, normalizedSplits: normalized };
}

const WORD_CHAR = /[\p{Alphabetic}\p{M}\p{Nd}\p{Pc}\p{Join_Control}]/u;
const ENDS_WITH_WORD = new RegExp(`${WORD_CHAR.source}$`, 'u');
const STARTS_WITH_WORD = new RegExp(`^${WORD_CHAR.source}`, 'u');
const TRAILING_SPACE = /\p{White_Space}*$/u;
const LEADING_SPACE = /^\p{White_Space}*/u;

/**
 * Splits by added tokens as `AddedVocabulary::find_matches` does: leftmost-longest matches, a `single_word` token
 * only between non-word characters, `lstrip`/`rstrip` taking the whitespace beside it.
 */
function createMatcher(entries: [string, AddedToken][]): (text: string, visit: VisitSplit) => void {
  const usable = entries.filter(([pattern]) => pattern !== '');
  if (usable.length === 0) {
    return (text, visit) => {
      if (text !== '') visit(0, text.length, false);
    };
  }
  const byPattern = new Map(usable);
  // Longest first: at the leftmost position where tokens match, the alternation takes the longest.
  const sorted = [...byPattern.keys()].sort((a, b) => b.length - a.length);
  const pattern = new RegExp(sorted.map(escapeRegExp).join('|'), 'g');
  const firstChars = new RegExp(`[${[...new Set(sorted.map((p) => p[0]!))].map(escapeClassChar).join('')}]`);
  return (text, visit) => {
    if (!firstChars.test(text)) {
      if (text !== '') visit(0, text.length, false);
      return;
    }
    let from = 0;
    pattern.lastIndex = 0;
    for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
      const token = byPattern.get(m[0])!;
      let start = m.index;
      let stop = start + m[0].length;
      if (token.singleWord) {
        const startSpace = start === 0 || !ENDS_WITH_WORD.test(text.slice(0, start));
        const stopSpace = stop === text.length || !STARTS_WITH_WORD.test(text.slice(stop));
        if (!startSpace || !stopSpace) continue;
      }
      if (token.lstrip) start = Math.max(start - TRAILING_SPACE.exec(text.slice(0, start))![0].length, from);
      if (token.rstrip) stop += LEADING_SPACE.exec(text.slice(stop))![0].length;
      if (from < start && !visit(from, start, false)) return;
      if (!visit(start, stop, true)) return;
      from = stop;
    }
    if (from < text.length) visit(from, text.length, false);
  };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

function escapeClassChar(ch: string): string {
  return /[\\\]^-]/.test(ch) ? `\\${ch}` : ch;
}

// ---------------------------------------------------------------------------------------------------------------
// Post-processors

/** Special tokens a post-processor adds to a single input. */
export function specialTokensOf(processor: unknown): number {
  if (processor === null || processor === undefined) return 0;
  const p = processor as Json;
  switch (p.type) {
    case 'BertProcessing':
    case 'RobertaProcessing':
      return 2;
    case 'ByteLevel':
      return 0;
    case 'Sequence':
      return (p.processors as unknown[]).reduce<number>((n, part) => n + specialTokensOf(part), 0);
    case 'TemplateProcessing': {
      const specials = (p.special_tokens ?? {}) as Record<string, { ids?: unknown }>;
      const single = Array.isArray(p.single) ? p.single : [];
      let n = 0;
      for (const piece of single as Json[]) {
        const special = piece.SpecialToken as Json | undefined;
        if (special === undefined) continue;
        const ids = specials[special.id as string]?.ids;
        if (!Array.isArray(ids)) throw invalidOption('tokenizer', `has a template whose special token ${JSON.stringify(special.id)} is not among its special_tokens`, special.id);
        n += ids.length;
      }
      return n;
    }
    default:
      throw invalidOption('tokenizer', 'has a post-processor chunkstream does not count with', p.type);
  }
}
