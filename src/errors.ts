/** Every error chunkstream raises is a `ChunkError` with one of these codes. */
export type ChunkErrorCode =
  /** An option is missing a rule: wrong type, out of range, inconsistent with another option. */
  | 'ERR_INVALID_OPTION'
  /** Input exceeded a buffer bound: a line longer than `maxBatchSize` with `strict`, a transcript over `maxBufferBytes`, `collect`'s `maxItems`. */
  | 'ERR_BUFFER_OVERFLOW'
  /** With `strict`, Markdown containers (quotes, lists) nested deeper than chunkstream reads them. */
  | 'ERR_NESTING_TOO_DEEP'
  /** Input is not valid UTF-8 and `fatal` was set. */
  | 'ERR_INVALID_UTF8'
  /** Something other than a string, Buffer or Uint8Array was written to a parser. */
  | 'ERR_INVALID_INPUT'
  /** The input format is unknown or not supported. */
  | 'ERR_UNSUPPORTED_FORMAT'
  /** A PDF needs a password that was not given or was wrong. */
  | 'ERR_PDF_ENCRYPTED'
  /** The bytes are not a readable PDF (truncated, corrupt, not a PDF). */
  | 'ERR_PDF_INVALID'
  /** A streamed PDF exceeded `maxPdfBytes`. */
  | 'ERR_PDF_TOO_LARGE'
  /** Reading a PDF went past `maxPdfSeconds` or `maxPdfMemoryMb`; the error names the page reached. */
  | 'ERR_PDF_LIMIT'
  /** The bytes are not a readable Word file (not a ZIP archive, no document part, corrupt XML). */
  | 'ERR_DOCX_INVALID'
  /** A Word file is past a limit: its size, or a part that inflates past the cap (a ZIP bomb). */
  | 'ERR_DOCX_LIMIT'
  /** A conversation transcript line or record could not be read. */
  | 'ERR_TRANSCRIPT_INVALID'
  /** An injected part (sizer, splitter, tracker, optimizer) broke its protocol. */
  | 'ERR_PROTOCOL'
  /** A part that keeps state (a `SemanticChunker`'s injected heading tracker) is still in use by an open stream. */
  | 'ERR_IN_USE'
  /** A file could not be read. */
  | 'ERR_READ'
  /** An output file could not be written (a full disk, a folder without write permission). */
  | 'ERR_WRITE'
  /** An optional peer dependency that an integration needs (such as `bullmq` for `chunkstream/queue`) is not installed. */
  | 'ERR_MISSING_DEPENDENCY'
  /** The Redis server behind a job queue could not be reached. */
  | 'ERR_QUEUE_UNAVAILABLE'
  /** A queue job named a file outside the worker's input roots (a link out of them included), or the worker has none. */
  | 'ERR_INPUT_OUTSIDE_ROOTS'
  /** The Redis behind a job queue lost the queue's jobs: it restarted without persistence, or its keys were flushed or evicted. */
  | 'ERR_QUEUE_LOST'
  /** A stage of a chunking run failed in an unexpected way (a bug, or a failing dependency). */
  | 'ERR_INTERNAL';

/** Context that locates an error. */
export interface ChunkErrorContext {
  /** The option at fault. */
  option?: string;
  /** Byte offset into the input, when the error concerns the raw bytes. */
  byteOffset?: number;
  /** UTF-16 offset into the decoded document. */
  offset?: number;
  /** 1-based line. */
  line?: number;
  /** 1-based PDF page. */
  page?: number;
  /** The path or origin of the document. */
  source?: string;
  cause?: unknown;
}

/** An error with a stable `code` and the context that locates it. */
export class ChunkError extends Error {
  readonly code: ChunkErrorCode;
  readonly option?: string;
  readonly byteOffset?: number;
  readonly offset?: number;
  readonly line?: number;
  readonly page?: number;
  readonly source?: string;

  constructor(code: ChunkErrorCode, message: string, context: ChunkErrorContext = {}) {
    super(message, context.cause === undefined ? undefined : { cause: context.cause });
    this.name = 'ChunkError';
    this.code = code;
    if (context.option !== undefined) this.option = context.option;
    if (context.byteOffset !== undefined) this.byteOffset = context.byteOffset;
    if (context.offset !== undefined) this.offset = context.offset;
    if (context.line !== undefined) this.line = context.line;
    if (context.page !== undefined) this.page = context.page;
    if (context.source !== undefined) this.source = context.source;
  }
}

/**
 * What a file-system error says, without the path and the call Node adds to its message (`ENOENT: no such file or
 * directory`, not `ENOENT: no such file or directory, open 'notes.md'`): the error that reports it names the file
 * once, in `source`, and whoever prints it puts the path in front.
 */
export function systemErrorReason(error: unknown): string {
  const e = error as NodeJS.ErrnoException | undefined;
  const message = typeof e?.message === 'string' ? e.message : String(error);
  const withoutCall = typeof e?.syscall === 'string' ? message.replace(new RegExp(`, ${e.syscall}( '[^']*')*$`), '') : message;
  return typeof e?.code === 'string' && !withoutCall.startsWith(e.code) ? `${e.code}: ${withoutCall}` : withoutCall;
}

/** True when `error` is a `ChunkError` (optionally with the given code). */
export function isChunkError(error: unknown, code?: ChunkErrorCode): error is ChunkError {
  return error instanceof ChunkError && (code === undefined || error.code === code);
}

/** Wraps anything thrown by a dependency into a `ChunkError`, keeping a `ChunkError` or an `AbortError` as is. */
export function toChunkError(error: unknown, code: ChunkErrorCode = 'ERR_INTERNAL', context: ChunkErrorContext = {}): Error {
  if (error instanceof ChunkError) return error;
  if (error instanceof Error && error.name === 'AbortError') return error;
  const message = error instanceof Error ? error.message : String(error);
  return new ChunkError(code, message, { ...context, cause: error });
}
