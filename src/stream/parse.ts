/**
 * `parse()`: bytes in, typed blocks out. Markdown is parsed as it arrives, in bounded batches, inline or on a
 * shared pool of worker threads (`workers`). Formats that need the whole input first are kept up to their cap and
 * read at the end, with the consumer's backpressure respected: a PDF (which needs random access) in a temporary file,
 * read page by page from there, and a transcript in memory.
 */
import { Transform, type TransformCallback } from 'node:stream';
import { normalizeParseOptions, type InputFormat, type ParseConfig, type ParseOptions } from '../config.js';
import type { Core } from '../core.js';
import { ChunkError, toChunkError } from '../errors.js';
import { DETECT_BYTES, detectFormat } from '../parsers/detect.js';
import { createBatchScheduler, type BatchScheduler } from '../parsers/markdown/batch-scheduler.js';
import type { MarkdownBatch } from '../parsers/markdown/batcher.js';
import { createMarkdownBatchCore } from '../parsers/markdown/parse.js';
import { createTextCore } from '../parsers/text/parse.js';
import type { Block } from '../types.js';
import { Spool } from './spool.js';
import { bindAbort } from './to-transform.js';

/** The detector of `format: 'auto'`, exported from here as it always was. */
export { detectFormat };

/**
 * Reads a whole held document into blocks, asynchronously: a PDF from the file it was spooled to, a transcript from
 * its bytes; `onInfo` receives what is known at the end.
 */
type DeferredReader<Input> = (input: Input, config: ParseConfig, onInfo?: (info: object) => void) => AsyncIterable<Block>;

/** Loads the PDF reader on first use, so Markdown users never load pdf.js. */
async function pdfReader(): Promise<DeferredReader<string>> {
  return (await import('../parsers/pdf/reader.js')).readPdfFileBlocks;
}

/** Loads the transcript reader on first use. */
async function transcriptReader(): Promise<DeferredReader<Uint8Array>> {
  return (await import('../parsers/transcript/reader.js')).readTranscriptBlocks;
}

/** The parse stage as a Transform: Buffers or strings in, `Block` objects out. */
class ParseTransform extends Transform {
  readonly #config: ParseConfig;
  #format: InputFormat;
  /** Decoder and batcher of a Markdown input: they stay on this thread, so cut points never depend on workers. */
  #core: Core<string | Uint8Array, MarkdownBatch> | null = null;
  /** Where the Markdown batches are parsed (inline or on the pool), their blocks pushed in document order. */
  readonly #scheduler: BatchScheduler;
  /** Bytes of a transcript (or of the first writes, before the format is known). */
  #held: Uint8Array[] = [];
  /** The file a PDF input is written to as it arrives. */
  #spool: Spool | null = null;
  /** The paragraph reader of a plain-text input. */
  #text: Core<string | Uint8Array, Block> | null = null;
  #heldBytes = 0;
  #wake: (() => void) | null = null;

  constructor(config: ParseConfig) {
    super({ writableObjectMode: true, readableObjectMode: true });
    this.#config = config;
    this.#format = config.format;
    this.#scheduler = createBatchScheduler(config, { push: (blocks) => this.#pushAll(blocks), stopped: () => this.destroyed });
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
        if (this.#decide() === 'pdf') return this.#spoolHeld(callback);
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
      if (this.#format === 'pdf') return this.#spoolHeld(callback);
      callback();
    } catch (error) {
      callback(toChunkError(error));
    }
  }

  override _flush(callback: TransformCallback): void {
    try {
      if (this.#format === 'auto') {
        // A PDF shorter than the detection window is still held: spooled first, then read.
        if (this.#decide() === 'pdf') return this.#spoolHeld((error) => (error ? callback(error) : settle(this.#readPdf(), callback)));
      }
      if (this.#format === 'markdown') {
        const core = (this.#core ??= createMarkdownBatchCore(this.#config));
        const batches = this.#held.flatMap((piece) => core.write(piece));
        this.#held = [];
        batches.push(...core.end());
        const pending = this.#scheduler.parse(batches, true);
        return pending === null ? callback() : settle(pending, callback);
      }
      if (this.#format === 'text') {
        this.#pushAll((this.#text ??= createTextCore(this.#config)).end());
        return callback();
      }
    } catch (error) {
      return callback(toChunkError(error));
    }
    settle(this.#format === 'pdf' ? this.#readPdf() : this.#readTranscript(), callback);
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.#scheduler.release();
    void this.#spool?.remove();
    callback(error);
  }

  /**
   * Batches and parses `pieces[from..]` one after the other, then calls `callback`. A read of 64 KB is thus
   * decoded a piece at a time, each piece's batches parsed before the next piece is decoded: no string of the
   * whole read stays alive while all its batches are parsed, so V8 does not promote it (and what points into it)
   * to the old generation.
   */
  #markdownPieces(pieces: (string | Uint8Array)[], from: number, callback: TransformCallback): void {
    const core = this.#core as Core<string | Uint8Array, MarkdownBatch>;
    try {
      for (let index = from; index < pieces.length && !this.destroyed; index++) {
        const batches = core.write(pieces[index] as string | Uint8Array);
        if (batches.length === 0) continue;
        const pending = this.#scheduler.parse(batches, false);
        // The pool took the batches: the next piece waits for room.
        if (pending !== null) return settle(pending, callback, () => this.#markdownPieces(pieces, index + 1, callback));
      }
    } catch (error) {
      return callback(toChunkError(error));
    }
    callback();
  }

  /** Writes the held bytes to the spool, then calls `callback`; a PDF is never held in memory past this. */
  #spoolHeld(callback: TransformCallback): void {
    const spool = (this.#spool ??= new Spool());
    const held = this.#held;
    this.#held = [];
    held.reduce((written, bytes) => written.then(() => spool.write(bytes)), Promise.resolve()).then(
      () => callback(),
      (error: unknown) => callback(toChunkError(error)),
    );
  }

  /** Reads the spooled PDF page by page; the page count, needsOcr and warnings come as an 'info' event at the end. */
  async #readPdf(): Promise<void> {
    const spool = (this.#spool ??= new Spool());
    try {
      const [reader, path] = await Promise.all([pdfReader(), spool.finish()]);
      await this.#pushDeferred(reader(path, this.#config, (info) => this.emit('info', info)));
    } finally {
      await spool.remove();
    }
  }

  async #readTranscript(): Promise<void> {
    const reader = await transcriptReader();
    const bytes = Buffer.concat(this.#held);
    this.#held = [];
    await this.#pushDeferred(reader(bytes, this.#config));
  }

  /** Pushes the blocks of a deferred reader, waiting for the consumer: they are produced one by one, not all at once. */
  async #pushDeferred(blocks: AsyncIterable<Block>): Promise<void> {
    for await (const block of blocks) {
      if (this.destroyed) return;
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

  /** Settles the format of an `auto` input from the bytes held so far, and gives it. */
  #decide(): InputFormat {
    if (this.#format !== 'auto') return this.#format;
    this.#format = detectFormat(Buffer.concat(this.#held));
    if (this.#format === 'markdown') this.#core = createMarkdownBatchCore(this.#config);
    return this.#format;
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
