/**
 * `renderReport`: one self-contained HTML page showing a document with its chunk boundaries. Inline CSS and JS, no
 * network, opens from disk. Every piece of document text is HTML-escaped; chunk facts travel as JSON in a
 * non-executable script element with `<` escaped; a Content-Security-Policy admits only the report's own script
 * (by hash), so even markup that slipped through escaping could not run.
 */
import { createHash } from 'node:crypto';
import type { SizeUnit } from '../config.js';
import type { Chunk, ChunkStatistics } from '../types.js';
import { REPORT_CSS, REPORT_SCRIPT } from './client.js';
import { escapeHtml, jsonForScript } from './escape.js';
import { renderHistogram } from './histogram.js';
import { isHeadingOnly, layoutReport, type Band, type Gap, type PageMark, type Piece, type ReportLayout } from './layout.js';
import { buildOutline } from './outline.js';
import { figureRows, formatNumber, reportFigures } from './summary.js';

/** Options of `renderReport`. */
export interface ReportOptions {
  /** Unit of `chunk.size`, for labels. Default `'tokens'`. */
  readonly unit?: SizeUnit | undefined;
  /** The packer's target, marked on the histogram. */
  readonly targetSize?: number | undefined;
  /** The hard limit, marked on the histogram; chunk sizes are shown as a share of it. */
  readonly maxSize?: number | undefined;
  /** Page title; default the chunks' origin or document id. */
  readonly title?: string | undefined;
  /** Exact page starts of a PDF's text; without them page markers sit at the first chunk of each page. */
  readonly pages?: readonly PageMark[] | undefined;
}

/**
 * What the page script knows about one chunk (never its text: that is in the markup, escaped). Fields at their
 * default (no pages, no flags, nothing added) are left out and breadcrumbs are shared through a table, which keeps
 * the embedded JSON near half its naive size on documents with thousands of small chunks.
 */
interface ChunkFacts {
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
  pageStart?: number;
  pageEnd?: number;
  flags?: string[];
  kinds?: readonly string[];
  languages?: readonly string[];
  prefix?: number;
  suffix?: number;
  overlapPrev?: number;
  reason?: string;
}

/** Metadata flags worth a chip, in display order. */
function chunkFlags(c: Chunk): string[] {
  const m = c.metadata;
  const flags: string[] = [];
  if (c.oversized) flags.push('oversized');
  if (isHeadingOnly(c)) flags.push('heading only');
  if (m?.isSplit) flags.push('split');
  if (m?.hasCode) flags.push('code');
  if (m?.hasTable) flags.push('table');
  if (m?.hasList) flags.push('list');
  if (m?.hasImage) flags.push('image');
  if (m?.hasFormula) flags.push('formula');
  if (m?.fallback) flags.push('fallback');
  return flags;
}

function chunkFacts(chunks: readonly Chunk[]): { crumbs: string[]; chunks: ChunkFacts[] } {
  const crumbs: string[] = [];
  const crumbIndex = new Map<string, number>();
  const facts = chunks.map((c, k) => {
    const breadcrumb = c.heading?.breadcrumb ?? '';
    let crumb = crumbIndex.get(breadcrumb);
    if (crumb === undefined) {
      crumb = crumbs.push(breadcrumb) - 1;
      crumbIndex.set(breadcrumb, crumb);
    }
    const f: ChunkFacts = {
      id: c.id,
      size: c.size,
      start: c.start,
      end: c.end,
      startLine: c.startLine,
      endLine: c.endLine,
      chars: c.charCount ?? c.end - c.start,
      words: c.wordCount ?? 0,
      crumb,
    };
    if (c.pageStart !== undefined) f.pageStart = c.pageStart;
    if (c.pageEnd !== undefined) f.pageEnd = c.pageEnd;
    const flags = chunkFlags(c);
    if (flags.length > 0) f.flags = flags;
    if (c.metadata?.kinds?.length) f.kinds = c.metadata.kinds;
    if (c.metadata?.languages?.length) f.languages = c.metadata.languages;
    if (c.prefix) f.prefix = c.prefix.length;
    if (c.suffix) f.suffix = c.suffix.length;
    const prev = k > 0 ? (chunks[k - 1] as Chunk) : undefined;
    const shared = prev === undefined ? 0 : Math.max(0, Math.min(prev.end, c.end) - c.start);
    if (shared > 0) f.overlapPrev = shared;
    if (c.metadata?.oversizedReason !== undefined) f.reason = c.metadata.oversizedReason;
    return f;
  });
  return { crumbs, chunks: facts };
}

