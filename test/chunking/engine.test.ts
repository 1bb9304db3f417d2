/**
 * The cutting engine's parts, alone, sizes in characters: the descent over levels, the one packing search, a block
 * kind's levels as data, and the galloping search of cluster runs.
 */
import { describe, expect, it } from 'vitest';
import { blockLevels } from '../../src/chunking/block-levels.js';
import { budget, cutBudget } from '../../src/chunking/budget.js';
import { gallop } from '../../src/chunking/fit.js';
import { createDescent, createSpanList, levelSpan, type Levels, type LevelSpan } from '../../src/chunking/levels.js';
import { NO_FRAME, packSpans, type PackRules } from '../../src/chunking/pack.js';
import { charSizer } from '../../src/chunking/sizers/basic.js';
import type { Block } from '../../src/types.js';
import { handMade } from '../support/blocks.js';

/** Two levels: lines, then characters (kept whatever they measure). */
function linesThenCharacters(): Levels<undefined> {
  return {
    measure: (start, end) => end - start,
    keepsWhole: (level) => level === 1,
    cutBelow(start, end, _level, _size, _node, descent) {
      for (let i = start; i < end; i++) descent.visit(i, i + 1, 1, undefined);
    },
  };
}

/** Packing rules over characters: spans alone, gaps of one character, no frame. */
function rules(text: string, desired: number, max = desired, strength = (_level: number) => 0): PackRules {
  return {
    text,
    budgets: { first: budget(desired, max), rest: budget(desired, max) },
    frame: NO_FRAME,
    sizer: charSizer,
    alone: (span) => span.size,
    joined: (spans, k) => (spans[k] as LevelSpan).start - (spans[k] as LevelSpan).gapStart + (spans[k] as LevelSpan).size,
    strength,
  };
}

describe('the descent', () => {
  it('keeps whole a span that fits, goes a level down for one that does not, and tells each its gap', () => {
    const text = 'ab\ncdefgh\nij';
    const list = createSpanList();
    const descent = createDescent(linesThenCharacters(), 3, list);
    for (const [start, end] of [[0, 2], [3, 9], [10, 12]]) descent.visit(start as number, end as number, 0, undefined);
    expect(list.spans.map((s) => text.slice(s.start, s.end))).toEqual(['ab', 'c', 'd', 'e', 'f', 'g', 'h', 'ij']);
    expect(list.spans.map((s) => s.gapStart)).toEqual([0, 2, 4, 5, 6, 7, 8, 9]);
    expect(list.spans.map((s) => s.level)).toEqual([0, 1, 1, 1, 1, 1, 1, 0]);
  });

  it('is done once the spans between the first and the last measure more than enough', () => {
    const list = createSpanList(-1, 5);
    for (let i = 0; i < 8; i++) {
      if (list.done) break;
      list.push(levelSpan(i * 3, i * 3 + 2, i * 3, 0, 2));
    }
    // Spans 1..3 measure 6 > 5: the fifth span is there for a look at what follows, and no more are taken.
    expect(list.spans.length).toBe(5);
  });
});

describe('the packing search', () => {
  const words = 'aa bb cc dd ee ff gg hh';
  const spans = (levels: readonly number[] = []): LevelSpan[] =>
    [...words.matchAll(/\S+/g)].map((m, i) => levelSpan(m.index, m.index + 2, i === 0 ? m.index : m.index - 1, levels[i] ?? 0, 2));

  /** The texts of packed runs, which must cover every span in order. */
  const texts = (packed: readonly { start: number; end: number }[]): string[] => packed.map((p) => words.slice(p.start, p.end));

  it('packs runs within the budget, measured as they will be seen', () => {
    const packed = packSpans(spans(), rules(words, 8));
    expect(texts(packed).join(' ')).toBe(words);
    expect(packed.every((p) => p.size === p.end - p.start && p.size <= 8 && p.sizeExact)).toBe(true);
  });

  it('ends a run that the next span does not fit where the content says: before the strongest boundary', () => {
    // `ee` does not fit the run `aa bb cc dd`. Past the floor, the boundary before `cc` is weaker than the run's
    // start, so whatever its hash it tops no window; the one before `dd` is the strongest, and ends the run.
    const packed = packSpans(spans([1, 0, 0, 2, 0, 0, 0, 0]), rules(words, 11, 11, (level) => level));
    expect(texts(packed)[0]).toBe('aa bb cc');
  });

  it('packs a span that stands alone by itself, unframed', () => {
    const all = spans();
    all[2] = { ...(all[2] as LevelSpan), standsAlone: true, fallback: true };
    const packed = packSpans(all, rules(words, 100));
    expect(packed.map((p) => [words.slice(p.start, p.end), p.standsAlone])).toEqual([
      ['aa bb', false],
      ['cc', true],
      ['dd ee ff gg hh', false],
    ]);
  });

  it('measures a framed run with its prefix and suffix, and gives the prefix to every run but the first', () => {
    const frame = { prefix: '<<', suffix: '>>', prefixFirst: false, suffixLast: false, prefixSize: 2, suffixSize: 2 };
    const packed = packSpans(spans(), { ...rules(words, 12), frame });
    expect(texts(packed).join(' ')).toBe(words);
    expect(packed.map((p) => p.framed)).toEqual(packed.map((_, i) => i > 0));
    for (const p of packed) {
      expect((p.framed ? 2 : 0) + (p.end - p.start) + 2).toBeLessThanOrEqual(12);
      // The size of a framed run is its measure less the frame's.
      expect(p.size).toBe(p.end - p.start);
      expect(p.sizeExact).toBe(false);
    }
  });

  it('cuts a span that opens a run and does not fit alone a level down, in its place', () => {
    const text = 'abcdefgh ij';
    const below = (span: LevelSpan): LevelSpan[] | undefined =>
      span.level > 0 ? undefined : [...text.slice(span.start, span.end)].map((_, i) => levelSpan(span.start + i, span.start + i + 1, span.start + i, 1, 1));
    const packed = packSpans([levelSpan(0, 8, 0, 0, 8), levelSpan(9, 11, 8, 0, 3)], { ...rules(text, 4), cutAgain: below });
    expect(packed.map((p) => text.slice(p.start, p.end)).join('')).toBe('abcdefghij');
    expect(packed.every((p) => p.end - p.start <= 4)).toBe(true);
    expect(text.slice((packed.at(-1) as { start: number }).start)).toBe('ij');
  });
});

