/**
 * The markers strategy, the classic "mixed strategy": split at a marker (`\n\n`, a heading prefix, `\n==` for
 * AsciiDoc sections), split any span above `maxSize` at the next marker in the list or, failing that, between
 * words, then merge any span below `minSize` into the next. Every chunk is an exact source slice with the
 * whitespace around it left out.
 */
import { invalidOption } from '../../config.js';
import type { Core } from '../../core.js';
import { ChunkError } from '../../errors.js';
import type { Chunker, Sizer, SizerLike } from '../../protocols.js';
import type { Chunk, Source, Span } from '../../types.js';
import { finishChunk, type ChunkOwner } from '../chunk-factory.js';
import { createLineIndex } from '../../unicode/lines.js';
import { linkNeighbours } from '../neighbours.js';
import { charSizer } from '../sizers/basic.js';
import { checkSource, numberAbove, optionalSizer, ownerOf } from './common.js';
import { findWindowEnd, type WordView } from './word-search.js';

/** Options of `byMarkers`. */
export interface MarkersOptions {
  /** Where to cut, in order of preference. A string matches literally; a span starts at the marker. Default `['\n\n']`. */
  markers?: readonly (string | RegExp)[];
  /** Spans below this are merged into the next one (into the previous one at the end) when the result fits. Default 0. */
  minSize?: number;
  /** Spans above this are split further. Required, > 0. */
  maxSize: number;
  /** Measures text; default UTF-16 code units. */
  sizer?: SizerLike;
}

/** The checked, defaulted form of `MarkersOptions`. */
export interface MarkersConfig {
  readonly markers: readonly (string | RegExp)[];
  readonly minSize: number;
  readonly maxSize: number;
  readonly sizer: Sizer;
}

/** Checks options once, at creation. */
export function normalizeMarkers(options: MarkersOptions): MarkersConfig {
  if (typeof options !== 'object' || options === null) throw invalidOption('options', 'must be an object { markers?, minSize?, maxSize, sizer? }', options);
  const maxSize = numberAbove('maxSize', options.maxSize, 0, false);
  const minSize = options.minSize === undefined ? 0 : numberAbove('minSize', options.minSize, 0, true);
  if (minSize > maxSize) throw invalidOption('minSize', `must not exceed maxSize (${maxSize})`, minSize);
  let markers: readonly (string | RegExp)[] = ['\n\n'];
  if (options.markers !== undefined) {
    const m = options.markers as unknown;
    if (!Array.isArray(m) || m.length === 0 || m.some((x) => !(x instanceof RegExp) && (typeof x !== 'string' || x === ''))) {
      throw invalidOption('markers', 'must be a non-empty array of non-empty strings or regular expressions', m);
    }
    markers = Object.freeze([...m]);
  }
  return Object.freeze({ markers, minSize, maxSize, sizer: optionalSizer('sizer', options.sizer) ?? charSizer });
}

/** Offsets in `text[from..to)` where `marker` starts, after `from` (a cut at `from` would be empty). */
export function markerCuts(text: string, from: number, to: number, marker: string | RegExp): number[] {
  const cuts: number[] = [];
  if (typeof marker === 'string') {
    for (let i = text.indexOf(marker, from + 1); i !== -1 && i < to; i = text.indexOf(marker, i + 1)) cuts.push(i);
    return cuts;
  }
  // A private global copy: the caller's regex keeps its lastIndex, and `^`/lookbehinds see only this text.
  const re = new RegExp(marker.source, marker.flags.replace(/[gy]/g, '') + 'g');
  const part = text.slice(from, to);
  for (let m = re.exec(part); m !== null; m = re.exec(part)) {
    if (m.index > 0 && m.index < part.length) cuts.push(from + m.index);
    // An empty match (a lookahead) would match again at the same place.
    if (m[0].length === 0) re.lastIndex++;
  }
  return cuts;
}

/** `[from, to)` without the whitespace at either end; `null` when nothing else is left. */
function trimSpan(text: string, from: number, to: number): Span | null {
  let s = from;
  let e = to;
  while (s < e && /\s/.test(text[s] as string)) s++;
  while (e > s && /\s/.test(text[e - 1] as string)) e--;
  return s < e ? { start: s, end: e } : null;
}

const WORD = /\S+/g;

/** Splits `[from, to)` between words into spans of at most `maxSize` (a longer single word stands alone). */
function packWords(text: string, span: Span, config: MarkersConfig): Span[] {
  const starts: number[] = [];
  const ends: number[] = [];
  const slice = text.slice(span.start, span.end);
  WORD.lastIndex = 0;
  for (let m = WORD.exec(slice); m !== null; m = WORD.exec(slice)) {
    starts.push(m.index);
    ends.push(m.index + m[0].length);
  }
  const view: WordView = { text: slice, starts, ends };
  const measure = (t: string): number => config.sizer.size(t);
  const out: Span[] = [];
  let guess = 0;
  for (let first = 0; first < starts.length; ) {
    const found = findWindowEnd(view, measure, first, starts.length - 1, true, config.maxSize, guess);
    const last = found.last as number;
    out.push({ start: span.start + (starts[first] as number), end: span.start + (ends[last] as number) });
    guess = last - first + 1;
    first = last + 1;
  }
  return out;
}

