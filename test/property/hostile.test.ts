/**
 * Hostile Markdown: shapes that give no safe place to cut a parse batch (CSV exports, changelogs without blank
 * lines, unclosed fences, one line of megabytes), deep nesting, junk bytes. Each ends with chunks that keep every
 * contract, or with a coded error, never `ERR_INTERNAL`; the stream under any write split gives the chunks of
 * `chunkText`; the parts of a construct the parser had to cut say so, and frame their text as the whole would.
 *
 * The shapes are small here, with small batch bounds that cut them many times; `bench/hostile.ts` streams them at
 * 2, 8 and 32 MB with the default bounds.
 */
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunkText } from '../../src/api/chunk.js';
import { runCore } from '../../src/core.js';
import { createHeadingStage } from '../../src/chunking/heading-tracker.js';
import { createSizer } from '../../src/chunking/sizers/index.js';
import { normalizeOptions, type ChunkOptions, type ParseOptions } from '../../src/config.js';
import { parseMarkdown } from '../../src/parsers/markdown/parse.js';
import { chunk } from '../../src/stream/chunk.js';
import { parse } from '../../src/stream/parse.js';
import type { Block, Chunk } from '../../src/types.js';
import { checkChunks } from '../support/chunk-contracts.js';
import { HOSTILE_MARKDOWN, hostileShape } from '../support/hostile-markdown.js';
import { cutInto } from '../support/markdown-arbitrary.js';
import { fcParams } from '../support/property.js';

/** Bounds small enough to cut a 20 KB document ten times and more. */
const SMALL: ParseOptions = { batchSize: 512, maxBatchSize: 2048 };

const SETTINGS: ChunkOptions[] = [{ maxSize: 128 }, { maxSize: 48, overlap: 8 }, { unit: 'chars', maxSize: 300, contextualize: true }];

/** The document a shape makes, decoded as the parser decodes it (random bytes become U+FFFD where invalid). */
function documentOf(name: string, bytes: number): string {
  const text = hostileShape(name).make(bytes);
  return name === 'random-bytes' ? new TextDecoder().decode(Buffer.from(text, 'latin1')) : text;
}

/** Parses and chunks `text`, checking every contract and the continuation marks; returns the chunks. */
function checkDocument(text: string, parseOptions: ParseOptions, options: ChunkOptions): Chunk[] {
  const config = normalizeOptions(options);
  const blocks = parseMarkdown(text, parseOptions);
  checkContinuations(blocks);
  const { chunks } = chunkText(text, { ...options, ...parseOptions });
  checkChunks(text, runCore(createHeadingStage(), blocks), chunks, config, createSizer(config));
  return chunks;
}

/** A part that continues a construct follows a part that goes on; a continued table or fence part carries its frame. */
function checkContinuations(blocks: readonly Block[]): void {
  blocks.forEach((b, i) => {
    const c = b.continuation;
    if (c?.previous !== true) return;
    const before = blocks[i - 1];
    expect(before?.continuation?.next, `block at ${b.start} continues a block that does not go on`).toBe(true);
    if (b.kind === 'table') {
      expect(c.frame, `table part at ${b.start}`).toMatch(/\n[ \t|:-]+$/);
      expect(b.rows.every((r) => r.start >= b.start && r.end <= b.end)).toBe(true);
    }
    if (b.kind === 'code' && b.fence !== null) expect(c.frame?.trimStart().startsWith(b.fence)).toBe(true);
  });
}

async function streamChunks(pieces: Uint8Array[], parseOptions: ParseOptions, options: ChunkOptions): Promise<Chunk[]> {
  const out: Chunk[] = [];
  await pipeline(
    Readable.from(pieces, { objectMode: true }),
    parse({ ...parseOptions, format: 'markdown', workers: 0 }),
    chunk(options),
    new Writable({ objectMode: true, write: (c, _e, cb) => (out.push(c), cb()) }),
  );
  return out;
}

