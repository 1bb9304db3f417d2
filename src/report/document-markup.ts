/**
 * The markup of a view's document column (`documentSegments`): the text once, each chunk's own text a band, text
 * two chunks share a strip between their bands, striped in both bands' colours and edged in both, so each chunk
 * reads as one run of its own colour from its first character to its last. Every band, strip and gap carries the
 * offsets it draws (`data-s`, `data-e`), which the script uses to map scroll positions to offsets.
 */
import type { Chunk } from '../types.js';
import { escapeHtml } from './escape.js';
import { isHeadingOnly, type Fragment } from './layout.js';
import { documentSegments, type BandSegment, type Segment, type SharedSegment } from './segments.js';
import { formatNumber } from './summary.js';
import { idPrefix, isAboveMax, isUndersized, type ReportView } from './view.js';

function pageLabel(p: Extract<Fragment, { kind: 'page' }>): string {
  return p.lastPage > p.page ? `pages ${p.page}–${p.lastPage}` : `page ${p.page}`;
}

/** Where the markup of one view is written, with the counters its ids need. */
interface Writer {
  readonly out: string[];
  readonly text: string;
  readonly prefix: string;
  lost: number;
}

function pageMarkup(p: Extract<Fragment, { kind: 'page' }>): string {
  if (p.place === 'exact') return `<span class="page" data-page="${p.page}">${escapeHtml(pageLabel(p))}</span>`;
  const why = p.place === 'within' ? `${pageLabel(p)} begins inside the block below` : `first chunk that starts on ${pageLabel(p)}`;
  const label = p.place === 'within' ? `${pageLabel(p)} begins inside the block below` : pageLabel(p);
  return `<span class="page approx" data-page="${p.page}" title="${escapeHtml(why)}">${escapeHtml(label)}</span>`;
}

/**
 * Escaped text, with the line breaks it begins or ends with (when `first` / `last`) wrapped so they are not
 * drawn: a band's own part often begins with the blank line after the text it shares, and ends with the one
 * before the next chunk; the band's edge already shows that break. The characters stay in the markup.
 */
function edgeTrimmed(raw: string, first: boolean, last: boolean): string {
  const lead = first ? (/^[ \t]*(?:\r?\n[ \t]*)+/.exec(raw)?.[0] ?? '') : '';
  const rest = raw.slice(lead.length);
  const trail = last ? (/(?:\r?\n[ \t]*)+$/.exec(rest)?.[0] ?? '') : '';
  const middle = rest.slice(0, rest.length - trail.length);
  const ws = (t: string): string => (t === '' ? '' : `<span class="ws">${escapeHtml(t)}</span>`);
  return ws(lead) + escapeHtml(middle) + ws(trail);
}

/** Markup of pieces; `owner` is the band position whose own text is plain (-1 in a gap or a shared strip). */
function renderPieces(pieces: readonly Fragment[], owner: number, w: Writer): void {
  const { out, text, prefix } = w;
  const firstText = owner < 0 ? -1 : pieces.findIndex((p) => p.kind === 'text');
  const lastText = owner < 0 ? -1 : pieces.findLastIndex((p) => p.kind === 'text');
  pieces.forEach((p, i) => {
    if (p.kind === 'page') out.push(pageMarkup(p));
    else if (p.kind === 'anchor') out.push(`<span class="h" id="${prefix}h${p.anchor}"></span>`);
    else if (p.kind !== 'text') {
      const what = p.kind === 'prefix' ? 'added before the chunk’s text for the embedder' : 'added after the chunk’s text for the embedder';
      out.push(`<span class="add ${p.kind === 'prefix' ? 'pre' : 'suf'}" data-of="${p.of}" title="${what}">${escapeHtml(p.text)}</span>`);
    } else {
      const slice = owner < 0 ? escapeHtml(text.slice(p.start, p.end)) : edgeTrimmed(text.slice(p.start, p.end), i === firstText, i === lastText);
      if (p.cover === 0) out.push(`<span class="lost" id="${prefix}lost${w.lost++}" title="not in any chunk">${slice}</span>`);
      else if (owner < 0) out.push(slice);
      else if (p.cover >= 2) out.push(`<span class="ov" data-ov="${p.chunks.join(' ')}" title="shared by ${p.cover} chunks">${slice}</span>`);
      else if (p.chunks[0] !== owner) out.push(`<span class="foreign" data-ov="${p.chunks.join(' ')}">${slice}</span>`);
      else out.push(slice);
    }
  });
}

