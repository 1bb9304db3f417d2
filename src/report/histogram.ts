/**
 * An inline SVG histogram of chunk sizes: axis ticks on both axes, `minSize`, target and max marked, and every
 * bin a group carrying its range (`data-lo`, `data-hi`), which the report's script makes clickable.
 */
import { escapeHtml } from './escape.js';
import { formatNumber } from './summary.js';

/** Options of `renderHistogram`. */
export interface HistogramOptions {
  /** Name of the size unit, for labels. */
  readonly unit: string;
  readonly minSize?: number | undefined;
  readonly targetSize?: number | undefined;
  readonly maxSize?: number | undefined;
  /** Number of bars. Default 24. */
  readonly bins?: number;
  readonly width?: number;
  readonly height?: number;
  /** Which run the histogram belongs to in a comparison (`data-view`); default 0. */
  readonly view?: number;
  /** Smallest size the axis must reach, so the histograms of a comparison share one scale. */
  readonly span?: number;
}

/** A non-empty bin is never drawn lower than this many pixels, so a single tiny chunk stays visible. */
const MIN_BAR = 3;

/** The smallest of 1, 2 or 5 times a power of ten that is at least `raw` (a whole number, at least 1). */
export function niceStep(raw: number): number {
  if (!(raw > 1)) return 1;
  const power = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 5, 10]) if (m * power >= raw) return m * power;
  return 10 * power;
}

/** One marked size: a vertical line and its label above the plot. */
interface Marker {
  readonly value: number;
  readonly cls: string;
  readonly name: string;
}

/** A histogram's geometry: the plot's box, the bins and their counts, and where a size lies across. */
interface Plot {
  readonly width: number;
  readonly height: number;
  readonly pad: { readonly left: number; readonly right: number; readonly top: number; readonly bottom: number };
  readonly plotW: number;
  readonly plotH: number;
  /** The plot's bottom edge. */
  readonly base: number;
  /** Sizes per bin, and the chunks in each. */
  readonly step: number;
  readonly counts: readonly number[];
  /** The count of the fullest bin (at least 1). */
  readonly peak: number;
  /** The size at the right end of the plot. */
  readonly end: number;
}

/** Renders the distribution of `sizes` as a self-contained `<svg>` element (no scripts, no external references). */
export function renderHistogram(sizes: readonly number[], options: HistogramOptions): string {
  const plot = measurePlot(sizes, options);
  const { width, height } = plot;
  const label = `Histogram of ${sizes.length} chunk sizes in ${options.unit}`;
  return [
    `<svg class="histogram" data-view="${options.view ?? 0}" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="${escapeHtml(label)}">`,
    ...valueAxis(plot),
    ...bars(plot, options),
    ...sizeAxis(plot, options.unit),
    ...markers(plot, options),
    '</svg>',
  ].join('');
}

/** The geometry of a histogram of `sizes`: its domain reaches past the largest size and every marked one. */
function measurePlot(sizes: readonly number[], options: HistogramOptions): Plot {
  const width = options.width ?? 320;
  const height = options.height ?? 172;
  const bins = Math.max(1, Math.floor(options.bins ?? 24));
  const pad = { left: 34, right: 10, top: 32, bottom: 26 };
  const plotH = height - pad.top - pad.bottom;
  const largest = sizes.reduce((m, s) => Math.max(m, s), 0);
  // Headroom past the limit, so the max marker and the bars just below it stay readable.
  const domain = Math.ceil(Math.max(1, largest, options.maxSize ?? 0, options.targetSize ?? 0, options.span ?? 0) * 1.08);
  // Whole-unit bins so a bar's label reads as a closed range of sizes.
  const step = Math.max(1, Math.ceil((domain + 1) / bins));
  const count = Math.ceil((domain + 1) / step);
  const counts = new Array<number>(count).fill(0);
  for (const s of sizes) counts[Math.min(count - 1, Math.max(0, Math.floor(s / step)))]! += 1;
  const peak = Math.max(1, ...counts);
  return { width, height, pad, plotW: width - pad.left - pad.right, plotH, base: pad.top + plotH, step, counts, peak, end: count * step };
}

/** Where size `v` lies across the plot. */
function xOf(plot: Plot, v: number): number {
  return plot.pad.left + (v / plot.end) * plot.plotW;
}

/** The value axis: ticks at a round step, faint grid lines across the plot. */
function valueAxis({ pad, plotW, plotH, base, peak }: Plot): string[] {
  const parts: string[] = [];
  const yStep = niceStep(peak / 3);
  for (let v = 0; v <= peak; v += yStep) {
    const ty = (base - (v / peak) * plotH).toFixed(1);
    parts.push(`<line class="grid" x1="${pad.left}" y1="${ty}" x2="${pad.left + plotW}" y2="${ty}"/>`);
    parts.push(`<text class="tick" x="${pad.left - 4}" y="${ty}" dy="3" text-anchor="end">${formatNumber(v)}</text>`);
  }
  return parts;
}