function pageLabel(p: Extract<Piece, { kind: 'page' }>): string {
  return p.lastPage > p.page ? `pages ${p.page}–${p.lastPage}` : `page ${p.page}`;
}

/** Markup of the pieces of one band or gap. */
function renderPieces(pieces: readonly Piece[], text: string, owner: number, out: string[]): void {
  for (const p of pieces) {
    if (p.kind === 'page') {
      if (p.place === 'exact') out.push(`<span class="page" data-page="${p.page}">${escapeHtml(pageLabel(p))}</span>`);
      else {
        const why = p.place === 'within' ? `${pageLabel(p)} begins inside the block below` : `first chunk that starts on ${pageLabel(p)}`;
        const label = p.place === 'within' ? `${pageLabel(p)} begins inside the block below` : pageLabel(p);
        out.push(`<span class="page approx" data-page="${p.page}" title="${escapeHtml(why)}">${escapeHtml(label)}</span>`);
      }
    } else if (p.kind !== 'text') {
      out.push(`<span class="add ${p.kind === 'prefix' ? 'pre' : 'suf'}" data-of="${p.of}">${escapeHtml(p.text)}</span>`);
    } else {
      const slice = escapeHtml(text.slice(p.start, p.end));
      if (p.cover === 0) {
        out.push(`<span class="lost" title="not in any chunk">${slice}</span>`);
      } else if (p.cover >= 2) {
        out.push(`<span class="ov" data-ov="${p.chunks.join(' ')}" title="shared by ${p.cover} chunks">${slice}</span>`);
      } else if (p.chunks[0] !== owner) {
        out.push(`<span class="foreign" data-ov="${p.chunks.join(' ')}">${slice}</span>`);
      } else {
        out.push(slice);
      }
    }
  }
}

function renderBand(band: Band, text: string, unit: string, maxSize: number | undefined, out: string[]): void {
  const c = band.chunk;
  const k = band.position;
  let cls = `band b${k % 2}`;
  if (c.oversized || (maxSize !== undefined && c.size > maxSize)) cls += ' oversized';
  if (isHeadingOnly(c)) cls += ' lonely';
  if (band.pieces.length === 0) cls += ' empty';
  let label = `#${c.index} · ${formatNumber(c.size)} ${unit}`;
  if (c.pageStart !== undefined) label += ` · p. ${c.pageEnd !== undefined && c.pageEnd !== c.pageStart ? `${c.pageStart}–${c.pageEnd}` : c.pageStart}`;
  if (c.metadata?.isSplit) {
    // Say at a glance which structure was cut: a split table or code block is what a reader checks first.
    const cut = (c.metadata.kinds ?? []).filter((kind) => kind === 'table' || kind === 'code' || kind === 'list');
    label += ` · split ${cut.length > 0 ? cut.join('/') : 'text'}`;
  }
  if (isHeadingOnly(c)) label += ' · heading only';
  out.push(`<div class="${cls}" id="c${k}" data-k="${k}" data-label="${escapeHtml(label)}">`);
  renderPieces(band.pieces, text, k, out);
  out.push('</div>');
}

function renderGap(gap: Gap, text: string, out: string[]): void {
  // Whitespace between chunks is expected and not drawn; page markers in it and lost text are.
  const pieces = gap.blank ? gap.pieces.filter((p) => p.kind === 'page') : gap.pieces;
  if (pieces.length === 0) return;
  out.push('<div class="gap">');
  renderPieces(pieces, text, -1, out);
  out.push('</div>');
}

function renderSide(layout: ReportLayout, figuresHtml: string, unit: string, maxSize: number | undefined, out: string[]): void {
  const chunks = layout.chunks;
  out.push('<aside id="side">');
  out.push('<section id="info" aria-live="polite"><p class="hint">Hover a chunk to see its facts; click to pin it.</p>');
  out.push('<p class="keys">Keys: j / k next and previous chunk, Esc release.</p></section>');
  out.push(`<details open><summary>Summary</summary><div class="pad">${figuresHtml}</div></details>`);
  const outline = buildOutline(chunks);
  out.push(`<details open><summary>Outline (${outline.length})</summary><ol class="outline">`);
  for (const e of outline) {
    out.push(`<li class="d${Math.min(e.depth, 5)}"><a href="#c${e.position}" data-k="${e.position}" title="${escapeHtml(`H${e.level} ${e.title}`)}">${escapeHtml(e.title)}</a></li>`);
  }
  if (outline.length === 0) out.push('<li><span class="pad">No headings.</span></li>');
  out.push('</ol></details>');
  // Meters are a share of the limit when there is one, so one huge outlier does not flatten every other bar.
  const scale = Math.max(1, maxSize ?? chunks.reduce((m, c) => Math.max(m, c.size), 1));
  out.push(`<details open><summary>Chunks (${chunks.length})</summary><ol class="chunks" id="chunk-list">`);
  chunks.forEach((c, k) => {
    const pct = Math.min(100, (100 * c.size) / scale).toFixed(1);
    const over = c.oversized || (maxSize !== undefined && c.size > maxSize);
    out.push(
      `<li><a href="#c${k}" data-k="${k}"${over ? ' class="flag-over"' : isHeadingOnly(c) ? ' class="flag-lonely"' : ''}><span class="n">#${c.index}</span><span class="sz" title="${escapeHtml(`${c.size} ${unit}`)}">${formatNumber(c.size)}</span>` +
        `<span class="meter"><i${over ? ' class="over"' : ''} style="width:${pct}%"></i></span><span class="bc">${escapeHtml(c.heading?.breadcrumb || '—')}</span></a></li>`,
    );
  });
  out.push('</ol></details></aside>');
}

