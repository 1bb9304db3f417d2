/**
 * The side panel of the HTML report: the chunk box (facts of the hovered or pinned chunk, with ‹ › buttons), the
 * summary with its problem rows linked to the chunks they count, the size histograms, the heading outline and the
 * chunk lists. In a comparison the figures of every view stand in columns side by side.
 */
import { escapeHtml } from './escape.js';
import { renderHistogram } from './histogram.js';
import type { OutlineEntry } from './outline.js';
import { figureRows, formatNumber, type FigureRow } from './summary.js';
import { idPrefix, type ReportView } from './view.js';

function infoBox(): string {
  return (
    '<section id="info" aria-live="polite">' +
    '<div class="info-bar"><span id="info-state">No chunk selected</span><span class="nav">' +
    '<button type="button" data-act="prev" title="Previous chunk (k)" aria-label="Previous chunk">‹</button>' +
    '<button type="button" data-act="next" title="Next chunk (j)" aria-label="Next chunk">›</button>' +
    '<button type="button" data-act="close" title="Release (Esc)" aria-label="Release the chunk">✕</button></span></div>' +
    '<div id="info-body"><p class="hint">' +
    '<span class="for-mouse">Hover a chunk to see its facts, click to pin it. Keys: j / k next and previous chunk, n / p next and previous problem, Esc releases.</span>' +
    '<span class="for-touch">Tap a chunk to see its facts; ‹ › step through the chunks, ✕ closes.</span>' +
    '</p></div></section>'
  );
}

/** A value cell; a problem count above zero is a button that steps through what it counts. */
function valueCell(row: FigureRow | undefined, view: number): string {
  if (row === undefined) return '<td>–</td>';
  const value = escapeHtml(row.value);
  if (row.problem !== undefined && !/^0\b/.test(row.value)) {
    return `<td><button type="button" class="prob" data-view="${view}" data-problem="${row.problem}" title="Go to the next one">${value}</button></td>`;
  }
  return `<td>${value}</td>`;
}

/** The figures table: one value column per view, rows matched by label. */
function statsTable(views: readonly ReportView[]): string {
  const perView = views.map((v) => figureRows(v.figures, v.settings.unit ?? 'tokens'));
  const labels: string[] = [];
  for (const rows of perView) for (const r of rows) if (!labels.includes(r.label)) labels.push(r.label);
  const head = views.length > 1 ? `<thead><tr><th></th>${views.map((v) => `<th><span class="tag t${v.index}">${escapeHtml(v.tag)}</span></th>`).join('')}</tr></thead>` : '';
  const body = labels.map((label) => {
    const cells = perView.map((rows) => rows.find((r) => r.label === label));
    const warn = cells.some((r) => r?.warn);
    const problem = cells.find((r) => r?.problem)?.problem;
    const attrs = `${warn ? ' class="warn"' : ''}${problem !== undefined ? ` data-problem="${problem}"` : ''}`;
    return `<tr${attrs}><td>${escapeHtml(label)}</td>${cells.map((r, i) => valueCell(r, i)).join('')}</tr>`;
  });
  return `<table class="stats${views.length > 1 ? ' cmp' : ''}">${head}<tbody>${body.join('')}</tbody></table>`;
}

function summary(views: readonly ReportView[]): string {
  const out: string[] = ['<details open id="summary"><summary>Summary</summary><div class="pad">'];
  out.push(
    '<div class="problem-bar"><button type="button" data-act="prev-problem" title="Previous problem (p)" aria-label="Previous problem">‹</button>' +
      '<span id="problem-state">Problems</span>' +
      '<button type="button" data-act="next-problem" title="Next problem (n)" aria-label="Next problem">›</button></div>',
  );
  // One size axis for every view, so the histograms of a comparison read against each other.
  const span = Math.max(...views.map((v) => Math.max(v.figures.maxSize, v.settings.maxSize ?? 0, v.settings.targetSize ?? 0)));
  for (const v of views) {
    const s = v.settings;
    if (views.length > 1) out.push(`<p class="hist-title"><span class="tag t${v.index}">${escapeHtml(v.tag)}</span> ${escapeHtml(v.label)}</p>`);
    out.push(renderHistogram(v.layout.chunks.map((c) => c.size), { unit: s.unit ?? 'tokens', minSize: s.minSize, targetSize: s.targetSize, maxSize: s.maxSize, view: v.index, span }));
  }
  out.push('<p class="hint small">Click a bar, or a count in red, to go through the chunks it counts.</p>');
  out.push(statsTable(views));
  out.push('</div></details>');
  return out.join('');
}

function outlineSection(outline: readonly OutlineEntry[]): string {
  const out: string[] = [`<details open id="outline-box"><summary>Outline (${outline.length})</summary><ol class="outline scroll">`];
  outline.forEach((e, n) => {
    out.push(`<li class="d${Math.min(e.depth, 5)}"><a href="#h${n}" data-h="${n}" title="${escapeHtml(`H${e.level} ${e.title}`)}">${escapeHtml(e.title)}</a></li>`);
  });
  if (outline.length === 0) out.push('<li><span class="pad">No headings.</span></li>');
  out.push('</ol></details>');
  return out.join('');
}

/**
 * The chunk list of a view, empty: the page script fills it from the chunk facts after the first frame, a batch at
 * a time, so a thousand rows do not hold up the page's start.
 */
function chunkList(view: ReportView, open: boolean): string {
  const n = view.layout.chunks.length;
  const title = view.tag ? `Chunks of ${view.tag} (${formatNumber(n)})` : `Chunks (${formatNumber(n)})`;
  return `<details${open ? ' open' : ''}><summary>${escapeHtml(title)}</summary><ol class="chunks scroll" id="${idPrefix(view.index)}chunk-list" data-view="${view.index}"></ol></details>`;
}

/** Writes the side panel for the views of a report. */
export function renderSidePanel(views: readonly ReportView[], outline: readonly OutlineEntry[], out: string[]): void {
  out.push('<aside id="side">', infoBox(), summary(views), outlineSection(outline));
  views.forEach((v, i) => { out.push(chunkList(v, i === 0)); });
  out.push('</aside>');
}
