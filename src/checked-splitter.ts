/**
 * Where an injected text splitter's answer becomes spans the chunker can trust. The protocol promises two shapes of
 * answer, and both are accepted here:
 *
 * - spans `{ start, end }` into the text it was given;
 * - the pieces themselves, as strings (the design's `split(text, max_size) -> list[str]`): consecutive slices of
 *   the text, with only whitespace between them, found again at their exact offsets.
 *
 * Every span is then checked (in order, inside the text, not inside a surrogate pair, no non-whitespace left out),
 * because a wrong one would lose text or repeat it without a word: a piece that breaks a rule is `ERR_PROTOCOL`
 * naming it. A piece that measures above `maxSize` is not refused but cut again by the built-in splitter, and the
 * statistics say how often: a splitter that cuts only at its own boundaries (chapters, say, or `text[:n]` and the
 * rest) then still gives chunks within the limit.
 */
import { ChunkError } from './errors.js';
import { toTextSplitter, type Sizer, type SpanSplitter, type TextSplitterLike } from './protocols.js';
import type { Span } from './types.js';
import { isOneGrapheme } from './unicode/segmenters.js';

/** The checked splitter, which also says how often it had to cut an injected splitter's piece again. */
export interface CheckedTextSplitter extends SpanSplitter {
  /** Warnings for the statistics: pieces above `maxSize` that the built-in splitter cut again, if any. */
  warnings(): string[];
}

/** The longest excerpt of text an error message quotes. */
const QUOTED = 40;
/** The ranges of the two halves of a surrogate pair. */
const HIGH_SURROGATE = { first: 0xd800, last: 0xdbff } as const;
const LOW_SURROGATE = { first: 0xdc00, last: 0xdfff } as const;

/**
 * Wraps an injected splitter so that the chunker can trust its answers (see the module comment). `fallback` gives
 * the built-in splitter of the chunker's unit and locale, asked only for a piece above `maxSize`.
 */
export function toCheckedTextSplitter(splitter: TextSplitterLike, sizer: Sizer, fallback: () => SpanSplitter): CheckedTextSplitter {
  const inner = toTextSplitter(splitter);
  if (inner === null || typeof inner !== 'object' || typeof inner.split !== 'function') {
    throw new ChunkError('ERR_PROTOCOL', 'textSplitter must be a function or an object with a split(text, maxSize) method');
  }
  const tally = { recut: 0 };
  return {
    split(text, maxSize, targetSize) {
      const answer: unknown = targetSize === undefined ? inner.split(text, maxSize) : inner.split(text, maxSize, targetSize);
      const spans = spansOf(answer, text);
      const out: Span[] = [];
      for (const span of spans) {
        const slice = text.slice(span.start, span.end);
        if (sizer.size(slice) <= maxSize || isOneGrapheme(slice)) {
          out.push(span);
          continue;
        }
        tally.recut++;
        for (const s of fallback().split(slice, maxSize, targetSize)) out.push({ start: span.start + s.start, end: span.start + s.end });
      }
      return out;
    },
    warnings() {
      const n = tally.recut;
      return n === 0 ? [] : [`textSplitter returned ${n} piece${n === 1 ? '' : 's'} above maxSize, cut again by the built-in TextSplitter`];
    },
  };
}

/** The spans of a splitter's answer (strings found again in `text`), checked for order and coverage. */
function spansOf(answer: unknown, text: string): Span[] {
  if (!Array.isArray(answer)) throw broken(`must return an array of strings or { start, end } spans, got ${String(answer)}`);
  const spans: Span[] = [];
  let previousEnd = 0;
  answer.forEach((piece: unknown, i) => {
    const span = typeof piece === 'string' ? spanOfString(piece, i, text, previousEnd) : spanOfObject(piece, i, text, previousEnd);
    if (span === undefined) return;
    if (/\S/.test(text.slice(previousEnd, span.start))) throw broken(`left text out before piece ${i}: ${quote(text.slice(previousEnd, span.start))}`);
    for (const at of [span.start, span.end]) {
      if (insideSurrogatePair(text, at)) throw broken(`cut piece ${i} inside a surrogate pair at ${at} (cut between code points)`);
    }
    spans.push(span);
    previousEnd = span.end;
  });
  if (/\S/.test(text.slice(previousEnd))) throw broken(`left text out after its last piece: ${quote(text.slice(previousEnd))}`);
  return spans;
}

/**
 * Where the string `piece` lies in `text`: the next slice after `after`, whitespace before it allowed. A piece of
 * whitespace alone holds nothing to chunk and is passed over. One probe, not a search: the piece's first
 * non-whitespace character must be the text's first one after `after`.
 */
function spanOfString(piece: string, i: number, text: string, after: number): Span | undefined {
  const lead = piece.search(/\S/);
  if (lead === -1) return undefined;
  const nonSpace = /\S/g;
  nonSpace.lastIndex = after;
  const next = nonSpace.exec(text)?.index ?? text.length;
  const start = next - lead;
  if (start < after || !text.startsWith(piece, start)) {
    throw broken(`returned piece ${i} ${quote(piece)}, which is not the next piece of the text (at ${after}: ${quote(text.slice(after))})`);
  }
  return { start, end: start + piece.length };
}

/** A `{ start, end }` answer, checked to lie after `after` and inside the text. */
function spanOfObject(piece: unknown, i: number, text: string, after: number): Span {
  const { start, end } = (piece ?? {}) as Partial<Span>;
  if (!Number.isInteger(start) || !Number.isInteger(end)) throw broken(`returned span ${i} without integer start and end (and it is no string)`);
  const s = start as number;
  const e = end as number;
  if (s < after || e <= s || e > text.length) {
    throw broken(`returned span ${i} [${s}, ${e}) out of order, empty or outside the text (after ${after}, length ${text.length})`);
  }
  return { start: s, end: e };
}

/** True when offset `at` falls between the two halves of a surrogate pair: a cut there leaves two broken characters. */
function insideSurrogatePair(text: string, at: number): boolean {
  if (at <= 0 || at >= text.length) return false;
  const before = text.charCodeAt(at - 1);
  const after = text.charCodeAt(at);
  return before >= HIGH_SURROGATE.first && before <= HIGH_SURROGATE.last && after >= LOW_SURROGATE.first && after <= LOW_SURROGATE.last;
}

function quote(text: string): string {
  return JSON.stringify(text.slice(0, QUOTED)) + (text.length > QUOTED ? '…' : '');
}

function broken(rule: string): ChunkError {
  return new ChunkError('ERR_PROTOCOL', `textSplitter ${rule}`);
}
