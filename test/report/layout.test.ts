import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { finishChunk } from '../../src/chunking/chunk-factory.js';
import { isChunkError } from '../../src/errors.js';
import { layoutReport, pageMarks, type Band, type Piece } from '../../src/report/layout.js';
import type { Chunk } from '../../src/types.js';
import { fcParams } from '../support/property.js';
import { handMadeFixture } from './fixtures.js';

function chunk(text: string, start: number, end: number, index: number, extra: { prefix?: string; suffix?: string; pageStart?: number; pageEnd?: number } = {}): Chunk {
  return finishChunk({ text: text.slice(start, end), start, end, startLine: 1, endLine: 1, size: end - start, ...extra }, { documentId: 'd' }, index);
}

/** The source text drawn by a layout, in order. */
function drawn(items: readonly { pieces: readonly Piece[] }[], text: string): string {
  return items.flatMap((i) => i.pieces.flatMap((p) => (p.kind === 'text' ? [text.slice(p.start, p.end)] : []))).join('');
}

describe('layoutReport', () => {
  it('gives one band per chunk and draws the document once, overlap included', () => {
    const { text, chunks } = handMadeFixture();
    const layout = layoutReport(chunks, text);
    expect(layout.items.filter((i) => i.kind === 'band')).toHaveLength(chunks.length);
    expect(drawn(layout.items, text)).toBe(text);
  });

  it('shades the shared range of overlapping chunks inside the later band and counts it', () => {
    const text = 'aaaa bbbb cccc';
    const layout = layoutReport([chunk(text, 0, 9, 0), chunk(text, 5, 14, 1)], text);
    const bands = layout.items as Band[];
    expect(bands.map((b) => [b.start, b.end])).toEqual([[0, 5], [5, 14]]);
    expect(bands[1]!.pieces[0]).toEqual({ kind: 'text', start: 5, end: 9, cover: 2, chunks: [0, 1] });
    expect(layout.figures.overlapChars).toBe(4);
  });

  it('puts a prefix at its chunk start and a suffix right after its chunk end, even inside the next band', () => {
    const text = 'aaaa bbbb cccc';
    const layout = layoutReport([chunk(text, 0, 9, 0, { suffix: ']' }), chunk(text, 5, 14, 1, { prefix: '[' })], text);
    const kinds = layout.items.flatMap((i) => i.pieces.map((p) => (p.kind === 'text' ? text.slice(p.start, p.end) : `${p.kind}:${'text' in p ? p.text : ''}`)));
    expect(kinds).toEqual(['aaaa ', 'prefix:[', 'bbbb', 'suffix:]', ' cccc']);
    expect(layout.figures.addedChars).toBe(2);
  });

  it('keeps whitespace between chunks as blank gaps and reports non-whitespace outside every chunk', () => {
    const text = 'one\n\nLOST\n\ntwo';
    const layout = layoutReport([chunk(text, 0, 3, 0), chunk(text, 11, 14, 1)], text);
    const gap = layout.items[1]!;
    expect(gap).toMatchObject({ kind: 'gap', start: 3, end: 11, blank: false });
    expect(layout.figures.uncoveredChars).toBe(4);
    const blank = layoutReport([chunk(text, 0, 3, 0), chunk(text, 5, 14, 1)], text);
    expect(blank.items[1]).toMatchObject({ kind: 'gap', blank: true });
    expect(blank.figures.uncoveredChars).toBe(0);
  });

  it('sorts chunks by offset and still gives empty and contained chunks a band', () => {
    const text = 'abcdefghij';
    const input = [chunk(text, 2, 8, 0), chunk(text, 0, 10, 1), chunk(text, 4, 4, 2, { prefix: 'P' })];
    const layout = layoutReport(input, text);
    const bands = layout.items.filter((i): i is Band => i.kind === 'band');
    expect(bands.map((b) => b.chunk.index)).toEqual([1, 0, 2]);
    expect(drawn(layout.items, text)).toBe(text);
    expect(bands[2]!.pieces[0]).toEqual({ kind: 'prefix', of: 2, text: 'P' });
  });

  it('places exact page marks where given, and otherwise one at the first chunk of each page', () => {
    const text = 'page one\n\npage two';
    const chunks = [chunk(text, 0, 8, 0, { pageStart: 1, pageEnd: 1 }), chunk(text, 10, 18, 1, { pageStart: 3, pageEnd: 3 })];
    const derived = layoutReport(chunks, text).items.flatMap((i) => i.pieces.filter((p) => p.kind === 'page'));
    expect(derived).toEqual([
      { kind: 'page', page: 1, lastPage: 1, place: 'chunk' },
      { kind: 'page', page: 2, lastPage: 3, place: 'chunk' },
    ]);
    const exact = layoutReport(chunks, text, { pages: [{ page: 1, offset: 0 }, { page: 2, offset: 9 }] });
    const marks = exact.items.flatMap((i) => i.pieces.filter((p) => p.kind === 'page').map((p) => ({ item: i.kind, page: (p as { page: number }).page })));
    expect(marks).toEqual([{ item: 'band', page: 1 }, { item: 'gap', page: 2 }]);
  });

  it('puts an anchor piece at each anchor offset, in a band or a gap, before the text that starts there', () => {
    const text = '# A\n\nbody\n\n# B\n\nmore';
    const b = text.indexOf('# B');
    const layout = layoutReport([chunk(text, 0, 9, 0), chunk(text, b, text.length, 1)], text, { anchors: [0, b, 5] });
    const pieces = layout.items.flatMap((i) => i.pieces.map((p) => (p.kind === 'anchor' ? `@${p.anchor}` : p.kind === 'text' ? text.slice(p.start, p.end) : p.kind)));
    expect(pieces).toEqual(['@0', '# A\n\n', '@2', 'body', '\n\n', '@1', '# B\n\nmore']);
    expect(drawn(layout.items, text)).toBe(text);
  });

  it('counts the indexed characters and those inside some chunk, so repeats are their difference', () => {
    const text = 'aaaa bbbb cccc';
    const layout = layoutReport([chunk(text, 0, 9, 0), chunk(text, 5, 14, 1), chunk(text, 7, 14, 2)], text);
    expect(layout.figures.indexedChars).toBe(9 + 9 + 7);
    expect(layout.figures.coveredChars).toBe(14);
  });

  it('rejects a chunk whose text is not the slice its offsets name, with ERR_INVALID_INPUT', () => {
    const text = 'hello world';
    const bad = { ...chunk(text, 0, 5, 0), text: 'HELLO' } as Chunk;
    expect(() => layoutReport([bad], text)).toThrow(expect.objectContaining({ code: 'ERR_INVALID_INPUT' }));
    try {
      layoutReport([chunk(text, 0, 5, 0)], 'hi');
    } catch (error) {
      expect(isChunkError(error, 'ERR_INVALID_INPUT')).toBe(true);
      expect((error as Error).message).toMatch(/outside the document text \(length 2\)/);
    }
    expect.assertions(3);
  });

  it('property: any chunk set gives one band per chunk, contiguous items, the text drawn once, every suffix after its chunk', () => {
    const arb = fc
      .tuple(fc.string({ minLength: 0, maxLength: 60 }), fc.array(fc.tuple(fc.nat(), fc.nat(), fc.boolean(), fc.boolean()), { maxLength: 12 }))
      .map(([text, raw]) => {
        const chunks = raw.map(([a, b, pre, suf], i) => {
          const s = text.length === 0 ? 0 : a % (text.length + 1);
          const e = text.length === 0 ? 0 : s + (b % (text.length - s + 1));
          return chunk(text, s, e, i, { ...(pre ? { prefix: '<' } : {}), ...(suf ? { suffix: '>' } : {}) });
        });
        return { text, chunks };
      });
    fc.assert(
      fc.property(arb, ({ text, chunks }) => {
        const layout = layoutReport(chunks, text);
        const bands = layout.items.filter((i): i is Band => i.kind === 'band');
        expect(bands).toHaveLength(chunks.length);
        expect(drawn(layout.items, text)).toBe(text);
        let at = 0;
        for (const item of layout.items) {
          expect(item.start).toBe(at);
          at = item.end;
        }
        expect(at).toBe(text.length);
        // Walk the pieces in order: a suffix of chunk k comes after all of k's text, and after k's prefix.
        let pos = 0;
        const prefixSeen = new Set<number>();
        for (const item of layout.items) {
          for (const p of item.pieces) {
            if (p.kind === 'text') pos = p.end;
            else if (p.kind === 'prefix') {
              expect(pos).toBe(layout.chunks[p.of]!.start);
              prefixSeen.add(p.of);
            } else if (p.kind === 'suffix') {
              expect(pos).toBe(layout.chunks[p.of]!.end);
              if (layout.chunks[p.of]!.prefix) expect(prefixSeen.has(p.of)).toBe(true);
            }
          }
        }
        const added = layout.chunks.reduce((n, c) => n + c.prefix.length + c.suffix.length, 0);
        expect(layout.figures.addedChars).toBe(added);
      }),
      fcParams(300),
    );
  });
});

