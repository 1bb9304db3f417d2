/**
 * `parse()`: bytes in, typed blocks out. Markdown is parsed as it arrives, in bounded batches, inline or on a
 * shared pool of worker threads (`workers`). Formats that need the whole input first (PDF needs random access)
 * are buffered up to their cap and read at the end, page by page, with the consumer's backpressure respected.
 */
import { Transform, type TransformCallback } from 'node:stream';
import { normalizeParseOptions, type InputFormat, type ParseConfig, type ParseOptions } from '../config.js';
import type { Core } from '../core.js';
import { ChunkError, toChunkError } from '../errors.js';
import type { MarkdownBatch } from '../parsers/markdown/batcher.js';
import { createGapTracker, createMarkdownBatchCore, parseBatch } from '../parsers/markdown/parse.js';
import { acquireMarkdownPool, autoWorkerCount, type MarkdownPoolLease } from '../parsers/markdown/pool.js';
import { createTextCore } from '../parsers/text/parse.js';
import type { Block } from '../types.js';
import { bindAbort } from './to-transform.js';

/** Reads a whole buffered document into blocks, asynchronously (PDF); `onInfo` receives what is known at the end. */
export type DeferredReader = (bytes: Uint8Array, config: ParseConfig, onInfo?: (info: object) => void) => AsyncIterable<Block>;

const PDF_MAGIC = '%PDF-';
/** How much of the input `detectFormat` looks at. */
const DETECT_BYTES = 1024;

/**
 * With `workers: 'auto'`, Markdown goes to the pool once this much text (UTF-16 units, some sixteen default batches)
 * has been batched; an input that ends before is parsed inline: starting threads and loading remark in them
 * costs more than it saves.
 */
const AUTO_POOL_AFTER = 256 * 1024;
/** Batches in flight per pool thread: enough to keep every thread busy while the calling thread emits results. */
const IN_FLIGHT_PER_THREAD = 2;

/** A batch handed to the pool, in submission order. */
interface PendingBatch {
  /** Resolves (never rejects) once the batch is settled. */
  done: Promise<void>;
  settled: boolean;
  batch: MarkdownBatch;
  blocks: Block[];
  error: unknown;
}

/** Guesses the format from the first bytes: PDF when they are `%PDF-`, Markdown otherwise. */
export function detectFormat(head: Uint8Array | string): Exclude<InputFormat, 'auto'> {
  const text = typeof head === 'string' ? head.slice(0, DETECT_BYTES) : Buffer.from(head.subarray(0, DETECT_BYTES)).toString('latin1');
  // The PDF header may follow a few bytes of garbage; readers accept it within the first kilobyte.
  return text.includes(PDF_MAGIC) ? 'pdf' : 'markdown';
}

/** Loads the reader for a deferred format on first use, so Markdown users never load pdf.js. */
async function deferredReader(format: 'pdf' | 'transcript'): Promise<DeferredReader> {
  if (format === 'pdf') {
    const { readPdfBlocks } = await import('../parsers/pdf/reader.js');
    return readPdfBlocks;
  }
  const { readTranscriptBlocks } = await import('../parsers/transcript/reader.js');
  return readTranscriptBlocks;
}

/** The parse stage as a Transform: Buffers or strings in, `Block` objects out. */
class ParseTransform extends Transform {
  readonly #config: ParseConfig;
  #format: InputFormat;
  /** Decoder and batcher of a Markdown input: they stay on this thread, so cut points never depend on workers. */
  #core: Core<string | Uint8Array, MarkdownBatch> | null = null;
  /** Threads to parse Markdown batches on; 0 parses inline. */
  readonly #threads: number;
  /** True once batches go to the pool; they keep going there so that blocks come out in order. */
  #parallel = false;
  /** With `workers: 'auto'`: text batched so far, and the batches held until the choice is made. */
  #batched = 0;
  #undecided: MarkdownBatch[] = [];
  #lease: MarkdownPoolLease | null = null;
  /** Batches in flight on the pool, oldest first; their blocks are pushed in this order. */
  #pending: PendingBatch[] = [];
  /** Whitespace since the last block, carried across batches (blocks carry it as `gapBefore`). */
  readonly #gaps = createGapTracker();
  /** Bytes of a deferred format (or of the first write, before the format is known). */
  #held: Uint8Array[] = [];
  /** The paragraph reader of a plain-text input. */
  #text: Core<string | Uint8Array, Block> | null = null;
  #heldBytes = 0;
  #wake: (() => void) | null = null;

  constructor(config: ParseConfig) {
    super({ writableObjectMode: true, readableObjectMode: true });
    this.#config = config;
    this.#format = config.format;
    const workers = config.workers;
    this.#threads = workers === 'auto' ? autoWorkerCount() : workers;
  }

  override _read(size: number): void {
    super._read(size);
    const wake = this.#wake;
    this.#wake = null;
    wake?.();
  }

