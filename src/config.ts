/**
 * Options → frozen config. `normalizeParseOptions` and `normalizeOptions` copy what the user passed, fill the
 * defaults, validate every field and freeze the result; an invalid option throws `ChunkError('ERR_INVALID_OPTION')`
 * whose message names the option, the rule and the value received.
 */
import { ChunkError } from './errors.js';
import { optionKeys } from './options.js';
import { isTokenizerSource, resolveTokenizer, type TokenizerOption, type TokenizerSource } from './tokenizer-source.js';

export type { TokenEncoding, TokenizerOption, TokenizerSource, HuggingFaceTokenizerJson, HuggingFaceTokenizerLike } from './tokenizer-source.js';

/** Input formats a parser understands. `auto` looks at the first bytes (`%PDF-`); `text` is plain text, paragraphs at blank lines. */
/** The formats chunkstream reads, each with its parser room under `src/parsers/`. */
export const FORMATS = ['markdown', 'pdf', 'transcript', 'text', 'html', 'docx'] as const;
/** A format chunkstream reads. */
export type DocumentFormat = (typeof FORMATS)[number];
/** Input formats a parser understands. `auto` looks at the first bytes (`%PDF-`). */
export type InputFormat = DocumentFormat | 'auto';
/** Units a size can be measured in. */
export type SizeUnit = 'tokens' | 'chars' | 'words';
/** Chunking strategies. */
export type StrategyName = 'semantic' | 'fixed' | 'window' | 'markers' | 'turns';

/** What a user may pass to `parse()`. */
export interface ParseOptions {
  /** Input format; default `auto` (PDF when the bytes start with `%PDF-`, Markdown otherwise). */
  format?: InputFormat;
  /** Fail on invalid UTF-8 with `ERR_INVALID_UTF8` instead of replacing it with U+FFFD. Default false. */
  fatal?: boolean;
  /** Cap on a transcript read into memory. Default 16 MiB. */
  maxBufferBytes?: number;
  /** Size (UTF-16 units) from which a Markdown batch is cut at the next safe blank line. Default 8 Ki. */
  batchSize?: number;
  /**
   * Hard bound (UTF-16 units) on a Markdown parse batch, whatever the text: where no safe blank line falls within
   * it, the batch is cut at the most faithful place inside (see docs/markdown.md). Default 32 Ki, or four batches when
   * `batchSize` is larger.
   */
  maxBatchSize?: number;
  /** Fail instead of cutting: `ERR_BUFFER_OVERFLOW` for a line longer than `maxBatchSize`, `ERR_NESTING_TOO_DEEP` for containers nested deeper than 32. */
  strict?: boolean;
  /** Worker threads parsing Markdown batches; 0 parses inline; `'auto'` decides from input size and cores. */
  workers?: number | 'auto';
  /** Cap on a PDF read from a stream (it is buffered for random access). Default 256 MiB. */
  maxPdfBytes?: number;
  /** Password of an encrypted PDF. */
  password?: string;
  /**
   * Seconds pdf.js may work on one PDF (time the consumer holds the stream back is not counted); past it the
   * stream fails with `ERR_PDF_LIMIT`, after the blocks of the pages read before. Wall-clock time. Default 25.
   */
  maxPdfSeconds?: number;
  /** Memory (MB) the process that reads one PDF may reach; past it, `ERR_PDF_LIMIT` as for time. Default 256. */
  maxPdfMemoryMb?: number;
  /**
   * What of an HTML page is read: `'main'` (default) its content only — the `main` element, else a single
   * `article`, and never navigation, banners, footers or complementary content; `'all'` every visible element.
   */
  htmlContent?: 'main' | 'all';
  /** Aborting ends the stream with an `AbortError`. */
  signal?: AbortSignal;
}

/** The normalized, frozen form of `ParseOptions`. */
export interface ParseConfig {
  readonly format: InputFormat;
  readonly fatal: boolean;
  readonly maxBufferBytes: number;
  readonly batchSize: number;
  readonly maxBatchSize: number;
  readonly strict: boolean;
  readonly workers: number | 'auto';
  readonly maxPdfBytes: number;
  readonly password: string | undefined;
  readonly maxPdfSeconds: number;
  readonly maxPdfMemoryMb: number;
  readonly htmlContent: 'main' | 'all';
  readonly signal: AbortSignal | undefined;
}