/** One bar a bin, marked over the limit or under the minimum, with its range and count as a title. */
function bars(plot: Plot, options: HistogramOptions): string[] {
  const { step, peak, plotH, base, pad } = plot;
  return plot.counts.map((n, i) => {
    const lo = i * step;
    const hi = lo + step - 1;
    const bx = xOf(plot, lo);
    const bw = Math.max(1, xOf(plot, lo + step) - bx - 1);
    let cls = 'bar';
    if (options.maxSize !== undefined && lo > options.maxSize) cls += ' over';
    else if (options.minSize !== undefined && hi < options.minSize) cls += ' under';
    const label = `${formatNumber(lo)}–${formatNumber(hi)} ${options.unit}: ${n} chunk${n === 1 ? '' : 's'}`;
    const h = n === 0 ? 0 : Math.max(MIN_BAR, (n / peak) * plotH);
    return (
      `<g class="bin${n === 0 ? ' empty' : ''}" data-lo="${lo}" data-hi="${hi}" data-n="${n}"><title>${escapeHtml(label)}</title>` +
      `<rect class="${cls}" x="${bx.toFixed(1)}" y="${(base - h).toFixed(1)}" width="${bw.toFixed(1)}" height="${h.toFixed(1)}"/>` +
      // On top of the bar and the height of the plot, so a bar of one chunk is as easy to click as the tallest.
      `<rect class="hit" x="${bx.toFixed(1)}" y="${pad.top}" width="${(bw + 1).toFixed(1)}" height="${plotH}"/></g>`
    );
  });
}

/** The size axis: its line, round ticks, and the unit named after the last one. */
function sizeAxis(plot: Plot, unit: string): string[] {
  const { pad, plotW, base, end, width, height } = plot;
  const parts = [`<line class="axis" x1="${pad.left}" y1="${base}" x2="${pad.left + plotW}" y2="${base}"/>`];
  const xStep = niceStep(end / 6);
  for (let v = 0; v <= end; v += xStep) {
    const tx = xOf(plot, v).toFixed(1);
    const last = v + xStep > end;
    parts.push(`<line class="axis" x1="${tx}" y1="${base}" x2="${tx}" y2="${base + 3}"/>`);
    parts.push(`<text class="tick" x="${tx}" y="${base + 13}" text-anchor="${last && xOf(plot, v) > width - 40 ? 'end' : 'middle'}">${escapeHtml(formatNumber(v))}</text>`);
  }
  parts.push(`<text class="tick unit" x="${pad.left + plotW}" y="${height - 2}" text-anchor="end">${escapeHtml(unit)}</text>`);
  return parts;
}

/**
 * The min, target and max sizes as vertical lines, their labels on one of two rows above the plot: the first row
 * where they do not run into an earlier label.
 */
function markers(plot: Plot, options: HistogramOptions): string[] {
  const marked: Marker[] = [];
  if (options.minSize !== undefined) marked.push({ value: options.minSize, cls: 'min', name: 'min' });
  if (options.targetSize !== undefined) marked.push({ value: options.targetSize, cls: 'target', name: 'target' });
  if (options.maxSize !== undefined) marked.push({ value: options.maxSize, cls: 'limit', name: 'max' });
  const parts: string[] = [];
  const taken: [number, number][][] = [[], []];
  for (const m of marked) {
    const at = xOf(plot, m.value + 0.5);
    const text = `${m.name} ${formatNumber(m.value)}`;
    const w = text.length * 5.4;
    const anchor = at + w / 2 > plot.width ? 'end' : at - w / 2 < 0 ? 'start' : 'middle';
    const left = anchor === 'end' ? at - w : anchor === 'start' ? at : at - w / 2;
    const row = taken.findIndex((r) => r.every(([a, b]) => left + w + 3 < a || left > b + 3));
    const line = row < 0 ? 1 : row;
    taken[line]!.push([left, left + w]);
    const mx = at.toFixed(1);
    const ty = line === 0 ? plot.pad.top - 19 : plot.pad.top - 7;
    parts.push(`<line class="mark-line ${m.cls}" x1="${mx}" y1="${ty + 2}" x2="${mx}" y2="${plot.base}"/>`);
    parts.push(`<text class="mark ${m.cls}" x="${mx}" y="${ty}" text-anchor="${anchor}">${escapeHtml(text)}</text>`);
  }
  return parts;
}