/**
 * Renders a document and its chunks as one self-contained HTML page: the text once, each chunk a band in alternating
 * colours (exactly one `.band` element per chunk, even with overlap), shared text striped, prefixes and suffixes as
 * added text, page markers for PDFs, a side panel with the chunk's facts on hover or click, the heading outline,
 * the chunk list, a size histogram and the summary figures.
 *
 * `documentText` must be the text the chunks' offsets point into (for a PDF, the extracted text); a chunk that is
 * not `documentText.slice(start, end)` raises `ChunkError('ERR_INVALID_INPUT')`.
 */
export function renderReport(
  chunks: readonly Chunk[],
  documentText: string,
  stats?: Partial<ChunkStatistics>,
  options: ReportOptions = {},
): string {
  const unit = options.unit ?? 'tokens';
  const layout = layoutReport(chunks, documentText, { pages: options.pages });
  const figures = reportFigures(layout.chunks, stats, layout.figures, options.maxSize);
  const title = options.title ?? chunks[0]?.origin ?? chunks[0]?.documentId ?? 'document';

  const table = figureRows(figures, unit)
    .map((r) => `<tr${r.warn ? ' class="warn"' : ''}><td>${escapeHtml(r.label)}</td><td>${escapeHtml(r.value)}</td></tr>`)
    .join('');
  const histogram = renderHistogram(
    layout.chunks.map((c) => c.size),
    { unit, targetSize: options.targetSize, maxSize: options.maxSize },
  );
  const figuresHtml = `${histogram}<table class="stats">${table}</table>`;

  const body: string[] = [];
  body.push('<main id="doc" tabindex="-1">');
  for (const item of layout.items) {
    if (item.kind === 'band') renderBand(item, documentText, unit, options.maxSize, body);
    else renderGap(item, documentText, body);
  }
  if (layout.chunks.length === 0) body.push('<p class="gap">No chunks.</p>');
  body.push('</main>');
  renderSide(layout, figuresHtml, unit, options.maxSize, body);

  const sizes = [`${formatNumber(figures.chunks)} chunks`, `unit ${unit}`];
  if (options.targetSize !== undefined) sizes.push(`target ${formatNumber(options.targetSize)}`);
  if (options.maxSize !== undefined) sizes.push(`max ${formatNumber(options.maxSize)}`);
  if (figures.pages !== undefined) sizes.push(`${formatNumber(figures.pages)} pages`);
  const data = jsonForScript({ unit, maxSize: options.maxSize ?? null, targetSize: options.targetSize ?? null, ...chunkFacts(layout.chunks) });
  const scriptHash = createHash('sha256').update(REPORT_SCRIPT).digest('base64');
  const csp = `default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-${scriptHash}'; img-src data:; base-uri 'none'; form-action 'none'`;

  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${csp}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<meta name="generator" content="chunkstream">`,
    `<title>${escapeHtml(`${title} · chunks`)}</title>`,
    `<style>${REPORT_CSS}</style></head><body>`,
    `<header class="top"><h1>${escapeHtml(title)}</h1><span class="sub">${escapeHtml(sizes.join(' · '))}</span>`,
    '<div class="legend"><span class="lg-b0">chunk</span><span class="lg-b1">next chunk</span><span class="lg-ov">overlap</span><span class="lg-add">added text</span><span class="lg-lost">not in any chunk</span></div></header>',
    '<div class="layout">',
    body.join(''),
    '</div>',
    `<script type="application/json" id="report-data">${data}</script>`,
    `<script>${REPORT_SCRIPT}</script>`,
    '</body></html>',
    '',
  ].join('\n');
}