/** What a user may pass to `chunk()`, `chunkText()` and the strategies. */
export interface ChunkOptions {
  /** Strategy; default `semantic` (structure-aware). */
  strategy?: StrategyName;
  /** Unit of every size option; default `tokens`. */
  unit?: SizeUnit;
  /**
   * The tokenizer of `unit: 'tokens'`: `'cl100k_base'` (default), `'o200k_base'`, or a Hugging Face tokenizer as
   * the path of its `tokenizer.json` (or of the folder holding it), the parsed file, or a `Tokenizer` of
   * `@huggingface/tokenizers`. Sizes then count what that tokenizer encodes, special tokens included.
   */
  tokenizer?: TokenizerOption;
  /** `tokenizer` by its former name. */
  encoding?: TokenizerOption;
  /** Count user-perceived characters (grapheme clusters) instead of UTF-16 units when `unit` is `chars`. */
  graphemes?: boolean;
  /**
   * Hard limit on a chunk's size (what the embedder sees). Default 512, or a Hugging Face tokenizer's
   * `model_max_length` when its `tokenizer_config.json` names one of at most 8,192.
   */
  maxSize?: number;
  /** Size the packer aims for. Default 75% of `maxSize`. */
  targetSize?: number;
  /** Chunks below this are fused with a neighbour of the same section when the result fits. Default 25% of `targetSize`. */
  minSize?: number;
  /** Units of the previous chunk's tail repeated at the start of the next. Default 0. */
  overlap?: number;
  /** Heading depths that start a new section. Default `[1, 2, 3]`. */
  splitLevels?: number[];
  /** Locale for sentence and word segmentation. Default `'en'`. */
  locale?: string;
  /** Keep a table whole when it fits; split larger ones between rows. Default true. */
  preserveTables?: boolean;
  /** How a table too large for one chunk is split. Only `'rows'` for now. */
  tableSplit?: 'rows';
  /** Never split a fenced code block; one larger than `maxSize` stands alone, flagged `oversized`. Default false. */
  preserveCode?: boolean;
  /**
   * Make `maxSize` apply to the embed text, breadcrumb included, and set `chunk.embedText`. `{ title: true }` also
   * puts the document's title before the breadcrumb (`Title > Install > Linux`), counted in the size the same way.
   * Default false.
   */
  contextualize?: boolean | ContextualizeOptions;
  /**
   * Parents (off by default): every chunk gets the id of its heading section at `levels` (some of `splitLevels`;
   * by default all but the deepest, so a parent is the section around the chunks' own), cut into windows of whole chunks past `maxSize` (default four times the chunk's
   * `maxSize`); `true` takes both defaults. The parents come with the chunks (`result.parents`, the `'parent'`
   * event of `chunk()`). Semantic strategy only.
   */
  parents?: boolean | ParentsOptions;
  /**
   * Id of the document: chunk ids are `${documentId}#${digest of the embedded content}`. Without one, a chunk's id
   * is its digest alone (`#3f9a…`) and `documentId` is `''`: see `NO_DOCUMENT_ID`.
   */
  documentId?: string;
  /** Where the document came from (a path), copied to every chunk. */
  origin?: string;
  /** Fixed strategy: characters per chunk. */
  fixedSize?: number;
  /** Marker strategy: where to cut, in order of preference. Default `['\n\n']`. */
  markers?: (string | RegExp)[];
  /** Turn strategy: turns per window. Default 6. */
  turnsPerChunk?: number;
  /** Turn strategy: turns repeated between consecutive windows. Default 1. */
  overlapTurns?: number;
  /** Aborting ends the stream with an `AbortError`. */
  signal?: AbortSignal;
}

/** The sections that become parents, and how large a parent may be. */
export interface ParentsOptions {
  /** Heading depths whose sections are parents; default `splitLevels` but the deepest (all of one). Each must be one of `splitLevels`. */
  levels?: number[];
  /** Largest parent in the unit; a longer section is cut into windows of whole chunks. Default 4 × `maxSize`. */
  maxSize?: number;
}

/** What `contextualize` puts before a chunk's text, besides the heading breadcrumb. */
export interface ContextualizeOptions {
  /** The document's title first (front matter `title`, HTML `<title>`, PDF `Title`, or a first level-1 heading). Default false. */
  title?: boolean;
}

