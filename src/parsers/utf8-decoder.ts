/**
 * Incremental UTF-8 decoding: a multi-byte sequence split across writes comes out whole, a leading BOM is
 * dropped (document offsets start after it), invalid bytes become U+FFFD or, with `fatal`, an
 * `ERR_INVALID_UTF8` error naming the byte offset.
 */
import { ChunkError } from '../errors.js';

/** Decodes bytes (or passes strings through) one write at a time. */
export interface Utf8Decoder {
  /** Returns the text that is complete so far. */
  write(input: string | Uint8Array): string;
  /** Returns what is left; an unfinished sequence at the end is invalid. */
  end(): string;
  /** Bytes consumed so far. */
  readonly bytesRead: number;
}

const EMPTY = new Uint8Array(0);

/** Creates a decoder; `fatal` turns invalid UTF-8 into an error. */
export function createUtf8Decoder(options: { fatal?: boolean } = {}): Utf8Decoder {
  const fatal = options.fatal ?? false;
  // ignoreBOM keeps a BOM in the output, so the one rule below handles bytes and strings alike.
  const decoder = new TextDecoder('utf-8', { fatal, ignoreBOM: true });
  const held: HeldBytes = { pending: EMPTY, pendingOffset: 0, bytesRead: 0, atStart: true };

  /** The decoded text, a byte order mark at the very start left out. */
  function emit(text: string): string {
    if (held.atStart && text.length > 0) {
      held.atStart = false;
      if (text.charCodeAt(0) === 0xfeff) return text.slice(1);
    }
    return text;
  }

  /** `bytes` decoded; `ERR_INVALID_UTF8` names the byte offset of the first invalid sequence. */
  function decode(bytes: Uint8Array, offset: number): string {
    try {
      return decoder.decode(bytes);
    } catch {
      const at = offset + firstInvalidUtf8(bytes);
      throw new ChunkError('ERR_INVALID_UTF8', `Invalid UTF-8 at byte offset ${at}`, { byteOffset: at });
    }
  }

  return {
    get bytesRead() {
      return held.bytesRead;
    },
    write(input) {
      if (typeof input === 'string') return this.end() + emit(input);
      held.bytesRead += input.length;
      let bytes = input;
      const { pending } = held;
      if (pending.length > 0) {
        bytes = new Uint8Array(pending.length + input.length);
        bytes.set(pending, 0);
        bytes.set(input, pending.length);
      }
      const offset = held.pendingOffset;
      // Decode only whole sequences; an unfinished one waits for the next write, so results never depend on
      // where the writes were cut.
      const cut = completeLength(bytes);
      held.pending = cut === bytes.length ? EMPTY : bytes.slice(cut);
      held.pendingOffset = offset + cut;
      return emit(decode(cut === bytes.length ? bytes : bytes.subarray(0, cut), offset));
    },
    end() {
      if (held.pending.length === 0) return '';
      const bytes = held.pending;
      held.pending = EMPTY;
      const offset = held.pendingOffset;
      held.pendingOffset += bytes.length;
      return emit(decode(bytes, offset));
    },
  };
}

/** What a decoder holds between writes. */
interface HeldBytes {
  /** The bytes of an unfinished sequence, and their offset in the input. */
  pending: Uint8Array;
  pendingOffset: number;
  bytesRead: number;
  /** Nothing decoded yet: a byte order mark may come. */
  atStart: boolean;
}

/** Length of the longest prefix of `bytes` that does not end inside a multi-byte sequence. */
function completeLength(bytes: Uint8Array): number {
  const n = bytes.length;
  for (let k = 1; k <= 3 && k <= n; k++) {
    const b = bytes[n - k] as number;
    if (b >= 0x80 && b <= 0xbf) continue; // continuation byte: look further back
    const needed = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return needed > k ? n - k : n;
  }
  return n;
}

/** Index of the first byte of the first invalid UTF-8 sequence in `bytes`, or `bytes.length` if there is none. */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i] as number;
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let lower = 0x80;
    let upper = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) need = 1;
    else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      if (b === 0xe0) lower = 0xa0;
      if (b === 0xed) upper = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      if (b === 0xf0) lower = 0x90;
      if (b === 0xf4) upper = 0x8f;
    } else return i;
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined || c < lower || c > upper) return i;
      lower = 0x80;
      upper = 0xbf;
    }
    i += need + 1;
  }
  return bytes.length;
}
