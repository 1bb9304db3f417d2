/**
 * The Markdown block mapping on hand-made mdast trees and small batches: top-level nodes to blocks at document
 * offsets and lines, the fields each kind carries, the features found inside, and the blocks a block-level tree
 * re-parses for what only inline parsing knows.
 */
import type { Root, RootContent } from 'mdast';
import { describe, expect, it } from 'vitest';
import type { MarkdownBatch } from '../../../src/parsers/markdown/batcher.js';
import { blocksFromBlockTree, blocksFromTree } from '../../../src/parsers/markdown/blocks.js';
import { parseBatch } from '../../../src/parsers/markdown/parse.js';
import type { Block } from '../../../src/types.js';

/** A position in mdast's shape for offsets `[from, to)` of `text` (lines counted from 1). */
function at(text: string, from: number, to: number) {
  const point = (offset: number) => {
    const before = text.slice(0, offset).split('\n');
    return { line: before.length, column: (before.at(-1) as string).length + 1, offset };
  };
  return { start: point(from), end: point(to) };
}

/** A batch that sits 1,000 characters and 40 lines into its document. */
const batchOf = (text: string): MarkdownBatch => ({ text, offset: 1000, line: 41 });

describe('blocksFromTree', () => {
  it('maps each top-level node to a block with document offsets and lines, and its kind’s fields', () => {
    const text = '# Title\n\nSome *text*.\n\n```js run\nx\n```';
    const tree: Root = {
      type: 'root',
      children: [
        { type: 'heading', depth: 1, children: [{ type: 'text', value: 'Title' }], position: at(text, 0, 7) },
        { type: 'paragraph', children: [{ type: 'text', value: 'Some text.' }], position: at(text, 9, 21) },
        { type: 'code', lang: 'js', meta: 'run', value: 'x', position: at(text, 23, 38) },
      ] as RootContent[],
    };
    const blocks = blocksFromTree(tree, batchOf(text));
    expect(blocks.map((b) => [b.kind, b.start, b.end, b.startLine, b.endLine, b.text])).toEqual([
      ['heading', 1000, 1007, 41, 41, '# Title'],
      ['paragraph', 1009, 1021, 43, 43, 'Some *text*.'],
      ['code', 1023, 1038, 45, 47, '```js run\nx\n```'],
    ]);
    expect(blocks[0]).toMatchObject({ depth: 1, title: 'Title' });
    expect(blocks[2]).toMatchObject({ lang: 'js', meta: 'run', fence: '```' });
  });

  it('starts a setext heading after the definition mdast puts in front of it', () => {
    const text = '[a]: /u\nbar\n===';
    const tree: Root = {
      type: 'root',
      children: [
        { type: 'definition', identifier: 'a', label: 'a', url: '/u', title: null, position: at(text, 0, 7) },
        { type: 'heading', depth: 1, children: [{ type: 'text', value: 'bar' }], position: at(text, 0, 15) },
      ] as RootContent[],
    };
    const [definition, heading] = blocksFromTree(tree, batchOf(text));
    expect(definition).toMatchObject({ kind: 'definition', text: '[a]: /u' });
    expect(heading).toMatchObject({ kind: 'heading', text: 'bar\n===', start: 1008, startLine: 42, title: 'bar' });
  });
});

