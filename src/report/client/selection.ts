/**
 * The chosen chunk: hover shows its facts in the chunk box, a click or a key pins it, Esc releases. Choosing a chunk
 * lights its band and strips, outlines in the other views of a comparison the chunks that hold its text, marks its
 * row in the list and its mark in the minimap. Facts come from the JSON element and go in by `textContent` only.
 */
import type { ChunkFacts } from '../page-data.js';
import { chips, node, num, row } from './dom.js';
import { band, chunkAt, offsetAtY, scrollToElement } from './geometry.js';
import type { Page, View } from './page.js';

/** Flags shown as warnings in the chunk box. */
const WARNING_FLAGS = ['oversized', 'above max', 'heading only', 'undersized', 'fallback'];

/** Lights chunk k of a view (or nothing, for k < 0), and its echoes in the other views. */
export function highlight(page: Page, v: View | null, k: number): void {
  for (const n of page.lit) n.classList.remove('lit', 'echo');
  page.lit = [];
  if (!v || k < 0) return;
  const b = band(v, k);
  if (b) page.lit.push(b);
  for (const n of v.doc.querySelectorAll(`[data-ov~="${k}"], .add[data-of="${k}"]`)) page.lit.push(n);
  for (const n of page.lit) n.classList.add('lit');
  if (page.compare) echo(page, v, k);
}

/** In the other views, outlines the chunks that hold any of this chunk's text: where its boundaries fall there. */
function echo(page: Page, v: View, k: number): void {
  const c = v.data.chunks[k];
  if (!c) return;
  for (const w of page.views) {
    if (w === v) continue;
    const chunks = w.data.chunks;
    for (let j = Math.max(0, chunkAt(w, c.start) - 1); j < chunks.length && (chunks[j] as ChunkFacts).start < Math.max(c.end, c.start + 1); j++) {
      if ((chunks[j] as ChunkFacts).end <= c.start) continue;
      const b = band(w, j);
      if (b) {
        b.classList.add('echo');
        page.lit.push(b);
      }
    }
  }
}

/** Marks chunk k's row in the list and its minimap mark as current; the list scrolls to a pinned chunk's row. */
export function markCurrent(page: Page, v: View | null, k: number): void {
  const current = page.current;
  current.row?.classList.remove('cur');
  current.mark?.classList.remove('cur');
  current.row = v?.list && k >= 0 ? v.list.querySelector<HTMLElement>(`a[data-k="${k}"]`) : null;
  current.mark = v && k >= 0 ? (v.marks[k] ?? null) : null;
  current.mark?.classList.add('cur');
  const list = v?.list;
  if (!current.row || !list) return;
  current.row.classList.add('cur');
  // Only the list box scrolls, never the panel around it: the outline a reader clicked stays where it was.
  if (page.selection.pinned && list.scrollHeight > list.clientHeight) {
    const t = current.row.offsetTop;
    if (t < list.scrollTop || t + current.row.offsetHeight > list.scrollTop + list.clientHeight) list.scrollTop = t - list.clientHeight / 2;
  }
}

