/**
 * The HTML report's page script, bundled at build time into one classic script that the page inlines (and admits
 * by its hash). Hover shows a chunk's facts, click pins it, ‹ › and j / k step through chunks, problem rows,
 * histogram bars, ‹ › and n / p through problems, the minimap and the outline jump, Esc releases, and the views of
 * a comparison scroll together. It never writes document text into markup, only facts from the JSON element.
 */
import { fillList } from './list.js';
import { buildMinimap, updateViewport } from './minimap.js';
import { goHeading, listenToKeys, listenToPanel, listenToText } from './navigation.js';
import { createPage, type Page } from './page.js';
import { describeFilter } from './problems.js';
import { listenToScroll, listenToTabs } from './scrolling.js';
import { pin } from './selection.js';

/** Narrower than this (the stylesheet's phone layout), the settings and legend start folded. */
const PHONE_QUERY = '(max-width: 820px)';

/** A link to `#c12`, `#v1-c12` (a chunk) or `#h3` (a heading) opens the page there. */
function openFromHash(page: Page): void {
  const m = /^#(v(\d+)-)?(c|h)(\d+)$/.exec(location.hash);
  if (!m) return;
  const v = page.views[Number(m[2] || 0)];
  const n = Number(m[4]);
  if (v && m[3] === 'c' && n < v.data.chunks.length) pin(page, v, n, true);
  else if (v && m[3] === 'h') goHeading(page, n, null);
}

/** Reads the page, wires every listener, draws the minimaps, then marks the page ready (`data-ready`). */
function start(): void {
  const page = createPage();
  for (const v of page.views) listenToText(page, v);
  listenToKeys(page);
  listenToPanel(page);
  for (const v of page.views) listenToScroll(page, v);
  listenToTabs(page);
  for (const v of page.views) buildMinimap(page, v);
  // The viewport box needs the text laid out, and the lists can wait: both after the first frame, instead of
  // forcing a layout, or building a thousand rows, before the page is drawn.
  requestAnimationFrame(() => {
    for (const v of page.views) updateViewport(page, v);
    setTimeout(() => {
      for (const v of page.views) fillList(page, v);
    }, 0);
  });
  describeFilter(page);
  const more = document.getElementById('more');
  if (more instanceof HTMLDetailsElement && !window.matchMedia(PHONE_QUERY).matches) more.open = true;
  openFromHash(page);
  document.documentElement.setAttribute('data-ready', '1');
}

start();
