/**
 * The minimap beside each view's text: one mark per chunk, placed by offset and coloured by size and flag, the
 * viewport drawn over them; a click (or a tap) goes to the chunk marked there, a drag scrolls the text along.
 */
import type { ChunkFacts } from '../page-data.js';
import { has, numberAttribute } from './dom.js';
import { chunkAt, offsetAtY, scrollToOffset } from './geometry.js';
import type { Page, View } from './page.js';
import { pin } from './selection.js';

/** Pixels the pointer moves, button down, before a press becomes a drag rather than a click. */
const DRAG_THRESHOLD = 4;

/** A share of the document as a CSS percentage. */
function percent(page: Page, offset: number): string {
  return `${((100 * offset) / page.length).toFixed(3)}%`;
}

/** A mark's class: its flag, or its size against the target (small, near, above). */
function markClass(v: View, c: ChunkFacts): string {
  const f = c.flags;
  if (has(f, 'oversized') || has(f, 'above max')) return 'over';
  if (has(f, 'heading only')) return 'lonely';
  if (has(f, 'undersized')) return 'under';
  const target = v.data.targetSize || v.data.maxSize;
  if (!target) return 's2';
  return c.size < target / 2 ? 's1' : c.size <= target ? 's2' : 's3';
}

/** Click goes to the chunk marked under the pointer, drag scrolls the text with the pointer. */
function listenToMinimap(page: Page, v: View, mm: HTMLElement, box: Element): void {
  const offsetAtPointer = (clientY: number): number => {
    const r = box.getBoundingClientRect();
    return Math.max(0, Math.min(1, (clientY - r.top) / (r.height || 1))) * page.length;
  };
  const markAt = (e: MouseEvent): number => {
    const t = document.elementFromPoint(e.clientX, e.clientY);
    if (t && t.parentNode === box && t.hasAttribute('data-k')) return numberAttribute(t, 'data-k');
    return chunkAt(v, offsetAtPointer(e.clientY));
  };
  const drag = { startY: null as number | null, dragged: false };
  mm.addEventListener('pointerdown', (e) => {
    drag.startY = e.clientY;
    drag.dragged = false;
  });
  mm.addEventListener('pointermove', (e) => {
    if (drag.startY === null || !e.buttons) return;
    if (Math.abs(e.clientY - drag.startY) > DRAG_THRESHOLD) drag.dragged = true;
    if (drag.dragged) scrollToOffset(v, offsetAtPointer(e.clientY), v.doc.clientHeight / 2);
  });
  mm.addEventListener('pointerup', () => {
    drag.startY = null;
  });
  mm.addEventListener('pointercancel', () => {
    drag.startY = null;
  });
  mm.addEventListener('click', (e) => {
    if (drag.dragged) {
      drag.dragged = false;
      return;
    }
    pin(page, v, markAt(e), true);
  });
}

/** Draws a view's minimap marks and listens to it. */
export function buildMinimap(page: Page, v: View): void {
  const mm = v.minimap;
  const box = mm?.querySelector('.mm-marks');
  if (!mm || !box) return;
  v.viewport = box.querySelector<HTMLElement>('.mm-view');
  const frag = document.createDocumentFragment();
  v.data.chunks.forEach((c, k) => {
    const m = document.createElement('i');
    m.className = markClass(v, c);
    m.setAttribute('data-k', String(k));
    m.style.top = percent(page, c.start);
    m.style.height = percent(page, c.end - c.start);
    frag.appendChild(m);
    v.marks.push(m);
  });
  box.appendChild(frag);
  listenToMinimap(page, v, mm, box);
}

/** Moves the minimap's viewport box to what the view's text shows. */
export function updateViewport(page: Page, v: View): void {
  if (!v.viewport) return;
  const top = offsetAtY(v, v.doc.scrollTop);
  const bottom = offsetAtY(v, v.doc.scrollTop + v.doc.clientHeight);
  v.viewport.style.top = percent(page, top);
  v.viewport.style.height = percent(page, Math.max(0, bottom - top));
}
