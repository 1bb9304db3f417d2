/**
 * The default optimizer: fuses chunks below `minSize` with a neighbour of the same section when the result fits,
 * adds `overlap` by moving a chunk's start back into the previous chunk (so its text is still an exact slice), and
 * drops whitespace-only chunks. It never works across a split-level heading. It works on drafts: the sections and
 * span starts it needs are theirs.
 */
import type { ChunkConfig } from '../config.js';
import { countLineEndings } from '../unicode/lines.js';
import type { ChunkMeasure } from './chunk-measure.js';
import { mergeMetadata, type PackedDraft, type SpanMark } from './draft.js';
import { earliestFitting } from './fit.js';

/** Rewrites a window of one section's drafts. */
export interface DraftOptimizer {
  optimize(drafts: PackedDraft[], config: ChunkConfig): PackedDraft[];
}

/** Creates the default optimizer. It remembers the last draft it returned, so overlap continues across windows. */
export function createDefaultOptimizer(measure: ChunkMeasure): DraftOptimizer {
  let previous: PackedDraft | undefined;
  return {
    optimize(drafts: PackedDraft[], config: ChunkConfig): PackedDraft[] {
      // A window of one draft (a section of one chunk: a heading per line makes one every few bytes) has nothing
      // to fuse with; without overlap it is kept as it is, or dropped when blank.
      const only = drafts.length === 1 && config.overlap === 0 ? drafts[0] : undefined;
      if (only !== undefined) {
        if (only.text.trim() === '') return [];
        previous = only;
        return drafts;
      }
      const kept = fuseSmall(drafts.filter((c) => c.text.trim() !== ''), config, measure);
      const out: PackedDraft[] = [];
      for (const draft of kept) {
        const before = out.at(-1) ?? previous;
        out.push(config.overlap > 0 && before !== undefined ? withOverlap(before, draft, config, measure) : draft);
      }
      previous = out.at(-1) ?? previous;
      return out;
    },
  };
}

/** True when `a` and `b` may become one chunk: same section, no frame between them, nothing kept whole. */
function canJoin(a: PackedDraft, b: PackedDraft): boolean {
  return a.section === b.section && a.suffix === '' && b.prefix === '' && !a.oversized && !b.oversized && a.end <= b.start;
}

/**
 * Fuses each chunk below `minSize` into its previous or next neighbour when the result fits, with room left for
 * `overlap` as the packer leaves it (a fused chunk as large as `maxSize` would get no overlap); one that starts with a
 * heading only into the next, with what the heading introduces; none into a next that opens a section of its own
 * (`opensOtherSection`). Fused backward, a heading would end the chunk
 * before it, and whether it did would hang on the chunk's size, which an edit above changes (Node's
 * perf_hooks.md: a heading and its first sentence went to the previous section's tail or not, and four chunks
 * after it moved).
 */
function fuseSmall(drafts: PackedDraft[], config: ChunkConfig, m: ChunkMeasure): PackedDraft[] {
  if (config.minSize === 0) return drafts;
  const limit = m.maxSize - config.overlap;
  const out: PackedDraft[] = [];
  for (let i = 0; i < drafts.length; i++) {
    let draft = drafts[i] as PackedDraft;
    const before = out.at(-1);
    if (draft.size < config.minSize && before !== undefined && canJoin(before, draft) && !startsWithHeading(draft)) {
      const joined = join(before, draft, m, limit);
      if (joined !== null) {
        out[out.length - 1] = joined;
        continue;
      }
    }
    const next = drafts[i + 1];
    if (draft.size < config.minSize && next !== undefined && canJoin(draft, next) && !opensOtherSection(draft, next)) {
      const joined = join(draft, next, m, limit);
      if (joined !== null) {
        draft = joined;
        i++;
      }
    }
    out.push(draft);
  }
  return out;
}

/**
 * True when `next` opens a section that is not inside the one `draft` starts in: it starts with a heading as deep as
 * the innermost heading in force where `draft` starts, or shallower. Fused, the chunk would begin in `draft`'s
 * section and carry its breadcrumb over all of `next`'s (a small method's entry in Node's API docs lent its name to
 * the larger entry after it); the packer ended `draft` before that heading, so it stays a small chunk of whole
 * sections. Only a section whose text continues in `next`, or one of its subsections, is what it introduces.
 */
function opensOtherSection(draft: PackedDraft, next: PackedDraft): boolean {
  if (!startsWithHeading(next)) return false;
  const own = draft.heading.levels.at(-1);
  const opened = next.heading.levels.at(-1);
  return own !== undefined && opened !== undefined && opened <= own;
}

/** True when a draft's first span is a heading (a draft's kinds are in the order its spans bring them). */
function startsWithHeading(draft: PackedDraft): boolean {
  return draft.metadata.kinds[0] === 'heading';
}

