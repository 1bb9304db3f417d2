/**
 * The chunk contracts with Hugging Face tokenizers: every chunk's size is what the Rust `tokenizers` library
 * counts for what the embedder sees (its embed text, special tokens included) and stays within `maxSize`; slices,
 * coverage and headings hold as with cl100k; the stream gives the chunks of `chunkText` under any write split.
 * Over generated Markdown full of the text tokenizers disagree on, and (corpus layer) a sample of real documents.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunkText } from '../../src/api/chunk.js';
import { normalizeOptions, type ChunkOptions } from '../../src/config.js';
import { runCore } from '../../src/core.js';
import { createHeadingStage } from '../../src/chunking/heading-tracker.js';
import { createSizer } from '../../src/chunking/sizers/index.js';
import { parseMarkdown } from '../../src/parsers/markdown/parse.js';
import { withOverhead } from '../../src/protocols.js';
import type { Chunk } from '../../src/types.js';
import { checkChunks } from '../support/chunk-contracts.js';
import { corpusFiles, describeCorpus } from '../support/corpus.js';
import { FIXTURE_TOKENIZERS, fixtureTokenizer, HAS_QWEN3, QWEN3, referenceCounter } from '../support/hf-reference.js';
import { cutInto, markdownBlock } from '../support/markdown-arbitrary.js';
import { fcParams } from '../support/property.js';
import { streamMarkdownChunks } from '../support/stream-chunks.js';
import { tokenizerText } from '../support/tokenizer-text.js';

const NODE_DOCS = '/usr/share/doc/nodejs/api';

/** Markdown whose paragraphs are full of what tokenizers count differently. */
const document = fc
  .array(fc.oneof({ weight: 2, arbitrary: markdownBlock }, { weight: 2, arbitrary: tokenizerText(30) }, { weight: 1, arbitrary: tokenizerText(12).map((t) => `## ${t.replace(/\n/g, ' ')}`) }), { maxLength: 8 })
  // A NUL makes a document binary data, which chunkText refuses: the sizer tests count it, not these.
  .map((blocks) => blocks.join('\n\n').replaceAll('\u0000', ''));

/** What the embedder sees of a chunk. */
const seen = (c: Chunk): string => c.embedText ?? c.prefix + c.text + c.suffix;

/** Chunks `text`, checks every contract with the library's own sizer, and each size against the reference. */
async function checkWithReference(text: string, options: ChunkOptions, path: string): Promise<Chunk[]> {
  const config = normalizeOptions(options);
  const blocks = runCore(createHeadingStage(), parseMarkdown(text));
  const { chunks } = chunkText(text, options);
  checkChunks(text, blocks, chunks, config, withOverhead(createSizer(config)));
  const expected = await referenceCounter(path).counts(chunks.map(seen));
  chunks.forEach((c, i) => {
    expect(c.size, `chunk ${i} ${JSON.stringify(c.text.slice(0, 60))}`).toBe(expected[i]);
    if (!c.oversized) expect(c.size).toBeLessThanOrEqual(config.maxSize);
  });
  return chunks;
}

describe('chunk contracts with Hugging Face tokenizers', () => {
  // From 40 up: one grapheme cluster cannot be cut, and a family emoji is 25 byte-fallback tokens.
  const settings = fc.record({ maxSize: fc.constantFrom(40, 64, 200), contextualize: fc.boolean(), overlap: fc.constantFrom(0, 0, 3) });
  for (const name of FIXTURE_TOKENIZERS) {
    const path = fixtureTokenizer(name);
    it(`${name}: each size is the Rust library's count of the embed text, within maxSize; slices, coverage, headings`, async () => {
      await fc.assert(
        fc.asyncProperty(document, settings, async (text, s) => {
          await checkWithReference(text, { tokenizer: path, ...s }, path);
        }),
        fcParams(20),
      );
    });
  }

  it('the stream under random write sizes gives exactly the chunks of chunkText', async () => {
    await fc.assert(
      fc.asyncProperty(document, fc.constantFrom(...FIXTURE_TOKENIZERS), fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 30 }), async (text, name, cuts) => {
        const options = { tokenizer: fixtureTokenizer(name), maxSize: 48, contextualize: true };
        const expected = chunkText(text, { ...options, batchSize: 1024 }).chunks;
        expect(await streamMarkdownChunks(cutInto(Buffer.from(text), cuts), options)).toEqual(expected);
      }),
      fcParams(20),
    );
  });
});

describeCorpus('Hugging Face tokenizers on real documents', () => {
  const corpus = corpusFiles('md', ['.md']);
  const docs = existsSync(NODE_DOCS) ? readdirSync(NODE_DOCS).filter((f) => f.endsWith('.md')).sort().map((f) => join(NODE_DOCS, f)) : [];
  // A bounded sample: the whole corpus and all of Node's docs are recounted by scripts/verify-tokenizers.mjs.
  const sample = [...corpus.filter((_, i) => i % Math.max(1, Math.floor(corpus.length / 2)) === 0).slice(0, 2), ...docs.slice(0, 1)];
  const tokenizers = [...FIXTURE_TOKENIZERS.map(fixtureTokenizer), ...(HAS_QWEN3 ? [QWEN3] : [])];

  it('every chunk of a sample measures what the Rust library counts, and none is above maxSize', async () => {
    expect(sample.length).toBeGreaterThan(0);
    for (const path of tokenizers) {
      for (const file of sample) {
        const text = readFileSync(file, 'utf8').slice(0, 20_000);
        const chunks = await checkWithReference(text, { tokenizer: path, maxSize: 256, contextualize: true }, path);
        expect(chunks.length, `${path} ${file}`).toBeGreaterThan(0);
      }
    }
  });
});
