/**
 * The order blocks leave the PDF reader in (`block-sequence.ts`), on hand-made groups: page order whatever is held
 * back, and a table cut at a page break continuing as a part that repeats its header.
 */
import { describe, expect, it } from 'vitest';
import { createBlockSequence, type PageGroups } from '../../../src/parsers/pdf/block-sequence.js';
import { createBlockWriter, type PlacedGroup } from '../../../src/parsers/pdf/block-writer.js';
import type { LineGroup } from '../../../src/parsers/pdf/layout.js';
import type { TableGrid } from '../../../src/parsers/pdf/tables.js';
import type { TableBlock } from '../../../src/types.js';
import { line } from '../../support/pdf-lines.js';

const grid = (rows: string[][]): TableGrid => ({ box: { x0: 50, y0: 100, x1: 400, y1: 700 }, rows, headerRows: 1, fontSize: 10 });
const table = (rows: string[][]): LineGroup => ({ kind: 'table', grid: grid(rows), lines: [] });
const stamp = (page: number): LineGroup => ({ kind: 'paragraph', lines: [line(`stamp of page ${page}`, 20, 300)] });
const paragraph = (text: string): LineGroup => ({ kind: 'paragraph', lines: [line(text, 50, 700)] });

/** A page whose first group runs on from the page before (as `layoutPage` says of a table at the top of a column). */
function page(number: number, groups: LineGroup[], aside: LineGroup[] = [], firstContinues = true): PageGroups {
  return { number, layout: { groups, firstContinues, firstMargin: 50 }, aside };
}

function run(pages: PageGroups[]): PlacedGroup[] {
  const sequence = createBlockSequence();
  return [...pages.flatMap((p) => sequence.page(p)), ...sequence.end()];
}

describe('createBlockSequence', () => {
  const header = ['State', 'Count'];
  const pages = [
    page(1, [paragraph('Intro.'), table([header, ['A', '1'], ['B', '2']])], [stamp(1)], false),
    page(2, [table([header, ['C', '3'], ['D', '4']])], [stamp(2)]),
    page(3, [table([header, ['E', '5']]), paragraph('After the table.')], [stamp(3)]),
  ];

  it('emits no block of a page before a block of an earlier page, though a table runs on under a stamp on every page', () => {
    const placed = run(pages);
    const starts = placed.map((p) => p.page);
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
    // Nothing of a later page comes before a block that ends on an earlier one.
    placed.forEach((p, i) => { if (i > 0) expect(p.page).toBeGreaterThanOrEqual(placed[i - 1]!.pageEnd); });
    expect(placed.map((p) => p.group.kind === 'paragraph' ? (p.group.lines[0]?.text ?? '') : `table p${p.page}-${p.pageEnd}`)).toEqual([
      'Intro.',
      'stamp of page 1',
      'table p1-2',
      'stamp of page 2',
      'table p3-3',
      'After the table.',
      'stamp of page 3',
    ]);
  });

  it('writes the part after the cut as a table of its rows, its header the frame the chunker repeats', () => {
    const writer = createBlockWriter(() => false);
    const blocks = run(pages).map((p) => writer.write(p));
    const [first, rest] = blocks.filter((b): b is TableBlock => b.kind === 'table');
    expect(first?.text).toBe('| State | Count |\n| --- | --- |\n| A | 1 |\n| B | 2 |\n| C | 3 |\n| D | 4 |');
    expect(first?.continuation).toEqual({ previous: false, next: true, cut: 'row' });
    expect(first?.pageBreaks?.length).toBe(1);
    // The header the third page prints again is not a row of the part.
    expect(rest?.text).toBe('| E | 5 |');
    expect(rest?.rows.map((r) => [r.start - rest.start, r.end - rest.start])).toEqual([[0, 9]]);
    expect(rest?.continuation).toEqual({ previous: true, next: false, cut: 'row', frame: '| State | Count |\n| --- | --- |' });
  });

  it('settles a held paragraph at a page without text, before that page\'s stamp', () => {
    const placed = run([page(1, [paragraph('Runs on')], [], false), page(2, [], [stamp(2)]), page(3, [paragraph('to here.')])]);
    expect(placed.map((p) => [p.page, p.group.kind === 'paragraph' ? p.group.lines[0]?.text : ''])).toEqual([
      [1, 'Runs on'],
      [2, 'stamp of page 2'],
      [3, 'to here.'],
    ]);
  });
});