describe('hostile Markdown', () => {
  for (const shape of HOSTILE_MARKDOWN) {
    it(`${shape.name} (${shape.description}): contracts at every setting, no error`, () => {
      const text = documentOf(shape.name, 20_000);
      for (const options of SETTINGS) {
        const chunks = checkDocument(text, SMALL, options);
        if (text.trim() !== '') expect(chunks.length).toBeGreaterThan(0);
      }
    });
  }

  it('the stream under random write splits gives the chunks of chunkText, on every shape', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...HOSTILE_MARKDOWN.map((s) => s.name)), fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 20 }), async (name, cuts) => {
        const text = documentOf(name, 12_000);
        const expected = chunkText(text, { maxSize: 64, ...SMALL }).chunks;
        expect(await streamChunks(cutInto(Buffer.from(text), cuts), SMALL, { maxSize: 64 })).toEqual(expected);
      }),
      fcParams(30),
    );
  });

  it('mixtures of shapes at random bounds: contracts, and the stream equals chunkText', async () => {
    const part = fc.tuple(fc.constantFrom(...HOSTILE_MARKDOWN.map((s) => s.name)), fc.integer({ min: 50, max: 2500 }), fc.constantFrom('', '\n', '\n\n', '\n\n# Next\n\n'));
    const bounds = fc.integer({ min: 64, max: 600 }).chain((batchSize) => fc.record({ batchSize: fc.constant(batchSize), maxBatchSize: fc.integer({ min: Math.max(64, batchSize), max: batchSize * 5 }) }));
    await fc.assert(
      fc.asyncProperty(fc.array(part, { minLength: 1, maxLength: 6 }), bounds, fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 12 }), async (parts, parseOptions, cuts) => {
        const text = parts.map(([name, bytes, separator]) => documentOf(name, bytes) + separator).join('');
        const chunks = checkDocument(text, parseOptions, { maxSize: 40, overlap: 4 });
        expect(await streamChunks(cutInto(Buffer.from(text), cuts), parseOptions, { maxSize: 40, overlap: 4 })).toEqual(chunks);
      }),
      fcParams(60),
    );
  });

  it('a fence part whose code follows many blank lines: the blank lines are a gap, not grown into the span', () => {
    // The case the mixtures found: the part's one run of code fitted a chunk, then took the blank lines before it
    // and measured 41 tokens of 40 with its re-opened fence.
    const text = documentOf('unclosed-fence', 50) + documentOf('crlf-blank-lines', 505) + documentOf('long-paragraph', 71);
    const chunks = checkDocument(text, { batchSize: 460, maxBatchSize: 460 }, { maxSize: 40, overlap: 4 });
    expect(chunks.at(-1)?.prefix).toBe('```js\n');
    expect(chunks.at(-1)?.text.startsWith('stream')).toBe(true);
  });

  it('at the default bounds: a CSV export, a changelog and an unclosed fence are cut within 32 Ki and stay what they are', () => {
    for (const [name, kind] of [['csv-table', 'table'], ['changelog', 'list'], ['unclosed-fence', 'code']] as const) {
      const text = documentOf(name, 120_000);
      const blocks = parseMarkdown(text);
      expect(blocks.filter((b) => b.kind === kind).length, name).toBeGreaterThan(2);
      expect(Math.max(...blocks.map((b) => b.text.length)), name).toBeLessThanOrEqual(32 * 1024);
      checkDocument(text, {}, { maxSize: 512 });
    }
  });

  it('cuts a table between rows and repeats its header in front of every chunk of a later part', () => {
    const text = documentOf('csv-table', 20_000);
    const blocks = parseMarkdown(text, SMALL);
    expect(blocks.every((b) => b.kind === 'table')).toBe(true);
    expect(blocks.slice(1).every((b) => b.continuation?.frame === '| id | name | amount | date |\n|---|---|---:|---|')).toBe(true);
    const { chunks } = chunkText(text, { maxSize: 128, ...SMALL });
    // Every chunk is a run of rows: the first holds the header, every other has it as its prefix.
    expect(chunks[0]?.text.startsWith('| id | name |')).toBe(true);
    expect(chunks.slice(1).every((c) => c.prefix === '| id | name | amount | date |\n|---|---|---:|---|\n' && /^\| \d+ \|/.test(c.text))).toBe(true);
  });

  it('re-opens an unclosed fence in every part with its info string, and closes every chunk but the last', () => {
    const text = documentOf('unclosed-fence', 20_000);
    const blocks = parseMarkdown(text, SMALL);
    expect(blocks.every((b) => b.kind === 'code' && b.lang === 'js')).toBe(true);
    const { chunks } = chunkText(text, { maxSize: 128, ...SMALL });
    expect(chunks[0]?.text.startsWith('```js\n')).toBe(true);
    expect(chunks.slice(1).every((c) => c.prefix === '```js\n')).toBe(true);
    expect(chunks.slice(0, -1).every((c) => c.suffix === '\n```')).toBe(true);
  });

  it('reads containers nested past the cap as text, with a warning in the statistics, or fails on them with strict', () => {
    const text = `${'>'.repeat(5000)} deep\n\n${Array.from({ length: 100 }, (_, i) => `${'  '.repeat(i)}- level ${i}`).join('\n')}\n`;
    const { chunks, statistics } = chunkText(text, { maxSize: 256 });
    expect(chunks.length).toBeGreaterThan(0);
    expect(statistics.warnings).toEqual([expect.stringMatching(/^containers nested deeper than 32 levels were read as text \(\d+ blocks?\)$/)]);
    expect(() => parseMarkdown(text, { strict: true })).toThrowError(expect.objectContaining({ code: 'ERR_NESTING_TOO_DEEP' }));
  });

  it('counts lines cut inside in the statistics: nothing is lost and nothing fails by default', () => {
    const text = documentOf('words-line', 40_000);
    const { chunks, statistics } = chunkText(text, { maxSize: 256 });
    expect(chunks.map((c) => c.text).join(' ')).toBe(text.trim());
    expect(statistics.warnings).toEqual([expect.stringMatching(/^a line longer than maxBatchSize was cut inside the line \(\d+ blocks?\)$/)]);
  });
});
