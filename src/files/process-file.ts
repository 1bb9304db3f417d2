/**
 * One file, start to end: `pipeline(readStream, parse(), chunk(), lines)`, handing JSON lines to a sink in bounded
 * batches and awaiting it, so neither this thread nor the consumer ever holds a whole document's chunks. The same
 * function runs inside a worker thread and on the main thread (the command line's first job, standard input, the
 * queue workers).
 *
 * Batches are UTF-8 bytes, each in an `ArrayBuffer` of its own: a worker thread transfers it to the main thread,
 * which writes it as it is. Handing over strings cost a copy on each side of the channel (structured clone) and
 * the UTF-8 encoding on the main thread, which every worker's output goes through.
 */
import { createReadStream } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { normalizeOptions, type ChunkOptions } from '../config.js';
import { createStatisticsAccumulator } from '../chunking/statistics.js';
import { chunk } from '../stream/chunk.js';
import { defaultStrategyOf } from '../parsers/formats.js';
import { parse } from '../stream/parse.js';
import type { Chunk, ChunkStatistics, ParentRecord } from '../types.js';
import type { InputFile } from './inputs.js';
import { systemErrorReason } from '../errors.js';

/** Parse options a run passes to `parse()` for every file; plain data, so it can cross to a worker thread. */
export interface FileParseOptions {
  password?: string;
  fatal?: boolean;
  maxPdfBytes?: number;
  maxPdfSeconds?: number;
  maxPdfMemoryMb?: number;
  htmlContent?: 'main' | 'all';
}

/** Settings of `processFile`: plain data, so it crosses to a worker thread as is. */
export interface ProcessConfig {
  readonly chunkOptions: ChunkOptions;
  readonly parseOptions: FileParseOptions;
  /** A batch is handed over once its lines reach this many bytes of UTF-8. */
  readonly batchBytes: number;
}

/** Lines of one file, handed over in order. */
export interface FileBatch {
  /**
   * Complete JSON lines, each ending with `\n`, in UTF-8. The view may start and end anywhere in its `ArrayBuffer`,
   * which holds nothing else (it can be transferred).
   */
  readonly bytes: Uint8Array;
  /** Chunks in `lines`. */
  readonly chunks: number;
  /** Bytes of the file read so far. */
  readonly bytesRead: number;
}

/** Receives batches; the next batch is not produced before the returned promise settles. */
export type BatchSink = (batch: FileBatch) => Promise<void> | void;

/** The size figures of the chunks written (for a failed file: those written before the failure). */
export type SizeFigures = Pick<ChunkStatistics, 'chunks' | 'totalSize' | 'minSize' | 'maxSize' | 'oversized' | 'undersized'>;

/** Figures of one file, for `--stats`. */
export interface FileReport extends SizeFigures {
  readonly source: string;
  /** 1 when the file was chunked to the end, 0 when it failed. */
  readonly documents: number;
  readonly pages: number;
  readonly bytes: number;
  readonly timeMs: number;
  /**
   * What the reader had to make good, as `chunkFile` puts it in `statistics.warnings` (invalid UTF-8 replaced with
   * U+FFFD, a PDF's warnings); absent when there was nothing.
   */
  readonly warnings?: readonly string[];
}

/** A file's error as shown on stderr: `path: CODE message`. */
export interface FileError {
  readonly code: string;
  readonly message: string;
}

/** What `processFile` returns: the figures, and the error when the file failed. */
export interface FileResult {
  readonly report: FileReport;
  readonly error?: FileError;
}

/**
 * An input already open: `handle` is read instead of opening `path` again (a queue worker opens a job's file
 * itself, to check the file it opened rather than a path that may change). The stream closes it once read.
 * Main thread only: a handle does not cross to a worker thread.
 */
export interface OpenedInput extends InputFile {
  readonly handle: FileHandle;
}

/** Default batch: about 64 KiB of JSON lines, a few dozen chunks. */
export const DEFAULT_BATCH_BYTES = 64 * 1024;

/** One JSON line: every chunk field, plus `source`. */
export function chunkLine(c: Chunk, source: string): string {
  return jsonLine(c, sourceField(source));
}

/**
 * The parents of a chunk stage (with the option `parents`) as JSON lines, each given out just before the first
 * chunk it holds: `"type":"parent"`, every parent field, plus `source`. A chunk line has no `type`; a reader tells
 * them apart by it and joins them by the chunk's `parentId`. The stage names a parent (its `'parent'` event) before
 * it gives that parent's chunks; the parents not yet written wait here (a few at most: those whose chunks are
 * still in the stream's buffers).
 */
