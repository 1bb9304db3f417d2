/**
 * The fixed strategy: cut every `n` UTF-16 code units, whatever the text says. A baseline to compare the other
 * strategies against. Chunks do not overlap and concatenate back to the source.
 */
import type { Chunker, Sizer, SizerLike } from '../../protocols.js';
import type { Chunk, Source } from '../../types.js';
import { finishChunk, type ChunkOwner } from '../chunk-factory.js';
import type { Core } from '../../core.js';
import { createLineCounter, endLineOf } from '../../unicode/lines.js';
import { linkNeighbours } from '../neighbours.js';
import { checkSource, integerAtLeast, isHighSurrogate, isLowSurrogate, optionalSizer, ownerOf } from './common.js';

/** Options of `fixedSize`. */
export interface FixedSizeOptions {
  /** Measures `chunk.size`; default: UTF-16 code units (`text.length`). The cuts do not depend on it. */
  sizer?: SizerLike;
}

/** Checks `n` once, at creation. */
function checkedLength(n: unknown): number {
  return integerAtLeast('fixedSize', n, 1, ' (characters per chunk)');
}

/**
 * Length of the next chunk of `text` from `pos`: `n` units, or one less (one more when `n` is 1) so that a
 * surrogate pair is never cut. `null` when the text does not yet reach past the cut and more may come.
 */
function nextCut(text: string, pos: number, n: number, final: boolean): number | null {
  const left = text.length - pos;
  // The unit after the cut decides whether the cut splits a pair, so it must be present.
  if (left <= n) return final && left > 0 ? left : null;
  const cut = pos + n;
  if (isHighSurrogate(text.charCodeAt(cut - 1)) && isLowSurrogate(text.charCodeAt(cut))) return n > 1 ? n - 1 : n + 1;
  return n;
}

/**
 * The fixed-size core: text in writes of any size (a surrogate pair split between two included), chunks out. Holds at most one
 * write plus `n` units.
 */
export function createFixedSizeCore(n: number, owner: ChunkOwner, sizer?: Sizer): Core<string, Chunk> {
  const length = checkedLength(n);
  // The text not cut yet, its document offset, and the next chunk's index.
  const held = { buffer: '', base: 0, index: 0 };
  const lines = createLineCounter();

  function drain(final: boolean): Chunk[] {
    const out: Chunk[] = [];
    const { buffer, base } = held;
    let pos = 0;
    for (let k = nextCut(buffer, pos, length, final); k !== null; k = nextCut(buffer, pos, length, final)) {
      const text = buffer.slice(pos, pos + k);
      const start = base + pos;
      const startLine = lines.lineAt(buffer, base, start);
      const draft = { text, start, end: start + k, startLine, endLine: endLineOf(text, startLine), size: sizer ? sizer.size(text) : k };
      out.push(finishChunk(draft, owner, held.index++));
      pos += k;
    }
    // One slice per write, not one per chunk: a large write stays linear.
    lines.lineAt(buffer, base, base + pos);
    held.buffer = buffer.slice(pos);
    held.base = base + pos;
    return out;
  }

  return {
    write(text) {
      held.buffer += text;
      return drain(false);
    },
    end() {
      return drain(true);
    },
  };
}

/**
 * Creates the fixed strategy: every `n` UTF-16 code units a cut, except that a surrogate pair is never cut (the
 * chunk then ends one unit early, or one late when `n` is 1). The last chunk keeps the remainder; an empty
 * source gives no chunks. Throws `ERR_INVALID_OPTION` (option `fixedSize`) when `n` is not an integer >= 1.
 *
 * ```ts
 * const chunks = fixedSize(1000)({ id: 'a', text });
 * ```
 */
export function fixedSize(n: number, options: FixedSizeOptions = {}): Chunker {
  const length = checkedLength(n);
  const sizer = optionalSizer('sizer', options.sizer);
  return (source: Source) => {
    checkSource(source);
    const core = createFixedSizeCore(length, ownerOf(source), sizer);
    return linkNeighbours([...core.write(source.text), ...core.end()]);
  };
}
