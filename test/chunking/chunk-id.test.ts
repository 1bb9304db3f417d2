import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunkText } from '../../src/api/chunk.js';
import { createChunkIdSequence, embeddedContent, formatChunkId } from '../../src/chunking/chunk-id.js';
import { referenceChunkIds } from '../support/chunk-contracts.js';
import { fcParams } from '../support/property.js';

const content = fc.record({ text: fc.constantFrom('a', 'b', 'c', 'a b', 'é'), prefix: fc.constantFrom('', '| h |\n'), suffix: fc.constantFrom('', '\n```') });

describe('chunk ids', () => {
  it('are the document id, a digest of what is embedded, and the occurrence of repeated content', () => {
    const ids = createChunkIdSequence('doc');
    const a = ids.next({ text: 'same' });
    const b = ids.next({ text: 'other' });
    const c = ids.next({ text: 'same' });
    const d = ids.next({ text: 'same', prefix: '| h |\n' });
    expect(a).toMatch(/^doc#[0-9a-f]{16}$/);
    expect(c).toBe(`${a}-2`);
    expect(new Set([a, b, c, d]).size).toBe(4);
    expect(embeddedContent({ text: 't', prefix: 'p', suffix: 's' })).toBe('pts');
    expect(embeddedContent({ text: 't', prefix: 'p', embedText: 'Intro\n\npt' })).toBe('Intro\n\npt');
    expect(formatChunkId('x', 'f'.repeat(64), 3)).toBe('x#ffffffffffffffff-3');
  });

  it('match an independent computation and are unique, for any sequence of contents', () => {
    fc.assert(
      fc.property(fc.array(content, { maxLength: 40 }), (chunks) => {
        const ids = createChunkIdSequence('d');
        const got = chunks.map((c) => ids.next(c));
        expect(got).toEqual(referenceChunkIds('d', chunks.map((c) => ({ ...c, embedText: undefined }))));
        expect(new Set(got).size).toBe(got.length);
      }),
      fcParams(100),
    );
  });

  it('stay unique once the Bloom filter takes over from exact counting', () => {
    fc.assert(
      fc.property(fc.array(content, { maxLength: 60 }), fc.integer({ min: 0, max: 4 }), (chunks, exactLimit) => {
        const ids = createChunkIdSequence('d', exactLimit);
        const got = chunks.map((c) => ids.next(c));
        expect(new Set(got).size).toBe(got.length);
        // Below the limit nothing changes; past it only the repeat suffixes may.
        const reference = referenceChunkIds('d', chunks.map((c) => ({ ...c, embedText: undefined })));
        got.forEach((id, i) => { expect(id.replace(/-\d+$/, '')).toBe(reference[i]!.replace(/-\d+$/, '')); });
      }),
      fcParams(100),
    );
  });

  it('of chunks whose text did not change survive an inserted paragraph, while index keeps the order', () => {
    const paragraphs = Array.from({ length: 12 }, (_, i) => `Paragraph ${i} says something of its own, number ${i}.`);
    const before = chunkText(paragraphs.join('\n\n'), { maxSize: 16, documentId: 'p' }).chunks;
    const edited = [...paragraphs.slice(0, 3), 'A new paragraph, inserted near the top.', ...paragraphs.slice(3)];
    const after = chunkText(edited.join('\n\n'), { maxSize: 16, documentId: 'p' }).chunks;
    const idOf = new Map(before.map((c) => [c.text, c.id]));
    const unchanged = after.filter((c) => idOf.has(c.text));
    expect(unchanged.length).toBeGreaterThanOrEqual(before.length - 2);
    for (const c of unchanged) expect(c.id).toBe(idOf.get(c.text));
    expect(after.map((c) => c.index)).toEqual(after.map((_, i) => i));
  });
});
