/** `collect()`: gathers a stream (or any iterable) into an array. */
import { ChunkError } from '../errors.js';
import { abortError } from '../stream/to-transform.js';

/** Options of `collect()`. */
export interface CollectOptions {
  /** Fail with `ERR_BUFFER_OVERFLOW` rather than hold more than this many items. Default: no cap. */
  maxItems?: number;
  /** Aborting rejects with an `AbortError`. `pipeline()` passes its own signal here. */
  signal?: AbortSignal;
}

/**
 * Reads every item of `source` into an array. Works on any readable stream, async iterable or iterable, and as the
 * last stage of `pipeline()`, which then resolves with the array:
 *
 * ```ts
 * const chunks = await pipeline(createReadStream('guide.md'), parse(), chunk(), collect);
 * ```
 */
export async function collect<T>(source: AsyncIterable<T> | Iterable<T>, options: CollectOptions = {}): Promise<T[]> {
  const { maxItems = Infinity, signal } = options;
  const items: T[] = [];
  if (signal?.aborted) throw abortError(signal);
  for await (const item of source) {
    if (signal?.aborted) throw abortError(signal);
    if (items.length >= maxItems) {
      throw new ChunkError('ERR_BUFFER_OVERFLOW', `collect() holds at most maxItems (${maxItems}) items`);
    }
    items.push(item);
  }
  return items;
}
