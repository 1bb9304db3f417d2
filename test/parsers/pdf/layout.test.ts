import { describe, expect, it } from 'vitest';
import { layoutPage, listMarker, continuesParagraph, type LineGroup } from '../../../src/parsers/pdf/layout.js';
import type { PdfLine } from '../../../src/parsers/pdf/types.js';
import { line } from '../../support/pdf-lines.js';

const ctx = { bodySize: 10, bodyFont: 'body' };
const texts = (groups: LineGroup[]) => groups.map((u) => (u.kind === 'list' ? u.items.map((i) => i.map((l) => l.text).join('|')) : u.lines.map((l) => l.text).join('|')));

/** Lines stacked 12 points apart from y = 700, each `[text, x?, extraGap?]`. */
function stack(rows: [string, number?, number?][], extra: Partial<PdfLine> = {}): PdfLine[] {
  let y = 712;
  return rows.map(([text, x = 50, gap = 0]) => {
    y -= 12 + gap;
    return line(text, x, y, extra);
  });
}

describe('layoutPage', () => {
  it('breaks paragraphs at a vertical gap', () => {
    const { groups } = layoutPage(stack([['one a'], ['one b'], ['two a', 50, 14], ['two b']]), ctx);
    expect(texts(groups)).toEqual(['one a|one b', 'two a|two b']);
  });

  it('breaks paragraphs at a first-line indent from the column margin', () => {
    const { groups } = layoutPage(stack([['first paragraph'], ['goes on'], ['second paragraph', 64], ['goes on'], ['and on']]), ctx);
    expect(texts(groups)).toEqual(['first paragraph|goes on', 'second paragraph|goes on|and on']);
  });

  it('makes bullet and numbered lines list items, with their indented continuation lines', () => {
    const { groups } = layoutPage(
      stack([['Intro text.'], ['• first item', 60, 8], ['continues', 72], ['• second item', 60], ['After the list.', 50, 8]]),
      ctx,
    );
    expect(groups.map((u) => u.kind)).toEqual(['paragraph', 'list', 'paragraph']);
    expect(texts(groups)[1]).toEqual(['• first item|continues', '• second item']);
    const ordered = layoutPage(stack([['1. one'], ['2. two']]), ctx).groups[0];
    expect(ordered).toMatchObject({ kind: 'list', ordered: true });
  });

  it('makes a larger line a heading and joins a title set on two lines', () => {
    const rows = stack([['A Long Title'], ['On Two Lines'], ['Body text.', 50, 10]]);
    rows[0] = { ...rows[0]!, fontSize: 16 };
    rows[1] = { ...rows[1]!, fontSize: 16, y: rows[0]!.y - 18 };
    const { groups } = layoutPage(rows, ctx);
    expect(groups[0]).toMatchObject({ kind: 'heading', depth: 2 });
    expect(texts(groups)).toEqual(['A Long Title|On Two Lines', 'Body text.']);
  });

  it('takes headings from the outline only, when given', () => {
    const rows = stack([['Big but not in the outline'], ['Section One', 50, 10], ['Body.', 50, 10]]);
    rows[0] = { ...rows[0]!, fontSize: 20 };
    const { groups } = layoutPage(rows, { ...ctx, outlineHeadings: new Map([[1, { depth: 2 as const, title: '1 Section One', count: 1 }]]) });
    expect(groups.map((u) => u.kind)).toEqual(['paragraph', 'heading', 'paragraph']);
    expect(groups[1]).toMatchObject({ depth: 2, title: '1 Section One' });
  });

  it('runs a paragraph on into the next column when it does not end a sentence', () => {
    const left = stack([['text that runs'], ['on and on']]).map((l) => ({ ...l, region: 0 }));
    const right = stack([['into this column.'], ['New one.', 50, 12]]).map((l) => ({ ...l, x: 300, right: l.right + 250, region: 1 }));
    const { groups } = layoutPage([...left, ...right], ctx);
    expect(texts(groups)).toEqual(['text that runs|on and on|into this column.', 'New one.']);
  });
});

describe('listMarker', () => {
  it('knows bullets and numbers, not prose', () => {
    expect(listMarker('• item')).toBe('bullet');
    expect(listMarker('- item')).toBe('bullet');
    expect(listMarker('12. item')).toBe('ordered');
    expect(listMarker('(iii) item')).toBe('ordered');
    expect(listMarker('a) item')).toBe('ordered');
    expect(listMarker('1928, a year')).toBeNull();
    expect(listMarker('In 2009. the')).toBeNull();
  });
});

describe('continuesParagraph', () => {
  it('continues after a line without a sentence end, or before a lower-case start', () => {
    expect(continuesParagraph(line('and so the', 0, 0), line('story goes.', 0, 0), 0)).toBe(true);
    expect(continuesParagraph(line('The end.', 0, 0), line('New start', 0, 0), 0)).toBe(false);
    expect(continuesParagraph(line('The end.', 0, 0), line('and more', 0, 0), 0)).toBe(true);
    expect(continuesParagraph(line('and so the', 0, 0), line('Indented', 20, 0), 0)).toBe(false);
  });
});
