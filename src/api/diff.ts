/**
 * `diffChunks(old, new)`: which chunks of a new chunking of a document are new, which old ones are gone and which
 * were kept, by id. Chunk ids derive from the embedded content (see `Chunk.id`), so a re-index job embeds
 * `added`, deletes `removed` from its store and leaves `kept` alone.
 */
import { ChunkError } from '../errors.js';

/** What a diff needs of a chunk: its id. Chunks, loader documents and JSON records of chunks all have one. */
export interface Identified {
  readonly id: string;
}

/** The outcome of `diffChunks`, each list in the order of its side. */
export interface ChunkDiff<Old extends Identified, New extends Identified> {
  /** Chunks of the new set whose id the old set does not have: embed these. */
  readonly added: New[];
  /** Chunks of the old set whose id the new set does not have: delete these. */
  readonly removed: Old[];
  /** Chunks of the new set whose id the old set has: their embedding can be reused. */
  readonly kept: New[];
}

/**
 * Compares two chunk sets by id. An id repeated within one side (the same chunk listed twice) counts once per
 * listing on its own side, and the other side's listing of it is enough to keep it.
 *
 * ```ts
 * const { added, removed } = diffChunks(previous.chunks, chunkText(edited, { documentId: 'guide.md' }).chunks);
 * await store.delete(removed.map((c) => c.id));
 * await store.add(await embed(added));
 * ```
 */
export function diffChunks<Old extends Identified, New extends Identified>(old: Iterable<Old>, next: Iterable<New>): ChunkDiff<Old, New> {
  const oldIds = new Set<string>();
  const oldChunks: Old[] = [];
  for (const chunk of old) {
    oldIds.add(idOf(chunk, 'old'));
    oldChunks.push(chunk);
  }
  const newIds = new Set<string>();
  const added: New[] = [];
  const kept: New[] = [];
  for (const chunk of next) {
    const id = idOf(chunk, 'new');
    newIds.add(id);
    (oldIds.has(id) ? kept : added).push(chunk);
  }
  const removed = oldChunks.filter((chunk) => !newIds.has(chunk.id));
  return { added, removed, kept };
}

function idOf(chunk: Identified, side: string): string {
  if (typeof chunk !== 'object' || chunk === null || typeof chunk.id !== 'string') {
    throw new ChunkError('ERR_INVALID_INPUT', `diffChunks: every ${side} chunk needs a string id, got ${JSON.stringify(chunk)?.slice(0, 80)}`);
  }
  return chunk.id;
}