  override _transform(chunk: unknown, _encoding: BufferEncoding, callback: TransformCallback): void {
    try {
      const input = toInput(chunk);
      if (this.#format === 'auto') {
        this.#hold(input);
        // `detectFormat` looks for the PDF header in the first kilobyte: decide once that much is here (or at the end).
        if (this.#heldBytes < DETECT_BYTES) return callback();
        this.#decide();
        if (this.#core === null) return callback();
        const held = this.#held;
        this.#held = [];
        return this.#markdownPieces(held.flatMap(piecesOf), 0, callback);
      }
      if (this.#format === 'markdown') {
        this.#core ??= createMarkdownBatchCore(this.#config);
        return this.#markdownPieces(piecesOf(input), 0, callback);
      }
      if (this.#format === 'text') {
        this.#pushAll((this.#text ??= createTextCore(this.#config)).write(input));
        return callback();
      }
      this.#hold(input);
      callback();
    } catch (error) {
      callback(toChunkError(error));
    }
  }

  override _flush(callback: TransformCallback): void {
    try {
      if (this.#format === 'auto') this.#decide();
      if (this.#format === 'markdown') {
        const core = (this.#core ??= createMarkdownBatchCore(this.#config));
        const batches = this.#held.flatMap((piece) => core.write(piece));
        this.#held = [];
        batches.push(...core.end());
        const pending = this.#markdown(batches, true);
        return pending === null ? callback() : settle(pending, callback);
      }
      if (this.#format === 'text') {
        this.#pushAll((this.#text ??= createTextCore(this.#config)).end());
        return callback();
      }
    } catch (error) {
      return callback(toChunkError(error));
    }
    settle(this.#readDeferred(this.#format as 'pdf' | 'transcript'), callback);
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.#release();
    callback(error);
  }

  /**
   * Batches and parses `pieces[from..]` one after the other, then calls `callback`. A read of 64 KB is thus
   * decoded a piece at a time, each piece's batches parsed before the next piece is decoded: no string of the
   * whole read stays alive while all its batches are parsed, so V8 does not promote it (and what points into it)
   * to the old generation. On Node's API docs, 8 KB pieces cut the bytes `parse()` promotes by a fifth.
   */
  #markdownPieces(pieces: (string | Uint8Array)[], from: number, callback: TransformCallback): void {
    const core = this.#core as Core<string | Uint8Array, MarkdownBatch>;
    try {
      for (let index = from; index < pieces.length && !this.destroyed; index++) {
        const batches = core.write(pieces[index] as string | Uint8Array);
        if (batches.length === 0) continue;
        const pending = this.#markdown(batches, false);
        // The pool took the batches: the next piece waits for room.
        if (pending !== null) return settle(pending, callback, () => this.#markdownPieces(pieces, index + 1, callback));
      }
    } catch (error) {
      return callback(toChunkError(error));
    }
    callback();
  }

  /**
   * Parses Markdown batches and pushes their blocks in document order; with `final`, waits for every batch in
   * flight. Returns null when all is done already (parsed inline, or held back), else a promise that settles
   * once the pool has room for the next write (at most `IN_FLIGHT_PER_THREAD` batches per thread are in flight,
   * so a slow consumer holds the writer back instead of letting batches pile up).
   */
  #markdown(batches: MarkdownBatch[], final: boolean): Promise<void> | null {
    if (!this.#parallel && this.#threads > 0) {
      if (this.#config.workers !== 'auto') {
        this.#parallel = true;
      } else {
        // Held back (a bounded amount) until it is clear whether the input is large enough for the pool: parsing
        // the first batches inline would grow this thread's heap for nothing once the pool takes over.
        for (const batch of batches) this.#batched += batch.text.length;
        this.#undecided.push(...batches);
        if (this.#batched <= AUTO_POOL_AFTER && !final) return null;
        this.#parallel = this.#batched > AUTO_POOL_AFTER;
        batches = this.#undecided;
        this.#undecided = [];
      }
    }
    if (!this.#parallel) {
      for (const batch of batches) this.#pushAll(this.#gaps.fill(batch, parseBatch(batch)));
      return null;
    }
    return this.#dispatch(batches, final).catch((error: unknown) => {
      // Batches still in flight settle on their own; nothing of them is pushed after the error.
      this.#pending = [];
      this.#release();
      throw error;
    });
  }

  async #dispatch(batches: MarkdownBatch[], final: boolean): Promise<void> {
    const lease = (this.#lease ??= acquireMarkdownPool(this.#threads));
    const window = IN_FLIGHT_PER_THREAD * lease.threads;
    for (const batch of batches) {
      while (this.#pending.length >= window) await this.#emitHead();
      // Destroyed while waiting (aborted, or the consumer went away): submit nothing more.
      if (this.destroyed) return;
      this.#submit(lease, batch);
    }
    if (final) {
      while (this.#pending.length > 0) await this.#emitHead();
      this.#release();
    } else {
      this.#emitSettled(true);
    }
  }

  #submit(lease: MarkdownPoolLease, batch: MarkdownBatch): void {
    const pending: PendingBatch = { batch, done: Promise.resolve(), settled: false, blocks: [], error: undefined };
    this.#pending.push(pending);
    pending.done = lease.parse(batch).then(
      (blocks) => {
        pending.blocks = blocks;
        pending.settled = true;
        // Results are pushed as soon as they are next in line, not only when the writer writes again.
        this.#emitSettled(false);
      },
      (error: unknown) => {
        pending.error = error;
        pending.settled = true;
      },
    );
  }

  /** Pushes the blocks of the settled batches at the head of the line; a failed one throws when `raise` is set. */
  #emitSettled(raise: boolean): void {
    for (let head = this.#pending[0]; head?.settled; head = this.#pending[0]) {
      if (head.error !== undefined) {
        if (!raise) return;
        this.#pending.shift();
        throw head.error;
      }
      this.#pending.shift();
      this.#pushAll(this.#gaps.fill(head.batch, head.blocks));
    }
  }

  /** Waits for the oldest batch in flight and pushes its blocks (and those of any settled batch behind it). */
  async #emitHead(): Promise<void> {
    await (this.#pending[0] as PendingBatch).done;
    this.#emitSettled(true);
  }

  #release(): void {
    this.#lease?.release();
    this.#lease = null;
  }

  async #readDeferred(format: 'pdf' | 'transcript'): Promise<void> {
    const reader = await deferredReader(format);
    const bytes = Buffer.concat(this.#held);
    this.#held = [];
    // PDF: the page count, needsOcr and warnings, as an 'info' event before the stream ends.
    for await (const block of reader(bytes, this.#config, (info) => this.emit('info', info))) {
      if (this.destroyed) return;
      // Wait for the consumer: a PDF's blocks are produced page by page, not all at once.
      if (!this.push(block)) await new Promise<void>((resolve) => (this.#wake = resolve));
    }
  }

  #hold(input: string | Uint8Array): void {
    const bytes = typeof input === 'string' ? Buffer.from(input, 'utf8') : input;
    this.#heldBytes += bytes.length;
    if (this.#format === 'transcript' && this.#heldBytes > this.#config.maxBufferBytes) {
      throw new ChunkError('ERR_BUFFER_OVERFLOW', `Transcript input exceeds maxBufferBytes (${this.#config.maxBufferBytes} bytes)`, {
        byteOffset: this.#config.maxBufferBytes,
      });
    }
    if (this.#format === 'pdf' && this.#heldBytes > this.#config.maxPdfBytes) {
      throw new ChunkError('ERR_PDF_TOO_LARGE', `PDF input exceeds maxPdfBytes (${this.#config.maxPdfBytes} bytes); raise maxPdfBytes or pass a file path`, {
        byteOffset: this.#config.maxPdfBytes,
      });
    }
    this.#held.push(bytes);
  }

  #decide(): void {
    if (this.#format !== 'auto') return;
    this.#format = detectFormat(Buffer.concat(this.#held));
    if (this.#format === 'markdown') this.#core = createMarkdownBatchCore(this.#config);
  }

  #pushAll(blocks: Block[]): void {
    if (this.destroyed) return;
    for (const block of blocks) this.push(block);
  }
}

/** Calls `next` (by default `callback`) once `pending` is fulfilled, or `callback` with its error as a `ChunkError`. */
function settle(pending: Promise<void>, callback: TransformCallback, next: () => void = () => callback()): void {
  pending.then(next, (error: unknown) => callback(toChunkError(error)));
}

/** Bytes decoded and batched at a time (see `#markdownPieces`). */
const PIECE_BYTES = 8 * 1024;

/** A write cut into pieces of at most {@link PIECE_BYTES} bytes; strings are already on the heap and stay whole. */
function piecesOf(input: string | Uint8Array): (string | Uint8Array)[] {
  if (typeof input === 'string' || input.length <= PIECE_BYTES) return [input];
  const pieces: Uint8Array[] = [];
  for (let start = 0; start < input.length; start += PIECE_BYTES) pieces.push(input.subarray(start, start + PIECE_BYTES));
  return pieces;
}

function toInput(chunk: unknown): string | Uint8Array {
  if (typeof chunk === 'string' || chunk instanceof Uint8Array) return chunk;
  throw new ChunkError('ERR_INVALID_INPUT', `parse() takes strings, Buffers or Uint8Arrays, got ${chunk === null ? 'null' : typeof chunk}`);
}

/**
 * Creates the parse stage: a Transform taking Buffers or strings and emitting `Block` objects.
 *
 * For a PDF, the stream emits `'info'` with a `PdfInfo` (`{ pages, needsOcr, warnings }`) after its last block and
 * before `'end'`.
 *
 * ```ts
 * await pipeline(fs.createReadStream('guide.md'), parse(), chunk(), toJsonl(), process.stdout);
 * ```
 */
export function parse(options?: ParseOptions): Transform {
  const config = normalizeParseOptions(options);
  const stream = new ParseTransform(config);
  if (config.signal) bindAbort(stream, config.signal);
  return stream;
}
