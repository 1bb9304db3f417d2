/**
 * The one adapter from a core to a Node `Transform`: errors go to the callback (never thrown from `_transform`),
 * `flush` pushes what `end()` returns, and an abort signal ends the stream with an `AbortError`. Outputs that come
 * later (a `StageCore`'s async iterables) are pushed one at a time, each after the consumer has read the one
 * before when the readable side is full, so a reader never runs ahead of its consumer.
 */
import { Transform, type TransformCallback } from 'node:stream';
import type { StageCore, StageOutput } from '../core.js';
import { toChunkError } from '../errors.js';

/** Options of `toTransform`. */
export interface ToTransformOptions {
  /** Accept objects on the writable side (default true). Off for byte-oriented parsers. */
  writableObjectMode?: boolean;
  /** Emit objects on the readable side (default true). */
  readableObjectMode?: boolean;
  /** Aborting destroys the stream with an `AbortError`. */
  signal?: AbortSignal;
  /**
   * Bytes of a write handed to the core at a time: a longer write of bytes is cut into pieces, and the outputs of
   * each are pushed before the next is read. A consumer that takes them as they come (the chunk stage) is done
   * with them before the rest exist: `parse()` of a read of 64 KiB of one-letter paragraphs made 22,000 blocks
   * at once, which lived on through the chunking of the ones before them, long enough for V8 to move them to the
   * old generation, and the collector cost a third of the parse.
   */
  pieceBytes?: number;
}

/** What Node's `Transform._write` reads of a stream's two states (not in the typings): `_write` does as it does. */
interface StreamStates {
  readonly _readableState: { readonly length: number; readonly highWaterMark: number; readonly ended: boolean };
  readonly _writableState: { readonly ended: boolean };
}

/** A `Transform` over a core. */
class CoreTransform<In, Out> extends Transform {
  readonly #core: StageCore<In, Out>;
  readonly #pieceBytes: number;
  /** Resolves the wait of an output pushed into a full readable side, once the consumer reads. */
  #wake: (() => void) | null = null;
  /** The callback of a write whose outputs filled the readable side, called once the consumer reads (`_write`). */
  #held: TransformCallback | null = null;

  constructor(core: StageCore<In, Out>, options: ToTransformOptions) {
    super({ writableObjectMode: options.writableObjectMode ?? true, readableObjectMode: options.readableObjectMode ?? true });
    this.#core = core;
    this.#pieceBytes = options.pieceBytes ?? Number.POSITIVE_INFINITY;
  }

  /**
   * Node's `Transform._write` with `_transform` inlined, for an item the core takes whole: it makes no closure per
   * item (Node's makes one for `_transform`'s callback), and the chunk stage gets
   * one write per block, a block every few bytes in some documents (a seventh of what a heading per line
   * allocated). The callback is called, deferred or held until the consumer reads, as Node's decides.
   */
  override _write(item: In, encoding: BufferEncoding, callback: TransformCallback): void {
    if (item instanceof Uint8Array && item.length > this.#pieceBytes) {
      super._write(item, encoding, callback);
      return;
    }
    const length = (this as unknown as StreamStates)._readableState.length;
    let out: StageOutput<Out>;
    try {
      out = this.#core.write(item);
    } catch (error) {
      callback(toChunkError(error));
      return;
    }
    this.#deliver(out, callback, length);
  }

  /** Reached through Node's `Transform._write` only, for bytes written a piece at a time (see `_write`). */
  override _transform(item: In, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.#deliverPieces(item as unknown as Uint8Array, 0, callback);
  }

  override _flush(callback: TransformCallback): void {
    let out: StageOutput<Out>;
    try {
      out = this.#core.end();
    } catch (error) {
      callback(toChunkError(error));
      return;
    }
    this.#deliver(out, callback);
  }

  override _read(size: number): void {
    super._read(size);
    const held = this.#held;
    this.#held = null;
    held?.();
    const wake = this.#wake;
    this.#wake = null;
    wake?.();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    try {
      this.#core.close?.();
    } finally {
      this.#wake?.();
      callback(error);
    }
  }

