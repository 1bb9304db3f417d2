/**
 * `parse()`: bytes in, typed blocks out. Markdown is parsed as it arrives, in bounded batches. Formats that need
 * the whole input first (PDF needs random access) are buffered up to their cap and read at the end, page by page,
 * with the consumer's backpressure respected.
 */
import { Transform, type TransformCallback } from 'node:stream';
import { normalizeParseOptions, type InputFormat, type ParseConfig, type ParseOptions } from '../config.js';
import type { Core } from '../core/core.js';
import { ChunkError, toChunkError } from '../errors.js';
import { createMarkdownCore } from '../parsers/markdown.js';
import type { Block } from '../types.js';
import { bindAbort } from './to-transform.js';

/** Reads a whole buffered document into blocks, asynchronously (PDF); `onInfo` receives what is known at the end. */
export type DeferredReader = (bytes: Uint8Array, config: ParseConfig, onInfo?: (info: object) => void) => AsyncIterable<Block>;

const PDF_MAGIC = '%PDF-';

/** Guesses the format from the first bytes: PDF when they are `%PDF-`, Markdown otherwise. */
export function detectFormat(head: Uint8Array | string): Exclude<InputFormat, 'auto'> {
  const text = typeof head === 'string' ? head.slice(0, 1024) : Buffer.from(head.subarray(0, 1024)).toString('latin1');
  // The PDF header may follow a few bytes of garbage; readers accept it within the first kilobyte.
  return text.includes(PDF_MAGIC) ? 'pdf' : 'markdown';
}

/** Loads the reader for a deferred format on first use, so Markdown users never load pdf.js. */
async function deferredReader(format: 'pdf' | 'transcript'): Promise<DeferredReader> {
  if (format === 'pdf') {
    const { readPdfBlocks } = await import('../parsers/pdf.js');
    return readPdfBlocks;
  }
  const { readTranscriptBlocks } = await import('../parsers/transcript.js');
  return readTranscriptBlocks;
}

/** The parse stage as a Transform: Buffers or strings in, `Block` objects out. */
class ParseTransform extends Transform {
  readonly #config: ParseConfig;
  #format: InputFormat;
  #core: Core<string | Uint8Array, Block> | null = null;
  /** Bytes of a deferred format (or of the first write, before the format is known). */
  #held: Uint8Array[] = [];
  #heldBytes = 0;
  #wake: (() => void) | null = null;

  constructor(config: ParseConfig) {
    super({ writableObjectMode: true, readableObjectMode: true });
    this.#config = config;
    this.#format = config.format;
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
        // Five bytes are enough to tell a PDF from Markdown.
        if (this.#heldBytes < PDF_MAGIC.length) return callback();
        this.#decide();
        if (this.#core === null) return callback();
        const held = this.#held;
        this.#held = [];
        for (const piece of held) this.#pushAll(this.#core.write(piece));
        return callback();
      }
      if (this.#format === 'markdown') {
        this.#core ??= createMarkdownCore(this.#config);
        this.#pushAll(this.#core.write(input));
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
        this.#core ??= createMarkdownCore(this.#config);
        for (const piece of this.#held) this.#pushAll(this.#core.write(piece));
        this.#held = [];
        this.#pushAll(this.#core.end());
        return callback();
      }
    } catch (error) {
      return callback(toChunkError(error));
    }
    this.#readDeferred(this.#format as 'pdf' | 'transcript').then(() => callback(), (error) => callback(toChunkError(error)));
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
    if (this.#format === 'markdown') this.#core = createMarkdownCore(this.#config);
  }

  #pushAll(blocks: Block[]): void {
    for (const block of blocks) this.push(block);
  }
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
