/**
 * What a chunking job carries through Redis, and what it completes with. Job data is JSON, so the one option that
 * JSON cannot hold (a `RegExp` marker) is encoded, and everything read back from the queue is checked before a
 * worker trusts it: a job may have been written by another version, another program or another person.
 */
import { isAbsolute, normalize } from 'node:path';
import { FORMATS as DOCUMENT_FORMATS, normalizeOptions, normalizeParseOptions, type ChunkOptions, type InputFormat } from '../../config.js';
import { ChunkError } from '../../errors.js';
import { TOKEN_ENCODINGS } from '../../tokenizer-source.js';
import { checkTokenizerFiles } from './input-roots.js';
import { CLI_PARSE_KEYS } from '../../options.js';
import type { FileParseOptions } from '../../files/process-file.js';

/** Name of every job chunkstream adds (BullMQ jobs have a name beside their queue). */
export const JOB_NAME = 'chunk';

/** Version of the job data layout; a worker refuses jobs of a layout it does not know. */
export const JOB_DATA_VERSION = 1;

/** Largest document a job may carry inline (its bytes, before base64): larger ones are named by path. */
export const MAX_INLINE_BYTES = 8 * 1024 * 1024;

/** Formats a job can name; `auto` decides from the first bytes (`%PDF-`), as for standard input. */
export type JobFormat = InputFormat;

/** A `RegExp` marker as JSON holds it. */
export interface EncodedRegExp {
  readonly regex: string;
  readonly flags: string;
}

/** `ChunkOptions` as JSON holds them: markers may be encoded regular expressions; no `signal`. */
export type JobChunkOptions = Omit<ChunkOptions, 'markers' | 'signal'> & { markers?: (string | EncodedRegExp)[] };

/** The data of one chunking job. */
export interface ChunkJobData {
  readonly version: typeof JOB_DATA_VERSION;
  /** The input as it was named: every chunk's `source`, `documentId` and `origin`, as `chunkstream FILE` writes them. */
  readonly source: string;
  /** The output file, relative to the worker's output folder: the name `chunkstream --out-dir` gives the same input. */
  readonly output: string;
  readonly format: JobFormat;
  /** Absolute path the workers read (a volume they share); absent when the document travels inline. */
  readonly path?: string;
  /** The document's bytes in base64, for a small document carried in the job. */
  readonly content?: string;
  /** Size of the document in bytes, when known. */
  readonly bytes?: number;
  readonly chunkOptions: JobChunkOptions;
  readonly parseOptions: FileParseOptions;
}

/** A job's data once read and checked: options decoded and ready for `chunk()`. */
export interface ReadJobData extends Omit<ChunkJobData, 'chunkOptions'> {
  readonly chunkOptions: ChunkOptions;
}

/** What a job completes with: where its chunks went and the figures of the file. */
export interface ChunkJobResult {
  readonly source: string;
  /** The output file, relative to the worker's output folder. */
  readonly output: string;
  readonly chunks: number;
  readonly totalSize: number;
  readonly minSize: number;
  readonly maxSize: number;
  readonly oversized: number;
  readonly undersized: number;
  /** PDF pages (0 for other formats). */
  readonly pages: number;
  /** Bytes of the document read. */
  readonly bytes: number;
  /** Time spent chunking the file, in milliseconds (queue traffic excluded). */
  readonly timeMs: number;
  /** The worker that did it: `host:pid`, or the `workerId` option. */
  readonly worker: string;
  /**
   * What the reader had to make good, as the command line says it and `chunkFile` puts it in `statistics.warnings`
   * (invalid UTF-8 replaced with U+FFFD, a PDF's warnings); absent when there was nothing.
   */
  readonly warnings?: readonly string[];
}

/** Turns `ChunkOptions` into JSON-safe job options (regular-expression markers encoded). */
export function encodeChunkOptions(options: ChunkOptions): JobChunkOptions {
  const { signal: _signal, markers, ...rest } = options;
  if (markers === undefined) return { ...rest };
  return { ...rest, markers: markers.map((m) => (m instanceof RegExp ? { regex: m.source, flags: m.flags } : m)) };
}

/** The reverse of `encodeChunkOptions`. Throws `ERR_INVALID_INPUT` on a marker that is neither form. */
export function decodeChunkOptions(options: JobChunkOptions): ChunkOptions {
  const { markers, ...rest } = options;
  if (markers === undefined) return { ...rest };
  if (!Array.isArray(markers)) throw invalidJob('chunkOptions.markers must be an array', markers);
  return {
    ...rest,
    markers: markers.map((m) => {
      if (typeof m === 'string') return m;
      if (typeof m === 'object' && m !== null && typeof m.regex === 'string' && typeof m.flags === 'string') {
        try {
          return new RegExp(m.regex, m.flags);
        } catch {
          throw invalidJob('chunkOptions.markers holds an invalid regular expression', m);
        }
      }
      throw invalidJob('chunkOptions.markers must hold strings or { regex, flags }', m);
    }),
  };
}

function invalidJob(rule: string, value: unknown): ChunkError {
  let shown: string;
  try {
    shown = JSON.stringify(value) ?? String(value);
  } catch {
    shown = String(value);
  }
  return new ChunkError('ERR_INVALID_INPUT', `Invalid job data: ${rule}, got ${shown.length > 200 ? `${shown.slice(0, 200)}…` : shown}`);
}

/**
 * True when `output` is a safe name under an output folder: relative, normalized, no `..` step, ending in
 * `.jsonl`. A job that names anything else could make a worker write outside its folder.
 */