  /**
   * After a write whose outputs are pushed, as Node's `Transform._write` ends one: the callback waits for the next
   * tick once the readable side has ended, is held until the consumer reads (`_read`) when the outputs filled the
   * readable side, and is called now otherwise. `length` is the readable side's length before the write.
   */
  #written(length: number, callback: TransformCallback): void {
    const readable = (this as unknown as StreamStates)._readableState;
    if (readable.ended) process.nextTick(callback);
    else if ((this as unknown as StreamStates)._writableState.ended || length === readable.length || readable.length < readable.highWaterMark) callback();
    else this.#held = callback;
  }

  /**
   * Pushes `out`, then ends the write or the flush: with the readable side's `length` before a write, as `#written`
   * says; without it, by calling `callback` (with the error, as a `ChunkError`, when the outputs fail).
   */
  #deliver(out: StageOutput<Out>, callback: TransformCallback, length?: number): void {
    if (isArray(out)) {
      for (let i = 0; i < out.length; i++) this.push(out[i]);
      this.#finish(callback, length);
      return;
    }
    this.#pushLater(out).then(
      () => this.#finish(callback, length),
      (error: unknown) => callback(toChunkError(error)),
    );
  }

  /** Ends a write (`length` given: as `#written` says) or the flush (by calling `callback`). */
  #finish(callback: TransformCallback, length: number | undefined): void {
    if (length === undefined) callback();
    else this.#written(length, callback);
  }

  /** Writes `bytes` from `from` on to the core a piece at a time, pushing each piece's outputs before the next is written. */
  #deliverPieces(bytes: Uint8Array, from: number, callback: TransformCallback): void {
    for (let at = from; at < bytes.length && !this.destroyed; at += this.#pieceBytes) {
      let out: StageOutput<Out>;
      try {
        out = this.#core.write(bytes.subarray(at, at + this.#pieceBytes) as unknown as In);
      } catch (error) {
        callback(toChunkError(error));
        return;
      }
      if (!isArray(out)) {
        const next = at + this.#pieceBytes;
        this.#pushLater(out).then(
          () => this.#deliverPieces(bytes, next, callback),
          (error: unknown) => callback(toChunkError(error)),
        );
        return;
      }
      for (let i = 0; i < out.length; i++) this.push(out[i]);
    }
    callback();
  }

  /** Pushes the items of `out` as they come, waiting for the consumer whenever the readable side is full. */
  async #pushLater(out: AsyncIterable<Out>): Promise<void> {
    for await (const item of out) {
      // Leaving the loop closes the iterator, which frees what the reader holds (a sandbox, a temporary file).
      if (this.destroyed) return;
      if (!this.push(item)) await new Promise<void>((resolve) => (this.#wake = resolve));
    }
  }
}

function isArray<Out>(out: StageOutput<Out>): out is readonly Out[] {
  return Array.isArray(out);
}

/** Wraps a core (synchronous, or with outputs that come later) into a `Transform` stream. */
export function toTransform<In, Out>(core: StageCore<In, Out>, options: ToTransformOptions = {}): Transform {
  const transform = new CoreTransform(core, options);
  if (options.signal) bindAbort(transform, options.signal);
  return transform;
}

/** Destroys `stream` with an `AbortError` when `signal` aborts. */
export function bindAbort(stream: { destroy(error?: Error): unknown; once(event: 'close', f: () => void): unknown }, signal: AbortSignal): void {
  const onAbort = () => stream.destroy(abortError(signal));
  if (signal.aborted) {
    queueMicrotask(onAbort);
    return;
  }
  signal.addEventListener('abort', onAbort, { once: true });
  stream.once('close', () => signal.removeEventListener('abort', onAbort));
}

/** The `AbortError` a stream ends with when its signal aborts. */
export function abortError(signal: AbortSignal): Error {
  const error = new Error('The operation was aborted', { cause: signal.reason });
  error.name = 'AbortError';
  (error as Error & { code: string }).code = 'ABORT_ERR';
  return error;
}
