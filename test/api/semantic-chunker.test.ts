/**
 * The chunker's documented classes, by their documentation's examples translated to TypeScript line by line:
 * `SemanticChunker` (config, `chunk`, `chunkFile` on a PDF, `chunkBlocks` with a document id, the stream stage),
 * `HeadingTracker`, injected parts seen to be called, and the result's fields. Then what the classes promise
 * beyond the examples: the same chunks as the functions, an injected `ChunkOptimizer` giving the default's chunks,
 * a standalone one keeping the contracts, and parts that break their protocol refused with a code.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type ChunkError,
  ChunkOptimizer,
  DefaultHeadingTracker,
  HeadingTracker,
  SemanticChunker,
  TextSplitter,
  chunkBlocks,
  chunkFile,
  chunkText,
  parse,
  parseMarkdown,
  type Chunk,
  type ChunkOptions,
  type HeadingTrackerProtocol,
  type Span,
  type TextSplitterProtocol,
} from '../../src/index.js';
import { normalizeOptions } from '../../src/config.js';
import { runCore } from '../../src/core.js';
import { createHeadingStage } from '../../src/chunking/heading-tracker.js';
import { createSizer } from '../../src/chunking/sizers/index.js';
import { checkChunks } from '../support/chunk-contracts.js';
import { corpusFiles, describeCorpus } from '../support/corpus.js';
import { markdownDocument } from '../support/markdown-arbitrary.js';
import { fcParams } from '../support/property.js';

const ROOT = join(import.meta.dirname, '../..');
const guide = readFileSync(join(ROOT, 'samples/guide.md'), 'utf8');
const HANDBOOK = join(ROOT, 'samples/handbook.pdf');

/** Drains a readable of chunks. */
async function collectChunks(source: NodeJS.ReadableStream, ...stages: NodeJS.ReadWriteStream[]): Promise<Chunk[]> {
  const out: Chunk[] = [];
  await pipeline([source, ...stages, new Writable({ objectMode: true, write: (c: Chunk, _e, cb) => (out.push(c), cb()) })]);
  return out;
}

