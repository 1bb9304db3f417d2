import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { finishChunk } from '../../src/chunking/chunk-factory.js';
import { layoutReport, MAX_LISTED } from '../../src/report/layout.js';
import { documentSegments, type Segment } from '../../src/report/segments.js';
import type { Chunk } from '../../src/types.js';
import { fcParams } from '../support/property.js';
import { handMadeFixture } from './fixtures.js';

function chunk(text: string, start: number, end: number, index: number, extra: { prefix?: string; suffix?: string } = {}): Chunk {
  return finishChunk({ text: text.slice(start, end), start, end, startLine: 1, endLine: 1, size: end - start, ...extra }, { documentId: 'd' }, index);
}

/** Source text of a segment's text pieces. */
function textOf(seg: Segment, text: string): string {
  return seg.pieces.map((p) => (p.kind === 'text' ? text.slice(p.start, p.end) : '')).join('');
}

/** The segments that draw chunk k's text: strips it owns and its own band. */
function segmentsOf(segments: readonly Segment[], k: number): number[] {
  const out: number[] = [];
  segments.forEach((s, i) => {
    if ((s.kind === 'shared' && s.owners.includes(k)) || (s.kind === 'band' && s.band.position === k)) out.push(i);
  });
  return out;
}

/**
 * Chunk sets shaped like the chunker's: starts strictly increase, ends never decrease, some chunks overlap the
 * previous ones (by any amount, across several chunks), some leave a gap; added text only where nothing overlaps.
 */
const chunkerLike = fc
  .tuple(
    fc.string({ unit: fc.constantFrom('a', 'b', ' ', '\n', 'é', '<'), minLength: 30, maxLength: 160 }),
    fc.array(fc.tuple(fc.nat(14), fc.nat(30), fc.boolean()), { minLength: 1, maxLength: 12 }),
    fc.array(fc.nat(), { maxLength: 4 }),
  )
  .map(([text, raw, pageSeeds]) => {
    const chunks: Chunk[] = [];
    let start = -1;
    let end = 0;
    for (const [step, length] of raw) {
      const s = start + 1 + step;
      // Each chunk starts after the previous one's start and ends past its end, as the chunker's do.
      const e = Math.min(text.length, Math.max(end + 1, s + 1 + length));
      if (s >= text.length || e <= end) break;
      chunks.push(chunk(text, s, e, chunks.length));
      start = s;
      end = e;
    }
    // Added text on chunks that overlap neither neighbour, as the chunker does (overlap never follows a cut table or fence).
    const marked = chunks.map((c, i) => {
      const prev = chunks[i - 1];
      const next = chunks[i + 1];
      const alone = (prev === undefined || prev.end <= c.start) && (next === undefined || c.end <= next.start);
      return alone && raw[i]?.[2] ? chunk(text, c.start, c.end, i, { prefix: '[', suffix: ']' }) : c;
    });
    const pages = [...new Set(pageSeeds.map((p) => p % text.length))].sort((a, b) => a - b).map((offset, i) => ({ page: i + 1, offset }));
    return { text, chunks: marked, pages };
  });

describe('documentSegments', () => {
  it('lifts the text two chunks share into a strip between their bands', () => {
    const { text, chunks } = handMadeFixture();
    const segments = documentSegments(layoutReport(chunks, text));
    const shared = segments.filter((s) => s.kind === 'shared');
    expect(shared).toHaveLength(1);
    expect(shared[0]).toMatchObject({ kind: 'shared', position: 5, owners: [4, 5] });
    expect(textOf(shared[0]!, text)).toBe('Epsilon zeta eta theta.');
    const band4 = segments.findIndex((s) => s.kind === 'band' && s.band.position === 4);
    expect(segments[band4 + 1]).toBe(shared[0]);
    expect(segments[band4 + 2]).toMatchObject({ kind: 'band', band: { position: 5 } });
  });

  it('cuts the text three chunks overlap on into strips by who holds it', () => {
    const text = 'abcdefghijklmnopqrstuvwxyz0123';
    const segments = documentSegments(layoutReport([chunk(text, 0, 20, 0), chunk(text, 10, 25, 1), chunk(text, 15, 30, 2)], text));
    expect(segments.map((s) => [s.kind, s.kind === 'shared' ? s.owners.join() : s.kind === 'band' ? s.band.position : '', textOf(s, text)])).toEqual([
      ['band', 0, 'abcdefghij'],
      ['shared', '0,1', 'klmno'],
      ['band', 1, ''],
      ['shared', '0,1,2', 'pqrst'],
      ['shared', '1,2', 'uvwxy'],
      ['band', 2, 'z0123'],
    ]);
  });

  it('puts page marks where a band begins before the band, not inside it', () => {
    const text = 'one two\n\nthree four';
    const layout = layoutReport([chunk(text, 0, 7, 0), chunk(text, 9, 19, 1)], text, { pages: [{ page: 1, offset: 0 }, { page: 2, offset: 9 }] });
    expect(documentSegments(layout).map((s) => s.kind)).toEqual(['marks', 'band', 'marks', 'band']);
  });

  it('property: each chunk is drawn by consecutive elements (its strips and its band) holding exactly its text', () => {
    fc.assert(
      fc.property(chunkerLike, ({ text, chunks, pages }) => {
        // Runs name at most MAX_LISTED chunks (a bound that keeps pathological input linear); the chunker's overlap
        // stacks two or three deep.
        fc.pre([...text].every((_, i) => chunks.filter((c) => c.start <= i && i < c.end).length <= MAX_LISTED));
        const layout = layoutReport(chunks, text, { pages });
        const segments = documentSegments(layout);
        // Elements that draw text. A chunk lying wholly inside its neighbours' overlap has an empty band of its own
        // (a label only), which may sit inside a neighbour's run.
        const drawing = segments.filter((s) => s.kind !== 'marks' && textOf(s, text) !== '');
        layout.chunks.forEach((c, k) => {
          const mine = segmentsOf(drawing, k);
          if (c.text === '') return;
          // Consecutive among the drawing elements: no other chunk's band or strip comes between.
          expect(mine.at(-1)! - mine[0]!).toBe(mine.length - 1);
          expect(mine.map((i) => textOf(drawing[i]!, text)).join('')).toBe(c.text);
        });
        for (const s of segments) {
          if (s.kind !== 'shared') continue;
          // A strip's text lies inside every chunk it names.
          for (const o of s.owners) expect(s.start >= layout.chunks[o]!.start && s.end <= layout.chunks[o]!.end).toBe(true);
          expect(s.owners.length).toBeGreaterThanOrEqual(2);
        }
        expect(segments.filter((s) => s.kind === 'band')).toHaveLength(chunks.length);
      }),
      fcParams(300),
    );
  });
});
