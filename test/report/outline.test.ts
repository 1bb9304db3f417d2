import { describe, expect, it } from 'vitest';
import { finishChunk } from '../../src/chunking/chunk-factory.js';
import { headingContext } from '../../src/chunking/heading-tracker.js';
import { parseMarkdown } from '../../src/parsers/markdown/parse.js';
import { buildOutline, headingMarks } from '../../src/report/outline.js';

const at = (path: string[], levels: number[], i: number) =>
  finishChunk({ text: '', start: i, end: i, startLine: 1, endLine: 1, size: 0, heading: headingContext(path, levels) }, { documentId: 'd' }, i);

describe('buildOutline', () => {
  it('lists each heading once, ancestors included, at the first chunk under it when the text is not given', () => {
    const chunks = [at([], [], 0), at(['A', 'B'], [1, 2], 1), at(['A', 'B'], [1, 2], 2), at(['A', 'C', 'D'], [1, 2, 4], 3), at(['E'], [1], 4)];
    expect(buildOutline(chunks).map((e) => [e.title, e.level, e.depth, e.offset])).toEqual([
      ['A', 1, 0, 1],
      ['B', 2, 1, 1],
      ['C', 2, 1, 3],
      ['D', 4, 2, 3],
      ['E', 1, 0, 4],
    ]);
  });

  it('finds a heading that sits inside the chunk before the one it comes into force in, at its own line', () => {
    // "### Deep" lies in the middle of chunk 0; chunk 1 is the first whose path holds it.
    const text = '# Top\n\nIntro words, with Deep in them.\n\n### Deep\n\nShort.\n\nMore prose follows the heading.';
    const cut = text.indexOf('More');
    const make = (start: number, end: number, path: string[], levels: number[], i: number) =>
      finishChunk({ text: text.slice(start, end), start, end, startLine: 1, endLine: 1, size: end - start, heading: headingContext(path, levels) }, { documentId: 'd' }, i);
    const chunks = [make(0, cut - 2, ['Top'], [1], 0), make(cut, text.length, ['Top', 'Deep'], [1, 3], 1)];
    const outline = buildOutline(chunks, text);
    expect(outline.map((e) => [e.title, e.offset])).toEqual([
      ['Top', 0],
      ['Deep', text.indexOf('### Deep')],
    ]);
    // Without the text, the entry falls back to the start of the chunk it comes into force in.
    expect(buildOutline(chunks).map((e) => e.offset)).toEqual([0, cut]);
  });

  it('from heading marks: exact offsets, nesting from the stack of open depths', () => {
    const text = '# A\n\n## B\n\n#### C\n\n## D\n\n# E\n';
    const marks = headingMarks(parseMarkdown(text));
    expect(marks.map((m) => [m.title, m.depth, m.offset])).toEqual([
      ['A', 1, 0],
      ['B', 2, 5],
      ['C', 4, 11],
      ['D', 2, 19],
      ['E', 1, 25],
    ]);
    expect(buildOutline([], text, marks).map((e) => [e.title, e.depth])).toEqual([
      ['A', 0],
      ['B', 1],
      ['C', 2],
      ['D', 1],
      ['E', 0],
    ]);
  });
});