describe('the documented examples', () => {
  it('configures a SemanticChunker with targetSize 500 and maxSize 700, and chunks a document with it', () => {
    const chunker = new SemanticChunker({ targetSize: 500, maxSize: 700 });
    expect(chunker.config).toMatchObject({ targetSize: 500, maxSize: 700, unit: 'tokens' });

    const result = chunker.chunk(guide);

    expect(result.chunks.length).toBeGreaterThan(1);
    expect(Math.max(...result.chunks.map((c) => c.size))).toBeLessThanOrEqual(700);
    expect(result).toEqual(chunkText(guide, { targetSize: 500, maxSize: 700 }));
  });

  it('chunkFile reads a PDF', async () => {
    const chunker = new SemanticChunker({ targetSize: 500, maxSize: 700 });

    const result = await chunker.chunkFile(HANDBOOK);

    expect(result.document).toEqual({ documentId: HANDBOOK, format: 'pdf', title: 'The Indexing Handbook' });
    expect(result.chunks.length).toBeGreaterThan(0);
    expect(result.chunks.every((c) => c.pageStart !== undefined && c.text === result.text.slice(c.start, c.end))).toBe(true);
    expect(result.statistics.pages).toBeGreaterThan(1);
    expect(result).toEqual(await chunkFile(HANDBOOK, { targetSize: 500, maxSize: 700 }));
  });

  it('chunkBlocks chunks parsed blocks under the document id it is given', () => {
    const chunker = new SemanticChunker({ targetSize: 500, maxSize: 700 });
    const blocks = parseMarkdown(guide);

    const result = chunker.chunkBlocks(blocks, 'guide-v2');

    expect(result.document).toEqual({ documentId: 'guide-v2', format: 'blocks', title: 'Harbor Pilot Handbook' });
    expect(result.chunks.every((c) => c.documentId === 'guide-v2' && c.id.startsWith('guide-v2#'))).toBe(true);
    expect(result.chunks).toEqual(chunkBlocks(blocks, { targetSize: 500, maxSize: 700, documentId: 'guide-v2' }).chunks);
  });

  it('the heading tracker: H1 then H2 gives the path and levels; reset empties it', () => {
    const tracker = new HeadingTracker();

    tracker.update(1, 'Introduction');
    tracker.update(2, 'Background');

    expect(tracker.getPath()).toEqual(['Introduction', 'Background']);
    expect(tracker.getLevels()).toEqual([1, 2]);
    tracker.reset();
    expect(tracker.getPath()).toEqual([]);
    expect(tracker.getLevels()).toEqual([]);
  });

  it('injects a custom splitter and a custom tracker, and both are called', () => {
    const splitCalls: { text: string; maxSize: number }[] = [];
    const customSplitter: TextSplitterProtocol = {
      split(text: string, maxSize: number): Span[] {
        splitCalls.push({ text, maxSize });
        return new TextSplitter({ unit: 'chars' }).split(text, maxSize);
      },
    };
    const trackerCalls: string[] = [];
    /** Keeps the stack as the default does, with titles in capitals, and logs each call. */
    class ShoutingTracker implements HeadingTrackerProtocol {
      readonly #inner = new HeadingTracker();
      update(level: number, text: string): void {
        trackerCalls.push(`update ${level} ${text}`);
        this.#inner.update(level, text.toUpperCase());
      }
      getPath(): string[] {
        trackerCalls.push('getPath');
        return this.#inner.getPath();
      }
      getLevels(): number[] {
        trackerCalls.push('getLevels');
        return this.#inner.getLevels();
      }
      reset(): void {
        trackerCalls.push('reset');
        this.#inner.reset();
      }
    }

    const chunker = new SemanticChunker({ unit: 'chars', targetSize: 150, maxSize: 200 }, { textSplitter: customSplitter, headingTracker: new ShoutingTracker() });
    const long = 'Each sentence here is short. '.repeat(12).trim();
    const { chunks } = chunker.chunk(`# Introduction\n\nOpening words.\n\n## Background\n\n${long}`);

    expect(splitCalls.length).toBeGreaterThan(0);
    expect(splitCalls.every((c) => long.includes(c.text.trim()) && c.maxSize <= 200)).toBe(true);
    expect(trackerCalls[0]).toBe('reset');
    expect(trackerCalls).toContain('update 1 Introduction');
    expect(trackerCalls).toContain('update 2 Background');
    expect(trackerCalls).toContain('getPath');
    expect(chunks.at(-1)?.heading.path).toEqual(['INTRODUCTION', 'BACKGROUND']);
    expect(chunks.every((c) => c.size <= 200)).toBe(true);
  });

  it('the result: chunks with heading.path and metadata.hasCode, statistics by their documented names, document', () => {
    const markdown = '# Install\n\n## Linux\n\nRun this:\n\n```sh\nnpm install chunkstream\n```\n\n## Windows\n\nThe same.';
    const result = new SemanticChunker({ unit: 'chars', targetSize: 60, maxSize: 80, minSize: 0 }).chunk(markdown, 'install.md');

    const withCode = result.chunks.find((c) => c.metadata.hasCode);
    expect(withCode?.heading.path).toEqual(['Install', 'Linux']);
    expect(result.chunks.at(-1)?.heading.path).toEqual(['Install', 'Windows']);
    expect(result.chunks.filter((c) => !c.metadata.hasCode).every((c) => !c.text.includes('```'))).toBe(true);
    const s = result.statistics;
    expect(s).toMatchObject({ totalChunks: result.chunks.length, oversizedCount: 0, undersizedCount: s.undersized });
    expect(s.avgSize).toBeCloseTo(result.chunks.reduce((n, c) => n + c.size, 0) / result.chunks.length, 9);
    expect(s.minSize).toBe(Math.min(...result.chunks.map((c) => c.size)));
    expect(s.maxSize).toBe(Math.max(...result.chunks.map((c) => c.size)));
    expect(result.document).toEqual({ documentId: 'install.md', format: 'markdown', title: 'Install' });
  });

  it('the stream stage carries the same config and parts into pipeline(...)', async () => {
    const chunker = new SemanticChunker({ targetSize: 500, maxSize: 700 });
    const streamed = await collectChunks(Readable.from([Buffer.from(guide)]), parse(), chunker.stream());
    expect(streamed).toEqual(chunker.chunk(guide).chunks);
  });
});

