/**
 * Where a chunk's text is drawn (PDF): its boxes, from the boxes of the blocks it comes from. The boxes of a block
 * each hold a span of the document text; a chunk takes those its span covers, cut where it begins or ends inside
 * one (the glyphs of a box are taken as laid evenly across it), and joins the pieces of one line into one box.
 */
import type { Block, Chunk, PageBox, TextBox } from '../types.js';

/** Boxes a chunk's text is drawn in, as blocks go by and chunks come out in order. */
export interface ChunkBoxes {
  /** Keeps the boxes of a block, until the chunks have gone past it. */
  add(block: Block): void;
  /** The chunk with its boxes (the chunk itself when its blocks had none). */
  place(chunk: Chunk): Chunk;
  /** `chunks` with their boxes: the same array when no block had boxes (every format but PDF), at no cost. */
  placeAll(chunks: Chunk[]): Chunk[];
}

/**
 * Creates an empty index. Chunks come out in document order, and none starts before the one before it (an
 * overlap starts inside it): the boxes that end before a chunk's start are dropped, so the index holds no more than
 * the blocks the chunker holds.
 */
export function createChunkBoxes(): ChunkBoxes {
  const held: { boxes: TextBox[]; first: number } = { boxes: [], first: 0 };
  const index: ChunkBoxes = {
    add(block) {
      if (block.boxes !== undefined) for (const box of block.boxes) held.boxes.push(box);
    },
    place(chunk) {
      while (held.first < held.boxes.length && (held.boxes[held.first] as TextBox).end <= chunk.start) held.first++;
      // Dropped boxes are let go in batches, not one shift at a time.
      if (held.first > 1024 && held.first * 2 > held.boxes.length) {
        held.boxes = held.boxes.slice(held.first);
        held.first = 0;
      }
      const boxes = boxesOf(held.boxes, held.first, chunk.start, chunk.end);
      return boxes.length === 0 ? chunk : { ...chunk, boxes };
    },
    placeAll: (chunks) => (held.boxes.length === 0 ? chunks : chunks.map(index.place)),
  };
  return index;
}

/** The boxes of `[start, end)` from `boxes` (in text order, from index `first`), cut and joined line by line. */
export function boxesOf(boxes: readonly TextBox[], first: number, start: number, end: number): PageBox[] {
  const out: PageBox[] = [];
  for (let i = first; i < boxes.length; i++) {
    const box = boxes[i] as TextBox;
    if (box.start >= end) break;
    if (box.end <= start) continue;
    const piece = cut(box, Math.max(start, box.start), Math.min(end, box.end));
    const last = out[out.length - 1];
    if (last !== undefined && sameLine(last, piece)) out[out.length - 1] = join(last, piece);
    else out.push(piece);
  }
  return out;
}

/** The part of a box where its span's characters `[from, to)` are drawn. */
function cut(box: TextBox, from: number, to: number): PageBox {
  const { page, x, y, width, height } = box;
  const n = box.end - box.start;
  if (from <= box.start && to >= box.end) return { page, x, y, width, height };
  const before = from - box.start;
  const after = box.end - to;
  if (box.direction === 'up' || box.direction === 'down') {
    const step = height / n;
    const top = box.direction === 'up' ? after : before;
    return { page, x, y: round(y + top * step), width, height: round((to - from) * step) };
  }
  const step = width / n;
  const left = box.direction === 'rtl' ? after : before;
  return { page, x: round(x + left * step), y, width: round((to - from) * step), height };
}

/** True when two boxes are pieces of one line: one page, one band, side by side within a font size. */
function sameLine(a: PageBox, b: PageBox): boolean {
  if (a.page !== b.page || Math.abs(a.y - b.y) > 0.5 || Math.abs(a.height - b.height) > 0.5) return false;
  const gap = Math.max(a.x, b.x) - Math.min(a.x + a.width, b.x + b.width);
  return gap <= a.height;
}

function join(a: PageBox, b: PageBox): PageBox {
  const x = Math.min(a.x, b.x);
  const y = Math.min(a.y, b.y);
  return { page: a.page, x, y, width: round(Math.max(a.x + a.width, b.x + b.width) - x), height: round(Math.max(a.y + a.height, b.y + b.height) - y) };
}

/** Boxes are given to a hundredth of a point. */
function round(v: number): number {
  return Math.round(v * 100) / 100;
}
