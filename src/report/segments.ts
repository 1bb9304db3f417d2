/**
 * The top-level elements of a view's document column, from its layout: each band's own text, the strip of text it
 * shares with earlier chunks (lifted out of the band to sit between the two), page marks between bands, and gaps.
 * A chunk's text is then its strip from the previous chunk, its own band and its strip into the next, one after the
 * other: the HTML report draws each run in its chunk's colour, shared runs in both.
 */
import type { Band, Gap, Fragment, ReportLayout, TextFragment } from './layout.js';

/** Page marks (and heading anchors) drawn between bands, clear of any band's label. */
export interface MarkSegment {
  readonly kind: 'marks';
  readonly pieces: readonly Fragment[];
}

/** Text the same two or more chunks hold, drawn once between the earlier band and the later one. */
export interface SharedSegment {
  readonly kind: 'shared';
  /** Band position of the latest chunk holding the text (whose band follows). */
  readonly position: number;
  /** Band positions of every chunk holding some of the text, ascending. */
  readonly owners: readonly number[];
  readonly start: number;
  readonly end: number;
  readonly pieces: readonly Fragment[];
}

/** What only one chunk holds (with its added text): the band proper. */
export interface BandSegment {
  readonly kind: 'band';
  readonly band: Band;
  readonly start: number;
  readonly end: number;
  readonly pieces: readonly Fragment[];
}

/** Text outside every chunk (blank gaps hold only their marks). */
export interface GapSegment {
  readonly kind: 'gap';
  readonly gap: Gap;
  readonly pieces: readonly Fragment[];
}

/** One top-level element of the document column. */
export type Segment = MarkSegment | SharedSegment | BandSegment | GapSegment;

/** Offsets of the first and last source text among pieces, or `[at, at]` when they hold none. */
function span(pieces: readonly Fragment[], at: number): [number, number] {
  const texts = pieces.filter((p): p is TextFragment => p.kind === 'text');
  return texts.length === 0 ? [at, at] : [(texts[0] as TextFragment).start, (texts.at(-1) as TextFragment).end];
}

/**
 * How many of `pieces`, from `from` on, form the strip this band shares with earlier chunks: shared text runs,
 * with the page marks, heading anchors and earlier chunks' suffixes among them. A prefix ends the strip (it
 * belongs to this chunk alone; the chunker never overlaps a chunk that has one), and so does this chunk's own text.
 */
function sharedLead(pieces: readonly Fragment[], from: number, owner: number): number {
  let lastText = -1;
  for (let i = from; i < pieces.length; i++) {
    const p = pieces[i] as Fragment;
    if (p.kind === 'text' && p.cover >= 2) lastText = i;
    else if (p.kind !== 'page' && p.kind !== 'anchor' && !(p.kind === 'suffix' && p.of !== owner)) break;
  }
  if (lastText < 0) return from;
  // Marks after the last shared run belong to the band's own text; earlier chunks' suffixes there do not.
  let end = lastText + 1;
  while (pieces[end]?.kind === 'suffix' && (pieces[end] as { of: number }).of !== owner) end++;
  return end;
}

/**
 * Cuts a band's shared lead into strips, one per set of chunks holding the text: where three chunks overlap, the
 * text all three hold and the text only the later two hold are different strips, so each strip lies inside every
 * chunk it names. Marks and suffixes go with the strip they fall in.
 */
function strips(lead: readonly Fragment[], position: number, from: number): SharedSegment[] {
  const out: { owners: number[]; pieces: Fragment[] }[] = [];
  let pending: Fragment[] = [];
  for (const p of lead) {
    if (p.kind !== 'text') {
      (out.at(-1)?.pieces ?? pending).push(p);
      continue;
    }
    const owners = [...p.chunks].sort((a, b) => a - b);
    const last = out.at(-1);
    if (last !== undefined && last.owners.join() === owners.join()) last.pieces.push(p);
    else {
      out.push({ owners, pieces: [...pending, p] });
      pending = [];
    }
  }
  let at = from;
  return out.map(({ owners, pieces }) => {
    const [start, end] = span(pieces, at);
    at = end;
    return { kind: 'shared', position, owners, start, end, pieces };
  });
}

/** Cuts a band into the marks before it, its shared strips and its own part. */
function bandSegments(band: Band, out: Segment[]): void {
  const pieces = band.pieces;
  let lead = 0;
  while (pieces[lead]?.kind === 'page') lead++;
  if (lead > 0) out.push({ kind: 'marks', pieces: pieces.slice(0, lead) });
  const shared = sharedLead(pieces, lead, band.position);
  let ownStart = band.start;
  if (shared > lead) {
    const lifted = strips(pieces.slice(lead, shared), band.position, band.start);
    out.push(...lifted);
    ownStart = (lifted.at(-1) as SharedSegment).end;
  }
  const own = pieces.slice(shared);
  const [start, end] = span(own, ownStart);
  out.push({ kind: 'band', band, start, end, pieces: own });
}

/** The document column of a layout, element by element, in document order. */
export function documentSegments(layout: ReportLayout): Segment[] {
  const out: Segment[] = [];
  for (const item of layout.items) {
    if (item.kind === 'band') bandSegments(item, out);
    else {
      // Whitespace between chunks is expected and not drawn; page marks and anchors in it, and lost text, are.
      const pieces = item.blank ? item.pieces.filter((p) => p.kind === 'page' || p.kind === 'anchor') : item.pieces;
      if (pieces.length === 0) continue;
      out.push(item.blank ? { kind: 'marks', pieces } : { kind: 'gap', gap: item, pieces });
    }
  }
  return out;
}