function parentLines(stage: NodeJS.EventEmitter, tail: string): (c: Chunk) => string | undefined {
  const waiting: ParentRecord[] = [];
  stage.on('parent', (p: ParentRecord) => waiting.push(p));
  return (c) => {
    if (c.parentId === undefined || waiting[0]?.id !== c.parentId) return undefined;
    return jsonLine({ type: 'parent', ...(waiting.shift() as ParentRecord) }, tail);
  };
}

/** `,"source":…}` and the line's end: what {@link jsonLine} puts after a chunk's own fields. */
function sourceField(source: string): string {
  return `,"source":${JSON.stringify(source)}}\n`;
}

/**
 * `JSON.stringify({ ...c, source }) + '\n'` without copying the chunk into an object of another shape for each
 * line: a chunk has no `source` field, so the copy's fields are the chunk's, then `source`.
 */
function jsonLine(c: object, tail: string): string {
  const json = JSON.stringify(c);
  return json.length === 2 ? `{${tail.slice(1)}` : json.slice(0, -1) + tail;
}

/**
 * JSON lines written as UTF-8 straight into a buffer, handed over as a batch once it holds `batchBytes`. A batch
 * that fills less than a quarter of its buffer (a small file's only batch) is copied out, and the buffer kept;
 * otherwise the buffer itself goes, and the next batch gets a new one.
 */
interface LineBuffer {
  add(line: string): void;
  /** Bytes held. */
  readonly size: number;
  /** The lines held, as a batch's bytes; the buffer is empty after. */
  take(): Uint8Array;
}

function createLineBuffer(batchBytes: number): LineBuffer {
  const capacity = batchBytes + batchBytes / 2;
  let buffer = Buffer.allocUnsafeSlow(capacity);
  let at = 0;
  return {
    get size() {
      return at;
    },
    add(line) {
      // At most three bytes per UTF-16 unit: a line that might not fit moves the buffer to a larger one.
      if (at + 3 * line.length > buffer.length) {
        const larger = Buffer.allocUnsafeSlow(Math.max(capacity, 2 * (at + 3 * line.length)));
        buffer.copy(larger, 0, 0, at);
        buffer = larger;
      }
      at += buffer.write(line, at, 'utf8');
    },
    take() {
      let out: Uint8Array;
      if (at < buffer.length / 4) {
        out = new Uint8Array(at);
        out.set(buffer.subarray(0, at));
      } else {
        out = new Uint8Array(buffer.buffer, buffer.byteOffset, at);
        buffer = Buffer.allocUnsafeSlow(capacity);
      }
      at = 0;
      return out;
    },
  };
}

/** The code and message of anything a file's run threw. */
export function describeError(error: unknown): FileError {
  const e = error as { code?: unknown; message?: unknown; syscall?: unknown };
  const message = typeof e?.message === 'string' ? e.message : String(error);
  if (typeof e?.code === 'string' && e.code.startsWith('ERR_') && e.code !== 'ERR_STREAM_PREMATURE_CLOSE') return { code: e.code, message };
  // A full or read-only file system, or a failed write, is the output's fault, not the input's.
  if (isWriteFailure(e)) return { code: 'ERR_WRITE', message: systemErrorReason(error) };
  // Node's other file-system errors (ENOENT, EACCES, EISDIR) say the file could not be read.
  if (typeof e?.syscall === 'string' || (typeof e?.code === 'string' && /^E[A-Z]+$/.test(e.code))) return { code: 'ERR_READ', message: systemErrorReason(error) };
  return { code: 'ERR_INTERNAL', message };
}

/** System error codes only a write gives, and the system calls that write. */
const WRITE_ERROR_CODES = new Set(['ENOSPC', 'EDQUOT', 'EFBIG', 'EROFS']);
const WRITE_SYSCALLS = new Set(['write', 'writev', 'fsync', 'fdatasync', 'rename', 'ftruncate']);

/** Whether an error is a failed write (a full disk, a read-only file system), not a failed read. */
function isWriteFailure(e: { code?: unknown; syscall?: unknown }): boolean {
  return (typeof e?.code === 'string' && WRITE_ERROR_CODES.has(e.code)) || (typeof e?.syscall === 'string' && WRITE_SYSCALLS.has(e.syscall));
}

/** Whether an error is the `AbortError` of a stopped run. */
function isAbort(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError';
}

/** What one file's run keeps while its lines go to the sink: its figures and the lines not handed over yet. */
interface FileRun {
  readonly input: InputFile | OpenedInput;
  readonly sink: BatchSink;
  readonly batchBytes: number;
  readonly started: number;
  /** Figures of the chunks written (on a failure, fewer than the stage produced), with the stage's own accumulator. */
  readonly written: ReturnType<typeof createStatisticsAccumulator>;
  readonly pending: ReturnType<typeof createLineBuffer>;
  /** The `source` field each line ends with. */
  readonly tail: string;
  /** The line of the parent that `c` is the first chunk of, with the option `parents` (`parentLines`). */
  readonly parentBefore: (c: Chunk) => string | undefined;
  pendingChunks: number;
  bytesRead: number;
  /** Pages of a PDF, reported once its last page is read. */
  pages: number;
  /** The chunk stage's statistics: their warnings are the parser's, carried by the blocks. */
  readonly stage: { statistics(): ChunkStatistics };
  /** A PDF's own warnings, reported with its pages. */
  readerWarnings: readonly string[];
}

