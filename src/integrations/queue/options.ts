/**
 * Options of the queue integration → frozen configs, with the same `ERR_INVALID_OPTION` errors (option, rule,
 * value) as the library's `normalizeOptions`. Nothing here loads BullMQ: the command line validates its flags before
 * it needs the package.
 */
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import { FORMATS, invalidOption, normalizeOptions, normalizeParseOptions, type ChunkOptions } from '../../config.js';
import type { FileFormat } from '../../files/inputs.js';
import type { FileParseOptions } from '../../files/process-file.js';
import { CLI_PARSE_KEYS } from '../../options.js';
import { MAX_INLINE_BYTES } from './job-data.js';

/** Queue used when none is named. */
export const DEFAULT_QUEUE_NAME = 'chunkstream';
/** Redis used when none is named. */
export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

/**
 * A connection as BullMQ takes it (ioredis options, or an ioredis instance). Typed loosely here so that the
 * core of this room does not depend on BullMQ's types; `createChunkWorker` passes it through unchanged.
 */
export type BullConnection = object;

/** Where the queue lives. */
export interface QueueConnectionOptions {
  /** `redis://[user:password@]host[:port][/db]`, or `rediss://` for TLS. Default `redis://127.0.0.1:6379`. */
  redis?: string;
  /** Or a BullMQ connection (ioredis options or instance), used as is instead of `redis`. */
  connection?: BullConnection;
  /** Queue name. Default `chunkstream`. */
  queue?: string;
  /** BullMQ's key prefix in Redis. Default BullMQ's own (`bull`). */
  prefix?: string;
}

/** The normalized, frozen form of `QueueConnectionOptions`. */
export interface QueueConnectionConfig {
  readonly queue: string;
  readonly prefix: string | undefined;
  /** The URL given (or the default), when no `connection` object was. */
  readonly redis: string | undefined;
  readonly connection: BullConnection | undefined;
  /** The Redis server for messages: the URL without its password, or `a connection object`. */
  readonly label: string;
}

/** Options of `createChunkWorker`. */
export interface ChunkWorkerOptions extends QueueConnectionOptions {
  /** Folder the workers write `<input>.jsonl` files into (on a volume the readers of the output share). Required. */
  outDir: string;
  /** Jobs one worker runs at once. Default 1: chunking is CPU-bound; run one worker process per core. */
  concurrency?: number;
  /** How long a job's lock lasts without renewal (ms); a worker that dies loses its jobs to others after this. Default 30000. */
  lockDuration?: number;
  /** How often a worker looks for jobs whose worker died (ms). Default 30000. */
  stalledInterval?: number;
  /** How many times a job may lose its worker before it fails instead of going back to the queue. Default 1. */
  maxStalledCount?: number;
  /** Name written into every job result. Default `host:pid`. */
  workerId?: string;
  /**
   * Folders whose files jobs may name (real paths are compared: a link out of a folder is refused). Default none:
   * the worker reads inline documents only, and a job that names a file fails with `ERR_INPUT_OUTSIDE_ROOTS`.
   */
  inputRoots?: readonly string[];
}

/** The normalized, frozen form of `ChunkWorkerOptions`. */
export interface ChunkWorkerConfig extends QueueConnectionConfig {
  readonly outDir: string;
  readonly concurrency: number;
  readonly lockDuration: number;
  readonly stalledInterval: number;
  readonly maxStalledCount: number;
  readonly workerId: string;
  /** The input roots as given, made absolute; their real paths are resolved when the worker starts. */
  readonly inputRoots: readonly string[];
}

/** Options of `enqueueFiles`. */
export interface EnqueueOptions extends QueueConnectionOptions {
  /** Force the format of every input, as `--format` does; default from the extension, then the first bytes. */
  format?: FileFormat;
  /** Chunking options of every job (validated here with `normalizeOptions`). `documentId` and `origin` are set per file. */
  chunkOptions?: Omit<ChunkOptions, 'signal' | 'documentId' | 'origin'>;
  /** Parse options of every job: `password`, `fatal`, `maxPdfBytes`. */
  parseOptions?: FileParseOptions;
  /** Files smaller than this many bytes travel inside their job instead of by path. Default 0 (always by path). */
  inlineBelow?: number;
  /** Tries per job before it fails, for errors a retry may fix (see `FINAL_ERROR_CODES`). Default 3. */
  attempts?: number;
  /** First wait before a retry, in ms, doubling at each try. Default 1000. */
  backoff?: number;
  /**
   * The input roots the workers are given, to list in `outsideRoots` the jobs that name a file they would refuse.
   * Default none, as a worker's: then every job that names a file by path is listed.
   */
  inputRoots?: readonly string[];
}

/** The normalized, frozen form of `EnqueueOptions`. */
export interface EnqueueConfig extends QueueConnectionConfig {
  readonly format: FileFormat | undefined;
  readonly chunkOptions: ChunkOptions;
  readonly parseOptions: FileParseOptions;
  readonly inlineBelow: number;
  readonly attempts: number;
  readonly backoff: number;
  readonly inputRoots: readonly string[];
}

