/**
 * The default optimizer: fuses chunks below `minSize` with a neighbour of the same section when the result fits,
 * adds `overlap` by moving a chunk's start back into the previous chunk (so its text is still an exact slice), and
 * drops whitespace-only chunks. It never works across a split-level heading.
 */
import type { ChunkConfig } from '../config.js';
import type { ChunkOptimizer } from '../protocols.js';
import type { Chunk, ChunkMetadata, HeadingContext } from '../types.js';
import { finishChunk } from './chunk-factory.js';
import { getInternals, setInternals, type PieceMark } from './chunk-internals.js';
import { countLineEndings } from '../unicode/lines.js';

/** Measures what the embedder will see of a chunk, and the limit that applies to it. */
export interface ChunkMeasure {
  /** Size of the chunk as embedded, and its embed text when `contextualize` is on. */
  measure(heading: HeadingContext, prefix: string, text: string, suffix: string): { size: number; embedText?: string };
  /** The largest size a chunk starting under `heading` may have. */
  limit(heading: HeadingContext): number;
  /** Size of a plain text in the unit. */
  size(text: string): number;
}

/** Creates the default optimizer. It remembers the last chunk it returned, so overlap continues across windows. */
export function createDefaultOptimizer(measure: ChunkMeasure): ChunkOptimizer {
  let previous: Chunk | undefined;
  return {
    optimize(chunks: Chunk[], config: ChunkConfig): Chunk[] {
      const kept = fuseSmall(chunks.filter((c) => c.text.trim() !== ''), config, measure);
      const out: Chunk[] = [];
      for (const chunk of kept) {
        const before = out.at(-1) ?? previous;
        out.push(config.overlap > 0 && before !== undefined ? withOverlap(before, chunk, config, measure) : chunk);
      }
      previous = out.at(-1) ?? previous;
      return out;
    },
  };
}

function sameSection(a: Chunk, b: Chunk): boolean {
  const ia = getInternals(a);
  const ib = getInternals(b);
  return ia !== undefined && ib !== undefined && ia.section === ib.section;
}

/** True when `a` and `b` may become one chunk: same section, no frame between them, nothing kept whole. */
function canJoin(a: Chunk, b: Chunk): boolean {
  return sameSection(a, b) && a.suffix === '' && b.prefix === '' && !a.oversized && !b.oversized && a.end <= b.start;
}

/** Fuses each chunk below `minSize` into its previous or next neighbour when the result fits. */
function fuseSmall(chunks: Chunk[], config: ChunkConfig, m: ChunkMeasure): Chunk[] {
  if (config.minSize === 0) return chunks;
  const out: Chunk[] = [];
  for (let i = 0; i < chunks.length; i++) {
    let chunk = chunks[i] as Chunk;
    const before = out.at(-1);
    if (chunk.size < config.minSize && before !== undefined && canJoin(before, chunk)) {
      const joined = join(before, chunk, config, m);
      if (joined !== null) {
        out[out.length - 1] = joined;
        continue;
      }
    }
    const next = chunks[i + 1];
    if (chunk.size < config.minSize && next !== undefined && canJoin(chunk, next)) {
      const joined = join(chunk, next, config, m);
      if (joined !== null) {
        chunk = joined;
        i++;
      }
    }
    out.push(chunk);
  }
  return out;
}

/** `a` and `b` as one chunk, or null when that would exceed the limit. */
function join(a: Chunk, b: Chunk, config: ChunkConfig, m: ChunkMeasure): Chunk | null {
  const ia = getInternals(a);
  const ib = getInternals(b);
  if (ia === undefined || ib === undefined) return null;
  const text = a.text + ib.gapBefore + b.text;
  const { size, embedText } = m.measure(a.heading, a.prefix, text, b.suffix);
  if (size > m.limit(a.heading)) return null;
  const chunk = finishChunk(
    {
      text,
      start: a.start,
      end: b.end,
      startLine: a.startLine,
      endLine: b.endLine,
      size,
      heading: a.heading,
      prefix: a.prefix,
      suffix: b.suffix,
      ...pagesOf(a, b),
      metadata: mergeMetadata(a.metadata, b.metadata),
      ...(embedText !== undefined ? { embedText } : {}),
    },
    { documentId: a.documentId, origin: a.origin },
    a.index,
  );
  return setInternals(chunk, { section: ia.section, gapBefore: ia.gapBefore, pieces: [...ia.pieces, ...ib.pieces] });
}

function pagesOf(a: Chunk, b: Chunk): { pageStart?: number; pageEnd?: number } {
  const pageStart = a.pageStart ?? b.pageStart;
  const pageEnd = b.pageEnd ?? a.pageEnd;
  return pageStart === undefined ? {} : { pageStart, pageEnd: pageEnd ?? pageStart };
}

