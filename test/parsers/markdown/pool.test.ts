/**
 * `parse({ workers })`: batches cut on the calling thread, parsed on the shared pool, emitted in order, with a
 * bounded window of batches in flight; errors come back once as a `ChunkError` and the pool lease is released.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { normalizeParseOptions, type ParseOptions } from '../../../src/config.js';
import { createMarkdownBatcher } from '../../../src/parsers/markdown/batcher.js';
import { isChunkError } from '../../../src/errors.js';
import { parseMarkdown } from '../../../src/parsers/markdown/parse.js';
import { acquireMarkdownPool, destroyMarkdownPools, markdownPoolStats, resetMarkdownPoolStats } from '../../../src/parsers/markdown/pool.js';
import { parse } from '../../../src/stream/parse.js';
import type { Block } from '../../../src/types.js';
import fc from 'fast-check';
import { corpusFiles, describeCorpus } from '../../support/corpus.js';
import { markdownDocument } from '../../support/markdown-arbitrary.js';

// The core count `workers: 'auto'` sees, set per test (the real one by default).
const cores = vi.hoisted(() => ({ value: 0 }));
vi.mock('node:os', async (importOriginal) => {
  const os = await importOriginal<typeof import('node:os')>();
  return { ...os, availableParallelism: () => cores.value || os.availableParallelism() };
});

const SAMPLES = join(import.meta.dirname, '../../../samples');

/** A small seeded generator, so the piece sizes are random but the same on every run. */
function pieces(bytes: Buffer, seed: number, max: number): Buffer[] {
  let state = seed;
  const next = () => ((state = (Math.imul(state, 1103515245) + 12345) >>> 0) % max) + 1;
  const out: Buffer[] = [];
  for (let i = 0; i < bytes.length; ) {
    const n = next();
    out.push(bytes.subarray(i, i + n));
    i += n;
  }
  return out;
}

async function streamBlocks(input: Buffer[], options: ParseOptions): Promise<Block[]> {
  const out: Block[] = [];
  await pipeline(Readable.from(input), parse(options), new Writable({
    objectMode: true,
    write(block: Block, _e, cb) {
      out.push(block);
      cb();
    },
  }));
  return out;
}

/** Batches of 16 KiB: a large document makes dozens of them. */
const LARGE_BATCH = 16 * 1024;
const large = new Map<string, { text: string; blocks: Block[] }>();
/**
 * A large document and its blocks (parsed once, in 16 KiB batches, for every test here): generated Markdown of
 * every construct the generator knows, joined until `limit` characters, or with `corpus`, the corpus Markdown.
 */
function largeDocument(limit: number, corpus = false): { text: string; blocks: Block[] } {
  const key = `${limit}:${corpus}`;
  let doc = large.get(key);
  if (doc === undefined) {
    let text = '';
    if (corpus) {
      for (const file of corpusFiles('', ['.md'])) {
        if (text.length >= limit) break;
        text += `${readFileSync(file, 'utf8')}\n\n`;
      }
    } else {
      for (const generated of fc.sample(markdownDocument, { seed: 20261201, numRuns: 4000 })) {
        if (text.length >= limit) break;
        text += `${generated}\n\n`;
      }
    }
    doc = { text, blocks: parseMarkdown(text, { batchSize: LARGE_BATCH }) };
    large.set(key, doc);
  }
  return doc;
}
/** Enough text for a few dozen batches. */
const PART = 600_000;