function objectOf(what: string, options: unknown): Record<string, unknown> {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) throw invalidOption(what, 'must be an object', options);
  return options as Record<string, unknown>;
}

function checkKnown(options: Record<string, unknown>, known: readonly string[]): void {
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) throw invalidOption(key, `is not a known option (known: ${known.join(', ')})`, options[key]);
  }
}

function integer(option: string, value: unknown, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw invalidOption(option, `must be an integer between ${min} and ${max}`, value);
  }
  return value;
}

function text(option: string, value: unknown, fallback: string): string {
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || value === '') throw invalidOption(option, 'must be a non-empty string', value);
  return value;
}

/** Checks a list of input roots (non-empty paths without NUL bytes) and makes them absolute. */
function roots(value: unknown): readonly string[] {
  if (value === undefined) return Object.freeze([]);
  if (!Array.isArray(value)) throw invalidOption('inputRoots', 'must be an array of folder paths', value);
  for (const root of value) {
    if (typeof root !== 'string' || root === '' || root.includes('\0')) throw invalidOption('inputRoots', 'must hold non-empty folder paths without NUL bytes', root);
  }
  return Object.freeze(value.map((root: string) => resolve(root)));
}

/** The URL as messages show it: without its password. */
function redisLabel(url: URL): string {
  const shown = new URL(url.href);
  if (shown.password !== '') shown.password = '***';
  return shown.href;
}

/** Checks a Redis URL (`redis:` or `rediss:`, a host, a numeric database) and returns it with its label. */
export function checkRedisUrl(value: unknown): { url: string; label: string } {
  if (typeof value !== 'string' || value === '') throw invalidOption('redis', 'must be a redis:// or rediss:// URL', value);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalidOption('redis', 'must be a redis:// or rediss:// URL', value);
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') throw invalidOption('redis', 'must be a redis:// or rediss:// URL', value);
  if (url.hostname === '') throw invalidOption('redis', 'must name a host', value);
  if (url.pathname !== '' && url.pathname !== '/' && !/^\/\d+$/.test(url.pathname)) {
    throw invalidOption('redis', 'may end only with a database number (/0, /1, …)', value);
  }
  return { url: value, label: redisLabel(url) };
}

const CONNECTION_KEYS = ['redis', 'connection', 'queue', 'prefix'];

function normalizeConnection(options: Record<string, unknown>): QueueConnectionConfig {
  const queue = text('queue', options.queue, DEFAULT_QUEUE_NAME);
  // BullMQ joins keys with ':'; a name holding one would read another queue's keys.
  if (queue.includes(':')) throw invalidOption('queue', 'must not contain ":"', queue);
  const prefix = options.prefix === undefined ? undefined : text('prefix', options.prefix, '');
  if (options.connection !== undefined) {
    if (typeof options.connection !== 'object' || options.connection === null) throw invalidOption('connection', 'must be ioredis options or an ioredis instance', options.connection);
    if (options.redis !== undefined) throw invalidOption('redis', 'cannot be combined with connection', options.redis);
    return { queue, prefix, redis: undefined, connection: options.connection, label: 'a connection object' };
  }
  const { url, label } = checkRedisUrl(options.redis ?? DEFAULT_REDIS_URL);
  return { queue, prefix, redis: url, connection: undefined, label };
}

/** Normalizes the options of `getQueueStatus` (and of any call that only needs the queue). */
export function normalizeQueueOptions(options: QueueConnectionOptions = {}): QueueConnectionConfig {
  const o = objectOf('options', options);
  checkKnown(o, CONNECTION_KEYS);
  return Object.freeze(normalizeConnection(o));
}

/** A job as its enqueuer knows it: what `enqueueFiles` returns, or a line of `enqueue --manifest`. */
export interface ExpectedJob {
  readonly id: string;
  readonly source: string;
  /** Its output file, relative to the workers' output folder. */
  readonly output: string;
}

/** Options of `getQueueStatus`. */
export interface QueueStatusOptions extends QueueConnectionOptions {
  /** The most failed jobs listed (newest first); the count covers them all. Default 1000. */
  failedLimit?: number;
  /**
   * The jobs enqueued (`EnqueueResult.jobs`, or an enqueue manifest read back): those Redis no longer holds are
   * listed in `vanished`. Redis loses jobs when it restarts without persistence, or when keys are flushed or evicted.
   */
  jobs?: readonly ExpectedJob[];
  /** The workers' output folder, when it is reachable from here: a vanished job whose output is in place is marked. */
  outDir?: string;
}

/** The normalized, frozen form of `QueueStatusOptions`. */
export interface QueueStatusConfig extends QueueConnectionConfig {
  readonly failedLimit: number;
  readonly jobs: readonly ExpectedJob[] | undefined;
  readonly outDir: string | undefined;
}

