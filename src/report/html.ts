/**
 * `renderReport` and `renderComparison`: one self-contained HTML page showing a document with its chunk boundaries
 * (or, compared, with the boundaries of several settings side by side). Inline CSS and JS, no network, opens from
 * disk. Every piece of document text is HTML-escaped; chunk facts travel as JSON in a non-executable script element
 * with `<` escaped; a Content-Security-Policy admits only the report's own script (by hash), so even markup that
 * slipped through escaping could not run.
 */
import { createHash } from 'node:crypto';
import { ChunkError } from '../errors.js';
import type { Chunk, ChunkStatistics } from '../types.js';
import { REPORT_CSS, REPORT_SCRIPT } from './client.js';
import { renderDocument } from './document-markup.js';
import { escapeHtml, jsonForScript } from './escape.js';
import type { PageMark } from './layout.js';
import { buildOutline, type HeadingMark } from './outline.js';
import type { PageData } from './page-data.js';
import { settingsPhrases, type ReportSettings } from './settings.js';
import { renderSidePanel } from './side-panel.js';
import { formatNumber } from './summary.js';
import { chunkFacts, prepareView, type ReportView } from './view.js';

/** What the page is about, whatever the runs shown. */
export interface ReportPageOptions {
  /** Page title; default the chunks' origin or document id. */
  readonly title?: string | undefined;
  /** Exact page starts of a PDF's text; without them page markers sit at the first chunk of each page. */
  readonly pages?: readonly PageMark[] | undefined;
  /**
   * Where each heading begins (`headingMarks(blocks)`), so the outline scrolls to the heading itself; without
   * them headings are looked up in the text from the chunks' heading paths.
   */
  readonly headings?: readonly HeadingMark[] | undefined;
}

/** Options of `renderReport`: the run's settings, printed in the header and marked on the histogram, and the page's. */
export interface ReportOptions extends ReportSettings, ReportPageOptions {}

/** One setting of a comparison: its chunks over the shared document text, and what it was. */
export interface ComparisonRun {
  /** What the setting is called in the report, e.g. the `--compare` argument `--max-size 256`. */
  readonly label: string;
  readonly chunks: readonly Chunk[];
  readonly statistics?: Partial<ChunkStatistics> | undefined;
  readonly settings: ReportSettings;
}

/** The legend; the minimap's marks use the same colours. */
const LEGEND =
  '<span class="lg-b0">chunk</span><span class="lg-b1">next chunk</span><span class="lg-shared">shared by two chunks</span>' +
  '<span class="lg-add">added text</span><span class="lg-lost">not in any chunk</span><span class="lg-lonely">heading only</span>' +
  '<span class="lg-under">undersized</span><span class="lg-over">oversized / above max</span>';

function header(title: string, views: readonly ReportView[]): string {
  const first = views[0] as ReportView;
  const facts = [views.length > 1 ? `${views.length} settings compared` : `${formatNumber(first.figures.chunks)} chunks`];
  if (first.figures.pages !== undefined) facts.push(`${formatNumber(first.figures.pages)} pages`);
  const settings = views.map((v) => {
    const phrases = settingsPhrases(v.settings, v.figures.repeatedShare).join(' · ');
    if (views.length === 1) return `<p class="set">${escapeHtml(phrases)}</p>`;
    const name = v.label === '' ? 'defaults' : v.label;
    return `<p class="set"><span class="tag t${v.index}">${escapeHtml(v.tag)}</span> <code>${escapeHtml(name)}</code> · ${escapeHtml(`${formatNumber(v.figures.chunks)} chunks · ${phrases}`)}</p>`;
  });
  return (
    `<header class="top"><div class="head-main"><h1>${escapeHtml(title)}</h1><span class="sub">${escapeHtml(facts.join(' · '))}</span></div>` +
    `<details class="more" id="more"><summary>Settings and legend</summary><div class="more-body"><div class="settings">${settings.join('')}</div>` +
    `<div class="legend">${LEGEND}</div></div></details></header>`
  );
}

function viewColumn(view: ReportView, text: string, views: number, out: string[]): void {
  out.push(`<section class="view${view.index === 0 ? ' active' : ''}" data-view="${view.index}">`);
  if (views > 1) {
    const name = view.label === '' ? 'defaults' : view.label;
    out.push(`<h2 class="view-title"><span class="tag t${view.index}">${escapeHtml(view.tag)}</span> <code>${escapeHtml(name)}</code> <span class="count">${escapeHtml(`${formatNumber(view.figures.chunks)} chunks`)}</span></h2>`);
  }
  out.push('<div class="view-body">');
  renderDocument(view, text, out);
  out.push(`<nav class="minimap" data-view="${view.index}" aria-label="Map of the chunks: click to go there"><div class="mm-marks"><div class="mm-view"></div></div></nav>`);
  out.push('</div></section>');
}

