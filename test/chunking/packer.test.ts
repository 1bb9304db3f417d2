/**
 * The packer on hand-made blocks, sizes in characters: what goes into a chunk, where sections and headings cut,
 * how a block too large is cut, and what a draft carries to the optimizer.
 */
import { describe, expect, it } from 'vitest';
import { normalizeOptions, type ChunkOptions } from '../../src/config.js';
import { pipeCores, runCore } from '../../src/core.js';
import { resolveDeps } from '../../src/chunking/chunker.js';
import type { PackedDraft } from '../../src/chunking/draft.js';
import { createHeadingStage } from '../../src/chunking/heading-tracker.js';
import { createPacker } from '../../src/chunking/packer.js';
import type { Block } from '../../src/types.js';
import { handMade, words, type BlockSpec } from '../support/blocks.js';

/** The drafts the packer makes of `blocks`. */
function pack(blocks: readonly Block[], options: ChunkOptions): PackedDraft[] {
  const config = normalizeOptions({ unit: 'chars', minSize: 0, ...options });
  const deps = resolveDeps(config);
  return runCore(pipeCores(createHeadingStage(), createPacker(config, deps)), blocks);
}

const p = (text: string): BlockSpec => ({ kind: 'paragraph', text });

describe('createPacker', () => {
  it('packs a section’s blocks up to the target, and nothing across a split-level heading', () => {
    const { text, blocks } = handMade([{ kind: 'heading', depth: 1, text: '# A' }, p(words(10)), p(words(10, 10)), p(words(10, 20)), { kind: 'heading', depth: 2, text: '## B' }, p(words(5))]);
    const drafts = pack(blocks, { maxSize: 100, targetSize: 80 });
    expect(drafts.map((d) => d.text)).toEqual([`# A\n\n${words(10)}\n\n${words(10, 10)}`, words(10, 20), `## B\n\n${words(5)}`]);
    const [a, b, c] = drafts.map((d) => d.section);
    expect(a).toBe(b);
    expect(c).toBe((a as number) + 1);
    for (const d of drafts) expect(text.slice(d.start, d.end)).toBe(d.text);
  });

  it('carries a heading into the next chunk rather than end a chunk with it', () => {
    const { blocks } = handMade([p(words(15)), { kind: 'heading', depth: 3, text: '### Deep' }, p(words(15, 15))]);
    const drafts = pack(blocks, { maxSize: 100, targetSize: 70 });
    expect(drafts.map((d) => d.text)).toEqual([words(15), `### Deep\n\n${words(15, 15)}`]);
    expect(drafts[1]?.heading.path).toEqual(['Deep']);
  });

  it('cuts a block too large for a chunk, its first piece filling the room the chunk in the making leaves', () => {
    const { text, blocks } = handMade([p(words(8)), p(words(60, 8))]);
    const drafts = pack(blocks, { maxSize: 100, targetSize: 90 });
    expect(drafts.length).toBeGreaterThan(2);
    expect(drafts[0]?.text.startsWith(`${words(8)}\n\nw8 `)).toBe(true);
    expect(drafts.every((d) => d.size <= 100 && text.slice(d.start, d.end) === d.text)).toBe(true);
    expect(drafts.slice(1).every((d) => d.metadata.isSplit)).toBe(true);
  });

  it('gives each draft its gap and where a chunk may start inside each of its pieces', () => {
    const { blocks } = handMade([p(words(3)), { kind: 'code', text: '```js\nx = 1;\n```' }, { kind: 'list', text: '- a\n- b' }, { kind: 'table', text: '| h |\n| - |\n| 1 |' }]);
    const [draft] = pack(blocks, { maxSize: 200, targetSize: 200 });
    expect(draft?.pieces.map((m) => m.starts)).toEqual(['words', 'none', 'items', 'none']);
    expect(draft?.pieces.every((m) => m.opens)).toBe(true);
    expect(draft?.gapBefore).toBe('');
    expect(draft?.metadata).toMatchObject({ hasCode: true, hasList: true, hasTable: true, kinds: ['paragraph', 'code', 'list', 'table'], languages: ['js'] });
  });

  it('keeps a re-opened table header and a closing fence at the edges of their chunks', () => {
    const rows = Array.from({ length: 12 }, (_, i) => `| row ${i} | value ${i} |`);
    const { blocks } = handMade([{ kind: 'table', text: ['| name | value |', '| --- | --- |', ...rows].join('\n') }, p(words(4))]);
    const drafts = pack(blocks, { maxSize: 90, targetSize: 90 });
    const framed = drafts.filter((d) => d.prefix !== '');
    expect(framed.length).toBeGreaterThan(1);
    expect(framed.every((d) => d.prefix === '| name | value |\n| --- | --- |\n' && d.text.startsWith('| row '))).toBe(true);
    expect(drafts.at(-1)?.text.endsWith(words(4))).toBe(true);
  });

  it('gives the whitespace a cut block ends with to the gap before the next block, so chunks stay exact slices', () => {
    const { text, blocks } = handMade([p(`${words(40)}  `), p(words(3, 40))]);
    const drafts = pack(blocks, { maxSize: 60, targetSize: 60 });
    for (const d of drafts) expect(text.slice(d.start, d.end)).toBe(d.text);
    expect(drafts.at(-1)?.text).toContain(`  \n\n${words(3, 40)}`);
  });
});