function expectedJobs(value: unknown): readonly ExpectedJob[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) throw invalidOption('jobs', 'must be an array of { id, source, output }', value);
  for (const job of value) {
    const j = job as Partial<ExpectedJob> | null;
    if (typeof j !== 'object' || j === null || typeof j.id !== 'string' || typeof j.source !== 'string' || typeof j.output !== 'string') {
      throw invalidOption('jobs', 'must hold { id, source, output } objects of strings', job);
    }
  }
  return Object.freeze([...value]);
}

/** Normalizes the options of `getQueueStatus`. */
export function normalizeStatusOptions(options: QueueStatusOptions = {}): QueueStatusConfig {
  const o = objectOf('options', options);
  checkKnown(o, [...CONNECTION_KEYS, 'failedLimit', 'jobs', 'outDir']);
  if (o.outDir !== undefined && (typeof o.outDir !== 'string' || o.outDir === '')) throw invalidOption('outDir', 'must be a non-empty path', o.outDir);
  return Object.freeze({
    ...normalizeConnection(o),
    failedLimit: integer('failedLimit', o.failedLimit, 1000, 0, 1_000_000),
    jobs: expectedJobs(o.jobs),
    outDir: o.outDir as string | undefined,
  });
}

const WORKER_KEYS = [...CONNECTION_KEYS, 'outDir', 'concurrency', 'lockDuration', 'stalledInterval', 'maxStalledCount', 'workerId', 'inputRoots'];

/** Normalizes the options of `createChunkWorker`. */
export function normalizeWorkerOptions(options: ChunkWorkerOptions): ChunkWorkerConfig {
  const o = objectOf('options', options);
  checkKnown(o, WORKER_KEYS);
  if (typeof o.outDir !== 'string' || o.outDir === '') throw invalidOption('outDir', 'must be a non-empty path', o.outDir);
  return Object.freeze({
    ...normalizeConnection(o),
    outDir: o.outDir,
    concurrency: integer('concurrency', o.concurrency, 1, 1, 1024),
    // Below ~100 ms a lock would expire between two renewals on a busy machine.
    lockDuration: integer('lockDuration', o.lockDuration, 30_000, 100, 24 * 3600 * 1000),
    stalledInterval: integer('stalledInterval', o.stalledInterval, 30_000, 100, 24 * 3600 * 1000),
    maxStalledCount: integer('maxStalledCount', o.maxStalledCount, 1, 0, 1000),
    workerId: text('workerId', o.workerId, `${hostname()}:${process.pid}`),
    inputRoots: roots(o.inputRoots),
  });
}

const ENQUEUE_KEYS = [...CONNECTION_KEYS, 'format', 'chunkOptions', 'parseOptions', 'inlineBelow', 'attempts', 'backoff', 'inputRoots'];

/** Normalizes the options of `enqueueFiles`: chunking and parse options are checked with the library's own rules. */
export function normalizeEnqueueOptions(options: EnqueueOptions = {}): EnqueueConfig {
  const o = objectOf('options', options);
  checkKnown(o, ENQUEUE_KEYS);
  const format = o.format;
  if (format !== undefined && !(FORMATS as readonly string[]).includes(format as string)) {
    throw invalidOption('format', `must be one of ${FORMATS.map((f) => `'${f}'`).join(', ')}`, format);
  }
  const chunkOptions = o.chunkOptions === undefined ? {} : objectOf('chunkOptions', o.chunkOptions);
  // Set per file by the worker, as the command line does; shared by every file they would give them the same ids.
  for (const key of ['documentId', 'origin', 'signal']) {
    if (key in chunkOptions) throw invalidOption(`chunkOptions.${key}`, 'is set per file and cannot be given', chunkOptions[key]);
  }
  // A job travels as JSON to a worker that may run elsewhere: its tokenizer is a name, or a path that worker reads.
  for (const key of ['tokenizer', 'encoding']) {
    if (chunkOptions[key] !== undefined && typeof chunkOptions[key] !== 'string') {
      throw invalidOption(`chunkOptions.${key}`, "must be 'cl100k_base', 'o200k_base' or the path of a tokenizer.json where the workers run (a job is JSON)", typeof chunkOptions[key]);
    }
  }
  normalizeOptions(chunkOptions as ChunkOptions);
  const parseOptions = o.parseOptions === undefined ? {} : objectOf('parseOptions', o.parseOptions);
  checkKnown(parseOptions, CLI_PARSE_KEYS);
  normalizeParseOptions(parseOptions as FileParseOptions);
  return Object.freeze({
    ...normalizeConnection(o),
    format: format as FileFormat | undefined,
    chunkOptions: Object.freeze({ ...chunkOptions }) as ChunkOptions,
    parseOptions: Object.freeze({ ...parseOptions }) as FileParseOptions,
    inlineBelow: integer('inlineBelow', o.inlineBelow, 0, 0, MAX_INLINE_BYTES),
    attempts: integer('attempts', o.attempts, 3, 1, 100),
    backoff: integer('backoff', o.backoff, 1000, 0, 24 * 3600 * 1000),
    inputRoots: roots(o.inputRoots),
  });
}
