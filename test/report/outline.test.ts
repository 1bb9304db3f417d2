import { describe, expect, it } from 'vitest';
import { finishChunk } from '../../src/chunking/chunk-factory.js';
import { headingContext } from '../../src/chunking/heading-tracker.js';
import { buildOutline } from '../../src/report/outline.js';

const at = (path: string[], levels: number[], i: number) =>
  finishChunk({ text: '', start: i, end: i, startLine: 1, endLine: 1, size: 0, heading: headingContext(path, levels) }, { documentId: 'd' }, i);

describe('buildOutline', () => {
  it('lists each heading once, at the first chunk under it, ancestors included', () => {
    const chunks = [at([], [], 0), at(['A', 'B'], [1, 2], 1), at(['A', 'B'], [1, 2], 2), at(['A', 'C', 'D'], [1, 2, 4], 3), at(['E'], [1], 4)];
    expect(buildOutline(chunks).map((e) => [e.title, e.level, e.depth, e.position])).toEqual([
      ['A', 1, 0, 1],
      ['B', 2, 1, 1],
      ['C', 2, 1, 3],
      ['D', 4, 2, 3],
      ['E', 1, 0, 4],
    ]);
  });
});
