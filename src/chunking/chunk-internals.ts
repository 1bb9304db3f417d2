/**
 * What the packer knows about a chunk that the public `Chunk` shape does not show: its section, the whitespace
 * before it, and where each of its pieces starts (for overlap and fusion). Kept in a WeakMap so that chunks stay
 * plain objects and a custom optimizer that builds new chunks simply goes without it.
 */
import type { Chunk, HeadingContext } from '../types.js';

/** Where a piece of a chunk starts, and what is in force there. */
export interface PieceMark {
  readonly start: number;
  readonly end: number;
  readonly heading: HeadingContext;
  /**
   * Where else than at its start a chunk may start inside this piece: between any two words (prose), at the start
   * of a list item (lists), or nowhere (code, tables, HTML: a start inside would break the construct).
   */
  readonly starts: 'words' | 'items' | 'none';
  /** False when the piece needs its prefix (a re-opened fence or table header): no chunk may start at it without one. */
  readonly opens: boolean;
  readonly page?: number;
}

/** The packer's knowledge of one chunk. */
export interface ChunkInternals {
  /** Sections are numbered from 0; a split-level heading starts a new one. */
  readonly section: number;
  /** Whitespace between the previous chunk's end (or the previous block) and this chunk's start. */
  readonly gapBefore: string;
  readonly pieces: readonly PieceMark[];
}

const internals = new WeakMap<Chunk, ChunkInternals>();

/** Records what the packer knows about `chunk`. */
export function setInternals(chunk: Chunk, value: ChunkInternals): Chunk {
  internals.set(chunk, value);
  return chunk;
}

/** What the packer knew about `chunk`, if it was made by the packer. */
export function getInternals(chunk: Chunk): ChunkInternals | undefined {
  return internals.get(chunk);
}