describe('pageMarks', () => {
  const block = (start: number, page: number, pageEnd?: number) =>
    ({ kind: 'paragraph', text: 'x', start, end: start + 1, startLine: 1, endLine: 1, page, ...(pageEnd ? { pageEnd } : {}) }) as const;

  it('marks each page at its first block, and a page that begins inside a block spanning from an earlier page within that block', () => {
    expect(pageMarks([block(0, 1), block(3, 1), block(6, 2, 3), block(9, 3), block(12, 3, 5), block(15, 6)])).toEqual([
      { page: 1, offset: 0 },
      { page: 2, offset: 6 },
      { page: 3, offset: 6, within: true },
      { page: 4, offset: 12, within: true },
      { page: 5, offset: 12, within: true },
      { page: 6, offset: 15 },
    ]);
  });

  it('draws a within mark as such', () => {
    const text = 'aaa bbb';
    const layout = layoutReport([chunk(text, 0, 7, 0)], text, { pages: [{ page: 1, offset: 0 }, { page: 2, offset: 4, within: true }] });
    expect(layout.items[0]!.pieces.filter((p) => p.kind === 'page')).toEqual([
      { kind: 'page', page: 1, lastPage: 1, place: 'exact' },
      { kind: 'page', page: 2, lastPage: 2, place: 'within' },
    ]);
  });
});
