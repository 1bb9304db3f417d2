/**
 * The PDF layout rules, each on a PDF the tests typeset: unreadable text flagged, ruled tables as table blocks (and
 * across a page break), rotated stamps and figure labels kept out of headings, an outline that matches nothing
 * ignored, heading depth by size ranked and by numbering, list items wrapped at their text's indent, glyph bullets,
 * no space added at breaks after dashes and slashes, fixed-pitch runs as code, footnotes after the body.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { chunkBlocks } from '../../../src/api/chunk.js';
import { parsePdf, type PdfDocument } from '../../../src/parsers/pdf/reader.js';
import type { Block, HeadingBlock, TableBlock } from '../../../src/types.js';
import { checkDocument } from '../../support/pdf-contracts.js';
import { buildPdf, helveticaWidth, textAt, typeset, type DocElement } from '../../support/pdf-builder.js';
import { prose } from '../../support/pdf-samples.js';

const headings = (doc: PdfDocument): HeadingBlock[] => doc.blocks.filter((b): b is HeadingBlock => b.kind === 'heading');
const tables = (doc: PdfDocument): TableBlock[] => doc.blocks.filter((b): b is TableBlock => b.kind === 'table');
const rowsOf = (doc: PdfDocument, table: TableBlock): string[] => table.rows.map((r) => doc.text.slice(r.start, r.end));

async function typesetPdf(elements: DocElement[], options = {}): Promise<PdfDocument> {
  const doc = await parsePdf(buildPdf(typeset(elements, options)));
  checkDocument(doc);
  return doc;
}

describe('unreadable text', () => {
  let doc: PdfDocument;
  beforeAll(async () => {
    doc = await typesetPdf([
      { heading: 'A Readable Report', size: 16 },
      { paragraph: prose(80, 1) },
      { page: 1 },
      { unreadable: prose(120, 2) },
      { unreadable: prose(90, 3) },
      { page: 1 },
      { paragraph: prose(60, 4) },
    ]);
  });

  it('gives no text blocks for a page in a font without a Unicode mapping, names it in a warning, and asks for OCR', () => {
    expect(doc.blocks.map((b) => b.page)).not.toContain(2);
    expect(doc.needsOcr).toBe(true);
    expect(doc.warnings).toContainEqual(expect.stringMatching(/^1 of 3 pages has text in fonts without a usable Unicode mapping \(page 2\).*needs OCR/));
    // Nothing that reads as junk got through.
    expect(doc.text).not.toMatch(/[\u0000-\u0009\u000b-\u001f]|["%&'#$]{2}/);
    expect(doc.blocks.filter((b) => b.page === 3)).toHaveLength(1);
  });
});

const RESULTS: string[][] = [
  ['Model', 'Layers', 'Score', 'Time (s)'],
  ['OTSL small', '4', '0.938', '1.97'],
  ['OTSL large', '6', '0.965', '2.73'],
  ['HTML small', '4', '0.952', '3.77'],
  ['HTML large', '6', '0.969', '5.39'],
];

describe('ruled tables', () => {
  let doc: PdfDocument;
  beforeAll(async () => {
    doc = await typesetPdf([{ heading: 'Results', size: 16 }, { paragraph: prose(40, 5) }, { table: RESULTS, ruled: true }, { paragraph: prose(40, 6) }]);
  });

  it('makes one table block: a pipe table with the header row first, rows in order', () => {
    const [table] = tables(doc);
    expect(tables(doc)).toHaveLength(1);
    expect(rowsOf(doc, table as TableBlock)).toEqual(RESULTS.map((r) => `| ${r.join(' | ')} |`));
    expect(doc.text.slice(table!.delimiterRow.start, table!.delimiterRow.end)).toBe('| --- | --- | --- | --- |');
    // In reading order: after the paragraph above it, before the one below.
    const kinds = doc.blocks.map((b) => b.kind);
    expect(kinds).toEqual(['heading', 'paragraph', 'table', 'paragraph']);
  });

  it('is split by row with the header repeated when it does not fit one chunk', () => {
    const { chunks } = chunkBlocks(doc.blocks, { unit: 'chars', maxSize: 120, targetSize: 100, minSize: 0 });
    const parts = chunks.filter((c) => c.metadata.hasTable);
    expect(parts.length).toBeGreaterThan(1);
    for (const part of parts.slice(1)) expect(part.prefix).toBe('| Model | Layers | Score | Time (s) |\n| --- | --- | --- | --- |\n');
    expect(parts.map((c) => c.text).join('\n')).toContain('| HTML large | 6 | 0.969 | 5.39 |');
  });

  it('finds a table without rulings from the alignment of its columns', async () => {
    const rows = [['Region', 'Office', 'Budget'], ['North Harbour', 'Lantern Street', '1,200.50'], ['South Meadow', 'Copper Road', '980.00'], ['East Orchard', 'Granite Lane', '2,310.75'], ['West River', 'Violin Square', '415.20'], ['Old Saddle', 'Pepper Court', '77.10']];
    const doc = await typesetPdf([{ paragraph: prose(40, 33) }, { table: rows }, { paragraph: prose(40, 34) }]);
    expect(doc.blocks.map((b) => b.kind)).toEqual(['paragraph', 'table', 'paragraph']);
    expect(rowsOf(doc, tables(doc)[0] as TableBlock)).toEqual(rows.map((r) => `| ${r.join(' | ')} |`));
  });

  it('finds a survey table of ticks without rulings, its heads on the two lines above its first row as its header row', async () => {
    const labels = ['Disabled persons', 'Children', 'Women', 'The elderly', 'Migrants', 'Refugees', 'Displaced persons'];
    const rows = [['', '', 'State funded', 'CSOs'], ['', '', 'legal aid', ''], ...labels.map((label) => ['y', label, '*', '*'])];
    const question = 'Are specialized legal aid services provided to specific groups, and by whom? (Please select all that apply)';
    const doc = await typesetPdf([{ list: [question], ordered: true }, { table: rows }, { paragraph: prose(40, 37) }]);
    expect(doc.blocks.map((b) => b.kind)).toEqual(['list', 'table', 'paragraph']);
    expect(rowsOf(doc, tables(doc)[0] as TableBlock)).toEqual(['|  |  | State funded legal aid | CSOs |', ...labels.map((label) => `| y | ${label} | * | * |`)]);
    // The rows are no longer glued to the end of the question before them.
    expect(doc.blocks[0]?.text).toBe(`1. ${question}`);
  });

  it('makes no table of a plot\'s labels or of a transcript\'s line numbers and colons', async () => {
    // Tick labels that vary from row to row, and points drawn as one symbol beside them with no word.
    const ticks = [5, 4, 3, 2, 1, 0].map((n) => [String(n), String((n * 3) % 7), String(9 - n)]);
    const points = [5, 4, 3, 2, 1, 0].map((n) => [String(n), '*', '*', '*']);
    const names = ['MICHAEL A. KNOWLES,', 'WARDEN,', 'Petitioner', 'v.', 'ALEXANDRE MIRZAYANCE.', 'Respondent'];
    const transcript = names.map((name, i) => [String(i + 1), name, '', ':']);
    const doc = await typesetPdf([ticks, points, transcript].flatMap((table, i): DocElement[] => [{ page: 1 }, { paragraph: prose(40, 38 + i) }, { table }]).slice(1));
    expect(tables(doc)).toEqual([]);
    expect(doc.text).toContain('MIRZAYANCE');
  });

  it('makes no table of a few aligned lines or of prose in two columns', async () => {
    const doc = await typesetPdf([{ table: [['a', 'b', 'c'], ['d', 'e', 'f']] }, { page: 2 }, { paragraph: prose(300, 35) }, { paragraph: prose(300, 36) }]);
    expect(tables(doc)).toEqual([]);
  });

  it('keeps a cell of several lines in one cell', async () => {
    const wrapped = await typesetPdf([{ table: [['Name', 'Notes'], ['Alpha', 'first line\nsecond line'], ['Beta', 'one line']], ruled: true }]);
    expect(rowsOf(wrapped, tables(wrapped)[0] as TableBlock)).toEqual(['| Name | Notes |', '| Alpha | first line second line |', '| Beta | one line |']);
  });

  it('continues a table across page breaks as one table block, the pages of its rows told', async () => {
    const rows = [['State', 'Count', 'Share'], ...Array.from({ length: 60 }, (_, i) => [`Region ${i + 1}`, String(1000 + i * 37), `${(i % 9) + 1}.5%`])];
    const pages = typeset([{ paragraph: prose(200, 7) }, { table: rows, ruled: true }, { paragraph: prose(30, 8) }]);
    // The first row each page draws, as typeset.
    const firstRows = pages.map((p) => /\(Region (\d+)\)/.exec(p.content)?.[1]).filter((r): r is string => r !== undefined);
    expect(firstRows.length).toBeGreaterThan(1);
    const long = await parsePdf(buildPdf(pages));
    checkDocument(long);
    const all = tables(long);
    expect(all).toHaveLength(1);
    const table = all[0] as TableBlock;
    expect([table.page, table.pageEnd]).toEqual([1, firstRows.length]);
    expect(rowsOf(long, table)).toEqual(rows.map((r) => `| ${r.join(' | ')} |`));
    // Each page break sits at the start of the first row drawn on the next page.
    expect((table.pageBreaks ?? []).map((at) => /^\| Region (\d+) \|/.exec(long.text.slice(at))?.[1])).toEqual(firstRows.slice(1));
  });
});

describe('headings', () => {
  it('keeps a rotated margin stamp out of the headings and out of the columns, as its own block', async () => {
    const doc = await typesetPdf([
      { stamp: 'arXiv:2305.03393v1 [cs.CL] 5 May 2023' },
      { heading: 'Optimized Table Tokenization', size: 18 },
      { page: 2 },
      { paragraph: prose(200, 9) },
      { paragraph: prose(200, 10) },
    ]);
    expect(headings(doc).map((h) => h.title)).toEqual(['Optimized Table Tokenization']);
    const stamps = doc.blocks.filter((b) => b.text.includes('arXiv:2305.03393v1'));
    expect(stamps.map((b) => [b.kind, b.text])).toEqual([['paragraph', 'arXiv:2305.03393v1 [cs.CL] 5 May 2023']]);
  });

  it('makes no heading of the labels inside a figure', async () => {
    const doc = await typesetPdf([
      { heading: 'Access Control', size: 16 },
      { paragraph: prose(60, 11) },
      { figure: ['USER = ALICE', 'CURRENT USER = JOE', 'Request', 'Response'] },
      { paragraph: prose(60, 12) },
    ]);
    expect(headings(doc).map((h) => h.title)).toEqual(['Access Control']);
    expect(doc.text).toContain('USER = ALICE');
  });

  it('ignores an outline that matches nothing, and takes headings from the fonts', async () => {
    const pages = typeset([{ heading: 'Installation', size: 16 }, { paragraph: prose(60, 13) }, { heading: 'Usage', size: 16 }, { paragraph: prose(60, 14) }]);
    const doc = await parsePdf(buildPdf(pages, { outline: [{ title: 'htmldoc797.html', page: 1 }] }));
    expect(headings(doc).map((h) => h.title)).toEqual(['Installation', 'Usage']);
    expect(doc.warnings).toContainEqual('The outline has only 1 entry: headings come from fonts');
    // A longer outline that matches nothing is judged on its entries, and ignored too.
    const bogus = [1, 2, 3].map((n) => ({ title: `htmldoc79${n}.html`, page: 1 }));
    const judged = await parsePdf(buildPdf(pages, { outline: bogus }));
    expect(headings(judged).map((h) => h.title)).toEqual(['Installation', 'Usage']);
    expect(judged.warnings).toContainEqual(expect.stringMatching(/^The outline does not match the page text \(0 of the 3 entries/));
  });

  it('ranks heading sizes over the document, so close sizes get their own depths', async () => {
    const doc = await typesetPdf([
      { heading: 'Part One', size: 20 },
      { paragraph: prose(40, 15) },
      { heading: 'Chapter at 13.5', size: 13.5 },
      { paragraph: prose(40, 16) },
      { heading: 'Section at 12.5', size: 12.5 },
      { paragraph: prose(40, 17) },
      { heading: 'Another Chapter at 13.5', size: 13.5 },
      { paragraph: prose(40, 18) },
    ]);
    expect(headings(doc).map((h) => [h.title, h.depth])).toEqual([
      ['Part One', 1],
      ['Chapter at 13.5', 2],
      ['Section at 12.5', 3],
      ['Another Chapter at 13.5', 2],
    ]);
  });

  it('takes the depth of a numbered heading from its numbering', async () => {
    const doc = await typesetPdf([
      { heading: 'A Study of Tables', size: 18 },
      { paragraph: prose(40, 19) },
      { heading: '1 Introduction', size: 13 },
      { paragraph: prose(40, 20) },
      { heading: '1.1 Background', size: 13 },
      { paragraph: prose(40, 21) },
      { heading: '1.1.1 Earlier Work', size: 13 },
      { paragraph: prose(40, 22) },
      { heading: '2 Method', size: 13 },
      { paragraph: prose(40, 23) },
    ]);
    expect(headings(doc).map((h) => [h.title, h.depth])).toEqual([
      ['A Study of Tables', 1],
      ['1 Introduction', 2],
      ['1.1 Background', 3],
      ['1.1.1 Earlier Work', 4],
      ['2 Method', 2],
    ]);
  });
});

describe('lists, breaks and code', () => {
  it('keeps a list item whose text wraps onto a second line, at its text\'s indent, as one item', async () => {
    const doc = await typesetPdf([{ paragraph: prose(30, 24) }, { list: [prose(40, 25), prose(8, 26), prose(35, 27)] }, { paragraph: prose(30, 28) }]);
    const lists = doc.blocks.filter((b) => b.kind === 'list');
    expect(lists).toHaveLength(1);
    expect(lists[0]?.kind === 'list' && lists[0].items.map((i) => doc.text.slice(i.start, i.end))).toEqual([
      `• ${prose(40, 25)}`,
      `• ${prose(8, 26)}`,
      `• ${prose(35, 27)}`,
    ]);
    expect(doc.blocks.map((b) => b.kind)).toEqual(['paragraph', 'list', 'paragraph']);
  });

  it('reads bullets drawn as glyphs of a symbol font as bullets', async () => {
    const lines = ['Install the package.', 'Run the command.', 'Open the report.'];
    // Wingdings draws its box bullet as `r`; the writer has no symbol font, so Times stands in for one: a font of its own.
    const content = [textAt(72, 700, 'Steps to follow.', 11), ...lines.flatMap((l, i) => [textAt(72, 680 - i * 14, 'r', 11, 'F4'), textAt(90, 680 - i * 14, l, 11)])];
    const doc = await parsePdf(buildPdf([{ content: content.join('\n') }]));
    const list = doc.blocks.find((b) => b.kind === 'list');
    expect(list?.kind === 'list' && list.items.map((i) => doc.text.slice(i.start, i.end))).toEqual(lines.map((l) => `• ${l}`));
  });

  it('reads a first letter or sign set as a run of its own, a word space before the next, as text, not a bullet', async () => {
    // As tracemonkey sets `A` before an italic term, and its copyright line: `©`, a space, the year.
    // `©` and a space are 1,015 thousandths of an em in Helvetica (the writer's table holds ASCII only).
    const runs = (y: number, first: string, rest: string) => [textAt(72, y, first, 11), textAt(72 + (first === 'A' ? helveticaWidth('A ', 11) : 11.165), y, rest, 11, 'F4')];
    const content = [...runs(700, 'A', 'trace is simply a program path, which may cross function call'), textAt(72, 686, 'boundaries, and it ends where the loop does.', 11), ...runs(650, '\u00a9', '2009 ACM 978-1-60558-392-1/09/06')];
    const doc = await parsePdf(buildPdf([{ content: content.join('\n') }]));
    expect(doc.blocks.map((b) => [b.kind, b.text])).toEqual([
      ['paragraph', 'A trace is simply a program path, which may cross function call boundaries, and it ends where the loop does.'],
      ['paragraph', '\u00a9 2009 ACM 978-1-60558-392-1/09/06'],
    ]);
  });

  it('reads a letter that starts a justified line, far from the next word, as text when it is in the font of the line', async () => {
    // As a browser justifies a column: each word a run of its own, the word spaces stretched to most of an em, and a
    // line that starts with `A`, which a glyph bullet's gap would take for a marker.
    const justified = (y: number, words: string[]) => {
      const gap = (216 - words.reduce((w, word) => w + helveticaWidth(word, 9), 0)) / (words.length - 1);
      let x = 72;
      return words.map((word) => {
        const op = textAt(x, y, word, 9);
        x += helveticaWidth(word, 9) + gap;
        return op;
      });
    };
    const lines = [
      ['Streams', 'carry', 'chunks', 'from', 'stage', 'to', 'stage.'],
      ['A', 'writable', 'ends', 'where', 'its', 'source', 'ends,'],
      ['and', 'every', 'chunk', 'keeps', 'its', 'exact', 'slice'],
      ['of', 'the', 'source', 'text', 'it', 'was', 'cut', 'from.'],
    ];
    const content = lines.flatMap((words, i) => justified(700 - i * 11, words));
    const doc = await parsePdf(buildPdf([{ content: content.join('\n') }]));
    expect(doc.blocks.map((b) => [b.kind, b.text.replace(/\s+/g, ' ')])).toEqual([['paragraph', lines.flat().join(' ')]]);
  });

  it('makes no table of rules a clipping path hides', async () => {
    // As a browser prints a web page: its navigation's boxes, lined up with the text and hidden by a clip, would
    // frame every line as a row of a two-column grid. The same grid shown is a table.
    const lines = [prose(14, 41), prose(13, 42), prose(15, 43), prose(12, 44), prose(14, 45)];
    const labels = ['Errors', 'try', 'const', 'catch', 'end'];
    const grid = lines.map((_, i) => `20 ${688 - i * 16} 60 16 re 80 ${688 - i * 16} 480 16 re`);
    const text = lines.flatMap((l, i) => [textAt(24, 692 - i * 16, labels[i] as string, 10), textAt(84, 692 - i * 16, l, 10)]);
    const kinds = async (drawing: string[]) => (await parsePdf(buildPdf([{ content: [...drawing, ...text].join('\n') }]))).blocks.map((b) => b.kind);
    expect(await kinds(['q', ...grid, 'S Q'])).toEqual(['table']);
    expect(await kinds(['q 0 0 1 1 re W n', ...grid, 'S Q'])).not.toContain('table');
  });

  it('adds no space at a line break after a dash or a slash', async () => {
    const content = [textAt(72, 700, 'The pages are numbered 737–', 11), textAt(72, 686, '9 and the site is https://', 11), textAt(72, 672, 'www.example.org for all.', 11)];
    const doc = await parsePdf(buildPdf([{ content: content.join('\n') }]));
    expect(doc.blocks.map((b) => b.text)).toEqual(['The pages are numbered 737–9 and the site is https://www.example.org for all.']);
  });

  it('makes a run of fixed-pitch lines a code block, its indentation kept', async () => {
    const doc = await typesetPdf([{ paragraph: prose(30, 29) }, { code: ['function add(a, b) {', '  return a + b;', '}'] }, { paragraph: prose(30, 30) }]);
    const code = doc.blocks.find((b) => b.kind === 'code');
    expect(code).toMatchObject({ kind: 'code', text: 'function add(a, b) {\n  return a + b;\n}', fence: null, lang: null });
  });
});

describe('reading order', () => {
  it('reads a footnote after the body, so that a paragraph running onto the next page stays whole', async () => {
    const runOn = prose(560, 31).replace(/\.$/, '');
    const doc = await typesetPdf([{ footnote: '1 A note at the foot of the first page.' }, { paragraph: `${runOn} and so it ends here.` }, { paragraph: prose(40, 32) }]);
    const paragraphs = doc.blocks.filter((b: Block) => b.kind === 'paragraph').map((b) => b.text);
    expect(paragraphs).toContain(`${runOn} and so it ends here.`);
    const note = doc.blocks.findIndex((b) => b.text === '1 A note at the foot of the first page.');
    const whole = doc.blocks.findIndex((b) => b.text.startsWith(runOn.slice(0, 40)));
    expect(doc.blocks[whole]).toMatchObject({ page: 1, pageEnd: 2 });
    // The note of page 1 comes out before the paragraph that runs on from page 1, never inside it.
    expect(doc.blocks[note]?.page).toBe(1);
    expect(note).toBe(whole - 1);
  });

  it('keeps list items in order around an image between them', async () => {
    const doc = await typesetPdf([{ list: ['First step of three.', 'Second step of three.'] }, { image: true }, { list: ['Third step of three.'] }]);
    const items = doc.blocks.flatMap((b) => (b.kind === 'list' ? b.items.map((i) => doc.text.slice(i.start, i.end)) : []));
    expect(items).toEqual(['• First step of three.', '• Second step of three.', '• Third step of three.']);
  });
});