/** Splits a span at `markers[level]`, then each span still above `maxSize` at the following markers. */
function splitSpan(text: string, span: Span, level: number, config: MarkersConfig, out: Span[], always: boolean): void {
  const trimmed = trimSpan(text, span.start, span.end);
  if (trimmed === null) return;
  if (!always && config.sizer.size(text.slice(trimmed.start, trimmed.end)) <= config.maxSize) {
    out.push(trimmed);
    return;
  }
  if (level >= config.markers.length) {
    for (const s of packWords(text, trimmed, config)) out.push(s);
    return;
  }
  const cuts = markerCuts(text, trimmed.start, trimmed.end, config.markers[level] as string | RegExp);
  let from = trimmed.start;
  for (const cut of [...cuts, trimmed.end]) {
    splitSpan(text, { start: from, end: cut }, level + 1, config, out, false);
    from = cut;
  }
}

/** Merges spans below `minSize` into the next (the last into the previous) when the result fits `maxSize`. */
function mergeSmall(text: string, spans: Span[], config: MarkersConfig): { span: Span; size: number }[] {
  const size = (s: Span): number => config.sizer.size(text.slice(s.start, s.end));
  const out: { span: Span; size: number }[] = [];
  let current: { span: Span; size: number } | null = null;
  for (const span of spans) {
    const next = { span, size: size(span) };
    if (current === null) {
      current = next;
      continue;
    }
    if (current.size < config.minSize) {
      const merged: Span = { start: current.span.start, end: span.end };
      const mergedSize = size(merged);
      if (mergedSize <= config.maxSize) {
        current = { span: merged, size: mergedSize };
        continue;
      }
    }
    out.push(current);
    current = next;
  }
  if (current !== null) {
    const previous = out[out.length - 1];
    if (current.size < config.minSize && previous !== undefined) {
      const merged: Span = { start: previous.span.start, end: current.span.end };
      const mergedSize = size(merged);
      if (mergedSize <= config.maxSize) {
        out[out.length - 1] = { span: merged, size: mergedSize };
        return out;
      }
    }
    out.push(current);
  }
  return out;
}

/**
 * Creates the markers strategy. The text is always split at the first marker; a span above `maxSize` is split
 * at the next marker in the list, and past the last marker between words (a single word longer than `maxSize`
 * stands alone, flagged `oversized`); then each span below `minSize` is merged into the next one when the
 * merged span fits `maxSize` (a last small span goes into the previous one). A span starts at its marker;
 * whitespace around a chunk is left out of it. Empty or whitespace-only text gives no chunks.
 *
 * ```ts
 * const chunker = byMarkers({ markers: ['\n# ', '\n## ', '\n\n'], minSize: 100, maxSize: 1000 });
 * ```
 */
export function byMarkers(options: MarkersOptions): Chunker {
  const config = normalizeMarkers(options);
  return (source: Source): Chunk[] => {
    checkSource(source);
    return linkNeighbours(markerChunks(source.text, config, ownerOf(source)));
  };
}

/** The chunks of a whole text cut at markers, for `owner` (the chunker links them to their neighbours after its cores). */
function markerChunks(text: string, config: MarkersConfig, owner: ChunkOwner): Chunk[] {
  const spans: Span[] = [];
  splitSpan(text, { start: 0, end: text.length }, 0, config, spans, true);
  const lineOf = createLineIndex(text);
  return mergeSmall(text, spans, config).map(({ span, size }, index) => {
    const draft = {
      text: text.slice(span.start, span.end),
      start: span.start,
      end: span.end,
      startLine: lineOf(span.start),
      endLine: lineOf(span.end - 1),
      size,
      ...(size > config.maxSize ? { oversized: true, metadata: { oversizedReason: 'word longer than maxSize' } } : {}),
    };
    return finishChunk(draft, owner, index);
  });
}

/** Most text the markers core holds before it gives up (`ERR_BUFFER_OVERFLOW`). */
export const MARKERS_MAX_CHARS = 64 * 1024 * 1024;

/**
 * The markers strategy as a core over text written in any number of writes. A cut at a later marker can depend on text far
 * ahead, so the text is held whole, up to `maxChars` UTF-16 units, and chunked at the end.
 */
export function createMarkersCore(options: MarkersOptions, owner: ChunkOwner, maxChars = MARKERS_MAX_CHARS): Core<string, Chunk> {
  const config = normalizeMarkers(options);
  let text = '';
  return {
    write(written) {
      text += written;
      if (text.length > maxChars) {
        throw new ChunkError('ERR_BUFFER_OVERFLOW', `The markers strategy holds the whole document, which passed ${maxChars} characters; use the window or semantic strategy for larger inputs`);
      }
      return [];
    },
    // The owner as given, with the document's context: its chunks carry the title `chunk()` settled.
    end: () => markerChunks(text, config, owner),
  };
}
