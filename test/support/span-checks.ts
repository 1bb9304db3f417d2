/**
 * The contract of a `TextSplitter`'s spans, checked against the text: ordered, disjoint, trimmed, covering every
 * non-whitespace character, each within `maxSize` (or a single grapheme cluster), never cutting a cluster.
 */
import type { Sizer } from '../../src/protocols.js';
import type { Span } from '../../src/types.js';

const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });

/**
 * Every grapheme-cluster boundary of `text`. Segmented line by line: a line feed always ends a cluster, and
 * `Intl.Segmenter` is slow on one long string.
 */
export function clusterBoundaries(text: string): Set<number> {
  const boundaries = new Set<number>([text.length]);
  let lineStart = 0;
  while (lineStart < text.length) {
    const nl = text.indexOf('\n', lineStart);
    const lineEnd = nl < 0 ? text.length : nl + 1;
    for (const s of graphemes.segment(text.slice(lineStart, lineEnd))) boundaries.add(lineStart + s.index);
    lineStart = lineEnd;
  }
  return boundaries;
}

/** Throws an `Error` naming the first broken rule. `boundaries` may be passed in when checking one text often. */
export function checkSpans(
  text: string,
  spans: readonly Span[],
  sizer: Sizer | undefined,
  maxSize: number,
  boundaries: Set<number> = clusterBoundaries(text),
): void {
  let previousEnd = 0;
  for (const [i, span] of spans.entries()) {
    const where = `span ${i} [${span.start}, ${span.end})`;
    if (!(Number.isInteger(span.start) && Number.isInteger(span.end) && span.start < span.end)) throw new Error(`${where} is empty or not integer`);
    if (span.start < previousEnd) throw new Error(`${where} overlaps or precedes the span before it (end ${previousEnd})`);
    if (span.end > text.length) throw new Error(`${where} ends after the text (${text.length})`);
    const gap = text.slice(previousEnd, span.start);
    if (/\S/.test(gap)) throw new Error(`non-whitespace ${JSON.stringify(gap.slice(0, 40))} before ${where} is in no span`);
    if (!boundaries.has(span.start) || !boundaries.has(span.end)) {
      throw new Error(`${where} cuts a grapheme cluster: ${JSON.stringify(text.slice(Math.max(0, span.start - 3), span.start + 3))} / ${JSON.stringify(text.slice(Math.max(0, span.end - 3), span.end + 3))}`);
    }
    const clusters = [...graphemes.segment(text.slice(span.start, Math.min(span.end, span.start + 64)))];
    if (clusters[0]!.segment.trim() === '') throw new Error(`${where} starts with whitespace`);
    const tail = [...graphemes.segment(text.slice(Math.max(span.start, span.end - 64), span.end))];
    if (tail[tail.length - 1]!.segment.trim() === '') throw new Error(`${where} ends with whitespace`);
    if (sizer !== undefined) {
      const slice = text.slice(span.start, span.end);
      const size = sizer.size(slice);
      if (!(size <= maxSize) && [...graphemes.segment(slice)].length > 1) throw new Error(`${where} measures ${size} > ${maxSize}`);
    }
    previousEnd = span.end;
  }
  const rest = text.slice(previousEnd);
  if (/\S/.test(rest)) throw new Error(`non-whitespace ${JSON.stringify(rest.slice(0, 40))} after the last span is in no span`);
}