/** The normalized, frozen form of `ChunkOptions`. */
export interface ChunkConfig {
  readonly strategy: StrategyName;
  readonly unit: SizeUnit;
  /** The tokenizer of `unit: 'tokens'`. */
  readonly tokenizer: TokenizerSource;
  /** The tokenizer's name: the encoding's, or the path (or object name) of a Hugging Face tokenizer. */
  readonly encoding: string;
  readonly graphemes: boolean;
  readonly maxSize: number;
  readonly targetSize: number;
  readonly minSize: number;
  readonly overlap: number;
  readonly splitLevels: readonly number[];
  readonly locale: string;
  readonly preserveTables: boolean;
  readonly tableSplit: 'rows';
  readonly preserveCode: boolean;
  /** `true` for the breadcrumb, `{ title: true }` for the title and the breadcrumb, `false` for neither. */
  readonly contextualize: boolean | Readonly<{ title: true }>;
  /** The sections that become parents, or `undefined` without parents. */
  readonly parents: Readonly<{ levels: readonly number[]; maxSize: number }> | undefined;
  readonly documentId: string;
  readonly origin: string | undefined;
  readonly fixedSize: number | undefined;
  readonly markers: readonly (string | RegExp)[];
  readonly turnsPerChunk: number;
  readonly overlapTurns: number;
  readonly signal: AbortSignal | undefined;
}

/**
 * The document id of a document given none: empty, so that its chunk ids are their content digest alone
 * (`#3f9a…`). Such an id is stable across runs and edits elsewhere and unique within the document, like any chunk
 * id; what it cannot say is which document a chunk came from, so the same content in two documents gets the same id.
 * A made-up default (such as `doc`) gave every document's chunks the same prefix, as if it said.
 */
export const NO_DOCUMENT_ID = '';

/** The keys each normalizer accepts, from the option table. */
const PARSE_KEYS = optionKeys('parse');
const CHUNK_KEYS = optionKeys('chunk');

/** Builds the `ERR_INVALID_OPTION` error: option, rule, value. */
export function invalidOption(option: string, rule: string, value: unknown): ChunkError {
  return new ChunkError('ERR_INVALID_OPTION', `Invalid option ${option}: ${rule}, got ${describe(value)}`, { option });
}

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (value instanceof RegExp) return String(value);
  if (typeof value === 'object' && value !== null) {
    try {
      return JSON.stringify(value);
    } catch {
      return Object.prototype.toString.call(value);
    }
  }
  return String(value);
}

function checkKnownKeys(options: object, known: readonly string[], prefix = ''): void {
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) {
      throw invalidOption(`${prefix}${key}`, `is not a known option (known: ${known.join(', ')})`, (options as Record<string, unknown>)[key]);
    }
  }
}

function oneOf<T extends string>(option: string, value: unknown, allowed: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || !allowed.includes(value as T)) {
    throw invalidOption(option, `must be one of ${allowed.map((a) => `'${a}'`).join(', ')}`, value);
  }
  return value as T;
}

function bool(option: string, value: unknown, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') throw invalidOption(option, 'must be a boolean', value);
  return value;
}

function integer(option: string, value: unknown, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `>= ${min}` : `between ${min} and ${max}`;
    throw invalidOption(option, `must be an integer ${range}`, value);
  }
  return value;
}

/** A positive, finite number of seconds, at most a week. */
function seconds(option: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || value > 7 * 86_400) {
    throw invalidOption(option, 'must be a number of seconds above 0 and at most 604800 (a week)', value);
  }
  return value;
}

/** `contextualize`: a boolean, or `{ title }`, which turns it on (with the title before the breadcrumb when true). */
function contextualizeOption(value: unknown): boolean | Readonly<{ title: true }> {
  if (value === undefined || typeof value === 'boolean') return value ?? false;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalidOption('contextualize', 'must be a boolean or an object such as { title: true }', value);
  }
  checkKnownKeys(value, ['title'], 'contextualize.');
  const title = bool('contextualize.title', (value as ContextualizeOptions).title, false);
  return title ? Object.freeze({ title: true as const }) : true;
}