describe('SemanticChunker', () => {
  it('resets an injected tracker before each document, so no heading leaks into the next', () => {
    const chunker = new SemanticChunker({ unit: 'chars', maxSize: 100 }, { headingTracker: new HeadingTracker() });
    chunker.chunk('# First document\n\n## Its section\n\nText.');
    const second = chunker.chunk('Text before any heading.\n\n# Second\n\nMore.');
    expect(second.chunks[0]?.heading.path).toEqual([]);
    expect(second.chunks.at(-1)?.heading.path).toEqual(['Second']);
  });

  it('refuses a second document while one of its streams uses the injected tracker (ERR_IN_USE), and not after', async () => {
    const chunker = new SemanticChunker({ unit: 'chars', maxSize: 100 }, { headingTracker: new HeadingTracker() });
    const stream = chunker.stream();
    expect(() => chunker.chunk('# A\n\nb')).toThrow(expect.objectContaining({ code: 'ERR_IN_USE' }));
    await collectChunks(Readable.from([Buffer.from('# A\n\nb')]), parse(), stream);
    await new Promise((resolve) => setImmediate(resolve));
    expect(chunker.chunk('# A\n\nb').chunks).toHaveLength(1);
  });

  it('checks its options and parts when constructed', () => {
    const code = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return (e as ChunkError).code;
      }
      return 'no error';
    };
    expect(code(() => new SemanticChunker({ maxSize: 700, targetSize: 800 }))).toBe('ERR_INVALID_OPTION');
    expect(code(() => new SemanticChunker({ maxSise: 700 } as ChunkOptions))).toBe('ERR_INVALID_OPTION');
    expect(code(() => new SemanticChunker({ unit: 'chars' }, { textSplitter: new TextSplitter() }))).toBe('ERR_INVALID_OPTION');
    expect(code(() => new SemanticChunker({ unit: 'chars' }, { textSplitter: new TextSplitter({ unit: 'chars' }) }))).toBe('no error');
    expect(code(() => new SemanticChunker({}, { headingTracker: { update() {} } as unknown as HeadingTrackerProtocol }))).toBe('ERR_PROTOCOL');
    expect(code(() => new SemanticChunker({}, { headingTracker: new HeadingTracker(), tracker: new HeadingTracker() }))).toBe('ERR_INVALID_OPTION');
  });

  it('keeps the names people already use: HeadingTracker is DefaultHeadingTracker, and a plain object is a HeadingTracker', () => {
    expect(HeadingTracker).toBe(DefaultHeadingTracker);
    expect(new HeadingTracker()).toBeInstanceOf(DefaultHeadingTracker);
    const plain: HeadingTracker = { update() {}, getPath: () => ['x'], getLevels: () => [1], reset() {} };
    expect(chunkText('text', {}, { tracker: plain }).chunks[0]?.heading.path).toEqual(['x']);
  });
});

describe("an injected sizer's optional sizeUpTo", () => {
  const markdown = `# T\n\n${'word and more words. '.repeat(300)}\n\n${'x'.repeat(3000)}`;
  const words = (t: string): number => t.split(/\s+/).filter((w) => w !== '').length;

  it('is used where only a fit is asked, and gives the chunks size alone gives', () => {
    let bounded = 0;
    const plain = chunkText(markdown, { maxSize: 40 }, { sizer: { size: words } }).chunks;
    const withUpTo = chunkText(markdown, { maxSize: 40 }, {
      sizer: {
        size: words,
        sizeUpTo: (t: string, limit: number) => {
          bounded++;
          return Math.min(words(t), limit + 1);
        },
      },
    }).chunks;
    expect(bounded).toBeGreaterThan(0);
    expect(withUpTo).toEqual(plain);
  });

  it('is checked like size: a negative answer is ERR_PROTOCOL', () => {
    const run = () => chunkText(markdown, { maxSize: 40 }, { sizer: { size: words, sizeUpTo: () => -1 } });
    expect(run).toThrow(expect.objectContaining({ code: 'ERR_PROTOCOL' }));
  });
});

describe('an injected splitter that breaks its protocol is refused with ERR_PROTOCOL, naming what it did', () => {
  const markdown = `# T\n\n${'word '.repeat(400)}`;
  const cases: [string, (text: string) => unknown, RegExp][] = [
    ['a span outside the text', (t) => [{ start: 0, end: t.length + 50 }], /outside the text/],
    ['text left out', () => [{ start: 0, end: 10 }], /left text out after its last piece/],
    ['overlapping spans', (t) => [{ start: 0, end: 100 }, { start: 50, end: t.length }], /span 1 \[50, \d+\) out of order/],
    ['no array', () => 42, /must return an array/],
    ['offsets that are not integers', () => [{ start: 0.5, end: 3 }], /without integer start and end/],
  ];
  for (const [name, split, message] of cases) {
    it(name, () => {
      const run = () => chunkText(markdown, { unit: 'chars', maxSize: 200 }, { textSplitter: split as (text: string) => Span[] });
      expect(run).toThrow(message);
      expect(run).toThrow(expect.objectContaining({ code: 'ERR_PROTOCOL' }));
    });
  }

  it('but a span above maxSize is cut again by the built-in splitter, and the statistics say so', () => {
    const { chunks, statistics } = chunkText(markdown, { unit: 'chars', maxSize: 200 }, { textSplitter: (t: string) => [{ start: 0, end: t.length }] });
    expect(chunks.every((c) => c.size <= 200)).toBe(true);
    expect(chunks.map((c) => c.text).join(' ').split(/\s+/)).toEqual(['#', 'T', ...'word '.repeat(400).trim().split(' ')]);
    expect(statistics.warnings).toEqual([expect.stringMatching(/^textSplitter returned \d+ pieces? above maxSize, cut again by the built-in TextSplitter$/)]);
  });

  it('while a splitter that keeps the rules (one cluster above the limit included) is trusted', () => {
    const family = '👨‍👩‍👧‍👦';
    const { chunks } = chunkText(`${family} ${family}`, { unit: 'chars', maxSize: 5, minSize: 0 }, { textSplitter: new TextSplitter({ unit: 'chars' }) });
    expect(chunks.map((c) => c.text)).toEqual([family, family]);
  });
});

