import { describe, expect, it } from 'vitest';
import { createPdfAssembler, PDF_BLOCK_SEPARATOR, type PdfPageInput } from '../../../src/parsers/pdf/document.js';
import type { Block } from '../../../src/types.js';
import { helveticaWidth } from '../../support/pdf-builder.js';
import { item } from '../../support/pdf-lines.js';

/** A run set in Helvetica at 10 points (its width by Helvetica's metrics: a proportional font, as body text is). */
const runAt = (text: string, x: number, y: number) => item(text, x, y, { width: helveticaWidth(text, 10) });

/** A page with a running header, a page number, and body lines 12 points apart. */
function page(number: number, body: string[], extra: { top?: number } = {}): PdfPageInput {
  let y = extra.top ?? 700;
  return {
    number,
    items: [
      runAt(`Running Head ${number}`, 50, 760),
      ...body.map((text) => {
        y -= text === '' ? 12 : 0;
        const it = runAt(text, 50, y);
        y -= 12;
        return it;
      }).filter((it) => it.str !== ''),
      runAt(String(number), 300, 40),
    ],
  };
}

function run(pages: PdfPageInput[], options = {}): { blocks: Block[]; text: string } {
  const assembler = createPdfAssembler(options);
  const blocks = [...pages.flatMap((p) => assembler.write(p)), ...assembler.end()];
  return { blocks, text: blocks.map((b) => b.text).join(PDF_BLOCK_SEPARATOR) };
}

describe('createPdfAssembler', () => {
  const pages = [
    page(1, ['First paragraph line one', 'and line two.', '', 'Second paragraph that', 'runs on']),
    page(2, ['onto the next page.', '', 'Third paragraph.']),
    page(3, ['Fourth paragraph.']),
    page(4, ['Fifth paragraph.']),
  ];

  it('gives blocks whose offsets and lines point into the document text', () => {
    const { blocks, text } = run(pages);
    for (const b of blocks) {
      expect(text.slice(b.start, b.end)).toBe(b.text);
      expect(text.slice(0, b.start).split('\n').length).toBe(b.startLine);
      expect(b.endLine - b.startLine).toBe(b.text.split('\n').length - 1);
    }
    expect(blocks[0]?.gapBefore).toBe('');
    expect(blocks[1]?.gapBefore).toBe('\n\n');
  });

  it('removes the running header and the page numbers', () => {
    const { text } = run(pages);
    expect(text).not.toMatch(/Running Head/);
    expect(text).not.toMatch(/^\d+$/m);
  });

  it('runs a paragraph on across a page break and records both pages', () => {
    const { blocks } = run(pages);
    const spanning = blocks.find((b) => b.text.startsWith('Second paragraph'));
    expect(spanning).toMatchObject({ text: 'Second paragraph that runs on onto the next page.', page: 1, pageEnd: 2 });
    const { text } = run(pages);
    expect(text.slice(spanning!.pageBreaks![0])).toMatch(/^onto the next page\./);
    expect(blocks.find((b) => b.text === 'Third paragraph.')).toMatchObject({ page: 2 });
    expect(blocks.find((b) => b.text === 'Third paragraph.')?.pageEnd).toBeUndefined();
  });

  it('stops running a paragraph on across pages once it holds too many lines', () => {
    const long = Array.from({ length: 50 }, (_, i) => `line ${i} of a paragraph that never ends`);
    const pages = Array.from({ length: 12 }, (_, n) => page(n + 1, long, { top: 740 }));
    const { blocks } = run(pages);
    expect(blocks.length).toBeGreaterThan(1);
    expect(Math.max(...blocks.map((b) => (b.pageEnd ?? (b.page as number)) - (b.page as number)))).toBeLessThan(9);
  });

  it('emits a page only once later pages have shown its running lines, never more than the window behind', () => {
    const assembler = createPdfAssembler({ window: 2 });
    const out: Block[][] = [];
    for (let n = 1; n <= 6; n++) out.push(assembler.write(page(n, [`Paragraph ${'abcdef'[n - 1]}.`])));
    expect(out.slice(0, 3).flat()).toEqual([]);
    expect(out[4]?.length).toBeGreaterThan(0);
    expect(assembler.end().length).toBeGreaterThan(0);
  });

  it('takes headings from an outline whose entries match the pages, and warns about entries it cannot find', () => {
    const assembler = createPdfAssembler({
      outline: [
        { title: 'Introduction', depth: 1, page: 1 },
        { title: 'Methods', depth: 2, page: 1 },
        { title: 'Results', depth: 1, page: 2 },
        { title: 'Missing entry', depth: 1, page: 2 },
      ],
    });
    const blocks = [
      ...assembler.write(page(1, ['Introduction', '', 'Body text.', '', 'Methods', '', 'More body.'])),
      ...assembler.write(page(2, ['Results', '', 'More.'])),
      ...assembler.end(),
    ];
    // Two pages are too few to call the header a running one: it stays, and the outline headings follow it.
    expect(blocks.filter((b) => b.kind === 'heading')).toMatchObject([
      { depth: 1, title: 'Introduction', text: 'Introduction' },
      { depth: 2, title: 'Methods' },
      { depth: 1, title: 'Results' },
    ]);
    expect(assembler.warnings()).toEqual([expect.stringMatching(/1 outline entry was not found.*Missing entry/)]);
  });

  it('ignores an outline of one or two entries (a file name, a title) and takes headings from fonts', () => {
    const assembler = createPdfAssembler({ outline: [{ title: 'Introduction', depth: 1, page: 1 }] });
    const big = (text: string, y: number) => ({ ...item(text, 50, y), fontSize: 16 });
    const blocks = [
      ...assembler.write({ number: 1, items: [big('Introduction', 700), item('Body text of the page goes on here.', 50, 670), big('Methods', 640), item('More body text.', 50, 610)] }),
      ...assembler.end(),
    ];
    expect(blocks.filter((b) => b.kind === 'heading').map((b) => b.text)).toEqual(['Introduction', 'Methods']);
    expect(assembler.warnings()).toEqual(['The outline has only 1 entry: headings come from fonts']);
  });
});