describe('block levels', () => {
  const options = { preserveTables: true, frameSize: (text: string) => text.length };
  const only = (block: Block | undefined): Block => block as Block;

  it('give a table its data rows, the header rows as prefix, travelling with the first row', () => {
    const table = only(handMade([{ kind: 'table', text: '| a | b |\n| - | - |\n| 1 | 2 |\n| 3 | 4 |' }]).blocks[0]);
    const levels = blockLevels(table, 100, options);
    expect(levels.spans.map((s) => table.text.slice(s.start, s.end))).toEqual(['| 1 | 2 |', '| 3 | 4 |']);
    expect(levels.frame.prefix).toBe('| a | b |\n| - | - |\n');
    expect(levels.head).toBe(19);
    expect(levels.partsStandAlone).toBe(true);
  });

  it('give a fence its runs of lines between blank lines, then lines, the fence lines as frame', () => {
    const code = only(handMade([{ kind: 'code', text: '```js\na();\nb();\n\nc();\n```' }]).blocks[0]);
    const levels = blockLevels(code, 100, options);
    expect(levels.spans.map((s) => code.text.slice(s.start, s.end))).toEqual(['a();\nb();', 'c();']);
    expect(levels.spans[0]?.below?.map((s) => code.text.slice(s.start, s.end))).toEqual(['a();', 'b();']);
    expect(levels.frame).toMatchObject({ prefix: '```js\n', suffix: '\n```' });
    expect([levels.head, levels.tail, levels.fallback]).toEqual([6, true, false]);
    // A fence that would take half a chunk is dropped: the block is cut without it, every span a fallback.
    expect(blockLevels(code, 19, options)).toMatchObject({ frame: { prefix: '' }, fallback: true, head: 0 });
  });

  it('give a list its items, and an item with nested items its own text and those items', () => {
    const text = '- one\n  - a\n  - b\n- two';
    const block = { ...only(handMade([{ kind: 'list', text }]).blocks[0]), items: [{ start: 0, end: 17, items: [{ start: 8, end: 11, items: [] }, { start: 14, end: 17, items: [] }] }, { start: 18, end: 23, items: [] }] } as Block;
    const levels = blockLevels(block, 100, options);
    expect(levels.spans.map((s) => text.slice(s.start, s.end))).toEqual(['- one\n  - a\n  - b', '- two']);
    expect(levels.spans[0]?.below?.map((s) => text.slice(s.start, s.end))).toEqual(['- one', '- a', '- b']);
  });

  it('give a paragraph no levels of its own: it is cut at the text levels', () => {
    expect(blockLevels(only(handMade([{ kind: 'paragraph', text: 'Some words.' }]).blocks[0]), 100, options).spans).toEqual([]);
  });
});

describe('budgets and searches', () => {
  it('cutBudget gives the first span its own room', () => {
    expect(cutBudget(3, 9)).toEqual({ first: { desired: 3, max: 3 }, rest: { desired: 9, max: 9 } });
  });

  it('gallop finds the largest count that fits, doubling then bisecting', () => {
    const asked: number[] = [];
    const fits = (n: number): boolean => {
      asked.push(n);
      return n <= 37;
    };
    expect(gallop(100, fits)).toBe(37);
    expect(asked.slice(0, 7)).toEqual([2, 4, 8, 16, 32, 64, 48]);
    expect(gallop(5, () => true)).toBe(5);
    expect(gallop(5, (n) => n === 1)).toBe(1);
  });
});