export function isSafeOutputName(output: string): boolean {
  if (output === '' || output.includes('\0') || isAbsolute(output) || normalize(output) !== output) return false;
  if (output.split(/[\\/]/).includes('..')) return false;
  return output.endsWith('.jsonl');
}

/**
 * Checks the path a job names, before anything is opened: an absolute path without NUL bytes or `..` steps. A
 * worker resolves it against its input roots when it runs the job; these are refused earlier, as malformed data,
 * because no honest enqueuer writes them (`enqueueFiles` writes resolved paths).
 */
function checkJobPath(path: unknown): void {
  if (typeof path !== 'string' || !isAbsolute(path)) throw invalidJob('path must be an absolute path', path);
  if (path.includes('\0')) throw invalidJob('path must not contain NUL bytes', path);
  if (path.split(/[\\/]/).includes('..')) throw invalidJob("path must not contain '..' steps", path);
}

const FORMATS: readonly JobFormat[] = [...DOCUMENT_FORMATS, 'auto'];
const DATA_KEYS = new Set(['version', 'source', 'output', 'format', 'path', 'content', 'bytes', 'chunkOptions', 'parseOptions']);

function plain(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Checks the tokenizer files a job's options name, which normalizing the options reads: a bundled encoding's name,
 * or an absolute path (without `..` or NUL) under the worker's input roots. A relative path would be read from
 * wherever the worker runs.
 */
function checkTokenizerOption(options: Record<string, unknown>, roots: readonly string[]): void {
  for (const key of ['tokenizer', 'encoding']) {
    const value = options[key];
    if (typeof value !== 'string' || (TOKEN_ENCODINGS as readonly string[]).includes(value)) continue;
    if (!isAbsolute(value) || value.includes('\0') || value.split(/[\\/]/).includes('..')) {
      throw invalidJob(`chunkOptions.${key} must be a bundled encoding or an absolute path without '..' steps`, value);
    }
    checkTokenizerFiles(value, roots, `chunkOptions.${key}`);
  }
}

/** How a worker reads job data. */
export interface ReadJobDataOptions {
  /**
   * Real paths of the folders the worker reads under (`resolveInputRoots`): a tokenizer file the options name must
   * lie under one. Default none: a tokenizer must then be a bundled encoding.
   */
  readonly inputRoots?: readonly string[];
}

/**
 * Reads a job's data: checks every field, decodes the chunking options and validates them with the library's own
 * rules. Throws `ChunkError('ERR_INVALID_INPUT')` on malformed data, `ERR_INVALID_OPTION` on a bad option,
 * `ERR_INPUT_OUTSIDE_ROOTS` for a tokenizer file outside `inputRoots`; none can succeed on a retry.
 */
export function readJobData(value: unknown, options: ReadJobDataOptions = {}): ReadJobData {
  if (!plain(value)) throw invalidJob('must be an object', value);
  for (const key of Object.keys(value)) if (!DATA_KEYS.has(key)) throw invalidJob(`unknown field ${key}`, value[key]);
  if (value.version !== JOB_DATA_VERSION) throw invalidJob(`version must be ${JOB_DATA_VERSION}`, value.version);
  const { source, output, format, path, content, bytes } = value;
  if (typeof source !== 'string' || source === '') throw invalidJob('source must be a non-empty string', source);
  if (typeof output !== 'string' || !isSafeOutputName(output)) throw invalidJob('output must be a relative .jsonl path inside the output folder', output);
  if (typeof format !== 'string' || !FORMATS.includes(format as JobFormat)) throw invalidJob(`format must be one of ${FORMATS.join(', ')}`, format);
  if ((path === undefined) === (content === undefined)) throw invalidJob('exactly one of path and content must be given', { path, content: content === undefined ? undefined : '…' });
  if (path !== undefined) checkJobPath(path);
  if (content !== undefined && (typeof content !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(content))) throw invalidJob('content must be base64', '…');
  if (bytes !== undefined && (typeof bytes !== 'number' || !Number.isInteger(bytes) || bytes < 0)) throw invalidJob('bytes must be a non-negative integer', bytes);
  if (!plain(value.chunkOptions)) throw invalidJob('chunkOptions must be an object', value.chunkOptions);
  if (!plain(value.parseOptions)) throw invalidJob('parseOptions must be an object', value.parseOptions);
  for (const key of ['documentId', 'origin', 'signal']) {
    if (key in value.chunkOptions) throw invalidJob(`chunkOptions.${key} is set per job by the worker`, value.chunkOptions[key]);
  }
  const chunkOptions = decodeChunkOptions(value.chunkOptions as JobChunkOptions);
  const parseOptions = value.parseOptions as FileParseOptions;
  for (const key of Object.keys(parseOptions)) {
    if (!CLI_PARSE_KEYS.includes(key)) throw invalidJob(`unknown parse option ${key}`, parseOptions[key as keyof FileParseOptions]);
  }
  // Before the options are normalized: that reads the tokenizer files they name.
  checkTokenizerOption(chunkOptions as Record<string, unknown>, options.inputRoots ?? []);
  normalizeOptions(chunkOptions);
  normalizeParseOptions(parseOptions);
  const data: ReadJobData = {
    version: JOB_DATA_VERSION,
    source,
    output,
    format: format as JobFormat,
    chunkOptions,
    parseOptions,
    ...(path !== undefined ? { path: path as string } : { content: content as string }),
    ...(bytes !== undefined ? { bytes: bytes as number } : {}),
  };
  return data;
}
