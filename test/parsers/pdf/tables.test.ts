import { describe, expect, it } from 'vitest';
import { findAlignedTables } from '../../../src/parsers/pdf/aligned-tables.js';
import { findRuledTables } from '../../../src/parsers/pdf/ruled-tables.js';
import { delimiterRow, fillRuledTable, pipeCell, pipeRow } from '../../../src/parsers/pdf/tables.js';
import type { PdfRule } from '../../../src/parsers/pdf/types.js';
import { item, line } from '../../support/pdf-lines.js';

/** The rules of a grid: columns at `xs`, rows at `ys` (top first), every edge drawn, each a little off as drawn. */
function grid(xs: number[], ys: number[], wobble = 0): PdfRule[] {
  const rules: PdfRule[] = [];
  const top = ys[0] as number;
  const bottom = ys[ys.length - 1] as number;
  xs.forEach((x, i) => { rules.push({ x0: x + (i % 2) * wobble, y0: bottom, x1: x + (i % 2) * wobble, y1: top }); });
  ys.forEach((y, i) => { rules.push({ x0: xs[0] as number, y0: y - (i % 2) * wobble, x1: xs[xs.length - 1] as number, y1: y - (i % 2) * wobble }); });
  return rules;
}

const join = (lines: readonly { text: string }[]) => lines.map((l) => l.text).join(' ');

describe('findRuledTables', () => {
  it('finds the cells of a grid whose rules are a point or two off, snapped together', () => {
    const [table] = findRuledTables(grid([100, 200, 300, 400], [500, 480, 460], 2));
    expect(table?.columns).toHaveLength(4);
    expect(table?.rows).toHaveLength(3);
    expect(table?.grid).toEqual([
      [0, 1, 2],
      [3, 4, 5],
    ].map((row, r) => row.map((_, k) => table!.grid[r]![k]!)));
    expect(new Set(table?.grid.flat()).size).toBe(6);
  });

  it('joins a rule drawn in pieces, and gives a cell spanning two columns to both', () => {
    const rules = grid([100, 200, 300], [500, 480, 460]).filter((r) => !(r.x0 === 200 && r.x1 === 200));
    // The middle vertical rule only in the lower row: the top row is one cell across.
    rules.push({ x0: 200, y0: 460, x1: 200, y1: 479 }, { x0: 100, y0: 480, x1: 150, y1: 480 }, { x0: 152, y0: 480, x1: 300, y1: 480 });
    const [table] = findRuledTables(rules);
    expect(table?.grid[0]?.[0]).toBe(table?.grid[0]?.[1]);
    expect(table?.grid[1]?.[0]).not.toBe(table?.grid[1]?.[1]);
  });

  it('finds no table in a single box, a lone rule or a flood of unrelated lines', () => {
    expect(findRuledTables(grid([100, 300], [500, 400]))).toEqual([]);
    expect(findRuledTables([{ x0: 100, y0: 500, x1: 400, y1: 500 }])).toEqual([]);
  });

  it('frames a table ruled across only, at the ends of its rules', () => {
    const across: PdfRule[] = [500, 480, 400].map((y) => ({ x0: 100, y0: y, x1: 400, y1: y }));
    across.push({ x0: 250, y0: 400, x1: 250, y1: 500 });
    const [table] = findRuledTables(across);
    expect(table?.columns).toEqual([100, 250, 400]);
    expect(table?.rows).toEqual([500, 480, 400]);
  });
});

describe('fillRuledTable', () => {
  it('places runs into cells, cuts a run that crosses into the next cell between its characters, and renders pipes', () => {
    const [table] = findRuledTables(grid([100, 200, 300], [500, 480, 460]));
    const items = [item('Name', 105, 485), item('Age', 205, 485), item('Ada', 105, 465), item('36', 205, 465)];
    const { grid: g, used } = fillRuledTable(table!, items, join);
    expect(g?.rows).toEqual([
      ['Name', 'Age'],
      ['Ada', '36'],
    ]);
    expect(used.size).toBe(4);
    // One run holding both cells of a row, as some writers set a row.
    const whole = fillRuledTable(table!, [item('Name', 105, 485), item('Age', 205, 485), item('Bob    41', 105, 465, { width: 190 })], join);
    expect(whole.grid?.rows[1]).toEqual(['Bob', '41']);
  });

  it('takes a grid with text cut inside its words for a drawing behind prose', () => {
    const [table] = findRuledTables(grid([100, 200, 300], [500, 480, 460, 440]));
    // The column edge at 200 falls inside "continuously" on every line.
    const prose = [485, 465, 445].map((y) => item('continuously written words', 150, y, { width: 140 }));
    expect(fillRuledTable(table!, prose, join).grid).toBeNull();
  });

  it('reads a grid whose text sits one cell per row as a frame, not a table', () => {
    // A letterhead: a title box beside a logo box, the company name under the logo.
    const [table] = findRuledTables(grid([100, 300, 500], [500, 480, 460, 440]));
    const frame = [item('Prospectus of admission', 105, 485), item('Commodity Exchange', 305, 445)];
    expect(fillRuledTable(table!, frame, join).grid).toBeNull();
  });

  it('reads the cells of a right-to-left table from the right, each cell\'s runs from its rightmost', () => {
    const [table] = findRuledTables(grid([100, 300, 500], [500, 480, 460]));
    // pdf.js gives each run in reading order; a cell's runs are laid from right to left.
    const rtl = { rtl: true };
    const items = [
      item('نام', 470, 485, rtl),
      item('مقدار', 220, 485, rtl),
      item('شمشه و', 250, 465, rtl),
      item('شمشال', 222, 465, rtl),
      item('استاندارد', 440, 465, rtl),
    ];
    expect(fillRuledTable(table!, items, join).grid?.rows).toEqual([
      ['نام', 'مقدار'],
      ['استاندارد', 'شمشه و شمشال'],
    ]);
  });

  it('escapes pipes in cells', () => {
    expect(pipeCell('a | b\\c')).toBe('a \\| b\\\\c');
    expect(pipeRow(['x', 'y'])).toBe('| x | y |');
    expect(delimiterRow(3)).toBe('| --- | --- | --- |');
  });
});