/** `parents`: off, `true` for the defaults, or `{ levels, maxSize }` checked against the chunking settings. */
function parentsOption(value: unknown, chunking: { splitLevels: readonly number[]; maxSize: number; strategy: StrategyName }): Readonly<{ levels: readonly number[]; maxSize: number }> | undefined {
  if (value === undefined || value === false) return undefined;
  const o = value === true ? {} : value;
  if (typeof o !== 'object' || o === null || Array.isArray(o)) throw invalidOption('parents', 'must be a boolean or an object such as { levels: [1, 2], maxSize: 2048 }', value);
  checkKnownKeys(o, ['levels', 'maxSize'], 'parents.');
  if (chunking.strategy !== 'semantic') throw invalidOption('parents', `needs the semantic strategy, whose chunks never cross a section (strategy is '${chunking.strategy}')`, value);
  const p = o as ParentsOptions;
  // Chunks never cross a section at a split level, so parents at all of them would often be the chunk itself:
  // a parent is the section one level up.
  let levels = chunking.splitLevels.length > 1 ? chunking.splitLevels.slice(0, -1) : [...chunking.splitLevels];
  if (p.levels !== undefined) {
    const given = p.levels as unknown;
    if (!Array.isArray(given) || given.length === 0 || given.some((l) => !chunking.splitLevels.includes(l as number))) {
      throw invalidOption('parents.levels', `must be a non-empty array of heading depths among splitLevels (${chunking.splitLevels.join(', ')}), whose sections no chunk crosses`, given);
    }
    levels = [...new Set(given as number[])].sort((a, b) => a - b);
  }
  const maxSize = integer('parents.maxSize', p.maxSize, 4 * chunking.maxSize, chunking.maxSize);
  return Object.freeze({ levels: Object.freeze(levels), maxSize });
}

/** True when `contextualize` puts the document's title before the breadcrumb. */
export function contextTitleOf(config: Pick<ChunkConfig, 'contextualize'>): boolean {
  return typeof config.contextualize === 'object';
}

function signalOption(value: unknown): AbortSignal | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null || typeof (value as AbortSignal).aborted !== 'boolean') {
    throw invalidOption('signal', 'must be an AbortSignal', value);
  }
  return value as AbortSignal;
}

function plainObject(what: string, options: unknown): object {
  if (options === undefined || options === null) return {};
  if (typeof options !== 'object' || Array.isArray(options)) {
    throw invalidOption(what, 'must be an object', options);
  }
  return options;
}

/**
 * Default Markdown batch, in UTF-16 units. micromark's cost per character grows with the length of what it parses
 * (its event list is spliced and re-walked), and a batch whose working set outlives young-generation collections
 * is promoted to the old generation. A few Ki units parse as fast as larger batches and leave the least to
 * promote, which keeps the peak memory of a long stream flat (`bench/parse.ts` measures both).
 */
export const DEFAULT_BATCH_SIZE = 8 * 1024;

/**
 * Default time budget of one PDF. An ordinary PDF costs a few milliseconds a page (a 352-page book takes about 2 s
 * on a quiet machine), so this reads some thousands of pages, and stops a hostile file within half a minute.
 */
export const DEFAULT_PDF_SECONDS = 25;
/**
 * Default memory budget of the process reading one PDF. Node and pdf.js take some 95 MB before a page is read, and
 * the file is held whole. The corpus's books peak at 120–220 MB (a 352-page one at 165 MB fresh and 171 MB in a
 * process that had read it before; a 117-page one of scanned maps at 217 MB), so this leaves room for larger books
 * while a hostile file is stopped where the process reading it and the one streaming it stay under 400 MB together.
 * A decompression bomb is stopped here, a little past it at worst (the watchdog reads the process's resident size
 * every few milliseconds). Twice this read the same books in some 15–25% less CPU, since a process that ends a book
 * above 60% of its budget is not reused (see `sandbox.ts`).
 */
export const DEFAULT_PDF_MEMORY_MB = 256;
/** Less than this does not even hold Node and pdf.js. */
const MIN_PDF_MEMORY_MB = 96;

/**
 * Default hard bound on a Markdown batch, in UTF-16 units. The largest batch the safe cuts make on the corpus and
 * on Node's API docs at the default batch size is about 26 Ki units, so no real document is cut inside a construct;
 * on text without safe cuts (a table of many rows, headings without blank lines) micromark's time per character
 * grows with the batch, from twice the 8 Ki figure at 32 Ki to three times at 128 Ki, and its working set with it.
 */
export const DEFAULT_MAX_BATCH_SIZE = 32 * 1024;

