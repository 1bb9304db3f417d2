/**
 * The default optimizer on hand-made drafts, sizes in characters: fusion of small drafts within a section, overlap
 * moved back to a word or item start, frames and sections respected, overlap carried across windows.
 */
import { describe, expect, it } from 'vitest';
import { normalizeOptions, type ChunkOptions } from '../../src/config.js';
import { createChunkMeasure } from '../../src/chunking/chunk-measure.js';
import { buildDraft, type PackedDraft } from '../../src/chunking/draft.js';
import { NO_HEADING } from '../../src/chunking/heading-tracker.js';
import { createDefaultOptimizer } from '../../src/chunking/optimizer.js';
import { wholeSpan, type BlockSpan } from '../../src/chunking/block-spans.js';
import { charSizer } from '../../src/chunking/sizers/basic.js';
import { handMade, words, type BlockSpec } from '../support/blocks.js';

/** One draft per block of a hand-made document, all in `section` unless a block says otherwise. */
function drafts(specs: readonly (BlockSpec & { section?: number })[], options: ChunkOptions): { text: string; drafts: PackedDraft[]; optimize: (d: PackedDraft[]) => PackedDraft[] } {
  const config = normalizeOptions({ unit: 'chars', ...options });
  const measure = createChunkMeasure(config, charSizer);
  const { text, blocks } = handMade(specs);
  const made = blocks.map((b, i) => buildDraft([wholeSpan({ ...b, heading: NO_HEADING }, b.text.length)], specs[i]?.section ?? 0, measure));
  const optimizer = createDefaultOptimizer(measure);
  return { text, drafts: made, optimize: (d) => optimizer.optimize(d, config) };
}

const p = (text: string, section?: number) => ({ kind: 'paragraph' as const, text, ...(section === undefined ? {} : { section }) });

