/**
 * Parents as properties over generated Markdown: their texts are exact slices, every chunk lies inside the parent
 * it names, a parent stays within its limit unless it is one chunk, the stream gives the parents and chunks of
 * `chunkText` under random writes, and the parents of the sections an edit did not touch keep their ids.
 */
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunkText } from '../../src/api/chunk.js';
import { normalizeOptions, type ChunkOptions } from '../../src/config.js';
import { createSizer } from '../../src/chunking/sizers/index.js';
import type { ParentRecord } from '../../src/chunking/parents.js';
import { chunk } from '../../src/stream/chunk.js';
import { parse } from '../../src/stream/parse.js';
import type { Chunk } from '../../src/types.js';
import { cutInto, markdownDocument } from '../support/markdown-arbitrary.js';
import { fcParams } from '../support/property.js';

const options = fc.record({
  maxSize: fc.constantFrom(32, 128),
  parents: fc.record({ levels: fc.constantFrom([1, 2], [1], [2]), times: fc.constantFrom(1, 2, 4) }),
  overlap: fc.constantFrom(0, 0, 4),
  contextualize: fc.boolean(),
});

/** The chunking options of a generated case. */
function optionsOf(o: { maxSize: number; parents: { levels: number[]; times: number }; overlap: number; contextualize: boolean }): ChunkOptions {
  return { maxSize: o.maxSize, overlap: o.overlap, contextualize: o.contextualize, parents: { levels: o.parents.levels, maxSize: o.maxSize * o.parents.times } };
}

/** Throws unless the parents of `chunks` hold the contracts. */
function checkParents(text: string, chunks: readonly Chunk[], parents: readonly ParentRecord[], opts: ChunkOptions): void {
  const config = normalizeOptions(opts);
  const sizer = createSizer(config);
  const limit = (config.parents as { maxSize: number }).maxSize;
  const byId = new Map(parents.map((p) => [p.id, p]));
  expect(byId.size).toBe(parents.length);
  parents.forEach((p, i) => {
    expect(p.index).toBe(i);
    expect(text.slice(p.start, p.end)).toBe(p.text);
    expect(p.size).toBe(sizer.size(p.text));
    if (p.chunks > 1) expect(p.size).toBeLessThanOrEqual(limit);
  });
  const counts = new Map<string, number>();
  let previous = -1;
  for (const c of chunks) {
    const p = byId.get(c.parentId as string);
    if (p === undefined) throw new Error(`chunk #${c.index} names no parent: ${c.parentId}`);
    expect(c.start).toBeGreaterThanOrEqual(p.start);
    expect(c.end).toBeLessThanOrEqual(p.end);
    // A parent's chunks are consecutive: parents come in the order of their chunks.
    expect(p.index).toBeGreaterThanOrEqual(previous);
    previous = p.index;
    counts.set(p.id, (counts.get(p.id) ?? 0) + 1);
  }
  for (const p of parents) expect(counts.get(p.id)).toBe(p.chunks);
}

async function streamed(pieces: Uint8Array[], opts: ChunkOptions): Promise<{ chunks: Chunk[]; parents: ParentRecord[] }> {
  const chunks: Chunk[] = [];
  const parents: ParentRecord[] = [];
  const stage = chunk(opts);
  stage.on('parent', (p: ParentRecord) => parents.push(p));
  await pipeline(Readable.from(pieces, { objectMode: true }), parse({ format: 'markdown', batchSize: 1024 }), stage, new Writable({ objectMode: true, write: (c, _e, cb) => (chunks.push(c), cb()) }));
  return { chunks, parents };
}

describe('parents', () => {
  it('are exact slices, hold their chunks whole, and stay within their limit', () => {
    fc.assert(
      fc.property(markdownDocument, options, (text, o) => {
        const opts = optionsOf(o);
        const { chunks, parents } = chunkText(text, opts);
        checkParents(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text, chunks, parents ?? [], opts);
      }),
      fcParams(60),
    );
  });

  it('come from the stream as from chunkText, whatever the writes', async () => {
    await fc.assert(
      fc.asyncProperty(markdownDocument, options, fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 20 }), async (text, o, cuts) => {
        const opts = optionsOf(o);
        const expected = chunkText(text, { ...opts, batchSize: 1024 });
        const got = await streamed(cutInto(Buffer.from(text), cuts), opts);
        expect(got.chunks).toEqual(expected.chunks);
        expect(got.parents).toEqual(expected.parents);
      }),
      fcParams(25),
    );
  });

  it('of the sections an edit did not touch keep their ids', () => {
    const sentence = fc.array(fc.constantFrom('alpha', 'beta', 'gamma', 'delta', 'stream', 'chunk', 'naïve'), { minLength: 3, maxLength: 12 }).map((w) => `${w.join(' ')}.`);
    const section = fc.array(fc.array(sentence, { minLength: 1, maxLength: 4 }).map((s) => s.join(' ')), { minLength: 1, maxLength: 6 });
    fc.assert(
      fc.property(fc.array(section, { minLength: 2, maxLength: 6 }), fc.nat(), sentence, fc.constantFrom(1, 4), (sections, which, added, times) => {
        const doc = (list: string[][]) => `# Guide\n\n${list.map((paragraphs, i) => `## Part ${i}\n\n${paragraphs.join('\n\n')}`).join('\n\n')}\n`;
        const k = which % sections.length;
        const edited = sections.map((s, i) => (i === k ? [...s.slice(0, 1), added, ...s.slice(1)] : s));
        const opts = { maxSize: 48, parents: { maxSize: 48 * times } };
        // The edited part, in the text before the edit: a parent that holds any of it was touched. (`# Guide`
        // has no text of its own, so it opens the first part's first chunk and parent.)
        const original = doc(sections);
        const from = original.indexOf(`## Part ${k}\n`);
        const next = original.indexOf(`## Part ${k + 1}\n`);
        const to = next === -1 ? original.length : next;
        const idsBySection = (text: string, untouched: (p: ParentRecord) => boolean) => {
          const out = new Map<string, string[]>();
          for (const p of chunkText(text, opts).parents ?? []) if (untouched(p)) out.set(p.heading.breadcrumb, [...(out.get(p.heading.breadcrumb) ?? []), p.id]);
          return out;
        };
        const before = idsBySection(original, (p) => p.end <= from || p.start >= to);
        const after = idsBySection(doc(edited), () => true);
        expect(before.size).toBeGreaterThan(0);
        for (const [breadcrumb, ids] of before) expect(after.get(breadcrumb)).toEqual(ids);
      }),
      fcParams(40),
    );
  });
});