/** Copies, defaults, validates and freezes options for `parse()`. */
export function normalizeParseOptions(options?: ParseOptions): ParseConfig {
  const o = plainObject('options', options) as ParseOptions;
  checkKnownKeys(o, PARSE_KEYS);
  let workers: number | 'auto' = 'auto';
  if (o.workers !== undefined && o.workers !== 'auto') workers = integer('workers', o.workers, 0, 0, 64);
  if (o.password !== undefined && typeof o.password !== 'string') throw invalidOption('password', 'must be a string', o.password);
  const maxBufferBytes = integer('maxBufferBytes', o.maxBufferBytes, 16 * 1024 * 1024, 1024);
  const batchSize = integer('batchSize', o.batchSize, DEFAULT_BATCH_SIZE, 1);
  const maxBatchSize = integer('maxBatchSize', o.maxBatchSize, Math.max(DEFAULT_MAX_BATCH_SIZE, 4 * batchSize), 64);
  if (batchSize > maxBatchSize) {
    throw invalidOption('batchSize', `must not exceed maxBatchSize (${maxBatchSize})`, batchSize);
  }
  return Object.freeze({
    format: oneOf('format', o.format, [...FORMATS, 'auto'] as const, 'auto'),
    fatal: bool('fatal', o.fatal, false),
    maxBufferBytes,
    batchSize,
    maxBatchSize,
    strict: bool('strict', o.strict, false),
    workers,
    maxPdfBytes: integer('maxPdfBytes', o.maxPdfBytes, 256 * 1024 * 1024, 1),
    password: o.password,
    maxPdfSeconds: seconds('maxPdfSeconds', o.maxPdfSeconds, DEFAULT_PDF_SECONDS),
    maxPdfMemoryMb: integer('maxPdfMemoryMb', o.maxPdfMemoryMb, DEFAULT_PDF_MEMORY_MB, MIN_PDF_MEMORY_MB, 64 * 1024),
    htmlContent: oneOf('htmlContent', o.htmlContent, ['main', 'all'] as const, 'main'),
    signal: signalOption(o.signal),
  });
}

/** `maxSize` when none is given. */
export const DEFAULT_MAX_SIZE = 512;
/** A tokenizer's `model_max_length` up to this is the default `maxSize`; a larger one (a long-context model) is not. */
export const MAX_DEFAULT_FROM_MODEL = 8192;

/** The tokenizer of `tokenizer`, or of its alias `encoding`; giving both asks for the same one. */
function tokenizerOption(o: ChunkOptions): TokenizerSource {
  // A normalized config passed back has its resolved tokenizer and that tokenizer's name as its encoding.
  if (isTokenizerSource(o.tokenizer) && (o.encoding === undefined || o.encoding === o.tokenizer.name)) return o.tokenizer;
  if (o.tokenizer !== undefined && o.encoding !== undefined && o.tokenizer !== o.encoding) {
    throw invalidOption('encoding', 'is another name of tokenizer: give one of them', typeof o.encoding === 'string' ? o.encoding : 'an object');
  }
  return o.tokenizer !== undefined ? resolveTokenizer(o.tokenizer, 'tokenizer') : resolveTokenizer(o.encoding, 'encoding');
}

/** The default `maxSize` of a tokenizer: its model's length when that is a chunk's size, else 512. */
function defaultMaxSize(tokenizer: TokenizerSource): number {
  if (tokenizer.kind !== 'huggingface' || tokenizer.modelMaxLength === undefined) return DEFAULT_MAX_SIZE;
  return tokenizer.modelMaxLength <= MAX_DEFAULT_FROM_MODEL ? tokenizer.modelMaxLength : DEFAULT_MAX_SIZE;
}

/**
 * The `splitLevels` option: heading depths 1–6, sorted, each once; `[1, 2, 3]` by default. Down to `###`, since a
 * chunk's breadcrumb is the path where it starts: a chunk that packed several `###` sections gave the text of all
 * but the first a breadcrumb that was not theirs.
 */
function splitLevelsOption(value: unknown): number[] {
  if (value === undefined) return [1, 2, 3];
  if (!Array.isArray(value) || value.some((l) => !Number.isInteger(l) || l < 1 || l > 6)) {
    throw invalidOption('splitLevels', 'must be an array of heading depths between 1 and 6', value);
  }
  return [...new Set(value as number[])].sort((a, b) => a - b);
}

/** The `locale` option, canonicalized; `'en'` by default. */
function localeOption(value: unknown): string {
  if (value === undefined) return 'en';
  try {
    if (typeof value !== 'string') throw new TypeError();
    return Intl.getCanonicalLocales(value)[0] ?? 'en';
  } catch {
    throw invalidOption('locale', 'must be a BCP 47 language tag such as "en" or "de-CH"', value);
  }
}

