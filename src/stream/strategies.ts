/**
 * Stream forms of the simpler strategies, for `pipeline(...)`. The text strategies take Buffers or strings (UTF-8
 * decoded across writes) and emit chunks; `turnGroups` takes the turn blocks of `parse({ format: 'transcript' })`.
 * Each gives the chunks of its whole-source form on the same text, whatever the write sizes, each linked to its
 * neighbours (`prevId`, `nextId`) as the semantic chunker's are, holding back one chunk until the next is made.
 */
import type { Transform } from 'node:stream';
import { invalidOption, NO_DOCUMENT_ID } from '../config.js';
import type { ChunkOwner } from '../chunking/chunk-factory.js';
import { pipeCores, type Core } from '../core.js';
import { createNeighbourStage } from '../chunking/neighbours.js';
import { createFixedSizeCore, type FixedSizeOptions } from '../chunking/strategies/fixed.js';
import { byMarkers, type MarkersOptions } from '../chunking/strategies/markers.js';
import { createTurnsCore, normalizeTurns, type TurnsOptions } from '../chunking/strategies/turns.js';
import { createSlidingWindowCore, normalizeSlidingWindow, type SlidingWindowOptions } from '../chunking/strategies/window.js';
import { optionalSizer } from '../chunking/strategies/common.js';
import { createUtf8Decoder } from '../parsers/utf8-decoder.js';
import { ChunkError } from '../errors.js';
import type { Block, Chunk } from '../types.js';
import { toTransform } from './to-transform.js';

/** What every strategy stream takes besides its strategy's options. */
export interface StrategyStreamOptions {
  /** Id of the document; chunk ids are `${documentId}#${digest of the embedded content}`, the digest alone without one. */
  documentId?: string;
  /** Where the document came from, copied to every chunk. */
  origin?: string;
  /** Aborting ends the stream with an `AbortError`. */
  signal?: AbortSignal;
}

/** Options of the text-in streams: invalid UTF-8 fails with `ERR_INVALID_UTF8` when `fatal`. */
export interface TextStreamOptions extends StrategyStreamOptions {
  fatal?: boolean;
}

function ownerFrom(options: StrategyStreamOptions): ChunkOwner {
  const { documentId = NO_DOCUMENT_ID, origin } = options;
  if (typeof documentId !== 'string') throw invalidOption('documentId', "must be a string (or '' for a document without an id)", documentId);
  if (origin !== undefined && typeof origin !== 'string') throw invalidOption('origin', 'must be a string', origin);
  return { documentId, origin };
}

/** Puts a UTF-8 decoder in front of a text core, and refuses anything but text. */
function decoding(core: Core<string, Chunk>, fatal: boolean): Core<unknown, Chunk> {
  const decoder = createUtf8Decoder({ fatal });
  return {
    write(input) {
      if (typeof input !== 'string' && !(input instanceof Uint8Array)) {
        throw new ChunkError('ERR_INVALID_INPUT', `strategy streams take strings, Buffers or Uint8Arrays, got ${input === null ? 'null' : typeof input}`);
      }
      return core.write(decoder.write(input));
    },
    end() {
      return [...core.write(decoder.end()), ...core.end()];
    },
  };
}

/**
 * The fixed strategy as a Transform: text in, a chunk every `n` UTF-16 code units out, holding at most one write
 * plus `n` units.
 */
export function fixedSizeStream(n: number, options: FixedSizeOptions & TextStreamOptions = {}): Transform {
  const core = createFixedSizeCore(n, ownerFrom(options), optionalSizer('sizer', options.sizer));
  return toTransform(pipeCores(decoding(core, options.fatal ?? false), createNeighbourStage()), { signal: options.signal });
}

/**
 * The window strategy as a Transform: text in, windows out, holding only the text from the current window's first
 * word on (capped by `maxBufferChars`, `ERR_BUFFER_OVERFLOW`), so it runs over text of any length in bounded
 * memory.
 */
export function slidingWindowStream(options: SlidingWindowOptions & TextStreamOptions): Transform {
  const { documentId, origin, signal, fatal, ...windowOptions } = options;
  const core = createSlidingWindowCore(normalizeSlidingWindow(windowOptions), ownerFrom({ documentId, origin }));
  return toTransform(pipeCores(decoding(core, fatal ?? false), createNeighbourStage()), { signal });
}

/**
 * The markers strategy as a Transform. A cut at a later marker can depend on text far ahead, so the document is
 * held whole, up to `maxBufferChars` UTF-16 units (default 16 Mi, `ERR_BUFFER_OVERFLOW` beyond), and chunked at
 * the end.
 */
export function byMarkersStream(options: MarkersOptions & TextStreamOptions & { maxBufferChars?: number }): Transform {
  const { documentId, origin, signal, fatal, maxBufferChars = 16 * 1024 * 1024, ...markerOptions } = options;
  if (typeof maxBufferChars !== 'number' || !(maxBufferChars >= 1)) throw invalidOption('maxBufferChars', 'must be a number >= 1', maxBufferChars);
  const owner = ownerFrom({ documentId, origin });
  const chunker = byMarkers(markerOptions);
  const pieces: string[] = [];
  let length = 0;
  const core: Core<string, Chunk> = {
    write(text) {
      length += text.length;
      if (length > maxBufferChars) {
        throw new ChunkError('ERR_BUFFER_OVERFLOW', `byMarkersStream: the document exceeds maxBufferChars (${maxBufferChars})`, { offset: maxBufferChars });
      }
      pieces.push(text);
      return [];
    },
    end() {
      const text = pieces.join('');
      pieces.length = 0;
      return chunker({ id: owner.documentId, ...(owner.origin === undefined ? {} : { origin: owner.origin }), text });
    },
  };
  return toTransform(decoding(core, fatal ?? false), { signal });
}

/**
 * The turns strategy as a Transform over the turn blocks of `parse({ format: 'transcript' })`: windows of
 * turns out, holding at most `turnsPerChunk` turns (and the hashes of the texts already emitted).
 *
 * ```ts
 * await pipeline(createReadStream('call.jsonl'), parse({ format: 'transcript' }), turnGroups({ turnsPerChunk: 4 }), toJsonl(), stdout);
 * ```
 */
export function turnGroups(options: TurnsOptions & StrategyStreamOptions = {}): Transform {
  const { documentId, origin, signal, ...turnOptions } = options;
  const core = createTurnsCore(normalizeTurns(turnOptions), ownerFrom({ documentId, origin }));
  return toTransform<Block, Chunk>(pipeCores(core, createNeighbourStage()), { signal });
}
