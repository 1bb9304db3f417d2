/**
 * `renderTerminal`: the document with its chunk boundaries for a terminal. The settings and the statistics come
 * first (or alone), then each chunk's header line and its text. Colour goes on the header lines only, in two
 * alternating colours (red for a chunk with a problem); the text stays in the terminal's own colour, with shared
 * text underlined, added text in italics and lost text inverse, which read on light and dark themes alike. Without
 * colour (not a TTY, `NO_COLOR`) plain markers say the same. Control characters in the document are made
 * visible, so a document cannot move the cursor or recolour the terminal.
 */
import type { Chunk, ChunkStatistics } from '../types.js';
import { sanitizeTerminal } from './escape.js';
import { isHeadingOnly, layoutReport, type Band, type PageMark, type Fragment } from './layout.js';
import { settingsPhrases, type ReportSettings } from './settings.js';
import { figureRows, formatNumber, reportFigures, type FigureRow, type ReportFigures } from './summary.js';
import { isAboveMax, isUndersized } from './view.js';

/** Where `renderTerminal` puts the statistics and the size histogram. */
export type TerminalStatistics = 'first' | 'only' | 'last';

/** Options of `renderTerminal`: the run's settings (printed on the first line) and how to print. */
export interface TerminalOptions extends ReportSettings {
  /** Use ANSI colours on header lines; false gives plain markers. */
  readonly color: boolean;
  /** Exact page starts of a PDF's text. */
  readonly pages?: readonly PageMark[] | undefined;
  /** Statistics before the chunks (`'first'`, the default), instead of them (`'only'`), or after them (`'last'`). */
  readonly statistics?: TerminalStatistics | undefined;
  /** Name of the document on the first line; default the first chunk's origin or document id. */
  readonly title?: string | undefined;
}

const RESET = '\x1b[0m';
/** Header colours: bold cyan and bold magenta read on light and dark backgrounds (yellow does not on light). */
const BAND = ['\x1b[1;36m', '\x1b[1;35m'] as const;
const STYLE = {
  title: '\x1b[1m',
  alarm: '\x1b[1;31m',
  // Attributes, not colours: the text keeps the terminal's own colour.
  overlap: '\x1b[4m',
  added: '\x1b[3m',
  lost: '\x1b[7m',
  page: '\x1b[1m',
};

/** Wraps `text` in an SGR style when colour is on. */
function paint(color: boolean, style: string, text: string): string {
  return color && style !== '' && text !== '' ? `${style}${text}${RESET}` : text;
}

function pageLabel(p: Extract<Fragment, { kind: 'page' }>): string {
  return p.lastPage > p.page ? `pages ${p.page}–${p.lastPage}` : `page ${p.page}`;
}

/** The chunk's name: its id, with its number only when the id does not already end with it. */
function chunkName(c: Chunk): string {
  return c.id.endsWith(`#${c.index}`) ? c.id : `#${c.index} ${c.id}`;
}

function header(band: Band, previous: Chunk | undefined, settings: ReportSettings): string {
  const c = band.chunk;
  const unit = settings.unit ?? 'tokens';
  const max = settings.maxSize;
  const parts = [chunkName(c), `${formatNumber(c.size)} ${unit}${max ? ` (${Math.round((100 * c.size) / max)}%)` : ''}`];
  if (c.pageStart !== undefined) parts.push(`p. ${c.pageEnd !== undefined && c.pageEnd !== c.pageStart ? `${c.pageStart}–${c.pageEnd}` : c.pageStart}`);
  if (c.heading?.breadcrumb) parts.push(c.heading.breadcrumb);
  const flags: string[] = [];
  if (c.oversized) flags.push('OVERSIZED');
  else if (isAboveMax(c, max)) flags.push('ABOVE MAX');
  if (isHeadingOnly(c)) flags.push('HEADING ONLY');
  if (isUndersized(c, settings.minSize)) flags.push('UNDERSIZED');
  if (c.metadata?.isSplit) flags.push('split');
  if (c.prefix) flags.push('+prefix');
  if (c.suffix) flags.push('+suffix');
  const shared = previous === undefined ? 0 : Math.max(0, Math.min(previous.end, c.end) - c.start);
  if (shared > 0) flags.push(`first ${formatNumber(shared)} chars shared`);
  if (flags.length) parts.push(flags.join(' '));
  return `──── ${sanitizeTerminal(parts.join(' · '))} ────`;
}

