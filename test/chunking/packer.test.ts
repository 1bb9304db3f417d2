/**
 * The packer on hand-made blocks, sizes in characters: what goes into a chunk, where sections and headings cut,
 * how a block too large is cut, and what a draft carries to the optimizer.
 */
import { describe, expect, it } from 'vitest';
import { normalizeOptions, type ChunkOptions } from '../../src/config.js';
import { pipeCores, runCore } from '../../src/core.js';
import { resolveDeps } from '../../src/chunking/chunker.js';
import type { PackedDraft } from '../../src/chunking/draft.js';
import { createHeadingStage, NO_HEADING } from '../../src/chunking/heading-tracker.js';
import { wholeSpan, type BlockSpan } from '../../src/chunking/block-spans.js';
import { addSpan, createPacker, createPackerState, emitSpans, flush, packBlock, strandsHeadings } from '../../src/chunking/packer.js';
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
    // Section A (116 characters) is packed into two chunks, not a chunk per paragraph, cut between
    // paragraphs where the content says; section B starts a chunk of its own.
    const a = drafts.slice(0, -1);
    expect(a.map((d) => d.text).join('\n\n')).toBe(`# A\n\n${words(10)}\n\n${words(10, 10)}\n\n${words(10, 20)}`);
    expect(a.length).toBeLessThan(3);
    expect(drafts.at(-1)?.text).toBe(`## B\n\n${words(5)}`);
    expect(new Set(a.map((d) => d.section)).size).toBe(1);
    expect(drafts.at(-1)?.section).toBe((a[0]?.section as number) + 1);
    expect(drafts.every((d) => d.size <= 100)).toBe(true);
    for (const d of drafts) expect(text.slice(d.start, d.end)).toBe(d.text);
  });

  it('carries a heading into the next chunk rather than end a chunk with it', () => {
    const { blocks } = handMade([p(words(15)), { kind: 'heading', depth: 3, text: '### Deep' }, p(words(15, 15))]);
    const drafts = pack(blocks, { maxSize: 100, targetSize: 70 });
    expect(drafts.map((d) => d.text)).toEqual([words(15), `### Deep\n\n${words(15, 15)}`]);
    expect(drafts[1]?.heading.path).toEqual(['Deep']);
  });

  it('cuts a block too large for a chunk as if it opened one, whatever the chunk in the making holds before it', () => {
    const big = p(words(60, 8));
    const options = { maxSize: 100, targetSize: 90 };
    const alone = pack(handMade([big]).blocks, options);
    const { text, blocks } = handMade([p(words(8)), big]);
    const drafts = pack(blocks, options);
    expect(alone.length).toBeGreaterThan(2);
    expect(drafts.every((d) => d.size <= 100 && text.slice(d.start, d.end) === d.text)).toBe(true);
    // Its first span does not fit beside the paragraph before it, so that paragraph goes alone; from there on the
    // chunks are those of the block alone. Cut to fill the room left, every cut in the block would have moved.
    expect(drafts[0]?.text).toBe(words(8));
    expect(drafts.slice(1).map((d) => d.text)).toEqual(alone.map((d) => d.text));
  });

  it('ends a chunk before a block it cuts as readily as before the block kept whole: that place is between blocks', () => {
    // Two lists merge into one when the paragraph between them is deleted; the merged list is cut, the first did
    // fit. The chunk before either list ends in the same place, so it is not embedded again.
    const item = (i: number): string => `- item ${i} ${words(3, i * 3)}`;
    const list = (count: number): BlockSpec => ({ kind: 'list', text: Array.from({ length: count }, (_, i) => item(i)).join('\n') });
    const opening = [p(words(2)), p(words(5, 50))];
    const options = { maxSize: 160 };
    const whole = pack(handMade([...opening, list(5)]).blocks, options);
    const cut = pack(handMade([...opening, list(13)]).blocks, options);
    expect(whole.map((d) => d.metadata.isSplit)).toEqual([false, false]);
    expect(cut.slice(1).every((d) => d.metadata.isSplit)).toBe(true);
    expect(cut[0]?.text).toBe(whole[0]?.text);
  });

  it('cuts a block that follows headings to fit after them, and starts a chunk with them when the content before leaves too little room', () => {
    const big = p(words(60, 8));
    const drafts = pack(handMade([p(words(3)), { kind: 'heading', depth: 3, text: '### H' }, big]).blocks, { maxSize: 100, targetSize: 90 });
    expect(drafts[0]?.text).toBe(words(3));
    expect(drafts[1]?.text.startsWith('### H\n\nw8 ')).toBe(true);
    expect(drafts.slice(2).every((d) => d.metadata.isSplit && d.size <= 100)).toBe(true);
  });

  it('gives each draft its gap and where a chunk may start inside each of its spans', () => {
    const { blocks } = handMade([p(words(3)), { kind: 'code', text: '```js\nx = 1;\n```' }, { kind: 'list', text: '- a\n- b' }, { kind: 'table', text: '| h |\n| - |\n| 1 |' }]);
    const [draft] = pack(blocks, { maxSize: 200, targetSize: 200 });
    expect(draft?.spans.map((m) => m.starts)).toEqual(['words', 'none', 'items', 'none']);
    expect(draft?.spans.every((m) => m.opens)).toBe(true);
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
    // No chunk ends in the trailing spaces: they lead the gap into the next block, inside a chunk or before one.
    expect(drafts.every((d) => d.text === d.text.trimEnd())).toBe(true);
    const next = drafts.find((d) => d.text.includes(words(3, 40)));
    expect(next?.text.startsWith(words(3, 40)) ? next.gapBefore : next?.text).toContain(`  \n\n`);
  });
});

describe('the packer’s steps, alone', () => {
  const config = normalizeOptions({ unit: 'chars', minSize: 0, maxSize: 60, targetSize: 60 });
  const state = () => createPackerState(config, resolveDeps(config));
  const spanOf = (block: Block | undefined): BlockSpan => wholeSpan({ ...(block as Block), heading: NO_HEADING }, (block as Block).text.length);

  it('strandsHeadings: a heading ending the chunk in the making, and a span too large to go with it', () => {
    const { blocks } = handMade([{ kind: 'heading', depth: 3, text: '### Title' }, p(words(5)), p(words(20, 5))]);
    const packer = state();
    addSpan(packer, spanOf(blocks[0]));
    expect(strandsHeadings(packer, spanOf(blocks[1]))).toBe(false);
    expect(strandsHeadings(packer, spanOf(blocks[2]))).toBe(true);
  });

  it('emitSpans: a span over the limit once measured is cut smaller, and every draft fits', () => {
    const { blocks } = handMade([p(words(20))]);
    const packer = state();
    // Its size as given is far below what it measures: the estimate was short.
    emitSpans(packer, [{ ...spanOf(blocks[0]), size: 10 }]);
    expect(packer.out.length).toBeGreaterThan(1);
    expect(packer.out.every((d) => d.size <= 60)).toBe(true);
    expect(packer.out.map((d) => d.text).join(' ')).toBe(words(20));
  });

  it('packBlock and flush: a block into the chunk in the making, then out as a draft of its section', () => {
    const { blocks } = handMade([{ kind: 'heading', depth: 1, text: '# A' }, p(words(3))]);
    const packer = state();
    for (const block of blocks) packBlock(packer, block);
    expect(packer.out).toEqual([]);
    flush(packer, false);
    expect(packer.out.map((d) => [d.text, d.section])).toEqual([[`# A\n\n${words(3)}`, 1]]);
  });
});
