/**
 * The `tokenizer` option → the tokenizer chunk sizes are counted in: one of the bundled OpenAI encodings, or a
 * Hugging Face `tokenizer.json` given as a path (the file, or the folder holding it), a parsed object, or a
 * `Tokenizer` of `@huggingface/tokenizers`. Everything that can be wrong with a tokenizer file (missing,
 * unreadable, not JSON, a model or a normalizer, pre-tokenizer or post-processor chunkstream does not count with)
 * is found here, when the options are checked, and thrown as `ERR_INVALID_OPTION` naming the option, the path and
 * the reason: never a silent fallback to another tokenizer.
 *
 * A file is read once per process (again only when it changes on disk); the counting tables are built from the
 * definition in `chunking/sizers/` on first use.
 */
import { readFileSync, statSync, type Stats } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { ChunkError } from './errors.js';

/** Token encodings bundled with the package (no network, ever). */
export type TokenEncoding = 'cl100k_base' | 'o200k_base';

/** The encodings bundled with the package. */
export const TOKEN_ENCODINGS: readonly TokenEncoding[] = ['cl100k_base', 'o200k_base'];

/**
 * What the `tokenizer` option (and its alias `encoding`) takes: a bundled encoding's name, the path of a Hugging
 * Face `tokenizer.json` (or of the folder holding it), the parsed `tokenizer.json`, or a `Tokenizer` of
 * `@huggingface/tokenizers`.
 */
export type TokenizerOption = TokenEncoding | (string & {}) | HuggingFaceTokenizerJson | HuggingFaceTokenizerLike;

/** The parts of a parsed `tokenizer.json` chunkstream reads (the file has more). */
export interface HuggingFaceTokenizerJson {
  model: { type?: string; [key: string]: unknown };
  normalizer?: unknown;
  pre_tokenizer?: unknown;
  post_processor?: unknown;
  added_tokens?: unknown;
  [key: string]: unknown;
}

/** A `Tokenizer` of `@huggingface/tokenizers`: what it was made from is read back. */
export interface HuggingFaceTokenizerLike {
  encode(text: string, options?: object): unknown;
}

/** A tokenizer definition read from Hugging Face files. */
export interface HuggingFaceDefinition {
  /** The parsed `tokenizer.json`. */
  readonly json: HuggingFaceTokenizerJson;
  /** The parsed `tokenizer_config.json` beside it, when there is one. */
  readonly config: Readonly<Record<string, unknown>> | undefined;
}

/** The tokenizer of a chunking config. */
export type TokenizerSource =
  | { readonly kind: 'tiktoken'; readonly name: TokenEncoding }
  | {
      readonly kind: 'huggingface';
      /** The path given, or a name for an object (unique in the process, so that two objects are told apart). */
      readonly name: string;
      /** The resolved path of the `tokenizer.json`, for a file. */
      readonly path: string | undefined;
      readonly definition: HuggingFaceDefinition;
      /** `model_max_length` of `tokenizer_config.json`, when it names one. */
      readonly modelMaxLength: number | undefined;
    };

/** Model types chunkstream counts with. */
export const SUPPORTED_MODELS: readonly string[] = ['BPE', 'WordPiece', 'Unigram', 'WordLevel'];
/** Normalizer types chunkstream counts with. */
export const SUPPORTED_NORMALIZERS: readonly string[] = ['Sequence', 'BertNormalizer', 'NFC', 'NFD', 'NFKC', 'NFKD', 'Lowercase', 'StripAccents', 'Strip', 'Replace', 'Prepend', 'Precompiled'];
/** Pre-tokenizer types chunkstream counts with. */
export const SUPPORTED_PRE_TOKENIZERS: readonly string[] = ['Sequence', 'BertPreTokenizer', 'Whitespace', 'WhitespaceSplit', 'Metaspace', 'ByteLevel', 'Split', 'Punctuation', 'Digits', 'CharDelimiterSplit'];
/** Post-processor types chunkstream counts with. */
export const SUPPORTED_POST_PROCESSORS: readonly string[] = ['Sequence', 'TemplateProcessing', 'BertProcessing', 'RobertaProcessing', 'ByteLevel'];

/** Every source made here, so that a normalized config's tokenizer is known again. */
const sources = new WeakSet<object>();

function made<T extends TokenizerSource>(source: T): T {
  sources.add(source);
  return source;
}

/** True when `value` is a tokenizer resolved here (a `ChunkConfig`'s `tokenizer`). */
export function isTokenizerSource(value: unknown): value is TokenizerSource {
  return typeof value === 'object' && value !== null && sources.has(value);
}

