/**
 * `enqueueFiles`: one job per input file, with the same input rules as the command line (files, folders walked in
 * sorted order, glob patterns, `-` for standard input) and the chunking options of the run. A job names the file by
 * its absolute path, for workers that share the volume; a small file, standard input or a document given as data
 * travels inside its job instead.
 */
import { readFile, realpath } from 'node:fs/promises';
import { resolve } from 'node:path';
import { FORMATS } from '../../config.js';
import { ChunkError } from '../../errors.js';
import { expandInputs, type InputFile, type MissingInput, type SkippedInput } from '../../files/inputs.js';
import { outDirPath } from '../../files/output.js';
import { openQueue } from './connection.js';
import { isUnderRoots } from './input-roots.js';
import { noteEnqueued, recordKey } from './queue-record.js';
import { TOKEN_ENCODINGS } from '../../tokenizer-source.js';
import { encodeChunkOptions, isSafeOutputName, JOB_DATA_VERSION, JOB_NAME, MAX_INLINE_BYTES, type ChunkJobData, type JobChunkOptions, type JobFormat } from './job-data.js';
import { normalizeEnqueueOptions, type EnqueueConfig, type EnqueueOptions } from './options.js';

/** A document given as data rather than as a path; it always travels inside its job. */
export interface InlineDocument {
  /** Its name: every chunk's `source`, and the output file's name (`<source>.jsonl`). */
  readonly source: string;
  /** Its text (Markdown, a transcript) or bytes (a PDF). At most `MAX_INLINE_BYTES`. */
  readonly content: string | Uint8Array;
  /** Default `auto`: PDF when the bytes start with `%PDF-`, Markdown otherwise. */
  readonly format?: JobFormat;
}

/** One job that was added. */
export interface EnqueuedJob {
  readonly id: string;
  readonly source: string;
  /** The output file the job will write, relative to the workers' output folder. */
  readonly output: string;
  /** True when the document travels inside the job. */
  readonly inline: boolean;
  /** The absolute path the job names, when the document does not travel inside it. */
  readonly path?: string;
}

/** What `enqueueFiles` did. */
export interface EnqueueResult {
  /** The jobs added, in input order. */
  readonly jobs: readonly EnqueuedJob[];
  /** Inputs left out (unsupported types, patterns that matched nothing). */
  readonly skipped: readonly SkippedInput[];
  /** Inputs that name nothing readable: no job was added for them. */
  readonly missing: readonly MissingInput[];
  /**
   * Jobs (among `jobs`) that name a file a worker with the `inputRoots` given here would refuse: every job that
   * names a file when none are given, since a worker started without roots reads inline documents only. They are
   * added all the same (the workers' roots may differ from these); this is the warning.
   */
  readonly outsideRoots: readonly EnqueuedJob[];
  /**
   * The tokenizer file the jobs name (absolute), when a worker with the `inputRoots` given here would refuse it
   * (every one, when none are given). Undefined for a bundled encoding or a file under the roots.
   */
  readonly tokenizerOutsideRoots: string | undefined;
  /**
   * The queue's epoch (see `queue-record.ts`): set by the first enqueue into the queue, and the same for every later
   * one until Redis loses the queue. Undefined when no job was added.
   */
  readonly epoch: string | undefined;
}

/** Jobs sent to Redis in one round trip. */
const BULK = 500;

/** What a job will read: a file found by the input expansion, or a document given as data. */
type Pending = { readonly kind: 'file'; readonly file: InputFile } | { readonly kind: 'inline'; readonly document: InlineDocument };

function checkInline(value: unknown): InlineDocument {
  const d = value as InlineDocument;
  if (typeof value !== 'object' || value === null || typeof d.source !== 'string' || d.source === '') {
    throw new ChunkError('ERR_INVALID_INPUT', 'An input must be a path, a glob pattern, "-" or { source, content }');
  }
  if (typeof d.content !== 'string' && !(d.content instanceof Uint8Array)) {
    throw new ChunkError('ERR_INVALID_INPUT', `The content of ${d.source} must be a string or a Uint8Array`);
  }
  if (d.format !== undefined && ![...FORMATS, 'auto'].includes(d.format)) {
    throw new ChunkError('ERR_INVALID_INPUT', `The format of ${d.source} must be ${[...FORMATS, 'auto'].join(', ')}, got ${String(d.format)}`);
  }
  return d;
}

async function readStdin(): Promise<Buffer> {
  const pieces: Buffer[] = [];
  let total = 0;
  for await (const piece of process.stdin as AsyncIterable<Buffer>) {
    total += piece.length;
    if (total > MAX_INLINE_BYTES) throw new ChunkError('ERR_INVALID_INPUT', `Standard input is larger than ${MAX_INLINE_BYTES} bytes, the most a job carries inline; save it to a file the workers can read`);
    pieces.push(piece);
  }
  return Buffer.concat(pieces);
}

/** The job data of one input; reads the content of what travels inline. */
/**
 * The job options of a run: a tokenizer given as a path is made absolute, since each worker reads it from where it
 * runs (and refuses a relative path).
 */
function jobChunkOptions(config: EnqueueConfig): JobChunkOptions {
  const options: Record<string, unknown> = { ...encodeChunkOptions(config.chunkOptions) };
  for (const key of ['tokenizer', 'encoding']) {
    const value = options[key];
    if (tokenizerPath(value)) options[key] = resolve(value);
  }
  return options as JobChunkOptions;
}

/** True when a tokenizer option names a file (rather than a bundled encoding). */
function tokenizerPath(value: unknown): value is string {
  return typeof value === 'string' && !(TOKEN_ENCODINGS as readonly string[]).includes(value);
}