/** `a` and `b` as one chunk, or null when it would measure more than `limit`. */
function join(a: PackedDraft, b: PackedDraft, m: ChunkMeasure, limit: number): PackedDraft | null {
  const text = a.text + b.gapBefore + b.text;
  const { size, embedText } = m.chunk(a.heading, a.prefix, text, b.suffix);
  if (size > limit) return null;
  return {
    text,
    start: a.start,
    end: b.end,
    startLine: a.startLine,
    endLine: b.endLine,
    size,
    heading: a.heading,
    prefix: a.prefix,
    suffix: b.suffix,
    ...pagesOf(a, b),
    metadata: mergeMetadata(a.metadata, b.metadata),
    ...(embedText !== undefined ? { embedText } : {}),
    section: a.section,
    gapBefore: a.gapBefore,
    spans: [...a.spans, ...b.spans],
  };
}

function pagesOf(a: PackedDraft, b: PackedDraft): { pageStart?: number; pageEnd?: number } {
  const pageStart = a.pageStart ?? b.pageStart;
  const pageEnd = b.pageEnd ?? a.pageEnd;
  return pageStart === undefined ? {} : { pageStart, pageEnd: pageEnd ?? pageStart };
}

const ITEM_MARKER = /^(?:[-+*]|\d{1,9}[.)])(?:[ \t]|$)/;

/** True when `rel` is the first non-blank character of a line and a list marker starts there. */
function isItemStart(text: string, rel: number): boolean {
  let i = rel - 1;
  while (i >= 0 && (text[i] === ' ' || text[i] === '\t')) i--;
  if (i >= 0 && text[i] !== '\n') return false;
  return ITEM_MARKER.test(text.slice(rel, rel + 12));
}

/** Places where a chunk may start inside `previous`: span starts, and word starts inside prose spans. */
function startCandidates(previous: PackedDraft, from: number): number[] {
  const out: number[] = [];
  const text = previous.text;
  for (const mark of previous.spans) {
    if (mark.end <= from || mark.start >= previous.end) continue;
    if (mark.opens && mark.start >= from && mark.start >= previous.start) out.push(mark.start);
    if (mark.starts === 'none') continue;
    for (let i = Math.max(mark.start + 1, from, previous.start + 1); i < mark.end; i++) {
      const rel = i - previous.start;
      if (mark.starts === 'words' ? /\s/.test(text[rel - 1] as string) && !/\s/.test(text[rel] as string) : isItemStart(text, rel)) out.push(i);
    }
  }
  return [...new Set(out)].sort((x, y) => x - y);
}

/**
 * Moves `draft`'s start back into `previous` by up to `overlap` units, to the earliest span or word start that
 * keeps both the overlap and the whole chunk within their limits. Chunks framed by a prefix, or following a chunk
 * that ends inside an open fence, keep their start: moving it would break the frame.
 */
function withOverlap(previous: PackedDraft, draft: PackedDraft, config: ChunkConfig, m: ChunkMeasure): PackedDraft {
  if (previous.section !== draft.section) return draft;
  if (draft.prefix !== '' || previous.suffix !== '' || draft.oversized || previous.end > draft.start) return draft;
  // Only look as far back as `overlap` units can reach (a token rarely spans more than 16 characters).
  const reach = config.unit === 'chars' ? config.overlap : config.overlap * 16 + 64;
  const candidates = startCandidates(previous, Math.max(previous.start, previous.end - reach));
  const gap = draft.gapBefore;
  const headText = (s: number) => previous.text.slice(s - previous.start) + gap;
  const fits = (s: number): boolean => {
    if (m.size(headText(s)) > config.overlap) return false;
    const heading = markAt(previous.spans, s)?.heading ?? previous.heading;
    return m.chunk(heading, '', headText(s) + draft.text, draft.suffix).size <= m.maxSize;
  };
  // Sizes shrink as the start moves forward: find the earliest start that fits.
  const start = candidates[earliestFitting(candidates.length, (k) => fits(candidates[k] as number))];
  if (start === undefined) return draft;
  const mark = markAt(previous.spans, start);
  const heading = mark?.heading ?? previous.heading;
  const text = headText(start) + draft.text;
  const { size, embedText } = m.chunk(heading, '', text, draft.suffix);
  const covered = previous.spans.filter((p) => p.end > start);
  const metadata = covered.every((p) => p.starts === 'words') ? draft.metadata : mergeMetadata(previous.metadata, draft.metadata);
  const pageStart = mark?.page ?? draft.pageStart;
  return {
    text,
    start,
    end: draft.end,
    startLine: previous.startLine + countLineEndings(previous.text, 0, start - previous.start),
    endLine: draft.endLine,
    size,
    heading,
    prefix: '',
    suffix: draft.suffix,
    ...(pageStart !== undefined ? { pageStart, pageEnd: draft.pageEnd ?? pageStart } : {}),
    metadata,
    ...(embedText !== undefined ? { embedText } : {}),
    section: draft.section,
    gapBefore: '',
    spans: [...covered.map((p) => (p.start < start ? { ...p, start } : p)), ...draft.spans],
  };
}

function markAt(marks: readonly SpanMark[], offset: number): SpanMark | undefined {
  let found: SpanMark | undefined;
  for (const mark of marks) if (mark.start <= offset) found = mark;
  return found;
}