/** Renders the pieces of a band or gap. */
function pieces(list: readonly Fragment[], text: string, color: boolean, out: string[]): void {
  for (const p of list) {
    if (p.kind === 'anchor') continue;
    if (p.kind === 'page') {
      const label = p.place === 'within' ? `${pageLabel(p)} begins inside the block below` : pageLabel(p);
      out.push(lineStart(out), paint(color, STYLE.page, color ? `── ${label} ──` : `==== ${label} ====`), '\n');
    } else if (p.kind !== 'text') {
      const t = sanitizeTerminal(p.text);
      out.push(color ? paint(true, STYLE.added, t) : `{+${p.kind}: ${t}+}`);
    } else {
      const t = sanitizeTerminal(text.slice(p.start, p.end));
      if (p.cover === 0) out.push(color ? paint(true, STYLE.lost, t) : `[not in any chunk>${t}<not in any chunk]`);
      else if (p.cover >= 2) out.push(color ? paint(true, STYLE.overlap, t) : `[overlap>${t}<overlap]`);
      else out.push(t);
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

/** A text histogram of sizes: one row per bin, a bar of `█`, min, target and max marked. */
function textHistogram(sizes: readonly number[], settings: ReportSettings): string[] {
  if (sizes.length === 0) return [];
  const unit = settings.unit ?? 'tokens';
  const rows = 10;
  const domain = Math.max(1, sizes.reduce((m, s) => Math.max(m, s), 0), settings.maxSize ?? 0);
  const step = Math.max(1, Math.ceil((domain + 1) / rows));
  const counts = new Array<number>(Math.ceil((domain + 1) / step)).fill(0);
  for (const s of sizes) counts[Math.min(counts.length - 1, Math.floor(s / step))]! += 1;
  const peak = Math.max(1, ...counts);
  const width = String(domain).length;
  return counts.map((n, i) => {
    const lo = i * step;
    const hi = lo + step - 1;
    const marks: string[] = [];
    const at = (v: number | undefined): boolean => v !== undefined && v >= lo && v <= hi;
    if (at(settings.minSize)) marks.push('← min');
    if (at(settings.targetSize)) marks.push('← target');
    if (at(settings.maxSize)) marks.push('← max');
    // A bin with a chunk or two still shows a sliver, so a stray tiny chunk is not lost in the picture.
    const bar = '█'.repeat(Math.round((n / peak) * 40)) || (n > 0 ? '▏' : '');
    return [`  ${String(lo).padStart(width)}–${String(hi).padEnd(width)} ${unit} ${String(n).padStart(5)}`, bar, ...marks].filter((part) => part !== '').join(' ');
  });
}

/** Label and value columns of figure rows, one value column per run; warnings bold when colour is on. */
function figureTable(columns: readonly FigureRow[][], color: boolean, heads?: readonly string[]): string[] {
  const labels: string[] = [];
  for (const rows of columns) for (const r of rows) if (!labels.includes(r.label)) labels.push(r.label);
  const cells = labels.map((label) => columns.map((rows) => rows.find((r) => r.label === label)));
  const labelWidth = labels.reduce((m, l) => Math.max(m, l.length), 0);
  const widths = columns.map((_, i) => Math.max((heads?.[i] ?? '').length, ...cells.map((row) => (row[i]?.value ?? '–').length)));
  const out: string[] = [];
  const single = columns.length === 1;
  if (heads) out.push(`  ${''.padEnd(labelWidth)}  ${heads.map((h, i) => h.padStart(widths[i] as number)).join('  ')}`.trimEnd());
  labels.forEach((label, j) => {
    const row = cells[j] as (FigureRow | undefined)[];
    const values = row.map((r, i) => {
      const v = sanitizeTerminal(r?.value ?? '–');
      const shown = single ? v : v.padStart(widths[i] as number);
      return r?.warn ? paint(color, STYLE.title, shown) : shown;
    });
    out.push(`  ${label.padEnd(labelWidth)}  ${values.join('  ')}`);
  });
  return out;
}

function statisticsBlock(figures: ReportFigures, sizes: readonly number[], settings: ReportSettings, color: boolean): string {
  const unit = settings.unit ?? 'tokens';
  const out = [paint(color, STYLE.title, 'Statistics'), ...figureTable([figureRows(figures, unit)], color)];
  const hist = textHistogram(sizes, settings);
  if (hist.length) out.push('', paint(color, STYLE.title, `Sizes (${unit})`), ...hist);
  return `${out.join('\n')}\n`;
}

function titleLine(title: string, figures: ReportFigures, settings: ReportSettings, color: boolean): string {
  const phrases = [title, `${formatNumber(figures.chunks)} chunk${figures.chunks === 1 ? '' : 's'}`, ...settingsPhrases(settings, figures.repeatedShare)];
  return `${paint(color, STYLE.title, sanitizeTerminal(phrases.join(' · ')))}\n`;
}

/**
 * Renders a document and its chunks for a terminal: a line with the settings, the summary figures and a size
 * histogram, then each chunk as a header line (id, size, pages, breadcrumb, flags) and its text. `statistics`
 * moves the figures after the chunks, or prints them alone. `color: false` uses plain markers
 * (`[overlap>…<overlap]`, `{+prefix: …+}`) instead of ANSI styles.
 */
export function renderTerminal(chunks: readonly Chunk[], documentText: string, stats: Partial<ChunkStatistics> | undefined, options: TerminalOptions): string {
  const color = options.color;
  const where = options.statistics ?? 'first';
  const layout = layoutReport(chunks, documentText, { pages: options.pages });
  const figures = reportFigures(layout.chunks, stats, layout.figures, options.maxSize, options.minSize);
  const title = options.title ?? chunks[0]?.origin ?? chunks[0]?.documentId ?? 'document';
  const summary = statisticsBlock(figures, layout.chunks.map((c) => c.size), options, color);
  const out: string[] = [titleLine(title, figures, options, color)];
  if (where === 'only') return `${out[0]}\n${summary}`;
  if (where === 'first') out.push('\n', summary, '\n');
  for (const item of layout.items) {
    if (item.kind === 'gap') {
      const shown = item.blank ? item.pieces.filter((p) => p.kind === 'page') : item.pieces;
      pieces(shown, documentText, color, out);
      continue;
    }
    // A page that starts with this chunk is announced before the chunk's header.
    let lead = 0;
    while (item.pieces[lead]?.kind === 'page' || item.pieces[lead]?.kind === 'anchor') lead++;
    pieces(item.pieces.slice(0, lead), documentText, color, out);
    out.push(lineStart(out));
    const c = item.chunk;
    const alarm = isAboveMax(c, options.maxSize) || isHeadingOnly(c) || isUndersized(c, options.minSize);
    out.push(paint(color, alarm ? STYLE.alarm : BAND[item.position % 2]!, header(item, layout.chunks[item.position - 1], options)), '\n');
    pieces(item.pieces.slice(lead), documentText, color, out);
  }
  out.push(lineStart(out));
  if (where === 'last') out.push('\n', summary);
  return out.join('');
}

/** One setting of a terminal comparison. */
export interface TerminalRun {
  readonly label: string;
  readonly chunks: readonly Chunk[];
  readonly statistics?: Partial<ChunkStatistics> | undefined;
  readonly settings: ReportSettings;
}

/**
 * The figures of several chunkings of one document side by side, for a terminal: a line per setting, one column
 * of figures per setting (A, B, …), then each setting's size histogram.
 */
export function renderTerminalComparison(runs: readonly TerminalRun[], documentText: string, options: { color: boolean; title?: string; pages?: readonly PageMark[] }): string {
  const color = options.color;
  const tags = runs.map((_, i) => String.fromCharCode(65 + (i % 26)));
  const prepared = runs.map((run) => {
    const layout = layoutReport(run.chunks, documentText, { pages: options.pages });
    return { run, layout, figures: reportFigures(layout.chunks, run.statistics, layout.figures, run.settings.maxSize, run.settings.minSize) };
  });
  const title = options.title ?? runs[0]?.chunks[0]?.origin ?? 'document';
  const out: string[] = [paint(color, STYLE.title, sanitizeTerminal(`${title} · ${runs.length} settings compared`)), ''];
  prepared.forEach(({ run, figures }, i) => {
    const phrases = settingsPhrases(run.settings, figures.repeatedShare).join(' · ');
    out.push(`  ${paint(color, BAND[i % 2]!, tags[i] as string)}  ${sanitizeTerminal(run.label || 'defaults')}: ${sanitizeTerminal(phrases)}`);
  });
  out.push('', paint(color, STYLE.title, 'Statistics'));
  out.push(...figureTable(prepared.map((p) => figureRows(p.figures, p.run.settings.unit ?? 'tokens')), color, tags));
  prepared.forEach(({ run, layout }, i) => {
    out.push('', paint(color, STYLE.title, `Sizes of ${tags[i]} (${run.settings.unit ?? 'tokens'})`), ...textHistogram(layout.chunks.map((c) => c.size), run.settings));
  });
  return `${out.join('\n')}\n`;
}