describe('findAlignedTables', () => {
  const row = (y: number, cells: [number, string][]) => cells.map(([x, text]) => line(text, x, y));

  it('finds rows set on a grid without rules, a wrapped cell joined to its row', () => {
    const fragments = [
      ...row(700, [[50, 'Region'], [200, 'Office'], [350, 'Budget']]),
      ...row(688, [[50, 'North Harbour'], [200, 'Lantern Street'], [350, '1,200.50']]),
      ...row(676, [[50, 'South Meadow'], [200, 'Copper Road'], [350, '980.00']]),
      ...row(664, [[200, 'and its annex']]),
      ...row(652, [[50, 'East Orchard'], [200, 'Granite Lane'], [350, '2,310.75']]),
      ...row(640, [[50, 'West River'], [200, 'Violin Square'], [350, '415.20']]),
    ];
    const [table] = findAlignedTables(fragments);
    expect(table?.grid.rows).toEqual([
      ['Region', 'Office', 'Budget'],
      ['North Harbour', 'Lantern Street', '1,200.50'],
      ['South Meadow', 'Copper Road and its annex', '980.00'],
      ['East Orchard', 'Granite Lane', '2,310.75'],
      ['West River', 'Violin Square', '415.20'],
    ]);
    expect(table?.fragments.size).toBe(fragments.length);
  });

  it('makes no table of three columns of prose whose short lines run on from row to row', () => {
    const columns = [
      ['the reader lays out', 'every page of the', 'document in columns', 'and joins the lines', 'of each paragraph'],
      ['before it cuts them', 'into chunks of the', 'size the embedder', 'takes, one after', 'the other in order'],
      ['so that no chunk', 'holds the lines of', 'two columns side', 'by side as if they', 'were cells of rows'],
    ];
    const fragments = columns.flatMap((column, k) => column.map((text, r) => line(text, 50 + k * 160, 700 - 12 * r)));
    expect(findAlignedTables(fragments)).toEqual([]);
  });

  it('keeps a table whose cells are lower-case names beside a column of short phrases', () => {
    const rows = [['option', 'default', 'meaning'], ['max size', '512', 'hard limit per chunk'], ['overlap', '0', 'units repeated'], ['unit', 'tokens', 'what sizes count'], ['min size', '0', 'smallest chunk kept']];
    const fragments = rows.flatMap((cells, r) => cells.map((text, k) => line(text, 50 + k * 150, 700 - 12 * r)));
    expect(findAlignedTables(fragments)[0]?.grid.rows).toEqual(rows);
  });

  it('keeps the list of the left page of a spread out of a table on the right page, where their baselines line up', () => {
    const question = (x: number, ys: number[]) => ys.map((y) => line('a question set in bold over the whole width of its page here', x, y));
    const answers = ['Yes, at the national level', 'Yes, at the regional level', 'Yes, at the local level', 'No, there is none at all'];
    const fragments = [
      ...question(50, [712, 700, 688]),
      ...answers.map((a, i) => line(a, 60, 652 - 12 * i)),
      ...question(500, [712, 700, 688]),
      ...row(664, [[500, 'Region'], [650, 'Office'], [800, 'Budget']]),
      ...row(652, [[500, 'North Harbour'], [650, 'Lantern Street'], [800, '1,200.50']]),
      ...row(640, [[500, 'South Meadow'], [650, 'Copper Road'], [800, '980.00']]),
      ...row(628, [[500, 'East Orchard'], [650, 'Granite Lane'], [800, '2,310.75']]),
      ...row(616, [[500, 'West River'], [650, 'Violin Square'], [800, '415.20']]),
    ];
    const tables = findAlignedTables(fragments);
    expect(tables.map((t) => t.grid.rows[0])).toEqual([['Region', 'Office', 'Budget']]);
    expect(tables[0]?.grid.rows.map((r) => r.length)).toEqual([3, 3, 3, 3, 3]);
    expect([...(tables[0]?.fragments ?? [])].filter((f) => answers.includes(f.text))).toEqual([]);
  });

  const LABELS = ['Persons with disabilities', 'Children', 'Women', 'The elderly', 'Migrants'];

  it('counts a column of one mark throughout, checkboxes or asterisks, as worded beside a column of labels', () => {
    const fragments = LABELS.flatMap((label, i) => row(700 - 18 * i, [[50, 'y'], [68, label], [350, '*'], [420, '*']]));
    const [table] = findAlignedTables(fragments);
    expect(table?.grid.rows).toEqual(LABELS.map((label) => ['y', label, '*', '*']));
    expect(table?.fragments.size).toBe(fragments.length);
  });

  it('takes the heads on the two lines above a table that opens with a row of its body as its header row, and their box', () => {
    // Each head centred over its column of asterisks, the last one wider than it.
    const heads = [...row(740, [[322, 'State funded'], [412, 'CSOs']]), ...row(728, [[330, 'legal aid']])];
    const body = LABELS.flatMap((label, i) => row(710 - 18 * i, [[50, 'y'], [68, label], [350, '*'], [420, '*']]));
    const text = [line('(Please select all that apply)', 50, 752), line('the question the table answers, over the width of its heads and labels', 50, 764)];
    const [table] = findAlignedTables([...text, ...heads, ...body]);
    expect(table?.grid.rows).toEqual([['', '', 'State funded legal aid', 'CSOs'], ...LABELS.map((label) => ['y', label, '*', '*'])]);
    expect(table?.grid.headerRows).toBe(1);
    expect(table?.fragments).toEqual(new Set([...heads, ...body]));
    expect(table?.grid.box.y1).toBeGreaterThanOrEqual(740);
    expect(table?.grid.box.x1).toBe(432);
  });

  it('takes heads above a table of figures, but no caption above a table that opens with its header', () => {
    const figures = [
      ...row(700, [[200, '2019'], [300, '2020']]),
      ...row(688, [[50, 'Revenue'], [200, '1,200.50'], [300, '1,310.00']]),
      ...row(676, [[50, 'Costs'], [200, '980.00'], [300, '1,002.40']]),
      ...row(664, [[50, 'Taxes'], [200, '120.25'], [300, '131.75']]),
      ...row(652, [[50, 'Profit'], [200, '100.25'], [300, '175.85']]),
    ];
    expect(findAlignedTables(figures)[0]?.grid.rows[0]).toEqual(['', '2019', '2020']);
    const caption = line('Table 2', 50, 712);
    const headed = [caption, ...row(700, [[50, 'Item'], [200, 'Budget'], [300, 'Spent']]), ...figures.slice(2)];
    const [table] = findAlignedTables(headed);
    expect(table?.grid.rows[0]).toEqual(['Item', 'Budget', 'Spent']);
    expect(table?.fragments.has(caption)).toBe(false);
  });

  it('finds none in the labels of a plot: single digits that vary, or points drawn as one symbol beside them', () => {
    const ticks = [5, 4, 3, 2, 1].flatMap((n, i) => row(700 - 12 * i, [[50, String(n)], [200, String(n * 2 - 1)], [350, String(9 - n)]]));
    expect(findAlignedTables(ticks)).toEqual([]);
    const points = [5, 4, 3, 2, 1].flatMap((n, i) => row(700 - 12 * i, [[50, String(n)], [80, '*'], [110, '*'], [140, '*']]));
    expect(findAlignedTables(points)).toEqual([]);
  });

  it('finds none in a transcript: line numbers, names, and colons ragged or drawn on every line', () => {
    const names = ['MICHAEL A. KNOWLES,', 'WARDEN,', 'Petitioner', 'v.', 'ALEXANDRE MIRZAYANCE.', 'Respondent', 'Washington, D.C.', 'The above-entitled'];
    const colons = (ragged: boolean) => names.flatMap((name, i) => row(700 - 24 * i, [[50, String(i + 1)], [80, name], [420, ragged && i === 3 ? ': No. 07-1315' : ':']]));
    expect(findAlignedTables(colons(true))).toEqual([]);
    expect(findAlignedTables(colons(false))).toEqual([]);
  });

  it('finds none in prose, in three rows, or in scattered labels', () => {
    const prose = [700, 688, 676, 664, 652].map((y) => line('a line of prose that fills the column from side to side', 50, y));
    expect(findAlignedTables(prose)).toEqual([]);
    const short = [700, 688, 676].flatMap((y) => row(y, [[50, 'alpha'], [200, 'beta'], [350, 'gamma']]));
    expect(findAlignedTables(short)).toEqual([]);
    const labels = [700, 688, 676, 664].flatMap((y) => row(y, [[50, 'a'], [200, '*'], [350, 'b']]));
    expect(findAlignedTables(labels)).toEqual([]);
  });
});