describe('the default optimizer', () => {
  it('fuses a draft below minSize into the previous one, or else the next, when the result fits', () => {
    const { text, drafts: d, optimize } = drafts([p(words(10)), p('tiny'), p(words(12, 10))], { maxSize: 60, minSize: 10 });
    const out = optimize(d);
    expect(out.map((x) => x.text)).toEqual([`${words(10)}\n\ntiny`, words(12, 10)]);
    expect(out[0]?.spans.length).toBe(2);
    expect(out.every((x) => text.slice(x.start, x.end) === x.text)).toBe(true);
    // A small first draft goes into the next one.
    const first = drafts([p('tiny'), p(words(10))], { maxSize: 60, minSize: 10 });
    expect(first.optimize(first.drafts).map((x) => x.text)).toEqual([`tiny\n\n${words(10)}`]);
  });

  it('fuses a small draft that starts with a heading into the next one only, never onto the end of the one before', () => {
    const config = normalizeOptions({ unit: 'chars', maxSize: 60, minSize: 16 });
    const measure = createChunkMeasure(config, charSizer);
    const { blocks } = handMade([p(words(10)), { kind: 'heading', depth: 3, text: '### H' }, p('Intro.'), p(words(4, 10)), p(words(16, 20))]);
    const [a, h, intro, b, c] = blocks.map((x) => wholeSpan({ ...x, heading: NO_HEADING }, x.text.length));
    const draft = (...spans: BlockSpan[]) => buildDraft(spans, 0, measure);
    const optimize = (d: PackedDraft[]) => createDefaultOptimizer(measure).optimize(d, config).map((x) => x.text);
    // A heading and its first sentence, small: they go with what follows them, not onto the paragraph before.
    expect(optimize([draft(a as BlockSpan), draft(h as BlockSpan, intro as BlockSpan), draft(b as BlockSpan)])).toEqual([words(10), `### H\n\nIntro.\n\n${words(4, 10)}`]);
    // When the next cannot take them, they stay a chunk of their own.
    expect(optimize([draft(a as BlockSpan), draft(h as BlockSpan, intro as BlockSpan), draft(c as BlockSpan)])).toEqual([words(10), '### H\n\nIntro.', words(16, 20)]);
  });

  it('fuses a small draft into the next one only when that one goes on in its section, not when it opens another', () => {
    const config = normalizeOptions({ unit: 'chars', maxSize: 60, minSize: 16 });
    const measure = createChunkMeasure(config, charSizer);
    const under = (path: string[], levels: number[]) => ({ path, levels, breadcrumb: path.join(' > ') });
    const specs: BlockSpec[] = [{ kind: 'heading', depth: 3, text: '### A' }, p('Small.'), { kind: 'heading', depth: 3, text: '### B' }, { kind: 'heading', depth: 4, text: '#### A1' }, p(words(4, 10))];
    const headings = [under(['A'], [3]), under(['A'], [3]), under(['B'], [3]), under(['A', 'A1'], [3, 4]), under(['A', 'A1'], [3, 4])];
    const { blocks } = handMade(specs);
    const [a, small, b, a1, body] = blocks.map((x, i) => wholeSpan({ ...x, heading: headings[i] ?? NO_HEADING }, x.text.length)) as BlockSpan[];
    const draft = (...spans: BlockSpan[]) => buildDraft(spans, 0, measure);
    const optimize = (d: PackedDraft[]) => createDefaultOptimizer(measure).optimize(d, config).map((x) => x.text);
    // Section A whole, then its sibling B: fused, B's text would go under A's breadcrumb.
    expect(optimize([draft(a as BlockSpan, small as BlockSpan), draft(b as BlockSpan, body as BlockSpan)])).toEqual(['### A\n\nSmall.', `### B\n\n${words(4, 10)}`]);
    // Section A's start, then its subsection A1: what A introduces.
    expect(optimize([draft(a as BlockSpan, small as BlockSpan), draft(a1 as BlockSpan, body as BlockSpan)])).toEqual([`### A\n\nSmall.\n\n#### A1\n\n${words(4, 10)}`]);
  });

  it('does not fuse across sections, over the limit, or across a frame', () => {
    const sections = drafts([p(words(10), 0), p('tiny', 1)], { maxSize: 60, minSize: 10 });
    expect(sections.optimize(sections.drafts)).toHaveLength(2);
    const full = drafts([p(words(14)), p('tiny')], { maxSize: 50, minSize: 10 });
    expect(full.optimize(full.drafts)).toHaveLength(2);
    const framed = drafts([p(words(5)), p('tiny')], { maxSize: 60, minSize: 10 });
    const [a, b] = framed.drafts as [PackedDraft, PackedDraft];
    expect(framed.optimize([{ ...a, suffix: '\n```' }, b])).toHaveLength(2);
  });

  it('moves a start back by up to the overlap, to a word start, and not into code', () => {
    const { text, drafts: d, optimize } = drafts([p(words(10)), p(words(10, 10)), { kind: 'code', text: '```\nlet a = 1;\n```' }, p(words(5, 20))], { maxSize: 80, minSize: 0, overlap: 12 });
    const out = optimize(d);
    expect(out[1]?.text).toMatch(/^(w\d )+w\d\n\nw10 /);
    expect(out[1]?.start).toBeLessThan(out[0]?.end as number);
    expect(text.slice(out[1]?.start, out[0]?.end).length).toBeLessThanOrEqual(12);
    // The chunk after the code block cannot start inside it.
    expect(out[3]?.text.startsWith(words(5, 20))).toBe(true);
    expect(out.every((x) => text.slice(x.start, x.end) === x.text && x.size <= 80)).toBe(true);
  });

  it('fuses a small draft only when the result leaves room for the overlap, as the packer does', () => {
    // The second draft and `tiny` fused measure 37 of 40: a chunk with no room left for any overlap.
    const { text, drafts: d, optimize } = drafts([p(words(10)), p(words(8, 10)), p('tiny')], { maxSize: 40, minSize: 10, overlap: 12 });
    const out = optimize(d);
    expect(out.map((x) => x.text.split(/\s+/).at(-1))).toEqual(['w9', 'w17', 'tiny']);
    for (let i = 1; i < out.length; i++) expect(out[i]?.start).toBeLessThan(out[i - 1]?.end as number);
    expect(out.every((x) => text.slice(x.start, x.end) === x.text && x.size <= 40)).toBe(true);
  });

  it('carries the overlap across windows of the same section, and drops whitespace-only drafts', () => {
    const { drafts: d, optimize } = drafts([p(words(10)), p(words(10, 10))], { maxSize: 80, minSize: 0, overlap: 8 });
    const [first, second] = d as [PackedDraft, PackedDraft];
    expect(optimize([first])).toEqual([first]);
    const next = optimize([{ ...second }, { ...second, text: '   ', start: second.end + 2, end: second.end + 5 }]);
    expect(next).toHaveLength(1);
    expect(next[0]?.start).toBeLessThan(first.end);
  });
});
