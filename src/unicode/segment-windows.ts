/**
 * Bounded windows for `Intl.Segmenter`, whose time grows faster than the length of the one string it is given
 * (`bench/sizers.ts` shows it): long text is segmented a few KB at a time, cut where the cut cannot matter, and
 * grapheme-cluster boundaries are checked on a few dozen characters around a position.
 */

/** Longest string (UTF-16 units) handed to `Intl.Segmenter` at once. */
export const SEGMENT_WINDOW = 4096;

/** Characters on each side of a position looked at to decide whether it is a grapheme-cluster boundary. */
const CLUSTER_CONTEXT = 32;

/**
 * True for the characters `String.prototype.trim` and `/\s/` treat as whitespace: ASCII blanks and line ends,
 * no-break and Unicode spaces, line and paragraph separators, the BOM.
 */
export function isSpaceCode(c: number): boolean {
  if (c <= 32) return c === 32 || (c >= 9 && c <= 13);
  if (c < 0xa0) return false;
  return c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

/**
 * The grapheme cluster of `text` that contains the code unit at `pos`, as `[start, end)`, found by segmenting only
 * a small window around `pos`. Clusters longer than the window (a long run of regional indicators, hundreds of
 * stacked combining marks) are cut at the window's edge.
 */
export function clusterAround(text: string, pos: number, graphemes: Intl.Segmenter): [number, number] {
  let from = Math.max(0, pos - CLUSTER_CONTEXT);
  if (from > 0 && isLowSurrogate(text.charCodeAt(from))) from--;
  let to = Math.min(text.length, pos + CLUSTER_CONTEXT);
  if (to < text.length && isLowSurrogate(text.charCodeAt(to))) to++;
  const segment = graphemes.segment(text.slice(from, to)).containing(pos - from);
  if (segment === undefined) return [pos, pos];
  return [from + segment.index, from + segment.index + segment.segment.length];
}

/** True when `pos` lies between two grapheme clusters of `text` (or at either end). */
export function isGraphemeBoundary(text: string, pos: number, graphemes: Intl.Segmenter): boolean {
  if (pos <= 0 || pos >= text.length) return true;
  const before = text.charCodeAt(pos - 1);
  const after = text.charCodeAt(pos);
  // Below U+0300 (the combining marks) no character extends, prepends or joins: only CR LF holds together. A
  // control character (C0, DEL, C1) breaks on both sides whatever its neighbour (rules GB4 and GB5 come before the
  // ones that join), and junk is full of them next to U+FFFD.
  if ((before < 0x300 && after < 0x300) || isControlCode(before) || isControlCode(after)) return !(before === 13 && after === 10);
  if (after >= 0xdc00 && after <= 0xdfff && before >= 0xd800 && before <= 0xdbff) return false;
  const previous = before >= 0xdc00 && before <= 0xdfff && pos >= 2 ? (text.codePointAt(pos - 2) as number) : before;
  if (standsAlone(previous) && standsAlone(text.codePointAt(pos) as number)) return true;
  return clusterAround(text, pos, graphemes)[0] === pos;
}

/**
 * Letters, digits, punctuation, symbols and spaces with no grapheme rule that joins them to a neighbour: not a
 * mark (Extend, SpacingMark, the virama of an Indic conjunct), not a Hangul jamo or syllable, a regional
 * indicator, an emoji modifier, a Prepend character, a control or a format character (ZWJ among them). A
 * boundary between two of them is certain; segmenting a window around it, as `clusterAround` does, costs a
 * hundred times more, and text without spaces (CJK) asks for it at every word.
 */
function standsAlone(cp: number): boolean {
  if (cp < 0x300) return !isControlCode(cp) && cp !== 0xad;
  if ((cp >= 0x1100 && cp <= 0x11ff) || (cp >= 0xa960 && cp <= 0xa97f) || (cp >= 0xac00 && cp <= 0xd7ff)) return false;
  if ((cp >= 0x1f1e6 && cp <= 0x1f1ff) || (cp >= 0x1f3fb && cp <= 0x1f3ff) || cp === 0xff9e || cp === 0xff9f || cp === 0x0e33 || cp === 0x0eb3) return false;
  if ((cp >= 0x600 && cp <= 0x605) || cp === 0x6dd || cp === 0x70f || cp === 0x890 || cp === 0x891 || cp === 0x8e2 || cp === 0xd4e || SUPPLEMENTARY_PREPEND.has(cp)) return false;
  return ORDINARY.test(String.fromCodePoint(cp));
}

/** Grapheme_Cluster_Break=Prepend above the BMP (Kaithi, Sharada, Dives Akuru, Zanabazar Square, Masaram Gondi, Kawi). */
const SUPPLEMENTARY_PREPEND = new Set([0x110bd, 0x110cd, 0x111c2, 0x111c3, 0x1193f, 0x11941, 0x11a3a, 0x11a84, 0x11a85, 0x11a86, 0x11a87, 0x11a88, 0x11a89, 0x11d46, 0x11f02]);

const ORDINARY = /^[\p{L}\p{N}\p{P}\p{S}\p{Zs}]$/u;

/** The grapheme boundary at `pos`, or the start of the cluster `pos` falls inside. */
export function boundaryAtOrBefore(text: string, pos: number, graphemes: Intl.Segmenter): number {
  if (isGraphemeBoundary(text, pos, graphemes)) return pos;
  return clusterAround(text, pos, graphemes)[0];
}

/** The grapheme boundary at `pos`, or the end of the cluster `pos` falls inside. */
export function boundaryAtOrAfter(text: string, pos: number, graphemes: Intl.Segmenter): number {
  if (isGraphemeBoundary(text, pos, graphemes)) return pos;
  return clusterAround(text, pos, graphemes)[1];
}

/**
 * Where to end a window that starts at `start` inside `[start, end)`: `end` when the rest is short enough,
 * otherwise just before a whitespace character in the second half of the window (a cut that no word or sentence
 * straddles), otherwise at a grapheme boundary near the window's length. Always `> start`.
 */
export function windowEnd(text: string, start: number, end: number, graphemes: Intl.Segmenter, size = SEGMENT_WINDOW): number {
  if (end - start <= size) return end;
  const limit = start + size;
  for (let i = limit; i > start + (size >> 1); i--) {
    if (isSpaceCode(text.charCodeAt(i)) && isGraphemeBoundary(text, i, graphemes)) return i;
  }
  const before = boundaryAtOrBefore(text, limit, graphemes);
  if (before > start) return before;
  const after = boundaryAtOrAfter(text, limit, graphemes);
  return after > start ? Math.min(after, end) : limit;
}

/**
 * Calls `emit(start, end)` for each segment of `text[start, end)` in order, segmenting windows of at most
 * `SEGMENT_WINDOW` units. A window that stops before `end` gives up its last segment (it may be truncated) and
 * the next window starts there; a window holding a single segment is emitted up to its cut. Once `stopped()` is
 * true, no further window is segmented.
 */
export function segmentWindows(
  text: string,
  start: number,
  end: number,
  segmenter: Intl.Segmenter,
  graphemes: Intl.Segmenter,
  emit: (start: number, end: number, wordLike: boolean | undefined) => void,
  stopped: () => boolean = () => false,
  windowOf: (text: string, from: number, to: number) => string = sliceOf,
): void {
  let from = start;
  while (from < end && !stopped()) {
    const to = windowEnd(text, from, end, graphemes);
    const window = windowOf(text, from, to);
    let pending: Intl.SegmentData | undefined;
    for (const segment of segmenter.segment(window)) {
      if (pending !== undefined) {
        emit(from + pending.index, from + segment.index, pending.isWordLike);
      }
      pending = segment;
    }
    if (pending === undefined) break;
    if (to < end && pending.index > 0) {
      from += pending.index;
    } else {
      emit(from + pending.index, to, pending.isWordLike);
      from = to;
    }
  }
}

function sliceOf(text: string, from: number, to: number): string {
  return text.slice(from, to);
}

/**
 * `text[from..to)` as a sentence segmenter should see it: each line end inside a paragraph (CR, LF or CRLF with no
 * other line end next to it across spaces and tabs) as spaces, as many as it has characters, so offsets stay.
 * Unicode's sentence rules end a sentence at every line end (SB4), and hard-wrapped prose, which Markdown sources,
 * plain text and licences are, was cut mid-sentence at its right margin; a blank line still ends a sentence.
 */
export function unwrappedLines(text: string, from: number, to: number): string {
  const window = text.slice(from, to);
  if (window.indexOf('\n') === -1 && window.indexOf('\r') === -1) return window;
  return window.replace(LINE_END, (found: string, at: number) => (isSoftLineEnd(text, from + at, from + at + found.length) ? (found.length === 2 ? '  ' : ' ') : found));
}

const LINE_END = /\r\n|\r|\n/g;

/** True when the line end `text[start..end)` has no other line end beside it, across spaces and tabs. */
function isSoftLineEnd(text: string, start: number, end: number): boolean {
  let before = start - 1;
  while (before >= 0 && isBlankCode(text.charCodeAt(before))) before--;
  let after = end;
  while (after < text.length && isBlankCode(text.charCodeAt(after))) after++;
  return before >= 0 && !isLineEndCode(text.charCodeAt(before)) && after < text.length && !isLineEndCode(text.charCodeAt(after));
}

const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;

function isBlankCode(c: number): boolean {
  return c === SPACE || c === TAB;
}

function isLineEndCode(c: number): boolean {
  return c === LF || c === CR;
}

/** A control character (general category Cc): C0 controls, DEL, C1 controls. */
function isControlCode(c: number): boolean {
  return c < 0x20 || (c >= 0x7f && c < 0xa0);
}

function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}