async function jobData(item: Pending, config: EnqueueConfig): Promise<ChunkJobData> {
  const chunkOptions = jobChunkOptions(config);
  const parseOptions = { ...config.parseOptions };
  const common = { version: JOB_DATA_VERSION, chunkOptions, parseOptions } as const;
  if (item.kind === 'inline') {
    const bytes = typeof item.document.content === 'string' ? Buffer.from(item.document.content, 'utf8') : Buffer.from(item.document.content);
    if (bytes.length > MAX_INLINE_BYTES) throw new ChunkError('ERR_INVALID_INPUT', `${item.document.source} is larger than ${MAX_INLINE_BYTES} bytes, the most a job carries inline`);
    const source = item.document.source;
    return { ...common, source, output: outDirPath('', source), format: item.document.format ?? 'auto', content: bytes.toString('base64'), bytes: bytes.length };
  }
  const { file } = item;
  const output = outDirPath('', file.source);
  if (file.path === '-') {
    const bytes = await readStdin();
    return { ...common, source: file.source, output, format: file.format, content: bytes.toString('base64'), bytes: bytes.length };
  }
  if (file.bytes !== undefined && file.bytes < config.inlineBelow) {
    const bytes = await readFile(file.path);
    return { ...common, source: file.source, output, format: file.format, content: bytes.toString('base64'), bytes: bytes.length };
  }
  return { ...common, source: file.source, output, format: file.format, path: resolve(file.path), ...(file.bytes === undefined ? {} : { bytes: file.bytes }) };
}

/** The roots as this machine sees them: real paths where they exist here, as given elsewhere. */
function localRoots(roots: readonly string[]): Promise<string[]> {
  return Promise.all(roots.map((root) => realpath(root).catch(() => root)));
}

/** True when a worker with these roots (real paths) would refuse the file a job names. */
async function refused(path: string, roots: readonly string[]): Promise<boolean> {
  if (roots.length === 0) return true;
  return !isUnderRoots(await realpath(path).catch(() => path), roots);
}

/**
 * Adds one chunking job per input to the queue and resolves with the jobs added, the inputs skipped and those
 * missing, and the jobs that name a file outside the workers' `inputRoots` (all of those naming a file by path,
 * when no roots are given). Inputs are paths, folders, glob patterns and `-` (standard input), expanded as `chunkstream` expands
 * them, or `InlineDocument`s, which follow them. Output names are those `chunkstream --out-dir` gives in the
 * current working folder. Rejects with `ERR_INVALID_OPTION` for a bad option and `ERR_QUEUE_UNAVAILABLE` when
 * Redis does not answer.
 */
export async function enqueueFiles(inputs: readonly (string | InlineDocument)[], options: EnqueueOptions = {}): Promise<EnqueueResult> {
  const config = normalizeEnqueueOptions(options);
  if (!Array.isArray(inputs)) throw new ChunkError('ERR_INVALID_INPUT', 'inputs must be an array of paths, patterns or { source, content }');
  const paths = inputs.filter((i): i is string => typeof i === 'string');
  const documents = inputs.filter((i) => typeof i !== 'string').map(checkInline);
  if (paths.filter((p) => p === '-').length > 1) throw new ChunkError('ERR_INVALID_INPUT', 'Standard input (-) can be given only once');
  const { files, skipped, missing } = await expandInputs(paths, config.format);
  const pending: Pending[] = [...files.map((file) => ({ kind: 'file', file }) as const), ...documents.map((document) => ({ kind: 'inline', document }) as const)];
  const jobs: EnqueuedJob[] = [];
  const outside: EnqueuedJob[] = [];
  const roots = await localRoots(config.inputRoots);
  const tokenizer = [config.chunkOptions.tokenizer, config.chunkOptions.encoding].find(tokenizerPath);
  const tokenizerOutsideRoots = tokenizer !== undefined && (await refused(resolve(tokenizer), roots)) ? resolve(tokenizer) : undefined;
  if (pending.length === 0) return { jobs, skipped, missing, outsideRoots: outside, tokenizerOutsideRoots, epoch: undefined };

  const queue = await openQueue(config);
  let epoch: string | undefined;
  try {
    const client = await queue.getBackend().client;
    const record = recordKey(queue.toKey);
    const opts = { attempts: config.attempts, backoff: { type: 'exponential', delay: config.backoff } };
    for (let i = 0; i < pending.length; i += BULK) {
      // Built a batch at a time, so inline contents are never all held at once.
      const batch = await Promise.all(pending.slice(i, i + BULK).map((item) => jobData(item, config)));
      for (const data of batch) {
        if (!isSafeOutputName(data.output)) throw new ChunkError('ERR_INVALID_INPUT', `${data.source} gives an output name outside the output folder: ${data.output}`);
      }
      const added = await queue.addBulk(batch.map((data) => ({ name: JOB_NAME, data, opts })));
      // Counted after the jobs are in: a record never claims jobs that were not added.
      epoch = await noteEnqueued(client, record, added.length);
      const refusals = await Promise.all(batch.map((data) => data.path !== undefined && refused(data.path, roots)));
      added.forEach((job, k) => {
        const data = batch[k] as ChunkJobData;
        const entry: EnqueuedJob = { id: job.id as string, source: data.source, output: data.output, inline: data.content !== undefined, ...(data.path === undefined ? {} : { path: data.path }) };
        jobs.push(entry);
        if (refusals[k]) outside.push(entry);
      });
    }
  } finally {
    await queue.close().catch(() => {});
  }
  return { jobs, skipped, missing, outsideRoots: outside, tokenizerOutsideRoots, epoch };
}