function mergeMetadata(a: ChunkMetadata, b: ChunkMetadata): ChunkMetadata {
  const union = <T>(x: readonly T[], y: readonly T[]) => [...x, ...y.filter((v) => !x.includes(v))];
  const fallback = a.fallback ?? b.fallback;
  return {
    hasCode: a.hasCode || b.hasCode,
    hasTable: a.hasTable || b.hasTable,
    hasList: a.hasList || b.hasList,
    hasImage: a.hasImage || b.hasImage,
    hasFormula: a.hasFormula || b.hasFormula,
    isSplit: a.isSplit || b.isSplit,
    kinds: union(a.kinds, b.kinds),
    languages: union(a.languages, b.languages),
    images: union(a.images, b.images),
    ...(fallback !== undefined ? { fallback } : {}),
  };
}

const ITEM_MARKER = /^(?:[-+*]|\d{1,9}[.)])(?:[ \t]|$)/;

/** True when `rel` is the first non-blank character of a line and a list marker starts there. */
function isItemStart(text: string, rel: number): boolean {
  let i = rel - 1;
  while (i >= 0 && (text[i] === ' ' || text[i] === '\t')) i--;
  if (i >= 0 && text[i] !== '\n') return false;
  return ITEM_MARKER.test(text.slice(rel, rel + 12));
}

/** Places where a chunk may start inside `previous`: piece starts, and word starts inside prose pieces. */
function startCandidates(previous: Chunk, marks: readonly PieceMark[], from: number): number[] {
  const out: number[] = [];
  const text = previous.text;
  for (const mark of marks) {
    if (mark.end <= from || mark.start >= previous.end) continue;
    if (mark.opens && mark.start >= from && mark.start >= previous.start) out.push(mark.start);
    if (mark.starts === 'none') continue;
    for (let i = Math.max(mark.start + 1, from, previous.start + 1); i < mark.end; i++) {
      const rel = i - previous.start;
      if (mark.starts === 'words' ? /\s/.test(text[rel - 1] as string) && !/\s/.test(text[rel] as string) : isItemStart(text, rel)) out.push(i);
    }
  }
  return [...new Set(out)].sort((x, y) => x - y);
}

/**
 * Moves `chunk`'s start back into `previous` by up to `overlap` units, to the earliest piece or word start that
 * keeps both the overlap and the whole chunk within their limits. Chunks framed by a prefix, or following a chunk
 * that ends inside an open fence, keep their start: moving it would break the frame.
 */
function withOverlap(previous: Chunk, chunk: Chunk, config: ChunkConfig, m: ChunkMeasure): Chunk {
  const ip = getInternals(previous);
  const ic = getInternals(chunk);
  if (ip === undefined || ic === undefined || ip.section !== ic.section) return chunk;
  if (chunk.prefix !== '' || previous.suffix !== '' || chunk.oversized || previous.end > chunk.start) return chunk;
  // Only look as far back as `overlap` units can reach (a token rarely spans more than 16 characters).
  const reach = config.unit === 'chars' ? config.overlap : config.overlap * 16 + 64;
  const candidates = startCandidates(previous, ip.pieces, Math.max(previous.start, previous.end - reach));
  const gap = ic.gapBefore;
  const headText = (s: number) => previous.text.slice(s - previous.start) + gap;
  const fits = (s: number): boolean => {
    if (m.size(headText(s)) > config.overlap) return false;
    const heading = markAt(ip.pieces, s)?.heading ?? previous.heading;
    return m.measure(heading, '', headText(s) + chunk.text, chunk.suffix).size <= m.limit(heading);
  };
  // Sizes shrink as the start moves forward: find the earliest start that fits.
  let lo = 0;
  let hi = candidates.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (fits(candidates[mid] as number)) hi = mid;
    else lo = mid + 1;
  }
  const start = candidates[lo];
  if (start === undefined) return chunk;
  const mark = markAt(ip.pieces, start);
  const heading = mark?.heading ?? previous.heading;
  const text = headText(start) + chunk.text;
  const { size, embedText } = m.measure(heading, '', text, chunk.suffix);
  const covered = ip.pieces.filter((p) => p.end > start);
  const metadata = covered.every((p) => p.starts === 'words') ? chunk.metadata : mergeMetadata(previous.metadata, chunk.metadata);
  const pageStart = mark?.page ?? chunk.pageStart;
  const result = finishChunk(
    {
      text,
      start,
      end: chunk.end,
      startLine: previous.startLine + countLineEndings(previous.text, 0, start - previous.start),
      endLine: chunk.endLine,
      size,
      heading,
      prefix: '',
      suffix: chunk.suffix,
      ...(pageStart !== undefined ? { pageStart, pageEnd: chunk.pageEnd ?? pageStart } : {}),
      metadata,
      ...(embedText !== undefined ? { embedText } : {}),
    },
    { documentId: chunk.documentId, origin: chunk.origin },
    chunk.index,
  );
  return setInternals(result, { section: ic.section, gapBefore: '', pieces: [...covered.map((p) => (p.start < start ? { ...p, start } : p)), ...ic.pieces] });
}

function markAt(marks: readonly PieceMark[], offset: number): PieceMark | undefined {
  let found: PieceMark | undefined;
  for (const mark of marks) if (mark.start <= offset) found = mark;
  return found;
}
