/** `toJsonl()`: chunks (or any objects) in, JSON Lines text out. */
import type { Transform } from 'node:stream';
import { toTransform } from '../stream/to-transform.js';

/** Options of `toJsonl()`. */
export interface ToJsonlOptions<T = unknown> {
  /** Shapes each item before it is serialized, e.g. `(c) => ({ ...c, source: path })` or `toDocument`. */
  map?: (item: T) => unknown;
  /** Aborting ends the stream with an `AbortError`. */
  signal?: AbortSignal;
}

/**
 * Creates a Transform that writes one JSON object per line, each ending with `\n`: objects in, text out, ready to
 * pipe into a file or `process.stdout`.
 *
 * ```ts
 * await pipeline(createReadStream('guide.md'), parse(), chunk(), toJsonl(), createWriteStream('guide.jsonl'));
 * ```
 */
export function toJsonl<T = unknown>(options: ToJsonlOptions<T> = {}): Transform {
  const map = options.map;
  return toTransform<T, string>(
    {
      write: (item) => [JSON.stringify(map ? map(item) : item) + '\n'],
      end: () => [],
    },
    { readableObjectMode: false, ...(options.signal ? { signal: options.signal } : {}) },
  );
}