describe('parseBatch', () => {
  const parse = (text: string): Block[] => parseBatch(batchOf(text));

  it('gives a table its rows and delimiter row, a list its nested items', () => {
    const [table, list] = parse('| a | b |\n| --- | --- |\n| 1 | 2 |\n\n- one\n  - one.one\n- two');
    expect(table?.kind === 'table' && [table.rows.map((r) => r.start - 1000), table.delimiterRow.start - 1000]).toEqual([[0, 24], 10]);
    expect(list?.kind === 'list' && list.items.map((i) => i.items.length)).toEqual([1, 0]);
  });

  it('ends a list item before the next one starts, where mdast runs it over the next marker', () => {
    // GFM task list: after `- [x] \`\`\`` mdast ends the item two characters into the next one (marked's tasklist_blocks.md).
    const text = '- [x] ```\n  ```\n- [x] [def]: https://example.com\n  - nested';
    const [list] = parse(text);
    const items = list?.kind === 'list' ? list.items.map((i) => text.slice(i.start - 1000, i.end - 1000)) : [];
    expect(items).toEqual(['- [x] ```\n  ```', '- [x] [def]: https://example.com\n  - nested']);
  });

  it('finds images, formulas and code nested in a block', () => {
    const [quote, list] = parse('> ![alt](pic.png) and $x^2$\n\n- item\n\n  ```py\n  x\n  ```');
    expect(quote?.features).toEqual({ images: ['pic.png'], math: true });
    expect(list?.features).toEqual({ codeLangs: ['py'] });
  });

  it('reads a heading title with markup, and code spans, as inline parsing does', () => {
    const [a, b, c] = parse('# Title with *emphasis* and [a link](u)\n\n## `fs.readFile(path[, options])`\n\nSetext *title*\n===');
    expect(a).toMatchObject({ kind: 'heading', title: 'Title with emphasis and a link' });
    expect(b).toMatchObject({ kind: 'heading', title: 'fs.readFile(path[, options])' });
    expect(c).toMatchObject({ kind: 'heading', depth: 1, title: 'Setext title' });
  });

  it('re-parses only where a feature may be: unmatched brackets are not an image', () => {
    const [p] = parse('[![*a_ [![*a_ and no image here');
    expect(p).toMatchObject({ kind: 'paragraph' });
    expect(p?.features).toBeUndefined();
  });
});

describe('blocksFromBlockTree', () => {
  const text = '> 2) ![i](u)';
  // A block-level tree whose quote holds a paragraph, as "> 2) …" is after a paragraph; the image asks for inline parsing.
  const tree = (): Root => ({
    type: 'root',
    children: [{ type: 'blockquote', children: [{ type: 'paragraph', children: [], position: at(text, 2, 12) }], position: at(text, 0, 12) }] as RootContent[],
  });
  const fullWith = (inner: RootContent): (() => Root) => () => ({
    type: 'root',
    children: [{ type: 'blockquote', children: [inner], position: at(text, 0, 12) }] as RootContent[],
  });

  it('takes the inline parse when the re-parsed block comes out as it was', () => {
    const paragraph = { type: 'paragraph', children: [{ type: 'image', url: 'u', alt: 'i' }], position: at(text, 2, 12) } as RootContent;
    const blocks = blocksFromBlockTree(tree(), batchOf(text), fullWith(paragraph));
    expect(blocks?.map((b) => [b.kind, b.features])).toEqual([['blockquote', { images: ['u'] }]]);
  });

  it('gives up (null) when the re-parsed block nests differently: the caller parses in full', () => {
    // Alone, "> 2) x" opens a document and is a quoted ordered list.
    const list = { type: 'list', ordered: true, start: 2, spread: false, children: [], position: at(text, 2, 12) } as RootContent;
    expect(blocksFromBlockTree(tree(), batchOf(text), fullWith(list))).toBeNull();
  });

  it('titles a setext heading of one plain line, and an empty ATX heading, without the inline parse', () => {
    const source = 'Getting  Started \n===\n\n#\n\nTwo\nlines\n---\n';
    const noParse = (): Root => {
      throw new Error('parsed inline');
    };
    const outline: Root = {
      type: 'root',
      children: [
        { type: 'heading', depth: 1, children: [], position: at(source, 0, 21) },
        { type: 'heading', depth: 1, children: [], position: at(source, 23, 24) },
      ] as RootContent[],
    };
    expect(blocksFromBlockTree(outline, batchOf(source), noParse)?.map((b) => b.kind === 'heading' && b.title)).toEqual(['Getting  Started', '']);
    // Over two lines, a line ending may be a hard break: the inline parse decides.
    const twoLines: Root = { type: 'root', children: [{ type: 'heading', depth: 2, children: [], position: at(source, 26, 39) }] as RootContent[] };
    expect(() => blocksFromBlockTree(twoLines, batchOf(source), noParse)).toThrow('parsed inline');
  });
});
