/**
 * The heading outline of a document: from the parser's heading blocks when the caller has them (exact offsets),
 * else rebuilt from the chunks' heading paths, with each heading looked up in the text near where it came into force.
 */
import type { Block, Chunk } from '../types.js';

/** Where a heading begins in the document text. */
export interface HeadingMark {
  /** UTF-16 offset of the heading block's first character. */
  readonly offset: number;
  /** Heading depth, 1–6. */
  readonly depth: number;
  readonly title: string;
}

/** One heading of the outline. */
export interface OutlineEntry {
  readonly title: string;
  /** Heading depth, 1–6. */
  readonly level: number;
  /** Nesting in the outline (0 for the outermost heading of a path). */
  readonly depth: number;
  /** Where the heading itself begins in the text: the outline scrolls there, not to the chunk after it. */
  readonly offset: number;
}

/** The heading blocks of a parse, as marks for `renderReport`'s `headings` option. */
export function headingMarks(blocks: Iterable<Block>): HeadingMark[] {
  const marks: HeadingMark[] = [];
  for (const b of blocks) if (b.kind === 'heading') marks.push({ offset: b.start, depth: b.depth, title: b.title });
  return marks;
}

/** Outline entries from heading marks: nesting follows the stack of open depths, as a heading tracker keeps it. */
function fromMarks(marks: readonly HeadingMark[]): OutlineEntry[] {
  const open: number[] = [];
  const sorted = [...marks].sort((a, b) => a.offset - b.offset);
  return sorted.map((m) => {
    while (open.length > 0 && (open.at(-1) as number) >= m.depth) open.pop();
    const depth = open.length;
    open.push(m.depth);
    return { title: m.title, level: m.depth, depth, offset: m.offset };
  });
}

/**
 * The start of the line, within `[from, to)`, that holds `title` as a heading: the title alone on its line after
 * optional `#` marks, else the first line that begins with it. -1 when no line does.
 */
function findHeadingLine(text: string, title: string, from: number, to: number): number {
  if (title === '') return -1;
  let fallback = -1;
  let at = from;
  while (at < to) {
    const found = text.indexOf(title, at);
    if (found < 0 || found >= to) break;
    const lineStart = text.lastIndexOf('\n', found - 1) + 1;
    const lineEnd = text.indexOf('\n', found);
    const line = text.slice(lineStart, lineEnd < 0 ? text.length : lineEnd);
    const lead = line.slice(0, found - lineStart);
    if (/^\s{0,3}#{0,6}\s*$/.test(lead) && lineStart >= from) {
      const rest = line.slice(found - lineStart + title.length);
      if (/^[\s#]*$/.test(rest)) return lineStart;
      if (fallback < 0) fallback = lineStart;
    }
    at = found + 1;
  }
  return fallback;
}

/**
 * Outline entries from the chunks alone. A chunk only tells the heading stack in force where it starts, so each
 * new prefix of a path is a heading the reader crossed (ancestors that never start a chunk get their entry too);
 * the heading itself lies after the previous chunk's start and at or before this chunk's start, and is looked up
 * there, falling back to the chunk's start.
 */
function fromChunks(chunks: readonly Chunk[], text: string | undefined): OutlineEntry[] {
  const out: OutlineEntry[] = [];
  let previous: readonly string[] = [];
  let previousLevels: readonly number[] = [];
  chunks.forEach((c, position) => {
    const path = c.heading?.path ?? [];
    const levels = c.heading?.levels ?? [];
    let same = 0;
    while (same < path.length && same < previous.length && path[same] === previous[same] && levels[same] === previousLevels[same]) same++;
    let from = position > 0 ? (chunks[position - 1] as Chunk).start : 0;
    for (let i = same; i < path.length; i++) {
      const title = path[i] as string;
      const found = text === undefined ? -1 : findHeadingLine(text, title, from, Math.min(text.length, c.start + title.length + 16));
      const offset = found >= 0 ? found : c.start;
      out.push({ title, level: levels[i] ?? i + 1, depth: i, offset });
      from = Math.max(from, offset);
    }
    previous = path;
    previousLevels = levels;
  });
  return out;
}

/**
 * Lists every heading in document order with the offset where it begins: exactly, from `headings` when given
 * (see `headingMarks`), else found from the chunks' heading paths and `text`.
 */
export function buildOutline(chunks: readonly Chunk[], text?: string, headings?: readonly HeadingMark[]): OutlineEntry[] {
  return headings === undefined ? fromChunks(chunks, text) : fromMarks(headings);
}
