/** The heading outline of a document, rebuilt from its chunks' heading paths. */
import type { Chunk } from '../types.js';

/** One heading of the outline and the first chunk under it. */
export interface OutlineEntry {
  readonly title: string;
  /** Heading depth, 1–6. */
  readonly level: number;
  /** Nesting in the outline (0 for the outermost heading of a path). */
  readonly depth: number;
  /** Band position of the first chunk whose heading path reaches this heading. */
  readonly position: number;
}

/**
 * Lists every heading in document order. A chunk only tells the heading stack in force where it starts, so each
 * new prefix of a path is a heading the reader crossed; ancestors that never start a chunk (`# A` directly followed
 * by `## B`) still get their entry.
 */
export function buildOutline(chunks: readonly Chunk[]): OutlineEntry[] {
  const out: OutlineEntry[] = [];
  let previous: readonly string[] = [];
  let previousLevels: readonly number[] = [];
  chunks.forEach((c, position) => {
    const path = c.heading?.path ?? [];
    const levels = c.heading?.levels ?? [];
    let same = 0;
    while (same < path.length && same < previous.length && path[same] === previous[same] && levels[same] === previousLevels[same]) same++;
    for (let i = same; i < path.length; i++) {
      out.push({ title: path[i] as string, level: levels[i] ?? i + 1, depth: i, position });
    }
    previous = path;
    previousLevels = levels;
  });
  return out;
}
