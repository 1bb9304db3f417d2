/**
 * The chunk lists of the side panel, built from the chunk facts after the first frame, a batch of rows per task,
 * so the page is drawn and answers before a thousand rows exist. Each row: number, size, a meter of the size
 * against the limit, the chunk's last heading and its opening words.
 */
import type { ChunkFacts } from '../page-data.js';
import { has, node, num } from './dom.js';
import type { Page, View } from './page.js';
import { markCurrent } from './selection.js';

/** Rows added per task: small enough to keep each task short, large enough to finish in a few frames. */
const LIST_BATCH = 200;

/** The class of a row: the worst of its flags. */
function rowClass(c: ChunkFacts): string {
  const f = c.flags;
  if (has(f, 'oversized') || has(f, 'above max')) return 'flag-over';
  if (has(f, 'heading only')) return 'flag-lonely';
  return has(f, 'undersized') ? 'flag-under' : '';
}

/** One row of the list: a link to the chunk. */
function listRow(v: View, c: ChunkFacts, k: number, scale: number): HTMLLIElement {
  const cls = rowClass(c);
  const a = node('a', cls);
  a.href = `#${v.prefix}c${k}`;
  a.setAttribute('data-k', String(k));
  a.appendChild(node('span', 'n', `#${c.index === undefined ? k : c.index}`));
  a.appendChild(node('span', 'sz', num(c.size)));
  const meter = node('span', 'meter');
  const bar = node('i', cls === 'flag-over' ? 'over' : '');
  bar.style.width = `${Math.min(100, (100 * c.size) / scale).toFixed(1)}%`;
  meter.appendChild(bar);
  a.appendChild(meter);
  a.appendChild(node('span', 'hd', v.data.heads[c.head]));
  a.appendChild(node('span', 'op', c.open));
  const li = document.createElement('li');
  li.appendChild(a);
  return li;
}

/** Fills a view's chunk list, a batch per task; the current chunk's row is marked once the list is whole. */
export function fillList(page: Page, v: View): void {
  const list = v.list;
  if (!list) return;
  const chunks = v.data.chunks;
  // Meters are a share of the limit when there is one, so one huge outlier does not flatten every other bar.
  const scale = Math.max(1, v.data.maxSize || chunks.reduce((m, c) => Math.max(m, c.size), 1));
  const next = { k: 0 };
  const batch = (): void => {
    const frag = document.createDocumentFragment();
    for (const end = Math.min(chunks.length, next.k + LIST_BATCH); next.k < end; next.k++) frag.appendChild(listRow(v, chunks[next.k] as ChunkFacts, next.k, scale));
    list.appendChild(frag);
    if (next.k < chunks.length) setTimeout(batch, 0);
    else if (page.selection.view === v.index && page.selection.chunk >= 0) markCurrent(page, v, page.selection.chunk);
  };
  batch();
}
