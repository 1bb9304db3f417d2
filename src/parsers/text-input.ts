/**
 * What every format read as UTF-8 text (Markdown, plain text, transcripts) checks of its input before its reader
 * sees it, in one place for the stream, the synchronous parsers and the whole-file reads alike:
 *
 * - that it is text: a NUL byte (or character) does not occur in text, and is where binary data (a program, an
 *   image, an archive) shows within a few bytes, so it ends the read with `ERR_UNSUPPORTED_FORMAT` naming where;
 * - how many invalid UTF-8 sequences the decoder replaces with U+FFFD. That is counted exactly (one for each
 *   replacement the decoder makes) and put on the blocks as a warning, which the statistics add up: a file of
 *   Latin-1 named `.md` reads, but says so.
 *
 * The check looks at the bytes as they are written and hands the same writes on: it decodes nothing itself, so
 * the readers keep decoding a piece at a time. Valid input costs two native scans (`indexOf(0)`, `isUtf8`).
 */
import { isUtf8 } from 'node:buffer';
import type { StageCore, StageOutput } from '../core.js';
import { ChunkError } from '../errors.js';
import type { Block } from '../types.js';
import { countedWarning, INVALID_UTF8_REPLACED } from '../warnings.js';

/** The first byte of a UTF-8 lead byte range and its sequence length. */
const CONTINUATION = { first: 0x80, last: 0xbf } as const;
const NUL = 0;
const ASCII_END = 0x80;

/** A check over one input, write by write. */
export interface TextInputCheck {
  /** Checks one write: throws `ERR_UNSUPPORTED_FORMAT` at a NUL, counts the invalid sequences it completes. */
  write(input: string | Uint8Array): void;
  /** Counts an unfinished sequence at the end of the input (the decoder replaces it too). */
  end(): void;
  /** Replacements counted and not yet put on a block. */
  readonly pending: number;
  /** `blocks` with the pending count put on the first of them as a warning (the same array when none is pending). */
  tag(blocks: readonly Block[]): readonly Block[];
}

/** Creates the check of one input. */
export function createTextInputCheck(): TextInputCheck {
  const state = { tail: new Uint8Array(0) as Uint8Array, offset: 0, pending: 0 };
  return {
    get pending() {
      return state.pending;
    },
    write(input) {
      if (typeof input === 'string') {
        const at = input.indexOf('\0');
        if (at !== -1) throw binaryInput(`a NUL character at offset ${state.offset + at}`, {});
        state.offset += input.length;
        return;
      }
      const at = input.indexOf(NUL);
      if (at !== -1) throw binaryInput(`a NUL byte at byte offset ${state.offset + at}`, { byteOffset: state.offset + at });
      state.offset += input.length;
      const bytes = state.tail.length === 0 ? input : concat(state.tail, input);
      // Only whole sequences are judged: one cut by the end of this write is judged with the next.
      const cut = completeLength(bytes);
      state.tail = bytes.slice(cut);
      const whole = bytes.subarray(0, cut);
      if (!isUtf8(whole)) state.pending += countReplacements(whole);
    },
    end() {
      if (state.tail.length > 0) state.pending += countReplacements(state.tail);
      state.tail = new Uint8Array(0);
    },
    tag(blocks) {
      const first = blocks[0];
      if (state.pending === 0 || first === undefined) return blocks;
      const warning = countedWarning(INVALID_UTF8_REPLACED, state.pending);
      state.pending = 0;
      return [{ ...first, warnings: [...(first.warnings ?? []), warning] }, ...blocks.slice(1)];
    },
  };
}

/**
 * A text format's stream core behind the check: every write checked before the core reads it, and the count of
 * replacements put on the next block out.
 */
export function checkedTextCore(core: StageCore<string | Uint8Array, Block>): StageCore<string | Uint8Array, Block> {
  const check = createTextInputCheck();
  return {
    write(input) {
      check.write(input);
      return tagged(check, core.write(input));
    },
    end() {
      check.end();
      return tagged(check, core.end());
    },
    ...(core.close !== undefined ? { close: () => core.close?.() } : {}),
  };
}