/** The built-in encoding. */
export const DEFAULT_TOKENIZER: TokenizerSource = made(Object.freeze({ kind: 'tiktoken', name: 'cl100k_base' }));
const O200K: TokenizerSource = made(Object.freeze({ kind: 'tiktoken', name: 'o200k_base' }));

const filesRead = new Map<string, { mtimeMs: number; size: number; source: TokenizerSource }>();
const objectsRead = new WeakMap<object, TokenizerSource>();
let objectsNamed = 0;

/**
 * The tokenizer `value` names (`option` is the option it came from, for messages). Throws `ERR_INVALID_OPTION`
 * for anything chunkstream cannot count with.
 */
export function resolveTokenizer(value: unknown, option = 'tokenizer'): TokenizerSource {
  if (value === undefined) return DEFAULT_TOKENIZER;
  // A normalized config's own tokenizer, passed back through the normalizer.
  if (isTokenizerSource(value)) return value;
  if (value === 'cl100k_base') return DEFAULT_TOKENIZER;
  if (value === 'o200k_base') return O200K;
  if (typeof value === 'string') {
    if (value === '') throw tokenizerError(option, value, "must be 'cl100k_base', 'o200k_base' or the path of a Hugging Face tokenizer.json");
    return readTokenizerFile(value, option);
  }
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return readTokenizerObject(value, option);
  throw tokenizerError(option, value, "must be 'cl100k_base', 'o200k_base', the path of a Hugging Face tokenizer.json, its parsed object or a Tokenizer of @huggingface/tokenizers");
}

/** A `tokenizer.json` (or the folder holding one) and the `tokenizer_config.json` beside it. */
function readTokenizerFile(given: string, option: string): TokenizerSource {
  let path = resolve(given);
  if (!/[\\/]|\.json$/i.test(given) && !existsPath(path)) {
    // A name, not a path: say what names there are.
    throw tokenizerError(option, given, "is not a name chunkstream knows ('cl100k_base', 'o200k_base') nor a file: give the path of a Hugging Face tokenizer.json or of its folder");
  }
  let stats = statOf(path, given, option);
  if (stats.isDirectory()) {
    path = join(path, 'tokenizer.json');
    stats = statOf(path, given, option);
  }
  const known = filesRead.get(path);
  if (known !== undefined && known.mtimeMs === stats.mtimeMs && known.size === stats.size) return known.source;
  const json = parseJsonFile(path, given, option);
  const configPath = join(dirname(path), 'tokenizer_config.json');
  const config = existsFile(configPath) ? parseJsonFile(configPath, given, option) : undefined;
  const source = huggingFaceSource(given, path, json, config, option);
  filesRead.set(path, { mtimeMs: stats.mtimeMs, size: stats.size, source });
  return source;
}

/** A parsed `tokenizer.json`, or a `Tokenizer` of `@huggingface/tokenizers` (whose definition it keeps). */
function readTokenizerObject(value: object, option: string): TokenizerSource {
  const known = objectsRead.get(value);
  if (known !== undefined) return known;
  const record = value as Record<string, unknown>;
  const isInstance = typeof record.encode === 'function';
  // `@huggingface/tokenizers` keeps what it was built from as `tokenizer` and `config` (0.2.x).
  const json = isInstance ? record.tokenizer : value;
  const config = isInstance ? record.config : undefined;
  const name = `${isInstance ? 'Tokenizer' : 'tokenizer.json object'} #${++objectsNamed}`;
  if (typeof json !== 'object' || json === null) {
    throw tokenizerError(option, name, 'is a tokenizer object whose tokenizer.json cannot be read back from it (a Tokenizer of @huggingface/tokenizers 0.2 keeps it)');
  }
  const source = huggingFaceSource(name, undefined, json, typeof config === 'object' && config !== null ? config : undefined, option);
  objectsRead.set(value, source);
  return source;
}

function huggingFaceSource(name: string, path: string | undefined, json: unknown, config: unknown, option: string): TokenizerSource {
  const checked = checkDefinition(json, name, option);
  const settings = config === undefined ? undefined : checkConfig(config, name, option);
  const maxLength = settings?.model_max_length;
  return made<TokenizerSource>(Object.freeze({
    kind: 'huggingface',
    name,
    path,
    definition: Object.freeze({ json: checked, config: settings }),
    modelMaxLength: typeof maxLength === 'number' && Number.isInteger(maxLength) && maxLength > 0 ? maxLength : undefined,
  }));
}

