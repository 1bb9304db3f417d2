/**
 * The facts the HTML report's page script reads, as they travel in the page's JSON element: written by `html.ts`
 * on the server, read by `client/` in the browser. One contract, type-checked on both sides; it imports nothing,
 * so the browser code's own TypeScript project (DOM, no Node) can read it too.
 */

/**
 * What the page script knows about one chunk (never its text: that is in the markup, escaped). Fields at their
 * default (no pages, no flags, nothing added) are left out and breadcrumbs are shared through a table, which keeps
 * the embedded JSON near half its naive size on documents with thousands of small chunks.
 */
export interface ChunkFacts {
  id: string;
  size: number;
  start: number;
  end: number;
  startLine: number;
  endLine: number;
  chars: number;
  words: number;
  /** Index into the breadcrumb table. */
  crumb: number;
  /** Index into the table of last headings (the chunk list's heading column). */
  head: number;
  /** Opening words, for the chunk list. */
  open: string;
  /** The chunk's own index, when it is not its band position. */
  index?: number;
  pageStart?: number;
  pageEnd?: number;
  /**
   * Where the chunk is drawn (PDF): per page, the box around all its boxes there, `[page, x, y, width, height]` in
   * PDF points from the page's top left, rounded to a point.
   */
  boxes?: [number, number, number, number, number][];
  flags?: string[];
  kinds?: readonly string[];
  languages?: readonly string[];
  prefix?: number;
  suffix?: number;
  overlapPrev?: number;
  reason?: string;
}

/** The facts of one view's chunks, in band order, with the breadcrumb and heading tables they index. */
export interface ViewChunkFacts {
  crumbs: string[];
  heads: string[];
  chunks: ChunkFacts[];
}

/** One view (one run of the chunker) as the page script reads it. */
export interface ViewData extends ViewChunkFacts {
  /** Short name in a comparison (`A`, `B`); empty in a single report. */
  tag: string;
  /** What the run's settings were called; empty in a single report. */
  label: string;
  /** The size unit, e.g. `tokens`. */
  unit: string;
  maxSize: number | null;
  targetSize: number | null;
  minSize: number | null;
}

/** The whole JSON element: the document's length in characters and every view over it. */
export interface PageData {
  length: number;
  views: ViewData[];
}