/** The `markers` option of the markers strategy: non-empty strings or regular expressions; a blank line by default. */
function markersOption(value: unknown): (string | RegExp)[] {
  if (value === undefined) return ['\n\n'];
  if (!Array.isArray(value) || value.length === 0 || value.some((x) => !(x instanceof RegExp) && (typeof x !== 'string' || x === ''))) {
    throw invalidOption('markers', 'must be a non-empty array of non-empty strings or regular expressions', value);
  }
  return [...value];
}

/** Copies, defaults, validates and freezes options for `chunk()`, `chunkText()` and the strategies. */
export function normalizeOptions(options?: ChunkOptions): ChunkConfig {
  const o = plainObject('options', options) as ChunkOptions;
  checkKnownKeys(o, CHUNK_KEYS);
  const unit = oneOf('unit', o.unit, ['tokens', 'chars', 'words'] as const, 'tokens');
  const tokenizer = tokenizerOption(o);
  const maxSize = integer('maxSize', o.maxSize, unit === 'tokens' ? defaultMaxSize(tokenizer) : DEFAULT_MAX_SIZE, 1);
  const targetSize = integer('targetSize', o.targetSize, Math.max(1, Math.floor(maxSize * 0.75)), 1);
  if (targetSize > maxSize) throw invalidOption('targetSize', `must not exceed maxSize (${maxSize})`, targetSize);
  // Turn windows below minSize are dropped: by default none are, or a short conversation would vanish.
  const minSize = integer('minSize', o.minSize, o.strategy === 'turns' ? 0 : Math.floor(targetSize / 4), 0);
  if (minSize > targetSize) throw invalidOption('minSize', `must not exceed targetSize (${targetSize})`, minSize);
  const overlap = integer('overlap', o.overlap, 0, 0);
  if (overlap >= maxSize) throw invalidOption('overlap', `must be less than maxSize (${maxSize}), or no chunk could advance`, overlap);

  const splitLevels = splitLevelsOption(o.splitLevels);
  const locale = localeOption(o.locale);
  // '' is the id of a document given none (NO_DOCUMENT_ID): a normalized config goes through here again unchanged.
  if (o.documentId !== undefined && typeof o.documentId !== 'string') {
    throw invalidOption('documentId', "must be a string (or '' for a document without an id)", o.documentId);
  }
  if (o.origin !== undefined && typeof o.origin !== 'string') throw invalidOption('origin', 'must be a string', o.origin);
  const markers = markersOption(o.markers);
  const turnsPerChunk = integer('turnsPerChunk', o.turnsPerChunk, 6, 1);
  // Overlap is clamped below the window so that every window advances.
  const overlapTurns = Math.min(integer('overlapTurns', o.overlapTurns, 1, 0), turnsPerChunk - 1);

  const strategy = oneOf('strategy', o.strategy, ['semantic', 'fixed', 'window', 'markers', 'turns'] as const, 'semantic');
  const fixedSize = o.fixedSize === undefined ? undefined : integer('fixedSize', o.fixedSize, 1, 1);
  if (strategy === 'fixed' && fixedSize === undefined && unit !== 'chars') {
    throw invalidOption('fixedSize', `is required with unit '${unit}': the fixed strategy cuts characters, so maxSize only stands in for it when unit is 'chars'`, fixedSize);
  }
  return Object.freeze({
    strategy,
    unit,
    tokenizer,
    encoding: tokenizer.name,
    graphemes: bool('graphemes', o.graphemes, false),
    maxSize,
    targetSize,
    minSize,
    overlap,
    splitLevels: Object.freeze(splitLevels),
    locale,
    preserveTables: bool('preserveTables', o.preserveTables, true),
    tableSplit: oneOf('tableSplit', o.tableSplit, ['rows'] as const, 'rows'),
    preserveCode: bool('preserveCode', o.preserveCode, false),
    contextualize: contextualizeOption(o.contextualize),
    parents: parentsOption(o.parents, { splitLevels, maxSize, strategy }),
    documentId: o.documentId ?? NO_DOCUMENT_ID,
    origin: o.origin,
    fixedSize,
    markers: Object.freeze(markers),
    turnsPerChunk,
    overlapTurns,
    signal: signalOption(o.signal),
  });
}
