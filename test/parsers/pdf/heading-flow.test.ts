/**
 * Headings come from the document's text flow only: pages the tests' writer draws as a manual does (a box of SQL in
 * a bold font, labels set over two screenshots alike, a label repeated beside the text), with and without an outline.
 * The outline, when there is one, gives the upper levels; the fonts only the levels below its deepest.
 */
import { describe, expect, it } from 'vitest';
import { createPitchStats } from '../../../src/parsers/pdf/fonts.js';
import { parsePdf } from '../../../src/parsers/pdf/reader.js';
import type { HeadingBlock } from '../../../src/types.js';
import { buildPdf, codeBoxAt, figureAt, textAt, type OutlineSpec } from '../../support/pdf-builder.js';
import { checkDocument } from '../../support/pdf-contracts.js';
import { prose } from '../../support/pdf-samples.js';

/** A paragraph in Times at 10 points from `top`, wrapped at 90 characters; returns its operators and where it ends. */
function paragraph(text: string, top: number): { ops: string[]; bottom: number } {
  const ops: string[] = [];
  let y = top;
  let line = '';
  for (const word of text.split(' ')) {
    if (`${line} ${word}`.length > 90) {
      ops.push(textAt(72, y, line.trim(), 10, 'F4'));
      y -= 13;
      line = '';
    }
    line += ` ${word}`;
  }
  ops.push(textAt(72, y, line.trim(), 10, 'F4'));
  return { ops, bottom: y - 23 };
}

/** Two pages of a manual: numbered headings, SQL in a box (in bold Helvetica, one statement line apart), two screenshots labelled alike, a subsection set at 12 points, a label set twice in bold. */
function manual(): string[] {
  const pages: string[][] = [[], []];
  let y = 720;
  const put = (page: number, ops: string[], drop: number): void => {
    (pages[page] as string[]).push(...ops);
    y -= drop;
  };
  const text = (page: number, words: number, seed: number): void => {
    const p = paragraph(prose(words, seed), y);
    (pages[page] as string[]).push(...p.ops);
    y = p.bottom;
  };
  put(0, [textAt(72, y, 'Chapter 1. Row and column access control', 18, 'F5')], 36);
  text(0, 80, 1);
  put(0, [textAt(72, y, '1.1 Permissions', 14, 'F5')], 24);
  text(0, 60, 2);
  put(0, [codeBoxAt(72, y, 300, ['CREATE PERMISSION <permission name>', 'ON <table name>', 'FOR ROWS WHERE <search condition>', 'ENABLE'], 10, 'F2', 2.4)], 120);
  text(0, 50, 3);
  put(0, [figureAt(72, y - 110, 220, 110, ['Signed on as ALICE', 'Query'], 10), figureAt(320, y - 110, 220, 110, ['Signed on as ALICE', 'Result'], 10)], 130);
  text(0, 40, 4);
  y = 720;
  put(1, [textAt(72, y, 'Column masks', 12, 'F5')], 20);
  text(1, 70, 5);
  put(1, [textAt(72, y, 'Signed on as JOE', 10, 'F5')], 18);
  text(1, 30, 6);
  put(1, [textAt(72, y, 'Signed on as JOE', 10, 'F5')], 18);
  text(1, 30, 7);
  put(1, [textAt(72, y, '1.2 Masks and permissions together', 14, 'F5')], 24);
  text(1, 60, 8);
  return pages.map((ops) => ops.join('\n'));
}

const OUTLINE: OutlineSpec[] = [
  { title: 'Chapter 1. Row and column access control', page: 1, children: [{ title: '1.1 Permissions', page: 1 }, { title: '1.2 Masks and permissions together', page: 2 }] },
];

async function headings(outline?: OutlineSpec[]): Promise<string[]> {
  const doc = await parsePdf(buildPdf(manual().map((content) => ({ content })), outline === undefined ? {} : { outline }));
  checkDocument(doc);
  expect(doc.text).toContain('CREATE PERMISSION <permission name>');
  return doc.blocks.filter((b): b is HeadingBlock => b.kind === 'heading').map((h) => `${h.depth} ${h.title}`);
}

describe('headings from the text flow', () => {
  it('without an outline: no heading of a box of SQL, of labels over screenshots, or of a label set twice on its page', async () => {
    expect(await headings()).toEqual(['1 Chapter 1. Row and column access control', '3 1.1 Permissions', '3 Column masks', '3 1.2 Masks and permissions together']);
  });

  it('with an outline: its entries first, and a larger heading it does not hold below its deepest level', async () => {
    expect(await headings(OUTLINE)).toEqual(['1 Chapter 1. Row and column access control', '2 1.1 Permissions', '3 Column masks', '2 1.2 Masks and permissions together']);
  });
});

/** A page of an API reference: a method's heading, a sentence of prose, and a listing in Courier longer than the prose. */
function apiReferencePage(method: string, seed: number): string {
  const ops = [textAt(72, 720, method, 14, 'F2')];
  const p = paragraph(prose(30, seed), 690);
  ops.push(...p.ops);
  let y = p.bottom;
  for (let i = 0; i < 14; i++, y -= 11) ops.push(textAt(90, y, `const view${i} = buffer.subarray(${i}, ${i + 8}); console.log(view${i}.toString('hex'));`, 8, 'F3'));
  ops.push(...paragraph(prose(24, seed + 1), y - 12).ops);
  return ops.join('\n');
}

describe('headings of a document whose code listings hold more characters than its prose', () => {
  it('reads the body size from the prose, so that no paragraph becomes a heading', async () => {
    const doc = await parsePdf(buildPdf(['buf.subarray([start[, end]])', 'buf.toString([encoding])', 'buf.write(string)'].map((m, i) => ({ content: apiReferencePage(m, i * 2 + 11) }))));
    checkDocument(doc);
    const headings = doc.blocks.filter((b): b is HeadingBlock => b.kind === 'heading').map((h) => h.title);
    expect(headings).toEqual(['buf.subarray([start[, end]])', 'buf.toString([encoding])', 'buf.write(string)']);
    expect(doc.blocks.filter((b) => b.kind === 'code').length).toBeGreaterThanOrEqual(3);
  });
});

describe('createPitchStats', () => {
  const run = (str: string, advance: number, fontName: string) => ({ str, width: str.length * advance * 10, fontSize: 10, fontName });

  it('tells a fixed-pitch font from the widths of its runs, once four runs of letters agree', () => {
    const pitch = createPitchStats();
    pitch.add(['CREATE PERMISSION', 'ON <table name>', 'ENABLE'].map((s) => run(s, 0.6, 'code')));
    expect(pitch.fixed('code')).toBe(false);
    pitch.add([run('FOR ROWS WHERE', 0.6, 'code'), run('1,200', 0.55, 'code')]);
    expect(pitch.fixed('code')).toBe(true);
  });

  it('finds no fixed pitch in a proportional font, whose runs advance by some percent more or less', () => {
    const pitch = createPitchStats();
    // Helvetica: `illicit` against `MOMENTUM` and two ordinary words.
    pitch.add([run('illicit', 0.246, 'sans'), run('MOMENTUM', 0.79, 'sans'), run('reading', 0.52, 'sans'), run('chunks', 0.53, 'sans')]);
    expect(pitch.fixed('sans')).toBe(false);
  });
});
