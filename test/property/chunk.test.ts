/**
 * The chunk contracts (DESIGN.md 1–5) as properties, over generated Markdown and every document of the corpus, at
 * several sizes and units; and stream output equal to `chunkText` under random write sizes.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunkText } from '../../src/api/chunk.js';
import { normalizeOptions, type ChunkOptions } from '../../src/config.js';
import { runCore } from '../../src/core.js';
import { createHeadingStage } from '../../src/chunking/heading-tracker.js';
import { createSizer } from '../../src/chunking/sizers/index.js';
import { parseMarkdown } from '../../src/parsers/markdown/parse.js';
import { checkChunks } from '../support/chunk-contracts.js';
import { cutInto, markdownDocument } from '../support/markdown-arbitrary.js';
import { corpusFiles, describeCorpus } from '../support/corpus.js';
import { fcParams } from '../support/property.js';
import { streamMarkdownChunks } from '../support/stream-chunks.js';

/** Chunks `text` and checks every contract; returns overlap counts. */
function check(text: string, options: ChunkOptions) {
  const config = normalizeOptions(options);
  const sizer = createSizer(config);
  const clean = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const blocks = runCore(createHeadingStage(), parseMarkdown(clean));
  const { chunks } = chunkText(clean, options);
  return checkChunks(clean, blocks, chunks, config, sizer);
}

const SIZES: ChunkOptions[] = [
  { unit: 'tokens', maxSize: 32 },
  { unit: 'tokens', maxSize: 128 },
  { unit: 'tokens', maxSize: 512 },
  { unit: 'chars', maxSize: 200 },
  { unit: 'chars', maxSize: 2000 },
];

describe('chunk contracts over generated Markdown', () => {
  const options = fc.record({
    size: fc.constantFrom(...SIZES),
    overlap: fc.constantFrom(0, 0, 4, 16),
    contextualize: fc.constantFrom(false, true, { title: true }),
    preserveCode: fc.boolean(),
    splitLevels: fc.constantFrom([1, 2], [1], [1, 2, 3]),
  });

  it('exact slices, sizes, order and coverage (or overlap), headings', () => {
    fc.assert(
      fc.property(markdownDocument, options, (text, o) => {
        const overlap = Math.min(o.overlap, Math.floor((o.size.maxSize as number) / 4));
        check(text, { ...o.size, overlap, contextualize: o.contextualize, preserveCode: o.preserveCode, splitLevels: o.splitLevels });
      }),
      fcParams(120),
    );
  });

  it('the stream under random write sizes gives exactly the chunks of chunkText', async () => {
    await fc.assert(
      fc.asyncProperty(markdownDocument, fc.constantFrom(...SIZES), fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 30 }), async (text, size, cuts) => {
        const expected = chunkText(text, { ...size, batchSize: 1024 }).chunks;
        const streamed = await streamMarkdownChunks(cutInto(Buffer.from(text), cuts), size);
        expect(streamed).toEqual(expected);
      }),
      fcParams(40),
    );
  });
});

describeCorpus('chunk contracts', () => {
  const files = corpusFiles('', ['.md', '.markdown', '.txt']);
  const specExamples = corpusFiles('md/marked-specs', ['.json']).flatMap((f) => (JSON.parse(readFileSync(f, 'utf8')) as { markdown: string }[]).map((e) => e.markdown));

  for (const size of SIZES) {
    it(`every corpus file at ${size.maxSize} ${size.unit}`, () => {
      expect(files.length).toBeGreaterThan(0);
      for (const file of files) {
        try {
          check(readFileSync(file, 'utf8'), size);
        } catch (error) {
          throw new Error(`${file}: ${(error as Error).message}`);
        }
      }
    });
  }

  it('every spec example at 32 tokens, with and without overlap', () => {
    for (const [i, text] of specExamples.entries()) {
      for (const options of [{ maxSize: 32 }, { maxSize: 32, overlap: 8, contextualize: true }] as ChunkOptions[]) {
        try {
          check(text, options);
        } catch (error) {
          throw new Error(`example ${i} ${JSON.stringify(options)}: ${(error as Error).message}\n${JSON.stringify(text)}`);
        }
      }
    }
  });

  it('with overlap: most chunks that may overlap do, and every contract still holds', () => {
    let overlapped = 0;
    let eligible = 0;
    for (const file of files) {
      const r = check(readFileSync(file, 'utf8'), { maxSize: 256, overlap: 32 });
      overlapped += r.overlapped;
      eligible += r.eligible;
    }
    expect(eligible).toBeGreaterThan(0);
    // Chunks after a code block or a table may not start inside it (the construct would break): about 40% here.
    expect(overlapped / eligible).toBeGreaterThan(0.5);
  });

  it('the stream in random writes equals chunkText on the corpus', async () => {
    let seed = 11;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (const file of files.slice(0, 30)) {
      const bytes = readFileSync(file);
      const streamed = await streamMarkdownChunks(cutInto(bytes, Array.from({ length: 40 }, random)), { maxSize: 128 });
      expect(streamed, file).toEqual(chunkText(bytes, { maxSize: 128, batchSize: 1024 }).chunks);
    }
  });
});