/** The label a band shows at its top right: number, size, pages, and what is notable about it. */
function bandLabel(c: Chunk, view: ReportView, unit: string): string {
  let label = `#${c.index} · ${formatNumber(c.size)} ${unit}`;
  if (c.pageStart !== undefined) label += ` · p. ${c.pageEnd !== undefined && c.pageEnd !== c.pageStart ? `${c.pageStart}–${c.pageEnd}` : c.pageStart}`;
  if (c.metadata?.isSplit) {
    // Say at a glance which structure was cut: a split table or code block is what a reader checks first.
    const cut = (c.metadata.kinds ?? []).filter((kind) => kind === 'table' || kind === 'code' || kind === 'list');
    label += ` · split ${cut.length > 0 ? cut.join('/') : 'text'}`;
  }
  if (isHeadingOnly(c)) label += ' · heading only';
  if (isUndersized(c, view.settings.minSize)) label += ' · undersized';
  if (c.oversized) label += ' · oversized';
  else if (isAboveMax(c, view.settings.maxSize)) label += ' · above max';
  return label;
}

function renderShared(seg: SharedSegment, view: ReportView, w: Writer): void {
  const names = seg.owners.map((o) => `#${view.layout.chunks[o]?.index ?? o}`);
  const label = `shared by ${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
  const first = seg.owners[0] ?? seg.position;
  w.out.push(`<div class="shared from${first % 2}" data-k="${seg.position}" data-ov="${seg.owners.join(' ')}" data-s="${seg.start}" data-e="${seg.end}" data-label="${escapeHtml(label)}">`);
  renderPieces(seg.pieces, -1, w);
  w.out.push('</div>');
}

function renderBand(seg: BandSegment, view: ReportView, unit: string, w: Writer): void {
  const c = seg.band.chunk;
  const k = seg.band.position;
  let cls = `band b${k % 2}`;
  if (isAboveMax(c, view.settings.maxSize)) cls += ' oversized';
  if (isHeadingOnly(c)) cls += ' lonely';
  if (isUndersized(c, view.settings.minSize)) cls += ' under';
  if (seg.pieces.every((p) => p.kind === 'page' || p.kind === 'anchor')) cls += ' empty';
  w.out.push(`<div class="${cls}" id="${w.prefix}c${k}" data-k="${k}" data-s="${seg.start}" data-e="${seg.end}" data-label="${escapeHtml(bandLabel(c, view, unit))}">`);
  renderPieces(seg.pieces, k, w);
  w.out.push('</div>');
}

function renderSegment(seg: Segment, view: ReportView, unit: string, w: Writer): void {
  if (seg.kind === 'marks') renderPieces(seg.pieces, -1, w);
  else if (seg.kind === 'shared') renderShared(seg, view, w);
  else if (seg.kind === 'band') renderBand(seg, view, unit, w);
  else {
    w.out.push(`<div class="gap" data-s="${seg.gap.start}" data-e="${seg.gap.end}">`);
    renderPieces(seg.pieces, -1, w);
    w.out.push('</div>');
  }
}

/** Writes the document column of a view: `<main class="doc">` with its bands, shared strips and gaps. */
export function renderDocument(view: ReportView, text: string, out: string[]): void {
  const unit = view.settings.unit ?? 'tokens';
  const prefix = idPrefix(view.index);
  const w: Writer = { out, text, prefix, lost: 0 };
  const name = view.tag ? `Document chunked with ${view.tag}${view.label ? ` (${view.label})` : ''}` : 'Document with its chunks';
  out.push(`<main class="doc" id="${prefix}doc" data-view="${view.index}" tabindex="-1" aria-label="${escapeHtml(name)}">`);
  for (const seg of documentSegments(view.layout)) renderSegment(seg, view, unit, w);
  if (view.layout.chunks.length === 0) out.push('<p class="gap">No chunks.</p>');
  out.push('</main>');
}