/** Reads a whole input's blocks behind the check: the synchronous parsers' form of {@link checkedTextCore}. */
export function checkedTextBlocks(input: string | Uint8Array, read: (input: string | Uint8Array) => Block[]): Block[] {
  const check = createTextInputCheck();
  check.write(input);
  check.end();
  return [...check.tag(read(input))];
}

/** The warning for the replacements in a whole input (none when it is valid UTF-8): what a whole-file read reports. */
export function replacementWarnings(bytes: Uint8Array): string[] {
  const check = createTextInputCheck();
  check.write(bytes);
  check.end();
  return check.pending === 0 ? [] : [countedWarning(INVALID_UTF8_REPLACED, check.pending)];
}

function tagged(check: TextInputCheck, out: StageOutput<Block>): StageOutput<Block> {
  if (check.pending === 0) return out;
  if (Array.isArray(out)) return check.tag(out as readonly Block[]);
  return taggedLater(check, out as AsyncIterable<Block>);
}

/** The blocks of `out`, the first to come carrying what the check counted by then. */
export async function* taggedLater(check: TextInputCheck, out: AsyncIterable<Block>): AsyncGenerator<Block> {
  for await (const block of out) yield (check.tag([block])[0] as Block);
}

function binaryInput(where: string, context: { byteOffset?: number }): ChunkError {
  return new ChunkError('ERR_UNSUPPORTED_FORMAT', `Binary data, not text: ${where}`, context);
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

/** Length of the longest prefix of `bytes` that does not end inside a multi-byte sequence (as the decoder cuts). */
function completeLength(bytes: Uint8Array): number {
  const n = bytes.length;
  for (let k = 1; k <= 3 && k <= n; k++) {
    const b = bytes[n - k] as number;
    if (b >= CONTINUATION.first && b <= CONTINUATION.last) continue;
    const needed = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return needed > k ? n - k : n;
  }
  return n;
}

/** The bytes a lead byte needs after it, and the range of the first of them; undefined for a byte no sequence starts with. */
function sequenceOf(lead: number): { need: number; lower: number; upper: number } | undefined {
  if (lead >= 0xc2 && lead <= 0xdf) return { need: 1, lower: CONTINUATION.first, upper: CONTINUATION.last };
  if (lead >= 0xe0 && lead <= 0xef) return { need: 2, lower: lead === 0xe0 ? 0xa0 : CONTINUATION.first, upper: lead === 0xed ? 0x9f : CONTINUATION.last };
  if (lead >= 0xf0 && lead <= 0xf4) return { need: 3, lower: lead === 0xf0 ? 0x90 : CONTINUATION.first, upper: lead === 0xf4 ? 0x8f : CONTINUATION.last };
  return undefined;
}

/**
 * How many U+FFFD the WHATWG UTF-8 decoder (TextDecoder, Buffer) writes for `bytes`: one for each maximal subpart
 * of an ill-formed sequence, the end of `bytes` being the end of the input. Written out because no decoder says
 * how many it made, and counting U+FFFD in the output would also count the ones the text holds.
 */
export function countReplacements(bytes: Uint8Array): number {
  let count = 0;
  let i = 0;
  while (i < bytes.length) {
    const lead = bytes[i] as number;
    if (lead < ASCII_END) {
      i++;
      continue;
    }
    const sequence = sequenceOf(lead);
    if (sequence === undefined) {
      count++;
      i++;
      continue;
    }
    let j = i + 1;
    let { lower, upper } = sequence;
    while (j <= i + sequence.need) {
      const next = bytes[j];
      if (next === undefined || next < lower || next > upper) break;
      lower = CONTINUATION.first;
      upper = CONTINUATION.last;
      j++;
    }
    // A whole sequence is valid; a part of one, cut by a byte out of range or by the end, is one replacement and
    // the byte that cut it is read again.
    if (j <= i + sequence.need) count++;
    i = j;
  }
  return count;
}
