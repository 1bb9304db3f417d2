/**
 * Stepping through what the summary counts: a problem row or a histogram bar chooses a list of targets (the chunks
 * it counts, or text no chunk holds), and ‹ › and n / p step through it. Without a choice, n / p step through every
 * problem of the current view from the current chunk on.
 */
import { has, num, numberAttribute } from './dom.js';
import { scrollToElement } from './geometry.js';
import type { Filter, Page, Problems, Target, View } from './page.js';
import { pin, unpin } from './selection.js';

/** What the problem rows' kinds are called in the status line. */
const NAMES: Readonly<Record<string, string>> = { oversized: 'oversized', above: 'above max', undersized: 'undersized', lonely: 'heading only', lost: 'text outside chunks' };

/** What a view counts as problems, by kind, each a list of targets in document order; counted once. */
function problems(v: View): Problems {
  if (v.problems) return v.problems;
  const out = { oversized: [] as Target[], above: [] as Target[], undersized: [] as Target[], lonely: [] as Target[], lost: [] as Target[], all: [] as Target[] };
  v.data.chunks.forEach((c, k) => {
    const t: Target = { chunk: k, at: c.start };
    if (has(c.flags, 'oversized')) out.oversized.push(t);
    if (v.data.maxSize !== null && c.size > v.data.maxSize) out.above.push(t);
    if (has(c.flags, 'undersized')) out.undersized.push(t);
    if (has(c.flags, 'heading only')) out.lonely.push(t);
    if (has(c.flags, 'oversized') || has(c.flags, 'above max') || has(c.flags, 'undersized') || has(c.flags, 'heading only')) out.all.push(t);
  });
  for (const el of v.doc.querySelectorAll('.lost')) {
    const t: Target = { element: el, at: el.parentElement ? numberAttribute(el.parentElement, 'data-s') : 0 };
    out.lost.push(t);
    out.all.push(t);
  }
  out.all.sort((a, b) => a.at - b.at);
  v.problems = out;
  return out;
}

/** Makes a list of targets the one ‹ › step through, and marks the control that chose it. */
function choose(page: Page, v: View, name: string, label: string, targets: readonly Target[], control: Element | null): Filter {
  page.filter?.control?.classList.remove('sel');
  control?.classList.add('sel');
  const filter: Filter = { view: v, name, label, targets, at: -1, control };
  page.filter = filter;
  return filter;
}

/** The status line of the summary: the problem counts, or where the stepping is. */
export function describeFilter(page: Page): void {
  const filter = page.filter;
  if (!filter) {
    const counts = page.views.map((v) => (page.compare ? `${v.data.tag} ` : '') + num(problems(v).all.length));
    page.problemState.textContent = `Problems: ${counts.join(', ')} · ‹ › step through them`;
    return;
  }
  const head = `${page.compare ? `${filter.view.data.tag} · ` : ''}${filter.label}: `;
  const n = filter.targets.length;
  page.problemState.textContent = n ? head + (filter.at < 0 ? num(n) : `${num(filter.at + 1)} of ${num(n)}`) : `${head}none`;
}

/** Goes to a target: pins its chunk, or lights and scrolls to the text no chunk holds. */
function go(page: Page, v: View, t: Target): void {
  if (t.element) {
    unpin(page);
    page.selection.view = v.index;
    scrollToElement(v, t.element, 40);
    t.element.classList.add('lit');
    page.lit = [t.element];
  } else pin(page, v, t.chunk, true);
}

/** Steps to the next (1) or previous (-1) target of the filter, round the end, and says where it is. */
function stepFilter(page: Page, dir: number): void {
  const filter = page.filter;
  const n = filter ? filter.targets.length : 0;
  if (filter && n) {
    filter.at = filter.at < 0 ? (dir > 0 ? 0 : n - 1) : (filter.at + dir + n) % n;
    go(page, filter.view, filter.targets[filter.at] as Target);
  }
  describeFilter(page);
}

/** Next or previous problem; without a choice yet, every problem of the current view, from the current chunk on. */
export function stepProblem(page: Page, dir: number): void {
  const v = page.views[page.selection.view];
  if (!page.filter && v) {
    const all = problems(v).all;
    const filter = choose(page, v, 'all', 'problems', all, null);
    const c = page.selection.chunk >= 0 ? v.data.chunks[page.selection.chunk] : undefined;
    if (c) {
      let i = 0;
      while (i < all.length && (all[i] as Target).at <= c.start) i++;
      filter.at = dir > 0 ? i - 1 : i;
    }
  }
  stepFilter(page, dir);
}

/** A problem count (or its row's label) was clicked: step through what it counts, in its view. */
export function chooseProblem(page: Page, control: Element): void {
  const tr = control.closest('tr');
  const name = tr?.getAttribute('data-problem');
  const button = control.tagName === 'BUTTON' ? control : tr?.querySelector('button.prob');
  if (!name || !button) return;
  const v = page.views[numberAttribute(button, 'data-view')] ?? (page.views[0] as View);
  const f = page.filter;
  if (!f || f.view !== v || f.name !== name) choose(page, v, name, NAMES[name] ?? name, problems(v)[name] ?? [], button);
  stepFilter(page, 1);
}

/** A histogram bar was clicked: step through the chunks whose sizes it counts. */
export function chooseBin(page: Page, svg: Element, bin: Element): void {
  const v = page.views[numberAttribute(svg, 'data-view')] ?? (page.views[0] as View);
  const lo = numberAttribute(bin, 'data-lo');
  const hi = numberAttribute(bin, 'data-hi');
  const name = `bin${lo}`;
  const f = page.filter;
  if (!f || f.view !== v || f.name !== name) {
    const targets: Target[] = [];
    v.data.chunks.forEach((c, k) => {
      if (c.size >= lo && c.size <= hi) targets.push({ chunk: k, at: c.start });
    });
    choose(page, v, name, `size ${num(lo)}–${num(hi)} ${v.data.unit}`, targets, bin);
  }
  stepFilter(page, 1);
}
