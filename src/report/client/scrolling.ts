/**
 * The views of a comparison kept aligned by document position: a view scrolled by the reader brings the others to
 * the same offset; on a phone, where one view shows at a time, the tabs switch views at the same place.
 */
import { numberAttribute } from './dom.js';
import { offsetAtY, scrollToOffset, visible } from './geometry.js';
import { updateViewport } from './minimap.js';
import type { Page, View } from './page.js';
import { unpin } from './selection.js';

/** After a view scrolled (not by this script), scrolls the other views so the same offset is at their top. */
function follow(page: Page, v: View): void {
  const own = v.expectedScroll >= 0 && Math.abs(v.doc.scrollTop - v.expectedScroll) < 2;
  v.expectedScroll = -1;
  if (own) return;
  const at = offsetAtY(v, v.doc.scrollTop);
  for (const w of page.views) {
    if (w === v || !visible(w)) continue;
    scrollToOffset(w, at, 0, true);
    updateViewport(page, w);
  }
}

/** On scroll, once a frame: the minimap's viewport moves, and in a comparison the other views follow. */
export function listenToScroll(page: Page, v: View): void {
  const frame = { queued: false };
  v.doc.addEventListener(
    'scroll',
    () => {
      if (frame.queued) return;
      frame.queued = true;
      requestAnimationFrame(() => {
        frame.queued = false;
        updateViewport(page, v);
        if (page.compare) follow(page, v);
      });
    },
    { passive: true },
  );
}

/** The phone's view tabs: show one view, at the offset the shown one was at; a chunk pinned in another is released. */
export function listenToTabs(page: Page): void {
  for (const tab of document.querySelectorAll('.view-tabs [data-tab]')) {
    tab.addEventListener('click', () => {
      const i = numberAttribute(tab, 'data-tab');
      const from = page.views.filter(visible)[0];
      const at = from ? offsetAtY(from, from.doc.scrollTop) : 0;
      for (const s of document.querySelectorAll('.view')) s.classList.toggle('active', numberAttribute(s, 'data-view') === i);
      for (const t of document.querySelectorAll('.view-tabs [data-tab]')) t.setAttribute('aria-selected', String(t === tab));
      const w = page.views[i];
      if (!w) return;
      scrollToOffset(w, at, 0, true);
      updateViewport(page, w);
      if (page.selection.view !== i) {
        unpin(page);
        page.selection.view = i;
      }
    });
  }
}