/** The facts list of the chunk box. */
function factsList(v: View, c: ChunkFacts, k: number): HTMLElement {
  const dl = node('dl');
  let size = `${num(c.size)} ${v.data.unit}`;
  if (v.data.maxSize) size += ` (${Math.round((100 * c.size) / v.data.maxSize)}% of max ${num(v.data.maxSize)})`;
  row(dl, 'size', size);
  row(dl, 'heading', v.data.crumbs[c.crumb] || '(before the first heading)');
  if (c.pageStart !== undefined) row(dl, 'pages', c.pageEnd !== undefined && c.pageEnd !== c.pageStart ? `${c.pageStart}–${c.pageEnd}` : String(c.pageStart));
  // PDF points from the page's top left: x, y of the top left corner, then width × height.
  if (c.boxes) row(dl, 'boxes', c.boxes.map(([p, x, y, w, h]) => `p. ${p}: x ${x}, y ${y}, ${w} × ${h} pt`).join('; '));
  row(dl, 'lines', c.startLine === c.endLine ? String(c.startLine) : `${c.startLine}–${c.endLine}`);
  row(dl, 'offsets', `[${num(c.start)}, ${num(c.end)})  ${num(c.chars)} chars, ${num(c.words)} words`);
  const next = v.data.chunks[k + 1];
  const shared: string[] = [];
  if (c.overlapPrev) shared.push(`${num(c.overlapPrev)} chars with the previous chunk`);
  if (next?.overlapPrev) shared.push(`${num(next.overlapPrev)} with the next`);
  if (shared.length) row(dl, 'shares', shared.join('; '));
  if (c.prefix || c.suffix) row(dl, 'added', (c.prefix ? `${num(c.prefix)} chars before` : '') + (c.prefix && c.suffix ? ', ' : '') + (c.suffix ? `${num(c.suffix)} chars after` : ''));
  if (c.flags) row(dl, 'flags', chips(c.flags, WARNING_FLAGS));
  if (c.kinds) row(dl, 'blocks', c.kinds.join(', '));
  if (c.languages) row(dl, 'languages', c.languages.join(', '));
  if (c.reason) row(dl, 'oversized', c.reason);
  return dl;
}

/** Shows chunk k's facts in the chunk box and lights it. */
export function show(page: Page, v: View, k: number): void {
  const c = v.data.chunks[k];
  if (!c) return;
  page.selection.view = v.index;
  page.selection.chunk = k;
  highlight(page, v, k);
  page.infoBody.textContent = '';
  // Ids made from the chunk's content do not show its place: its number goes first.
  const label = c.id.endsWith(`#${k}`) ? c.id : `#${k} · ${c.id}`;
  page.infoBody.appendChild(node('h2', 'chunk-id', (page.compare ? `${v.data.tag} · ` : '') + label));
  page.infoBody.appendChild(factsList(v, c, k));
  page.infoState.textContent = `${page.selection.pinned ? 'Pinned' : 'Hovered'} · chunk ${num(k + 1)} of ${num(v.data.chunks.length)}${page.compare ? ` in ${v.data.tag}` : ''}`;
  markCurrent(page, v, k);
}

/** Scrolls a view so the chunk's first character (in the strip it shares with the previous chunk, if any) is at the top. */
function scrollToChunk(v: View, k: number): void {
  let first: Element | null = band(v, k);
  const prev = first?.previousElementSibling;
  if (prev?.classList.contains('shared') && ` ${prev.getAttribute('data-ov')} `.includes(` ${k} `)) first = prev;
  if (first) scrollToElement(v, first, 6);
}

/** Pins chunk k of a view: the box keeps it until released; `scroll` brings it to the top of the view. */
export function pin(page: Page, v: View, k: number, scroll: boolean): void {
  if (k < 0 || k >= v.data.chunks.length) return;
  page.selection.pinned = true;
  show(page, v, k);
  if (scroll) scrollToChunk(v, k);
  history.replaceState(null, '', `#${v.prefix}c${k}`);
}

/** Releases the pinned chunk; the box goes back to its hint rather than describe a chunk no longer chosen. */
export function unpin(page: Page): void {
  page.selection.pinned = false;
  page.selection.chunk = -1;
  highlight(page, null, -1);
  markCurrent(page, null, -1);
  page.infoBody.textContent = '';
  if (page.hint) page.infoBody.appendChild(page.hint);
  page.infoState.textContent = 'No chunk selected';
}

/** Pins the next or previous chunk; with none chosen, starts from the chunk at the top of the view. */
export function step(page: Page, dir: number): void {
  const v = page.views[page.selection.view];
  const n = v?.data.chunks.length;
  if (!v || !n) return;
  const k = page.selection.chunk < 0 ? chunkAt(v, offsetAtY(v, v.doc.scrollTop)) : Math.max(0, Math.min(n - 1, page.selection.chunk + dir));
  pin(page, v, k, true);
}
