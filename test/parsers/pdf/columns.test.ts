import { describe, expect, it } from 'vitest';
import { findGutter, orderLines } from '../../../src/parsers/pdf/columns.js';
import type { PdfLine } from '../../../src/parsers/pdf/types.js';
import { line } from '../../support/pdf-lines.js';

/** A column of `n` lines of ~40 characters starting at `x`, top line at y = 700. */
function column(label: string, x: number, n: number, top = 700): PdfLine[] {
  return Array.from({ length: n }, (_, i) => line(`${label}${i} ${'w'.repeat(36)}`, x, top - 12 * i));
}

describe('orderLines', () => {
  it('reads a two-column page column by column, in the text layer order or not', () => {
    const left = column('L', 50, 10);
    const right = column('R', 300, 10);
    // Interleaved by baseline, as a naive top-to-bottom reading would give.
    const mixed = left.flatMap((l, i) => [l, right[i] as PdfLine]);
    const ordered = orderLines(mixed);
    expect(ordered.map((l) => l.text.split(' ')[0])).toEqual([...left, ...right].map((l) => l.text.split(' ')[0]));
    expect(new Set(ordered.slice(0, 10).map((l) => l.region)).size).toBe(1);
    expect(ordered[10]?.region).not.toBe(ordered[0]?.region);
  });

  it('reads a title that spans both columns first', () => {
    const title = line('A title that is wide enough to cross the gutter between the two columns', 60, 760, { fontSize: 10 });
    const ordered = orderLines([...column('R', 300, 8), ...column('L', 50, 8), title]);
    expect(ordered[0]?.text).toBe(title.text);
    expect(ordered[1]?.text.startsWith('L0')).toBe(true);
    expect(ordered[9]?.text.startsWith('R0')).toBe(true);
  });

  it('reads three columns left to right', () => {
    const cols = [column('A', 40, 8), column('B', 260, 8), column('C', 480, 8)];
    const ordered = orderLines(cols[2]!.concat(cols[0]!, cols[1]!));
    expect(ordered.map((l) => l.text[0]).join('')).toBe('A'.repeat(8) + 'B'.repeat(8) + 'C'.repeat(8));
  });

  it('keeps a single column in reading order and joins fragments on one baseline', () => {
    const rows = [line('Name', 50, 700), line('Value', 200, 700), line('alpha', 50, 688), line('1', 200, 688)];
    const ordered = orderLines(rows);
    expect(ordered.map((l) => l.text)).toEqual(['Name Value', 'alpha 1']);
    expect(ordered[0]?.cells).toBe(2);
  });

  it('reads a right-to-left line from its rightmost fragment, a section number before its title', () => {
    // `2-5 استاندارد کالا` as drawn: the number, a left-to-right run, stands right of the title.
    const number = line('2-5', 457, 700, { fontSize: 15 });
    const title = line('استاندارد کالا', 377, 700, { fontSize: 15, rtl: true, right: 446 });
    expect(orderLines([title, number]).map((l) => l.text)).toEqual(['2-5 استاندارد کالا']);
    // A Latin line with a short Arabic word still reads from the left.
    const latin = [line('The word', 50, 600), line('كلمة', 100, 600, { rtl: true }), line('means word', 130, 600)];
    expect(orderLines(latin).map((l) => l.text)).toEqual(['The word كلمة means word']);
  });

  it('finds no gutter in a table of narrow cells', () => {
    const rows: PdfLine[] = [];
    for (let r = 0; r < 10; r++) for (let c = 0; c < 4; c++) rows.push(line(`c${r}${c}`, 50 + c * 120, 700 - r * 12));
    expect(findGutter(rows)).toBeNull();
  });

  it('finds no gutter in a single column of prose', () => {
    expect(findGutter(column('P', 50, 30))).toBeNull();
  });
});