/** The whole page around prepared views. */
function renderPage(views: readonly ReportView[], text: string, title: string, outlineHeadings: ReturnType<typeof buildOutline>): string {
  const body: string[] = [];
  if (views.length > 1) {
    body.push('<div class="view-tabs" role="tablist">');
    for (const v of views) body.push(`<button type="button" role="tab" data-tab="${v.index}"${v.index === 0 ? ' aria-selected="true"' : ''}>${escapeHtml(`${v.tag} · ${v.label || 'defaults'}`)}</button>`);
    body.push('</div>');
  }
  body.push(`<div class="views" style="--views:${views.length}">`);
  for (const v of views) viewColumn(v, text, views.length, body);
  body.push('</div>');
  renderSidePanel(views, outlineHeadings, body);

  const pageData: PageData = {
    length: text.length,
    views: views.map((v) => ({
      tag: v.tag,
      label: v.label,
      unit: v.settings.unit ?? 'tokens',
      maxSize: v.settings.maxSize ?? null,
      targetSize: v.settings.targetSize ?? null,
      minSize: v.settings.minSize ?? null,
      ...chunkFacts(v),
    })),
  };
  const data = jsonForScript(pageData);
  const scriptHash = createHash('sha256').update(REPORT_SCRIPT).digest('base64');
  const csp = `default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-${scriptHash}'; img-src data:; base-uri 'none'; form-action 'none'`;
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${csp}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<meta name="generator" content="chunkstream">`,
    `<title>${escapeHtml(`${title} · chunks`)}</title>`,
    `<style>${REPORT_CSS}</style></head><body class="${views.length > 1 ? 'compare' : 'single'}">`,
    header(title, views),
    '<div class="layout">',
    body.join(''),
    '</div>',
    `<script type="application/json" id="report-data">${data}</script>`,
    `<script>${REPORT_SCRIPT}</script>`,
    '</body></html>',
    '',
  ].join('\n');
}

function defaultTitle(chunks: readonly Chunk[]): string {
  return chunks[0]?.origin ?? chunks[0]?.documentId ?? 'document';
}

/**
 * Renders a document and its chunks as one self-contained HTML page: the text once, each chunk a band in
 * alternating colours (exactly one `.band` element per chunk), text shared by overlapping chunks in a strip of both
 * colours between them, prefixes and suffixes as added text, page markers for PDFs; a minimap of every chunk down
 * the side; and a side panel with the chunk's facts on hover or click, the summary whose problem counts and
 * histogram bars step through the chunks they count, the heading outline and the chunk list.
 *
 * `documentText` must be the text the chunks' offsets point into (for a PDF, the extracted text); a chunk that is
 * not `documentText.slice(start, end)` raises `ChunkError('ERR_INVALID_INPUT')`.
 */
export function renderReport(chunks: readonly Chunk[], documentText: string, stats?: Partial<ChunkStatistics>, options: ReportOptions = {}): string {
  const outline = buildOutline(chunks, documentText, options.headings);
  const anchors = outline.map((e) => e.offset);
  const view = prepareView(0, { chunks, statistics: stats, settings: options }, documentText, options.pages, anchors);
  return renderPage([view], documentText, options.title ?? defaultTitle(chunks), outline);
}

/**
 * Renders several chunkings of the same document side by side in one page, aligned by position: the columns
 * scroll together, each with its own bands and minimap, and the summary gives the figures of every run in columns.
 * Choosing a chunk size is a comparison; this page is that comparison. Runs are named A, B, C… in order.
 * Throws `ERR_INVALID_INPUT` without runs, or for chunks that are not slices of `documentText`.
 */
export function renderComparison(runs: readonly ComparisonRun[], documentText: string, options: ReportPageOptions = {}): string {
  if (runs.length === 0) throw new ChunkError('ERR_INVALID_INPUT', 'renderComparison needs at least one run');
  const first = runs[0] as ComparisonRun;
  const outline = buildOutline(first.chunks, documentText, options.headings);
  const anchors = outline.map((e) => e.offset);
  const views = runs.map((run, i) =>
    prepareView(i, { chunks: run.chunks, statistics: run.statistics, settings: run.settings, tag: String.fromCharCode(65 + (i % 26)), label: run.label }, documentText, options.pages, anchors),
  );
  return renderPage(views, documentText, options.title ?? defaultTitle(first.chunks), outline);
}