const waitFor = async (check: () => boolean, ms = 10_000): Promise<void> => {
  const until = Date.now() + ms;
  while (!check() && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
};

/** Streams a large document to a pool of two threads in random-size pieces: its blocks, from the threads, in order. */
async function expectPooledBlocks({ text, blocks: expected }: { text: string; blocks: Block[] }): Promise<void> {
  expect(text.length).toBeGreaterThan(300_000);
  const bytes = Buffer.from(text);
  const options = { batchSize: LARGE_BATCH };
  const blocks = await streamBlocks(pieces(bytes, 7, 70_000), { ...options, workers: 2 });
  expect(blocks).toEqual(expected);
  const batcher = createMarkdownBatcher(normalizeParseOptions(options));
  const batches = [...batcher.write(text), ...batcher.end()].length;
  expect(markdownPoolStats()).toMatchObject({ submitted: batches, parsedInWorkers: batches, inFlight: 0, leases: 0 });
  expect(markdownPoolStats().peakInFlight).toBeLessThanOrEqual(4);
}

beforeEach(() => resetMarkdownPoolStats());
afterAll(() => destroyMarkdownPools());

describe('parse({ workers })', () => {
  it('gives exactly parseMarkdown’s blocks on the samples, in random-size pieces, parsed in worker threads', async () => {
    for (const name of readdirSync(SAMPLES).filter((n) => n.endsWith('.md'))) {
      const bytes = readFileSync(join(SAMPLES, name));
      const expected = parseMarkdown(bytes, { batchSize: 512 });
      expect(await streamBlocks(pieces(bytes, name.length, 300), { workers: 2, batchSize: 512 })).toEqual(expected);
    }
    const stats = markdownPoolStats();
    expect(stats.submitted).toBeGreaterThan(3);
    // The blocks really came from worker threads, TypeScript source included.
    expect(stats.parsedInWorkers).toBe(stats.submitted);
    expect(stats.leases).toBe(0);
  });

  it('gives exactly parseMarkdown’s blocks on a large generated document, in random-size pieces', async () => {
    await expectPooledBlocks(largeDocument(PART));
  });

  it('workers: 0 parses inline, and auto stays inline for a small input', async () => {
    const bytes = readFileSync(join(SAMPLES, 'guide.md'));
    const expected = parseMarkdown(bytes);
    expect(await streamBlocks([bytes], { workers: 0, batchSize: 256 })).toEqual(expected);
    expect(await streamBlocks([bytes], { batchSize: 256 })).toEqual(expected);
    expect(markdownPoolStats().submitted).toBe(0);
  });

  /** Streams a large document with `workers: 'auto'` seeing `count` cores; checks the blocks. */
  async function streamLargeOnCores(count: number): Promise<void> {
    const { text, blocks } = largeDocument(PART);
    cores.value = count;
    try {
      expect(await streamBlocks(pieces(Buffer.from(text), 3, 50_000), { batchSize: LARGE_BATCH })).toEqual(blocks);
    } finally {
      cores.value = 0;
    }
  }

  it('auto goes parallel once the input is large, from three cores on', async () => {
    await streamLargeOnCores(4);
    const stats = markdownPoolStats();
    expect(stats.submitted).toBeGreaterThan(0);
    expect(stats.parsedInWorkers).toBe(stats.submitted);
  });

  it('auto parses inline on two cores, however large the input', async () => {
    await streamLargeOnCores(2);
    expect(markdownPoolStats().submitted).toBe(0);
  });

  it('keeps the window bounded while the consumer is paused, then delivers everything in order', async () => {
    const { text, blocks: expected } = largeDocument(PART);
    const options = { workers: 2, batchSize: LARGE_BATCH };
    const stream = parse(options);
    const source = Readable.from(pieces(Buffer.from(text), 11, 20_000));
    source.pipe(stream);
    // Nobody reads: once the readable side is full, the stream stops taking writes and submitting batches.
    let last = -1;
    await waitFor(() => {
      const now = markdownPoolStats().submitted;
      const still = now === last && now > 0;
      last = now;
      return still && markdownPoolStats().inFlight === 0;
    });
    const paused = markdownPoolStats();
    expect(paused.peakInFlight).toBeLessThanOrEqual(4);
    expect(paused.submitted).toBeGreaterThan(0);
    expect(paused.submitted).toBeLessThan(20);
    const blocks: Block[] = [];
    for await (const block of stream) blocks.push(block as Block);
    expect(blocks).toEqual(expected);
    expect(markdownPoolStats().peakInFlight).toBeLessThanOrEqual(4);
    expect(markdownPoolStats().leases).toBe(0);
  });

  it('reports a buffer overflow once, with batches in flight, and releases the pool', async () => {
    const head = readFileSync(join(SAMPLES, 'guide.md'), 'utf8').repeat(20);
    const bytes = Buffer.from(`${head}\n\n${'x'.repeat(5000)}\n\nafter\n`);
    const stream = parse({ workers: 2, batchSize: 1024, maxBatchSize: 4096, strict: true });
    const errors: unknown[] = [];
    stream.on('error', (e) => errors.push(e));
    stream.resume();
    Readable.from(pieces(bytes, 5, 2000)).pipe(stream);
    await waitFor(() => stream.destroyed);
    await new Promise((r) => setTimeout(r, 100));
    expect(errors).toHaveLength(1);
    expect(isChunkError(errors[0], 'ERR_BUFFER_OVERFLOW')).toBe(true);
    expect(markdownPoolStats().submitted).toBeGreaterThan(0);
    expect(markdownPoolStats().leases).toBe(0);
    await waitFor(() => markdownPoolStats().inFlight === 0);
    expect(markdownPoolStats().inFlight).toBe(0);
  });

  it('reports invalid UTF-8 under fatal once, and releases the pool', async () => {
    const head = Buffer.from(readFileSync(join(SAMPLES, 'guide.md'), 'utf8').repeat(20));
    const bytes = Buffer.concat([head, Buffer.from([0x0a, 0xff, 0xfe, 0x0a]), head]);
    const errors: unknown[] = [];
    await expect(streamBlocks(pieces(bytes, 9, 3000), { workers: 2, batchSize: 1024, fatal: true }).catch((e) => {
      errors.push(e);
      throw e;
    })).rejects.toMatchObject({ code: 'ERR_INVALID_UTF8', byteOffset: head.length + 1 });
    expect(errors).toHaveLength(1);
    expect(markdownPoolStats().leases).toBe(0);
  });

  it('rejects an invalid workers option', () => {
    expect(() => parse({ workers: -1 })).toThrow(expect.objectContaining({ code: 'ERR_INVALID_OPTION', option: 'workers' }));
    expect(() => parse({ workers: 1.5 })).toThrow(/workers: must be an integer between 0 and 64, got 1.5/);
    expect(() => parse({ workers: 'many' as never })).toThrow(/workers/);
  });

  it('stops submitting when the stream is destroyed mid-way, and releases the pool', async () => {
    const text = readFileSync(join(SAMPLES, 'guide.md'), 'utf8').repeat(100);
    const controller = new AbortController();
    const stream = parse({ workers: 1, batchSize: 1024, signal: controller.signal });
    const errors: unknown[] = [];
    stream.on('error', (e) => errors.push(e));
    stream.once('data', () => controller.abort());
    Readable.from(pieces(Buffer.from(text), 13, 4000)).pipe(stream);
    await waitFor(() => stream.destroyed);
    await waitFor(() => markdownPoolStats().inFlight === 0);
    const submitted = markdownPoolStats().submitted;
    expect(errors.map((e) => (e as Error).name)).toEqual(['AbortError']);
    expect(markdownPoolStats().leases).toBe(0);
    expect(submitted).toBeLessThan(text.length / 1024 / 2);
  });

  it('turns a failure inside a worker into a ChunkError', async () => {
    const lease = acquireMarkdownPool(1);
    const bogus = { text: 42, offset: 0, line: 1, forced: false } as unknown as Parameters<typeof lease.parse>[0];
    await expect(lease.parse(bogus)).rejects.toMatchObject({ name: 'ChunkError', code: 'ERR_INTERNAL' });
    lease.release();
    expect(markdownPoolStats().leases).toBe(0);
  });
});

describeCorpus('parse({ workers }) on the corpus', () => {
  it('gives exactly parseMarkdown’s blocks on the whole corpus Markdown, in random-size pieces', async () => {
    await expectPooledBlocks(largeDocument(Infinity, true));
  });
});
