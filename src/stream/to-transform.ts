/**
 * The one adapter from a synchronous core to a Node `Transform`: errors go to the callback (never thrown from
 * `_transform`), `flush` pushes what `end()` returns, and an abort signal ends the stream with an `AbortError`.
 */
import { Transform, type TransformCallback } from 'node:stream';
import type { Core } from '../core.js';
import { toChunkError } from '../errors.js';

/** Options of `toTransform`. */
export interface ToTransformOptions {
  /** Accept objects on the writable side (default true). Off for byte-oriented parsers. */
  writableObjectMode?: boolean;
  /** Emit objects on the readable side (default true). */
  readableObjectMode?: boolean;
  /** Aborting destroys the stream with an `AbortError`. */
  signal?: AbortSignal;
}

/** Wraps a core into a `Transform` stream. */
export function toTransform<In, Out>(core: Core<In, Out>, options: ToTransformOptions = {}): Transform {
  const transform = new Transform({
    writableObjectMode: options.writableObjectMode ?? true,
    readableObjectMode: options.readableObjectMode ?? true,
    transform(item: In, _encoding: BufferEncoding, callback: TransformCallback) {
      let out: Out[];
      try {
        out = core.write(item);
      } catch (error) {
        callback(toChunkError(error));
        return;
      }
      for (const o of out) this.push(o);
      callback();
    },
    flush(callback: TransformCallback) {
      let out: Out[];
      try {
        out = core.end();
      } catch (error) {
        callback(toChunkError(error));
        return;
      }
      for (const o of out) this.push(o);
      callback();
    },
  });
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