/**
 * Chunks one input and hands its JSON lines to `sink`. A file that cannot be read or parsed resolves with an
 * `error` (and the figures of what was written before); only an abort rejects, with an `AbortError`.
 */
export async function processFile(
  input: InputFile | OpenedInput,
  config: ProcessConfig,
  sink: BatchSink,
  signal: AbortSignal = new AbortController().signal,
): Promise<FileResult> {
  const started = performance.now();
  // Inside a CLI worker the file pool already uses every core; a parse pool of its own would oversubscribe them.
  const parseStage = parse({ ...config.parseOptions, format: input.format, workers: 0, signal });
  // As in chunkFile(), a format's default strategy (turn windows for a conversation) unless another is asked for.
  const strategy = config.chunkOptions.strategy ?? defaultStrategyOf(input.format);
  const chunkOptions = { ...config.chunkOptions, ...(strategy ? { strategy } : {}), documentId: input.source, origin: input.source, signal };
  const chunkStage = chunk(chunkOptions);
  const tail = sourceField(input.source);
  const run: FileRun = {
    input,
    sink,
    batchBytes: config.batchBytes,
    started,
    written: createStatisticsAccumulator(normalizeOptions(chunkOptions)),
    pending: createLineBuffer(config.batchBytes),
    tail,
    parentBefore: parentLines(chunkStage, tail),
    pendingChunks: 0,
    bytesRead: 0,
    pages: 0,
    stage: chunkStage,
    readerWarnings: [],
  };
  parseStage.on('info', (info: { pages?: number; warnings?: readonly string[] }) => {
    run.pages = info.pages ?? run.pages;
    run.readerWarnings = info.warnings ?? run.readerWarnings;
  });
  try {
    const source = 'handle' in input ? createReadStream(input.path, { fd: input.handle }) : input.path === '-' ? process.stdin : createReadStream(input.path);
    await pipeline(source, (bytes: AsyncIterable<Buffer>) => countBytes(run, bytes), parseStage, chunkStage, (items: AsyncIterable<Chunk>) => writeLines(run, items), { signal });
    return { report: fileReport(run, 1) };
  } catch (error) {
    if (isAbort(error) || signal.aborted) throw error;
    // The chunks read before the failure are valid; hand them over so the figures match what was written.
    try {
      await flushLines(run);
    } catch {
      // The sink failing too changes nothing: the file is reported as failed.
    }
    return { report: fileReport(run, 0), error: describeError(error) };
  }
}

/** Counts the input's bytes as they pass. */
async function* countBytes(run: FileRun, bytes: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  for await (const piece of bytes) {
    run.bytesRead += piece.length;
    yield piece;
  }
}

/** Serializes the chunks, handing their lines to the sink in batches of about `batchBytes`. */
async function writeLines(run: FileRun, items: AsyncIterable<Chunk>): Promise<void> {
  for await (const c of items) {
    run.written.add(c);
    const parent = run.parentBefore(c);
    if (parent !== undefined) run.pending.add(parent);
    run.pending.add(jsonLine(c, run.tail));
    run.pendingChunks++;
    if (run.pending.size >= run.batchBytes) await flushLines(run);
  }
  await flushLines(run);
}

/** Hands the lines not handed over yet to the sink, as one batch. */
async function flushLines(run: FileRun): Promise<void> {
  if (run.pendingChunks === 0) return;
  const batch = { bytes: run.pending.take(), chunks: run.pendingChunks, bytesRead: run.bytesRead };
  run.pendingChunks = 0;
  await run.sink(batch);
}

/** The file's figures so far, with `documents` (1 when it was read whole, 0 when it failed). */
function fileReport(run: FileRun, documents: number): FileReport {
  const s = run.written.result();
  const warnings = [...run.stage.statistics().warnings, ...run.readerWarnings];
  return {
    source: run.input.source,
    documents,
    chunks: s.chunks,
    totalSize: s.totalSize,
    minSize: s.minSize,
    maxSize: s.maxSize,
    oversized: s.oversized,
    undersized: s.undersized,
    pages: run.pages,
    bytes: run.bytesRead,
    timeMs: performance.now() - run.started,
    ...(warnings.length > 0 ? { warnings } : {}),
  };
}