describe('ChunkOptimizer', () => {
  const settings: ChunkOptions[] = [
    { unit: 'chars', maxSize: 160, overlap: 24 },
    { unit: 'tokens', maxSize: 64, minSize: 30 },
    { unit: 'words', maxSize: 40, overlap: 6, contextualize: true },
  ];

  it('injected, gives exactly the chunks of the default optimizer (generated documents)', () => {
    fc.assert(
      fc.property(markdownDocument, fc.constantFrom(...settings), (text, options) => {
        const injected = new SemanticChunker(options, { optimizer: new ChunkOptimizer() }).chunk(text);
        expect(injected).toEqual(chunkText(text, options));
      }),
      fcParams(40),
    );
  });

  it('on its own, over chunks made without fusion or overlap, keeps every contract and fuses what the default fuses', () => {
    fc.assert(
      fc.property(markdownDocument, fc.constantFrom(...settings), (text, options) => {
        const clean = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
        const raw = chunkText(clean, { ...options, minSize: 0, overlap: 0 }).chunks;
        const config = normalizeOptions(options);
        const optimized = new ChunkOptimizer().optimize(raw, options, clean);
        const blocks = runCore(createHeadingStage(), parseMarkdown(clean));
        checkChunks(clean, blocks, optimized, config, createSizer(config));
        expect(optimized.map((c) => c.index)).toEqual(optimized.map((_, i) => i));
        if (config.overlap === 0) {
          // Without overlap the packer's cuts are the same, so the default's chunks come out.
          expect(optimized.map((c) => [c.start, c.end])).toEqual(chunkText(clean, options).chunks.map((c) => [c.start, c.end]));
        }
      }),
      fcParams(40),
    );
  });

  it('without the document text, fuses only across line breaks, and keeps sections apart', () => {
    const text = '# A\n\nOne.\n\nTwo.\n \t\nThree.\n\n# B\n\nFour.';
    const raw = chunkText(text, { unit: 'chars', maxSize: 12, minSize: 0 }).chunks;
    expect(raw.map((c) => c.text)).toEqual(['# A\n\nOne.', 'Two.', 'Three.', '# B\n\nFour.']);
    const options = { unit: 'chars', maxSize: 40, minSize: 30 } as const;
    // "Two." and "Three." are apart by a line of blanks no chunk shows: without the text they stay apart.
    const fused = new ChunkOptimizer().optimize(raw, options);
    expect(fused.map((c) => c.text)).toEqual(['# A\n\nOne.\n\nTwo.', 'Three.', '# B\n\nFour.']);
    const withText = new ChunkOptimizer().optimize(raw, options, text);
    expect(withText.map((c) => c.text)).toEqual(['# A\n\nOne.\n\nTwo.\n \t\nThree.', '# B\n\nFour.']);
    for (const c of withText) expect(text.slice(c.start, c.end)).toBe(c.text);
  });
});

describeCorpus('the classes over the corpus', () => {
  const files = corpusFiles('', ['.md']).slice(0, 12);

  it('an injected ChunkOptimizer gives the default chunks on real documents', () => {
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      const options = { maxSize: 256, overlap: 32, documentId: file };
      expect(new SemanticChunker(options, { optimizer: new ChunkOptimizer() }).chunk(text).chunks, file).toEqual(chunkText(text, options).chunks);
    }
  });
});

describe('ChunkOptimizer on PDF chunks', () => {
  it('a fused chunk keeps the boxes of the chunks it is made of, in order', async () => {
    const sample = new URL('../../samples/handbook.pdf', import.meta.url).pathname;
    const { chunks: raw } = await chunkFile(sample, { unit: 'chars', maxSize: 120, minSize: 0 });
    expect(raw.every((c) => (c.boxes ?? []).length > 0)).toBe(true);
    const fused = new ChunkOptimizer().optimize(raw, { unit: 'chars', maxSize: 400, minSize: 300 });
    expect(fused.length).toBeLessThan(raw.length);
    for (const chunk of fused) {
      const made = raw.filter((c) => c.start >= chunk.start && c.end <= chunk.end);
      expect(made.length).toBeGreaterThan(0);
      expect(chunk.boxes).toEqual(made.flatMap((c) => c.boxes ?? []));
    }
  });
});