/** The model's type, given or (in files written before the field existed) told from its fields, as the Rust library does. */
export function modelType(model: Record<string, unknown>): string | undefined {
  if (typeof model.type === 'string') return model.type;
  if (model.merges !== undefined) return 'BPE';
  if (Array.isArray(model.vocab)) return 'Unigram';
  if (model.max_input_chars_per_word !== undefined || model.continuing_subword_prefix !== undefined) return 'WordPiece';
  if (typeof model.vocab === 'object' && model.vocab !== null) return 'WordLevel';
  return undefined;
}

function checkDefinition(json: unknown, name: string, option: string): HuggingFaceTokenizerJson {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw tokenizerError(option, name, 'is not a tokenizer.json: not a JSON object');
  const definition = json as HuggingFaceTokenizerJson;
  const model = definition.model as unknown;
  if (typeof model !== 'object' || model === null) throw tokenizerError(option, name, 'is not a tokenizer.json: it has no "model" object');
  const type = modelType(model as Record<string, unknown>);
  if (type === undefined || !SUPPORTED_MODELS.includes(type)) {
    throw tokenizerError(option, name, `has a model of type ${JSON.stringify(type ?? null)}, which chunkstream does not count with (it counts ${SUPPORTED_MODELS.join(', ')})`);
  }
  const vocab = (model as Record<string, unknown>).vocab;
  if (typeof vocab !== 'object' || vocab === null) throw tokenizerError(option, name, `has a ${type} model without a vocabulary`);
  if (type === 'BPE' && !Array.isArray((model as Record<string, unknown>).merges)) throw tokenizerError(option, name, 'has a BPE model without a list of merges');
  checkComponent(definition.normalizer, 'normalizer', 'normalizers', SUPPORTED_NORMALIZERS, name, option);
  checkComponent(definition.pre_tokenizer, 'pre_tokenizer', 'pretokenizers', SUPPORTED_PRE_TOKENIZERS, name, option);
  checkComponent(definition.post_processor, 'post_processor', 'processors', SUPPORTED_POST_PROCESSORS, name, option);
  if (definition.added_tokens !== undefined && definition.added_tokens !== null && !Array.isArray(definition.added_tokens)) {
    throw tokenizerError(option, name, 'has "added_tokens" that is not a list');
  }
  return definition;
}

/** Checks that a component (and each part of a `Sequence`) is of a type chunkstream counts with. */
function checkComponent(component: unknown, field: string, parts: string, supported: readonly string[], name: string, option: string): void {
  if (component === undefined || component === null) return;
  const type = typeof component === 'object' ? (component as Record<string, unknown>).type : undefined;
  if (typeof type !== 'string' || !supported.includes(type)) {
    throw tokenizerError(option, name, `has a ${field} of type ${JSON.stringify(type ?? null)}, which chunkstream does not count with (it counts ${supported.join(', ')})`);
  }
  if (type === 'Sequence') {
    const list = (component as Record<string, unknown>)[parts];
    if (!Array.isArray(list)) throw tokenizerError(option, name, `has a Sequence ${field} without its list "${parts}"`);
    for (const part of list) checkComponent(part, field, parts, supported, name, option);
  }
}

function checkConfig(config: unknown, name: string, option: string): Record<string, unknown> {
  if (typeof config !== 'object' || config === null || Array.isArray(config)) throw tokenizerError(option, name, 'has a tokenizer_config.json that is not a JSON object');
  return config as Record<string, unknown>;
}

function statOf(path: string, given: string, option: string): Stats {
  try {
    return statSync(path);
  } catch (error) {
    throw tokenizerError(option, given, `cannot be read: ${reasonOf(error)}`, path, error);
  }
}

function existsPath(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
}

function existsFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function parseJsonFile(path: string, given: string, option: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw tokenizerError(option, given, `cannot be read: ${reasonOf(error)}`, path, error);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw tokenizerError(option, given, `is not valid JSON (${path}): ${reasonOf(error)}`, path, error);
  }
}

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** `ERR_INVALID_OPTION` for a tokenizer: the option, what was given, the reason, and the path read. */
function tokenizerError(option: string, given: unknown, reason: string, path?: string, cause?: unknown): ChunkError {
  const shown = typeof given === 'string' ? JSON.stringify(given) : typeof given === 'object' && given !== null ? Object.prototype.toString.call(given) : String(given);
  const source = path ?? (typeof given === 'string' ? given : undefined);
  return new ChunkError('ERR_INVALID_OPTION', `Invalid option ${option}: ${shown} ${reason}`, { option, ...(source !== undefined ? { source } : {}), ...(cause !== undefined ? { cause } : {}) });
}
