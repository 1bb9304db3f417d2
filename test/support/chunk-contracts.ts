/**
 * The chunk contracts of DESIGN.md as one checker, shared by the property tests of every input format.
 */
import { createHash } from 'node:crypto';
import type { ChunkConfig } from '../../src/config.js';
import type { Sizer } from '../../src/protocols.js';
import type { Block, Chunk } from '../../src/types.js';

/** Checks contracts 1, 2, 3 (or the overlap form), 5 for `chunks` of `text`; throws with a precise message. */
export function checkChunks(text: string, blocks: readonly Block[], chunks: readonly Chunk[], config: ChunkConfig, sizer: Sizer): { overlapped: number; eligible: number } {
  const fail = (c: Chunk, why: string): never => {
    throw new Error(`chunk #${c.index} [${c.start},${c.end}) ${why}: ${JSON.stringify(c.text.slice(0, 120))}`);
  };
  let overlapped = 0;
  let eligible = 0;
  // 1. Exact slices; 2. sizes.
  for (const c of chunks) {
    if (text.slice(c.start, c.end) !== c.text) fail(c, 'is not an exact slice');
    if (c.text.trim() === '') fail(c, 'is empty');
    const seen = c.embedText ?? c.prefix + c.text + c.suffix;
    const size = sizer.size(seen);
    if (size !== c.size) fail(c, `reports size ${c.size} but measures ${size}`);
    if (size > config.maxSize && !c.oversized) fail(c, `measures ${size} > maxSize ${config.maxSize}`);
    if (c.oversized && !config.preserveCode) fail(c, 'is oversized without preserveCode');
  }
  const ids = referenceChunkIds(config.documentId, chunks);
  chunks.forEach((c, i) => {
    if (c.id !== ids[i]) fail(c, `has id ${c.id}, expected ${ids[i]}`);
    // Neighbours: the ids of the chunks before and after it in the document, none past either end.
    if (c.prevId !== chunks[i - 1]?.id) fail(c, `has prevId ${c.prevId}, expected ${chunks[i - 1]?.id}`);
    if (c.nextId !== chunks[i + 1]?.id) fail(c, `has nextId ${c.nextId}, expected ${chunks[i + 1]?.id}`);
    if (c.documentTitle !== chunks[0]?.documentTitle) fail(c, `has title ${c.documentTitle}, the first chunk ${chunks[0]?.documentTitle}`);
  });
  chunks.forEach((c, i) => {
    if (c.index !== i) fail(c, `has index ${c.index} at position ${i}`);
  });
  // 3. Order and coverage.
  const covered = new Uint8Array(text.length);
  for (let i = 0; i < chunks.length; i++) {
    const c = chunks[i] as Chunk;
    covered.fill(1, c.start, c.end);
    const p = chunks[i - 1];
    if (p === undefined) continue;
    if (config.overlap === 0) {
      if (c.start < p.end) fail(c, `overlaps the previous chunk ending at ${p.end}`);
    } else {
      if (c.end <= p.end) fail(c, `does not end past the previous chunk's end ${p.end}`);
      if (c.start < p.start) fail(c, `starts before the previous chunk's start ${p.start}`);
      if (c.start < p.end) overlapped++;
      if (c.prefix === '' && p.suffix === '' && sameSection(blocks, p, c, config)) eligible++;
    }
  }
  for (let i = 0; i < text.length; i++) {
    if (!covered[i] && !/\s/.test(text[i] as string)) {
      throw new Error(`character ${JSON.stringify(text[i])} at ${i} is in no chunk: ${JSON.stringify(text.slice(Math.max(0, i - 30), i + 30))}`);
    }
  }
  // 5. Heading path in force at the chunk's start; no heading alone when its section has content after it.
  for (const c of chunks) {
    const block = blockAt(blocks, c.start);
    if (block === undefined) fail(c, 'starts in no block');
    const expected = block!.heading?.path ?? [];
    if (JSON.stringify(c.heading.path) !== JSON.stringify(expected)) fail(c, `has heading ${JSON.stringify(c.heading.path)}, expected ${JSON.stringify(expected)}`);
    const inside: Block[] = [];
    for (let k = firstBlockEndingAfter(blocks, c.start); k < blocks.length && (blocks[k] as Block).start < c.end; k++) inside.push(blocks[k] as Block);
    // A heading too large for any chunk is cut, and its parts cannot all be with content: only whole headings count.
    const whole = inside.every((b) => b.start >= c.start && b.end <= c.end);
    if (inside.length > 0 && whole && inside.every((b) => b.kind === 'heading')) {
      const next = blocks[firstBlockEndingAfter(blocks, c.end)];
      // Whitespace so long that the heading and it fill a chunk leaves no room for the content after it.
      const gapFills = next !== undefined && sizer.size(c.text + text.slice(c.end, next.start)) >= config.maxSize;
      if (next !== undefined && !gapFills && !(next.kind === 'heading' && config.splitLevels.includes(next.depth))) {
        fail(c, 'is a heading alone although its section has content after it');
      }
      // Nor before its first subsection: a section with no text of its own lends its headings to that subsection's
      // first chunk, unless they and the subsection's heading do not fit one chunk together.
      const last = inside.at(-1) as Block;
      const opensNext = next !== undefined && next.kind === 'heading' && config.splitLevels.includes(next.depth) && last.kind === 'heading' && next.depth > last.depth;
      if (opensNext && !gapFills && sizer.size(text.slice(c.start, next.end)) < config.maxSize) {
        fail(c, 'is a heading alone although the subsection after it could take it');
      }
    }
  }
  return { overlapped, eligible };
}

/** Index of the first block whose end is after `offset` (blocks are ordered and disjoint). */
function firstBlockEndingAfter(blocks: readonly Block[], offset: number): number {
  let lo = 0;
  let hi = blocks.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((blocks[mid] as Block).end <= offset) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The block containing `offset`, or the first block after it. */
function blockAt(blocks: readonly Block[], offset: number): Block | undefined {
  return blocks[firstBlockEndingAfter(blocks, offset)];
}

function sameSection(blocks: readonly Block[], a: Chunk, b: Chunk, config: ChunkConfig): boolean {
  for (let k = firstBlockEndingAfter(blocks, a.start); k < blocks.length && (blocks[k] as Block).start <= b.start; k++) {
    const x = blocks[k] as Block;
    if (x.start > a.start && x.kind === 'heading' && config.splitLevels.includes(x.depth)) return false;
  }
  return true;
}

/**
 * The ids chunks must have, computed apart from the library: the document id, then the first 16 hex digits of the
 * sha-256 of what the embedder sees, then `-n` for the n-th chunk (from the second) with that same content.
 */
export function referenceChunkIds(documentId: string, chunks: readonly Pick<Chunk, 'text' | 'prefix' | 'suffix' | 'embedText'>[]): string[] {
  const seen = new Map<string, number>();
  return chunks.map((c) => {
    const digest = createHash('sha256').update(c.embedText ?? c.prefix + c.text + c.suffix).digest('hex').slice(0, 16);
    const n = (seen.get(digest) ?? 0) + 1;
    seen.set(digest, n);
    return `${documentId}#${digest}${n === 1 ? '' : `-${n}`}`;
  });
}
