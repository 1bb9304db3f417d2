/**
 * Where things are drawn: document offset ↔ position in a view's scrolled text, through the offsets every
 * top-level element of the text carries (`data-s`, `data-e`), and scrolling a view to an offset or an element.
 */
import type { View } from './page.js';

/** Frames the elements around a scroll target stay laid out: long enough for the browser to keep their sizes. */
const LAID_OUT_FRAMES = 4;

/** The last index whose value is at most x (0 when there is none). */
export function floorIndex(values: readonly number[], x: number): number {
  let lo = 0;
  let hi = values.length - 1;
  let found = 0;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if ((values[mid] as number) <= x) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/** The chunk holding offset `at`: the last one starting at or before it (-1 in a view without chunks). */
export function chunkAt(v: View, at: number): number {
  return v.data.chunks.length ? floorIndex(v.starts, at) : -1;
}

/** The band of chunk k in a view. */
export function band(v: View, k: number): HTMLElement | null {
  return document.getElementById(`${v.prefix}c${k}`);
}

/** True when the view is shown (on a phone, only one view of a comparison is). */
export function visible(v: View): boolean {
  return v.doc.offsetParent !== null;
}

/** Top of an element in its view's scrolled text, wherever it is nested. */
function topIn(v: View, el: Element): number {
  return el.getBoundingClientRect().top - v.doc.getBoundingClientRect().top + v.doc.scrollTop;
}

/** The document offset drawn y pixels from the top of a view's scrolled text (segments carry their offsets). */
export function offsetAtY(v: View, y: number): number {
  const segs = v.segments;
  if (!segs.length) return 0;
  let lo = 0;
  let hi = segs.length - 1;
  let found = 0;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if ((segs[mid] as HTMLElement).offsetTop <= y) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  const s = segs[found] as HTMLElement;
  const f = Math.max(0, Math.min(1, (y - s.offsetTop) / (s.offsetHeight || 1)));
  const start = v.segmentStarts[found] as number;
  return start + f * ((v.segmentEnds[found] as number) - start);
}

/** Where offset `at` is drawn in a view's scrolled text, in pixels from its top. */
function yOfOffset(v: View, at: number): number {
  if (!v.segments.length) return 0;
  const i = floorIndex(v.segmentStarts, at);
  const a = v.segmentStarts[i] as number;
  const b = v.segmentEnds[i] as number;
  const s = v.segments[i] as HTMLElement;
  const f = b > a ? Math.max(0, Math.min(1, (at - a) / (b - a))) : 0;
  return s.offsetTop + f * s.offsetHeight;
}

/** Scrolls a view's text; `quiet` means the other views of a comparison are not to follow (they are placed already). */
function scrollDocTo(v: View, top: number, quiet: boolean): void {
  v.doc.scrollTop = Math.max(0, top);
  v.expectedScroll = quiet ? v.doc.scrollTop : -1;
}

/** The element of a view's text that holds el: el itself, or its band, strip or gap. */
function segmentOf(v: View, el: Node | null): Element | null {
  let n = el;
  while (n && n.parentNode !== v.doc) n = n.parentNode;
  return n instanceof Element ? n : null;
}

/**
 * Lays out the elements within a screen and a half of a segment, up and down. With content-visibility they are
 * otherwise drawn at an estimated height until they come near the screen, and their real heights, arriving a few
 * frames after a scroll, would push what was scrolled to away. They stay laid out a few frames, long enough for
 * the browser to remember their sizes.
 */
function layOutAround(v: View, seg: Element | null | undefined): void {
  if (!seg) return;
  const near: Element[] = [];
  const reach = v.doc.clientHeight * 1.5;
  const walk = (from: Element | null, step: 'previousElementSibling' | 'nextElementSibling'): void => {
    let h = 0;
    for (let n = from; n && h < reach; n = n[step]) {
      n.classList.add('near');
      near.push(n);
      h += n instanceof HTMLElement ? n.offsetHeight : 0;
    }
  };
  walk(seg, 'previousElementSibling');
  walk(seg.nextElementSibling, 'nextElementSibling');
  let frames = 0;
  const release = (): void => {
    if (++frames < LAID_OUT_FRAMES) {
      requestAnimationFrame(release);
      return;
    }
    for (const n of near) n.classList.remove('near');
  };
  release();
}

/** Scrolls so an element is `margin` pixels below the top of its view. */
export function scrollToElement(v: View, el: Element, margin: number, quiet = false): void {
  layOutAround(v, segmentOf(v, el));
  scrollDocTo(v, topIn(v, el) - margin, quiet);
}

/** Scrolls so document offset `at` is drawn `margin` pixels below the top of a view. */
export function scrollToOffset(v: View, at: number, margin: number, quiet = false): void {
  if (!v.segments.length) return;
  layOutAround(v, v.segments[floorIndex(v.segmentStarts, at)]);
  scrollDocTo(v, yOfOffset(v, at) - margin, quiet);
}
