/**
 * Links each chunk to its neighbours in the document: `prevId` and `nextId`. A chunk's next id is known only once
 * the next chunk is finished, so the stage holds back one chunk, the last one, and gives it out when the next one
 * comes or the document ends. The stream and the synchronous API run the same stage, so they link the same ids.
 */
import type { Core } from '../core.js';
import type { Chunk } from '../types.js';

/** A chunk being linked: the two fields are set once, before it is given out. */
type Linked = Omit<Chunk, 'prevId' | 'nextId'> & { prevId?: string; nextId?: string };

/** Creates the stage that sets `prevId` and `nextId`, holding back at most one chunk. */
export function createNeighbourStage(): Core<Chunk, Chunk> {
  const state: { held: Linked | undefined } = { held: undefined };
  return {
    write(chunk) {
      const next: Linked = chunk;
      const held = state.held;
      state.held = next;
      if (held === undefined) return [];
      held.nextId = next.id;
      next.prevId = held.id;
      return [held as Chunk];
    },
    end() {
      const held = state.held;
      state.held = undefined;
      return held === undefined ? [] : [held as Chunk];
    },
  };
}

/**
 * Sets `prevId` and `nextId` on a list of one document's chunks, made by the caller (not yet given out); the first
 * gets `outer.prevId` and the last `outer.nextId`, when given (the neighbours of a run cut out of a document).
 */
export function linkNeighbours(chunks: Chunk[], outer: { readonly prevId?: string | undefined; readonly nextId?: string | undefined } = {}): Chunk[] {
  const stage = createNeighbourStage();
  const out = [...chunks.flatMap((c) => stage.write(c)), ...stage.end()] as Linked[];
  const first = out[0];
  const last = out.at(-1);
  if (first !== undefined && outer.prevId !== undefined) first.prevId = outer.prevId;
  if (last !== undefined && outer.nextId !== undefined) last.nextId = outer.nextId;
  return out as Chunk[];
}
