/**
 * The summary figures both report views print: the run's `ChunkStatistics` where it has them, the size
 * distribution computed from the chunks, and what only the layout knows (overlap, added text, lost text).
 */
import type { Chunk, ChunkStatistics } from '../types.js';
import type { LayoutFigures } from './layout.js';

/** Figures of one report. */
export interface ReportFigures {
  readonly chunks: number;
  readonly totalSize: number;
  readonly averageSize: number;
  readonly medianSize: number;
  /** 10th and 90th percentile of chunk sizes (nearest rank). */
  readonly p10Size: number;
  readonly p90Size: number;
  readonly minSize: number;
  readonly maxSize: number;
  readonly oversized: number;
  readonly oversizedReasons: Readonly<Record<string, number>>;
  /** Chunks measuring above the given `maxSize`, flagged or not; undefined without a `maxSize`. */
  readonly aboveMax: number | undefined;
  /** From the statistics; undefined when none were given (only the chunker knows `minSize`). */
  readonly undersized: number | undefined;
  readonly headingOnly: number;
  readonly overlapChars: number;
  /** Share of the indexed characters (all chunks' text together) that repeat text of another chunk: 0–1. */
  readonly repeatedShare: number;
  readonly addedChars: number;
  readonly uncoveredChars: number;
  readonly pages: number | undefined;
  readonly needsOcr: boolean;
  readonly warnings: readonly string[];
}

/** Nearest-rank percentile of sorted values. */
function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1] as number;
}

/** Computes the figures of a report from its chunks, the run's statistics and the layout. */
export function reportFigures(
  chunks: readonly Chunk[],
  stats: Partial<ChunkStatistics> | undefined,
  layout: LayoutFigures,
  maxSize?: number,
  minSize?: number,
): ReportFigures {
  const sizes = chunks.map((c) => c.size).sort((a, b) => a - b);
  const total = sizes.reduce((a, b) => a + b, 0);
  const reasons: Record<string, number> = {};
  for (const c of chunks) {
    if (!c.oversized) continue;
    const why = c.metadata?.oversizedReason ?? 'unspecified';
    reasons[why] = (reasons[why] ?? 0) + 1;
  }
  let pages = stats?.pages;
  if (pages === undefined) {
    const last = chunks.reduce((m, c) => Math.max(m, c.pageEnd ?? c.pageStart ?? 0), 0);
    if (last > 0) pages = last;
  }
  return {
    chunks: chunks.length,
    totalSize: total,
    averageSize: chunks.length === 0 ? 0 : total / chunks.length,
    medianSize: percentile(sizes, 50),
    p10Size: percentile(sizes, 10),
    p90Size: percentile(sizes, 90),
    minSize: sizes[0] ?? 0,
    maxSize: sizes.at(-1) ?? 0,
    oversized: chunks.filter((c) => c.oversized).length,
    oversizedReasons: stats?.oversizedReasons ?? reasons,
    aboveMax: maxSize === undefined ? undefined : chunks.filter((c) => c.size > maxSize).length,
    undersized: stats?.undersized ?? (minSize === undefined ? undefined : chunks.filter((c) => c.size < minSize).length),
    headingOnly: layout.headingOnly,
    overlapChars: layout.overlapChars,
    repeatedShare: layout.indexedChars === 0 ? 0 : (layout.indexedChars - layout.coveredChars) / layout.indexedChars,
    addedChars: layout.addedChars,
    uncoveredChars: layout.uncoveredChars,
    pages,
    needsOcr: stats?.needsOcr === true,
    warnings: stats?.warnings ?? [],
  };
}

/** Formats a size for display: integers as is, others with one decimal. */
export function formatNumber(value: number): string {
  return Number.isInteger(value) ? value.toLocaleString('en-US') : value.toLocaleString('en-US', { maximumFractionDigits: 1 });
}

/** The kinds of chunk (or text) a summary row counts that a reader wants to go and look at. */
export type ProblemKind = 'oversized' | 'above' | 'undersized' | 'lonely' | 'lost';

/** One line of the summary: a label, a value, and whether it deserves attention. */
export interface FigureRow {
  readonly label: string;
  readonly value: string;
  readonly warn: boolean;
  /** Set on rows that count problems: the report links them to the chunks they count. */
  readonly problem?: ProblemKind;
}

/** A share as a percentage with one decimal below 10%, whole above: `3.2%`, `16%`. */
export function formatShare(share: number): string {
  const pct = 100 * share;
  return `${pct > 0 && pct < 10 ? pct.toFixed(1) : Math.round(pct)}%`;
}

/** The summary as labelled rows, in the order both views print them. */
export function figureRows(f: ReportFigures, unit: string): FigureRow[] {
  const rows: FigureRow[] = [
    { label: 'chunks', value: formatNumber(f.chunks), warn: false },
    { label: `total ${unit}`, value: formatNumber(f.totalSize), warn: false },
    { label: 'average', value: formatNumber(f.averageSize), warn: false },
    { label: 'median', value: formatNumber(f.medianSize), warn: false },
    { label: 'p10 / p90', value: `${formatNumber(f.p10Size)} / ${formatNumber(f.p90Size)}`, warn: false },
    { label: 'min / max', value: `${formatNumber(f.minSize)} / ${formatNumber(f.maxSize)}`, warn: false },
  ];
  const reasons = Object.entries(f.oversizedReasons).map(([why, n]) => `${why}: ${n}`).join(', ');
  rows.push({ label: 'oversized', value: f.oversized === 0 ? '0' : `${f.oversized}${reasons ? ` (${reasons})` : ''}`, warn: f.oversized > 0, problem: 'oversized' });
  if (f.aboveMax !== undefined) rows.push({ label: 'above max', value: formatNumber(f.aboveMax), warn: f.aboveMax > f.oversized, problem: 'above' });
  if (f.undersized !== undefined) rows.push({ label: 'undersized', value: formatNumber(f.undersized), warn: f.undersized > 0, problem: 'undersized' });
  rows.push({ label: 'heading-only chunks', value: formatNumber(f.headingOnly), warn: f.headingOnly > 0, problem: 'lonely' });
  rows.push({ label: 'overlap chars', value: f.overlapChars === 0 ? '0' : `${formatNumber(f.overlapChars)} (${formatShare(f.repeatedShare)} of indexed text repeated)`, warn: false });
  rows.push({ label: 'added chars (prefix/suffix)', value: formatNumber(f.addedChars), warn: false });
  rows.push({ label: 'text outside chunks', value: `${formatNumber(f.uncoveredChars)} chars`, warn: f.uncoveredChars > 0, problem: 'lost' });
  if (f.pages !== undefined) rows.push({ label: 'pages', value: formatNumber(f.pages), warn: false });
  if (f.needsOcr) rows.push({ label: 'needs OCR', value: 'some pages have no text layer', warn: true });
  for (const w of f.warnings) rows.push({ label: 'warning', value: w, warn: true });
  return rows;
}
