/**
 * `renderTerminal`: the document with its chunk boundaries for a terminal. Each chunk starts with a header line and
 * its text in one of two alternating colours; shared text is shown inverse, added text in green italics. Without
 * colour (not a TTY, `NO_COLOR`) the same information is given by plain markers. Control characters in the document
 * are made visible, so a document cannot move the cursor or recolour the terminal.
 */
import type { SizeUnit } from '../config.js';
import type { Chunk, ChunkStatistics } from '../types.js';
import { sanitizeTerminal } from './escape.js';
import { isHeadingOnly, layoutReport, type Band, type PageMark, type Piece } from './layout.js';
import { figureRows, formatNumber, reportFigures } from './summary.js';

/** Options of `renderTerminal`. */
export interface TerminalOptions {
  /** Use ANSI colours; false gives plain markers. */
  readonly color: boolean;
  /** Unit of `chunk.size`, for labels. Default `'tokens'`. */
  readonly unit?: SizeUnit | undefined;
  readonly targetSize?: number | undefined;
  readonly maxSize?: number | undefined;
  /** Exact page starts of a PDF's text. */
  readonly pages?: readonly PageMark[] | undefined;
}

const RESET = '\x1b[0m';
/** Band colours: cyan and yellow read well on dark and light backgrounds alike. */
const BAND = ['\x1b[36m', '\x1b[33m'] as const;
const STYLE = {
  header: '\x1b[1m',
  overlap: '\x1b[7m',
  added: '\x1b[3;32m',
  lost: '\x1b[97;41m',
  page: '\x1b[1;34m',
  warn: '\x1b[1;31m',
};

/** Wraps `text` in an SGR style when colour is on. */
function paint(color: boolean, style: string, text: string): string {
  return color && style !== '' && text !== '' ? `${style}${text}${RESET}` : text;
}

function pageLabel(p: Extract<Piece, { kind: 'page' }>): string {
  return p.lastPage > p.page ? `pages ${p.page}–${p.lastPage}` : `page ${p.page}`;
}

function header(band: Band, unit: string, maxSize: number | undefined): string {
  const c = band.chunk;
  const parts = [`#${c.index} ${c.id}`, `${formatNumber(c.size)} ${unit}${maxSize ? ` (${Math.round((100 * c.size) / maxSize)}%)` : ''}`];
  if (c.pageStart !== undefined) parts.push(`p. ${c.pageEnd !== undefined && c.pageEnd !== c.pageStart ? `${c.pageStart}–${c.pageEnd}` : c.pageStart}`);
  if (c.heading?.breadcrumb) parts.push(c.heading.breadcrumb);
  const flags: string[] = [];
  if (c.oversized) flags.push('OVERSIZED');
  else if (maxSize !== undefined && c.size > maxSize) flags.push('ABOVE MAX');
  if (isHeadingOnly(c)) flags.push('HEADING ONLY');
  if (c.metadata?.isSplit) flags.push('split');
  if (c.prefix) flags.push('+prefix');
  if (c.suffix) flags.push('+suffix');
  if (flags.length) parts.push(flags.join(' '));
  return `──── ${sanitizeTerminal(parts.join(' · '))} ────`;
}

/** Renders the pieces of a band or gap; `band` is the band colour index, or -1 in a gap. */
function pieces(list: readonly Piece[], text: string, band: number, color: boolean, out: string[]): void {
  const base = band >= 0 ? BAND[band % 2] : '';
  for (const p of list) {
    if (p.kind === 'page') {
      const label = p.place === 'within' ? `${pageLabel(p)} begins inside the block below` : pageLabel(p);
      out.push(lineStart(out), paint(color, STYLE.page, color ? `── ${label} ──` : `==== ${label} ====`), '\n');
    } else if (p.kind !== 'text') {
      const t = sanitizeTerminal(p.text);
      out.push(color ? paint(true, STYLE.added, t) : `{+${p.kind}: ${t}+}`);
    } else {
      const t = sanitizeTerminal(text.slice(p.start, p.end));
      if (p.cover === 0) out.push(color ? paint(true, STYLE.lost, t) : `[not in any chunk>${t}<not in any chunk]`);
      else if (p.cover >= 2) out.push(color ? paint(true, `${base}${STYLE.overlap}`, t) : `[overlap>${t}<overlap]`);
      else out.push(paint(color, base, t));
    }
  }
}

