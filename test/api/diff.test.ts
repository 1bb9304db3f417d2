import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunkText } from '../../src/api/chunk.js';
import { diffChunks } from '../../src/api/diff.js';
import { fcParams } from '../support/property.js';

const paragraphs = Array.from({ length: 10 }, (_, i) => `Paragraph ${i} tells its own story, with words of its own (${i}).`);

describe('diffChunks', () => {
  it('after a one-paragraph edit, adds and removes only the chunks around it', () => {
    const options = { maxSize: 20, documentId: 'doc' };
    const before = chunkText(paragraphs.join('\n\n'), options).chunks;
    const edited = paragraphs.map((p, i) => (i === 6 ? p.replace('story', 'tale') : p));
    const after = chunkText(edited.join('\n\n'), options).chunks;
    const { added, removed, kept } = diffChunks(before, after);
    expect(added.length).toBeGreaterThanOrEqual(1);
    expect(added.length).toBeLessThanOrEqual(2);
    expect(removed.length).toBe(added.length);
    expect(added.every((c) => c.text.includes('tale') || !before.some((b) => b.text === c.text))).toBe(true);
    expect(kept.length + added.length).toBe(after.length);
    expect(removed.every((c) => c.text.includes('story (6)') || c.text.includes('story, with words of its own (6)'))).toBe(true);
  });

  it('partitions both sides by id, for any two sets', () => {
    const ids = fc.uniqueArray(fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g'), { maxLength: 7 });
    fc.assert(
      fc.property(ids, ids, (oldIds, newIds) => {
        const { added, removed, kept } = diffChunks(oldIds.map((id) => ({ id, side: 'old' })), newIds.map((id) => ({ id, side: 'new' })));
        expect([...added, ...kept].map((c) => c.id).sort()).toEqual([...newIds].sort());
        expect(kept.map((c) => c.id)).toEqual(newIds.filter((id) => oldIds.includes(id)));
        expect(added.map((c) => c.id)).toEqual(newIds.filter((id) => !oldIds.includes(id)));
        expect(removed.map((c) => c.id)).toEqual(oldIds.filter((id) => !newIds.includes(id)));
        expect([...added, ...kept].every((c) => c.side === 'new') && removed.every((c) => c.side === 'old')).toBe(true);
      }),
      fcParams(100),
    );
  });

  it('refuses an item without a string id with a coded error', () => {
    expect(() => diffChunks([{ id: 'a' }], [{ id: 1 } as unknown as { id: string }])).toThrow(expect.objectContaining({ code: 'ERR_INVALID_INPUT' }));
  });
});
