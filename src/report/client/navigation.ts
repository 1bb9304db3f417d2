/**
 * The page's input: hover and click on the text, the keys (j / k chunks, n / p problems, Esc releases), and the
 * side panel's clicks (‹ › buttons, problem counts, histogram bars, the outline, the chunk lists), each delegated
 * from one listener.
 */
import { numberAttribute, targetElement } from './dom.js';
import { scrollToElement, visible } from './geometry.js';
import type { Page, View } from './page.js';
import { chooseBin, chooseProblem, stepProblem } from './problems.js';
import { pin, show, step, unpin } from './selection.js';

/** Keys typed into these elements are text, not commands. */
const TEXT_FIELDS = /^(INPUT|TEXTAREA|SELECT)$/;

/** The view an element belongs to (the first view for the side panel's shared parts). */
function viewOf(page: Page, el: Element): View {
  const holder = el.closest('[data-view]');
  const first = page.views[0] as View;
  return holder ? (page.views[numberAttribute(holder, 'data-view')] ?? first) : first;
}

/** Scrolls every view to a heading's own position and pins, in the current view, the chunk that holds it. */
export function goHeading(page: Page, n: number, link: Element | null): void {
  const current = page.views[page.selection.view];
  for (const v of page.views) {
    const a = document.getElementById(`${v.prefix}h${n}`);
    // Every view goes to its own copy of the heading; none follows another.
    if (a && visible(v)) scrollToElement(v, a, 8, true);
  }
  const holder = current && document.getElementById(`${current.prefix}h${n}`)?.closest('[data-k]');
  if (current && holder) pin(page, current, numberAttribute(holder, 'data-k'), false);
  document.querySelector('ol.outline a.cur')?.classList.remove('cur');
  link?.classList.add('cur');
}

/** Hover shows a chunk (unless one is pinned); a click pins it, or releases it when it is the pinned one. */
export function listenToText(page: Page, v: View): void {
  v.doc.addEventListener('mouseover', (e) => {
    if (page.selection.pinned) return;
    const b = targetElement(e)?.closest('.band, .shared');
    if (b) show(page, v, numberAttribute(b, 'data-k'));
  });
  v.doc.addEventListener('click', (e) => {
    const b = targetElement(e)?.closest('.band, .shared');
    if (!b) return;
    // A click that ends a text selection is the reader copying, not choosing.
    if (String(window.getSelection() ?? '').length > 0) return;
    const k = numberAttribute(b, 'data-k');
    const sel = page.selection;
    if (sel.pinned && sel.view === v.index && k === sel.chunk) unpin(page);
    else pin(page, v, k, false);
  });
}

/** j / k step through chunks, n / p (or N) through problems, Esc releases; never while typing or with a modifier. */
export function listenToKeys(page: Page): void {
  document.addEventListener('keydown', (e) => {
    const target = targetElement(e);
    if (target && TEXT_FIELDS.test(target.tagName)) return;
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.key === 'Escape') unpin(page);
    else if (e.key === 'j') step(page, 1);
    else if (e.key === 'k') step(page, -1);
    else if (e.key === 'n') stepProblem(page, 1);
    else if (e.key === 'p' || e.key === 'N') stepProblem(page, -1);
  });
}

/** A side panel button (`data-act`): chunk and problem steps, release. */
function act(page: Page, name: string | null): void {
  if (name === 'prev' || name === 'next') step(page, name === 'next' ? 1 : -1);
  else if (name === 'close') unpin(page);
  else if (name === 'next-problem') stepProblem(page, 1);
  else if (name === 'prev-problem') stepProblem(page, -1);
}

/** Clicks on the side panel, delegated from the document. */
export function listenToPanel(page: Page): void {
  document.addEventListener('click', (e) => {
    const t = targetElement(e);
    if (!t) return;
    const action = t.closest('[data-act]');
    if (action) return act(page, action.getAttribute('data-act'));
    const problem = t.closest('button.prob, tr[data-problem] td:first-child');
    if (problem) return chooseProblem(page, problem);
    const bin = t.closest('svg.histogram .bin');
    if (bin) {
      const svg = bin.closest('svg');
      if (svg && !bin.classList.contains('empty')) chooseBin(page, svg, bin);
      return;
    }
    const heading = t.closest('ol.outline a[data-h]');
    if (heading) {
      e.preventDefault();
      return goHeading(page, numberAttribute(heading, 'data-h'), heading);
    }
    const item = t.closest('ol.chunks a[data-k]');
    if (item) {
      e.preventDefault();
      pin(page, viewOf(page, item), numberAttribute(item, 'data-k'), true);
    }
  });
}
