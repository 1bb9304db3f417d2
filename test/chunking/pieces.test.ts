/**
 * Cutting blocks into pieces along their structure, on hand-made blocks with sizes in characters: tables between
 * rows with the header repeated, fences between lines re-opened and closed, lists between items, the parts of a
 * construct the parser cut, and a piece cut again.
 */
import { describe, expect, it } from 'vitest';
import { createMeasure } from '../../src/chunking/fit.js';
import { NO_HEADING } from '../../src/chunking/heading-tracker.js';
import { cutBlock, framedWholePiece, recutPiece, wholePiece, type CutContext } from '../../src/chunking/pieces.js';
import { charSizer } from '../../src/chunking/sizers/basic.js';
import { createTextSplitter } from '../../src/chunking/text-splitter.js';
import type { Block, BlockContinuation } from '../../src/types.js';
import { chunkText } from '../../src/api/chunk.js';
import { handMade, words } from '../support/blocks.js';

const ctx: CutContext = { sizer: charSizer, measure: createMeasure(charSizer), splitter: createTextSplitter({ sizer: charSizer }), preserveCode: false, preserveTables: true };

/** The one block of a hand-made document, under no heading, with a continuation when given. */
function block(kind: 'table' | 'code' | 'list' | 'paragraph', text: string, continuation?: BlockContinuation): Block {
  const b = handMade([{ kind, text }]).blocks[0] as Block;
  return { ...b, heading: NO_HEADING, ...(continuation === undefined ? {} : { continuation }) };
}

const ROWS = Array.from({ length: 8 }, (_, i) => `| r${i} | v${i} |`);
const HEADER = '| key | value |\n| --- | --- |';

describe('cutBlock', () => {
  it('cuts a table between rows: the first piece holds the header, every other repeats it as its prefix', () => {
    const table = block('table', `${HEADER}\n${ROWS.join('\n')}`);
    const pieces = cutBlock(table, { first: 60, rest: 60 }, ctx);
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces[0]?.text.startsWith(HEADER)).toBe(true);
    expect(pieces[0]?.prefix).toBe('');
    for (const piece of pieces.slice(1)) {
      expect(piece.prefix).toBe(`${HEADER}\n`);
      expect(piece.text).toMatch(/^\| r\d \|/);
      expect(piece.prefix.length + piece.text.length).toBeLessThanOrEqual(60);
    }
    expect(pieces.map((p) => p.text).join('\n')).toBe(table.text);
  });

  it('gives the rows after a row too large for a chunk the header, and measures them with it', () => {
    const long = `| long | ${words(14)} |`;
    const table = block('table', `${HEADER}\n${[...ROWS.slice(0, 2), long, ...ROWS.slice(2)].join('\n')}`);
    const pieces = cutBlock(table, { first: 60, rest: 60 }, ctx);
    const after = pieces.slice(pieces.findIndex((p) => p.text.endsWith(' |') && p.fallback !== undefined) + 1);
    expect(after.length).toBeGreaterThan(1);
    for (const piece of after) {
      expect(piece.prefix).toBe(`${HEADER}\n`);
      expect(piece.prefix.length + piece.text.length).toBeLessThanOrEqual(60);
    }
  });

  it('frames every piece of a table part that continues a table the parser cut, the first too', () => {
    // A part holds data rows only: every line is a row, and the delimiter is an empty span at its start.
    const part = block('paragraph', ROWS.join('\n'), { previous: true, next: false, cut: 'row', frame: HEADER });
    let at = part.start;
    const rows = ROWS.map((r) => ({ start: at, end: (at += r.length + 1) - 1 }));
    const table = { ...part, kind: 'table', rows, delimiterRow: { start: part.start, end: part.start } } as Block;
    const pieces = cutBlock(table, { first: 60, rest: 60 }, ctx);
    expect(pieces.every((p) => p.prefix === `${HEADER}\n`)).toBe(true);
    expect(framedWholePiece(table, table.text.length, ctx).prefix).toBe(`${HEADER}\n`);
  });

  it('cuts a fence between lines, re-opening and closing it; a part the parser cut is re-opened and, if it goes on, closed', () => {
    const lines = Array.from({ length: 10 }, (_, i) => `let v${i} = ${i};`);
    const fence = block('code', `\`\`\`js\n${lines.join('\n')}\n\`\`\``);
    const pieces = cutBlock(fence, { first: 50, rest: 50 }, ctx);
    expect(pieces.length).toBeGreaterThan(2);
    expect(pieces.slice(1).every((p) => p.prefix === '```js\n')).toBe(true);
    expect(pieces.slice(0, -1).every((p) => p.suffix === '\n```')).toBe(true);
    expect(pieces.at(-1)?.suffix).toBe('');
    const middle = { ...block('code', lines.join('\n'), { previous: true, next: true, cut: 'line', frame: '```js' }), lang: 'js', fence: '```' } as Block;
    const parts = cutBlock(middle, { first: 50, rest: 50 }, ctx);
    expect(parts.every((p) => p.prefix === '```js\n' && p.suffix === '\n```')).toBe(true);
    expect(framedWholePiece(middle, middle.text.length, ctx)).toMatchObject({ prefix: '```js\n', suffix: '\n```' });
  });

  it('cuts a list between items', () => {
    const list = block('list', Array.from({ length: 6 }, (_, i) => `- item ${i} ${words(3)}`).join('\n'));
    const pieces = cutBlock(list, { first: 40, rest: 40 }, ctx);
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.every((p) => p.text.startsWith('- item ') && p.text.length <= 40)).toBe(true);
  });
});

describe('recutPiece', () => {
  it('cuts a piece smaller as plain text, the frame on its first and last parts, a fallback for anything but prose', () => {
    const code = { ...wholePiece(block('code', `\`\`\`\n${words(30)}\n\`\`\``), 0), prefix: '```\n', suffix: '\n```' };
    const parts = recutPiece({ ...code, size: code.text.length }, 60, ctx);
    expect(parts.length).toBeGreaterThan(1);
    expect(parts[0]?.prefix).toBe('```\n');
    expect(parts.at(-1)?.suffix).toBe('\n```');
    expect(parts.every((p) => p.kind === 'code' && p.fallback === 'text-splitter' && p.isSplit && !p.isHeading)).toBe(true);
    const prose = wholePiece(block('paragraph', words(30)), 0);
    const proseParts = recutPiece({ ...prose, size: prose.text.length }, 40, ctx);
    expect(proseParts.every((p) => p.fallback === undefined && p.text.length <= 40)).toBe(true);
  });
});

describe('recutPiece keeps the gaps', () => {
  it('gives the first part the gap before the piece and the indentation the cut trimmed', () => {
    // An indented code line re-cut as text: the TextSplitter trims its indentation, which must stay in the gap.
    const code = wholePiece({ ...block('code', '    not code either'), gapBefore: '\n\n' }, 0);
    const parts = recutPiece({ ...code, size: code.text.length }, 12, ctx);
    expect(parts[0]?.gapBefore).toBe('\n\n    ');
    expect(parts.map((p) => p.text).join(' ')).toBe('not code either');
  });

  it('so that a heading over indented code chunks into exact slices at any size', () => {
    for (const text of ['# Title that is long enough\n\n    not code either\n', 'Title\n=============\n\n    not code either\n\nmore text here\n']) {
      for (const maxSize of [8, 12, 16, 20, 24, 30]) {
        for (const c of chunkText(text, { unit: 'chars', maxSize, minSize: 0 }).chunks) expect(c.text).toBe(text.slice(c.start, c.end));
      }
    }
  });
});
