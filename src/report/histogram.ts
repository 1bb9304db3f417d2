/** An inline SVG histogram of chunk sizes, with the target and the limit marked. */
import { escapeHtml } from './escape.js';
import { formatNumber } from './summary.js';

/** Options of `renderHistogram`. */
export interface HistogramOptions {
  /** Name of the size unit, for labels. */
  readonly unit: string;
  readonly targetSize?: number | undefined;
  readonly maxSize?: number | undefined;
  /** Number of bars. Default 24. */
  readonly bins?: number;
  readonly width?: number;
  readonly height?: number;
}

/** Renders the distribution of `sizes` as a self-contained `<svg>` element (no scripts, no external references). */
export function renderHistogram(sizes: readonly number[], options: HistogramOptions): string {
  const width = options.width ?? 320;
  const height = options.height ?? 150;
  const bins = Math.max(1, Math.floor(options.bins ?? 24));
  const pad = { left: 30, right: 8, top: 16, bottom: 22 };
  const plotW = width - pad.left - pad.right;
  const plotH = height - pad.top - pad.bottom;
  const largest = sizes.reduce((m, s) => Math.max(m, s), 0);
  // Headroom past the limit, so the max marker and the bars just below it stay readable.
  const domain = Math.ceil(Math.max(1, largest, options.maxSize ?? 0, options.targetSize ?? 0) * 1.08);
  // Whole-unit bins so a bar's label reads as a closed range of sizes.
  const step = Math.max(1, Math.ceil((domain + 1) / bins));
  const count = Math.ceil((domain + 1) / step);
  const counts = new Array<number>(count).fill(0);
  for (const s of sizes) counts[Math.min(count - 1, Math.max(0, Math.floor(s / step)))]! += 1;
  const peak = Math.max(1, ...counts);
  const x = (v: number): number => pad.left + (v / (count * step)) * plotW;
  const y = (n: number): number => pad.top + plotH - (n / peak) * plotH;

  const parts: string[] = [];
  parts.push(
    `<svg class="histogram" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="${escapeHtml(`Histogram of ${sizes.length} chunk sizes in ${options.unit}`)}">`,
  );
  parts.push(`<line class="axis" x1="${pad.left}" y1="${pad.top + plotH}" x2="${pad.left + plotW}" y2="${pad.top + plotH}"/>`);
  parts.push(`<text class="tick" x="${pad.left - 4}" y="${pad.top + 4}" text-anchor="end">${peak}</text>`);
  parts.push(`<text class="tick" x="${pad.left - 4}" y="${pad.top + plotH}" text-anchor="end">0</text>`);
  counts.forEach((n, i) => {
    const lo = i * step;
    const hi = lo + step - 1;
    const bx = x(lo);
    const bw = Math.max(1, x(lo + step) - bx - 1);
    const over = options.maxSize !== undefined && lo > options.maxSize;
    const label = `${formatNumber(lo)}–${formatNumber(hi)} ${options.unit}: ${n} chunk${n === 1 ? '' : 's'}`;
    const h = n === 0 ? 0 : Math.max(1, pad.top + plotH - y(n));
    parts.push(
      `<rect class="bar${over ? ' over' : ''}" x="${bx.toFixed(1)}" y="${(pad.top + plotH - h).toFixed(1)}" width="${bw.toFixed(1)}" height="${h.toFixed(1)}"><title>${escapeHtml(label)}</title></rect>`,
    );
  });
  const marker = (value: number | undefined, cls: string, name: string, preferred: string): void => {
    if (value === undefined) return;
    const at = x(value + 0.5);
    const anchor = at > width - 40 ? 'end' : at < pad.left + 30 ? 'start' : preferred;
    const mx = at.toFixed(1);
    parts.push(`<line class="${cls}" x1="${mx}" y1="${pad.top - 4}" x2="${mx}" y2="${pad.top + plotH}"/>`);
    parts.push(`<text class="mark ${cls}" x="${mx}" y="${pad.top - 6}" text-anchor="${anchor}">${escapeHtml(`${name} ${formatNumber(value)}`)}</text>`);
  };
  const close = options.targetSize !== undefined && options.maxSize !== undefined && x(options.maxSize) - x(options.targetSize) < 70;
  marker(options.targetSize, 'target', 'target', close ? 'end' : 'middle');
  marker(options.maxSize, 'limit', 'max', close ? 'start' : 'middle');
  parts.push(`<text class="tick" x="${pad.left}" y="${height - 6}" text-anchor="start">0</text>`);
  parts.push(`<text class="tick" x="${pad.left + plotW}" y="${height - 6}" text-anchor="end">${escapeHtml(`${formatNumber(count * step)} ${options.unit}`)}</text>`);
  parts.push('</svg>');
  return parts.join('');
}