/** A line break when the output does not already end with one. */
function lineStart(out: readonly string[]): string {
  for (let i = out.length - 1; i >= 0; i--) {
    const s = out[i] as string;
    if (s === '') continue;
    // Colour codes end in RESET; look at the last printable character before it.
    const plain = s.endsWith(RESET) ? s.slice(0, -RESET.length) : s;
    return plain.endsWith('\n') ? '' : '\n';
  }
  return '';
}

/** A text histogram of sizes: one row per bin, a bar of `█`. */
function textHistogram(sizes: readonly number[], unit: string, color: boolean, targetSize?: number, maxSize?: number): string[] {
  if (sizes.length === 0) return [];
  const rows = 10;
  const domain = Math.max(1, ...[sizes.reduce((m, s) => Math.max(m, s), 0), maxSize ?? 0]);
  const step = Math.max(1, Math.ceil((domain + 1) / rows));
  const counts = new Array<number>(Math.ceil((domain + 1) / step)).fill(0);
  for (const s of sizes) counts[Math.min(counts.length - 1, Math.floor(s / step))]! += 1;
  const peak = Math.max(1, ...counts);
  const width = String(domain).length;
  return counts.map((n, i) => {
    const lo = i * step;
    const hi = lo + step - 1;
    const marks: string[] = [];
    if (targetSize !== undefined && targetSize >= lo && targetSize <= hi) marks.push('← target');
    if (maxSize !== undefined && maxSize >= lo && maxSize <= hi) marks.push('← max');
    const bar = '█'.repeat(Math.round((n / peak) * 40)) || (n > 0 ? '▏' : '');
    const over = maxSize !== undefined && lo > maxSize;
    return `  ${String(lo).padStart(width)}–${String(hi).padEnd(width)} ${unit} ${String(n).padStart(5)} ${paint(color, over ? STYLE.warn : BAND[0], bar)}${marks.length ? ` ${marks.join(' ')}` : ''}`;
  });
}

/**
 * Renders a document and its chunks for a terminal: each chunk a header line (index, id, size, pages, breadcrumb,
 * flags) and its text, then the summary figures and a size histogram. `color: false` uses plain markers
 * (`[overlap>…<overlap]`, `{+prefix: …+}`) instead of ANSI colours.
 */
export function renderTerminal(chunks: readonly Chunk[], documentText: string, stats: Partial<ChunkStatistics> | undefined, options: TerminalOptions): string {
  const unit = options.unit ?? 'tokens';
  const color = options.color;
  const layout = layoutReport(chunks, documentText, { pages: options.pages });
  const out: string[] = [];
  for (const item of layout.items) {
    if (item.kind === 'gap') {
      const shown = item.blank ? item.pieces.filter((p) => p.kind === 'page') : item.pieces;
      pieces(shown, documentText, -1, color, out);
      continue;
    }
    // A page that starts with this chunk is announced before the chunk's header.
    let lead = 0;
    while (item.pieces[lead]?.kind === 'page') lead++;
    pieces(item.pieces.slice(0, lead), documentText, item.position, color, out);
    out.push(lineStart(out));
    const style = `${BAND[item.position % 2]}${STYLE.header}`;
    const alarm = item.chunk.oversized || isHeadingOnly(item.chunk) || (options.maxSize !== undefined && item.chunk.size > options.maxSize);
    out.push(paint(color, alarm ? STYLE.warn : style, header(item, unit, options.maxSize)), '\n');
    pieces(item.pieces.slice(lead), documentText, item.position, color, out);
  }
  out.push(lineStart(out));
  const figures = reportFigures(layout.chunks, stats, layout.figures, options.maxSize);
  const rows = figureRows(figures, unit);
  const labelWidth = rows.reduce((m, r) => Math.max(m, r.label.length), 0);
  out.push('\n', paint(color, STYLE.header, 'Statistics'), '\n');
  for (const r of rows) out.push(`  ${r.label.padEnd(labelWidth)}  ${paint(color, r.warn ? STYLE.warn : '', sanitizeTerminal(r.value))}\n`);
  const hist = textHistogram(layout.chunks.map((c) => c.size), unit, color, options.targetSize, options.maxSize);
  if (hist.length) out.push('\n', paint(color, STYLE.header, `Sizes (${unit})`), '\n', hist.join('\n'), '\n');
  return out.join('');
}
