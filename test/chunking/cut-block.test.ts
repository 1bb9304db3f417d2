/**
 * Cutting blocks into spans along their structure, on hand-made blocks with sizes in characters: tables between
 * rows with the header repeated, fences between lines re-opened and closed, lists between items, the parts of a
 * construct the parser cut, and a span cut again.
 */
import { describe, expect, it } from 'vitest';
import { cutBudget } from '../../src/chunking/budget.js';
import { createMeasure } from '../../src/chunking/fit.js';
import { NO_HEADING } from '../../src/chunking/heading-tracker.js';
import { framedWholeSpan, wholeSpan } from '../../src/chunking/block-spans.js';
import { cutBlock, cutSmaller, type CutContext } from '../../src/chunking/cut-block.js';
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
  it('cuts a table between rows: the first span holds the header, every other repeats it as its prefix', () => {
    const table = block('table', `${HEADER}\n${ROWS.join('\n')}`);
    const spans = cutBlock(table, cutBudget(60, 60), ctx);
    expect(spans.length).toBeGreaterThan(1);
    expect(spans[0]?.text.startsWith(HEADER)).toBe(true);
    expect(spans[0]?.prefix).toBe('');
    for (const span of spans.slice(1)) {
      expect(span.prefix).toBe(`${HEADER}\n`);
      expect(span.text).toMatch(/^\| r\d \|/);
      expect(span.prefix.length + span.text.length).toBeLessThanOrEqual(60);
    }
    expect(spans.map((p) => p.text).join('\n')).toBe(table.text);
  });

  it('gives the rows after a row too large for a chunk the header, and measures them with it', () => {
    const long = `| long | ${words(14)} |`;
    const table = block('table', `${HEADER}\n${[...ROWS.slice(0, 2), long, ...ROWS.slice(2)].join('\n')}`);
    const spans = cutBlock(table, cutBudget(60, 60), ctx);
    const after = spans.slice(spans.findIndex((p) => p.text.endsWith(' |') && p.fallback !== undefined) + 1);
    expect(after.length).toBeGreaterThan(1);
    for (const span of after) {
      expect(span.prefix).toBe(`${HEADER}\n`);
      expect(span.prefix.length + span.text.length).toBeLessThanOrEqual(60);
    }
  });

  it('frames every span of a table part that continues a table the parser cut, the first too', () => {
    // A part holds data rows only: every line is a row, and the delimiter is an empty span at its start.
    const part = block('paragraph', ROWS.join('\n'), { previous: true, next: false, cut: 'row', frame: HEADER });
    let at = part.start;
    const rows = ROWS.map((r) => ({ start: at, end: (at += r.length + 1) - 1 }));
    const table = { ...part, kind: 'table', rows, delimiterRow: { start: part.start, end: part.start } } as Block;
    const spans = cutBlock(table, cutBudget(60, 60), ctx);
    expect(spans.every((p) => p.prefix === `${HEADER}\n`)).toBe(true);
    expect(framedWholeSpan(table, table.text.length, ctx.preserveTables).prefix).toBe(`${HEADER}\n`);
  });

  it('cuts a fence between lines, re-opening and closing it; a part the parser cut is re-opened and, if it goes on, closed', () => {
    const lines = Array.from({ length: 10 }, (_, i) => `let v${i} = ${i};`);
    const fence = block('code', `\`\`\`js\n${lines.join('\n')}\n\`\`\``);
    const spans = cutBlock(fence, cutBudget(50, 50), ctx);
    expect(spans.length).toBeGreaterThan(2);
    expect(spans.slice(1).every((p) => p.prefix === '```js\n')).toBe(true);
    expect(spans.slice(0, -1).every((p) => p.suffix === '\n```')).toBe(true);
    expect(spans.at(-1)?.suffix).toBe('');
    const middle = { ...block('code', lines.join('\n'), { previous: true, next: true, cut: 'line', frame: '```js' }), lang: 'js', fence: '```' } as Block;
    const parts = cutBlock(middle, cutBudget(50, 50), ctx);
    expect(parts.every((p) => p.prefix === '```js\n' && p.suffix === '\n```')).toBe(true);
    expect(framedWholeSpan(middle, middle.text.length, ctx.preserveTables)).toMatchObject({ prefix: '```js\n', suffix: '\n```' });
  });

  it('cuts a list between items', () => {
    const list = block('list', Array.from({ length: 6 }, (_, i) => `- item ${i} ${words(3)}`).join('\n'));
    const spans = cutBlock(list, cutBudget(40, 40), ctx);
    expect(spans.length).toBeGreaterThan(1);
    expect(spans.every((p) => p.text.startsWith('- item ') && p.text.length <= 40)).toBe(true);
    // Only the place before the first span lies between blocks.
    expect(spans.map((p) => p.continuesBlock === true)).toEqual(spans.map((_, i) => i > 0));
  });
});

describe('cutSmaller', () => {
  it('cuts a span smaller as plain text, the frame on its first and last parts, a fallback for anything but prose', () => {
    const code = { ...wholeSpan(block('code', `\`\`\`\n${words(30)}\n\`\`\``), 0), prefix: '```\n', suffix: '\n```' };
    const parts = cutSmaller({ ...code, size: code.text.length }, 60, ctx);
    expect(parts.length).toBeGreaterThan(1);
    expect(parts[0]?.prefix).toBe('```\n');
    expect(parts.at(-1)?.suffix).toBe('\n```');
    expect(parts.every((p) => p.kind === 'code' && p.fallback === 'text-splitter' && p.isSplit && !p.isHeading)).toBe(true);
    const prose = wholeSpan(block('paragraph', words(30)), 0);
    const proseParts = cutSmaller({ ...prose, size: prose.text.length }, 40, ctx);
    expect(proseParts.every((p) => p.fallback === undefined && p.text.length <= 40)).toBe(true);
    // Parts of a block kept whole: the first opens the block. Parts of a span inside a cut block continue it.
    expect(proseParts.map((p) => p.continuesBlock === true)).toEqual(proseParts.map((_, i) => i > 0));
    const inner = cutSmaller({ ...prose, size: prose.text.length, isSplit: true, continuesBlock: true }, 40, ctx);
    expect(inner.every((p) => p.continuesBlock === true)).toBe(true);
  });
});

describe('cutSmaller keeps the gaps', () => {
  it('gives the first part the gap before the span and the indentation the cut trimmed', () => {
    // An indented code line re-cut as text: the TextSplitter trims its indentation, which must stay in the gap.
    const code = wholeSpan({ ...block('code', '    not code either'), gapBefore: '\n\n' }, 0);
    const parts = cutSmaller({ ...code, size: code.text.length }, 12, ctx);
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
