/**
 * Contracts of the parse stage over generated Markdown and the real corpus: exact slices, order, coverage of every
 * non-whitespace character, and stream output independent of write sizes.
 */
import { readFileSync } from 'node:fs';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseMarkdown } from '../../src/parsers/markdown/parse.js';
import { parse } from '../../src/stream/parse.js';
import type { Block } from '../../src/types.js';
import { corpusFiles, describeCorpus } from '../support/corpus.js';
import { fcParams } from '../support/property.js';
import { cutInto, markdownDocument } from '../support/markdown-arbitrary.js';

/** Asserts contracts 1–3 of the parse stage for `text` and its blocks. */
function checkBlocks(text: string, blocks: Block[]): void {
  let previousEnd = 0;
  const covered = new Uint8Array(text.length);
  for (const b of blocks) {
    if (text.slice(b.start, b.end) !== b.text) throw new Error(`inexact slice at ${b.start}`);
    if (b.start < previousEnd) throw new Error(`overlap or disorder at ${b.start}`);
    if (b.gapBefore !== text.slice(previousEnd, b.start)) throw new Error(`gapBefore of the block at ${b.start} is not the text since the previous block`);
    previousEnd = b.end;
    covered.fill(1, b.start, b.end);
  }
  for (let i = 0; i < text.length; i++) {
    if (!covered[i] && !/\s/.test(text[i] as string)) {
      throw new Error(`character ${JSON.stringify(text[i])} at ${i} is in no block: ${JSON.stringify(text.slice(i - 20, i + 20))}`);
    }
  }
}

async function streamBlocks(pieces: Uint8Array[], batchSize: number): Promise<Block[]> {
  const out: Block[] = [];
  await pipeline(
    Readable.from(pieces, { objectMode: true }),
    parse({ format: 'markdown', batchSize }),
    new Writable({ objectMode: true, write: (b, _e, cb) => (out.push(b), cb()) }),
  );
  return out;
}

/** The documents of the corpus: every Markdown or text file, and each spec example of the marked JSON files. */
function corpusDocuments(): [string, string][] {
  const docs: [string, string][] = [];
  for (const file of corpusFiles('', ['.md', '.markdown', '.txt'])) docs.push([file, readFileSync(file, 'utf8')]);
  for (const file of corpusFiles('md/marked-specs', ['.json'])) {
    const examples = JSON.parse(readFileSync(file, 'utf8')) as { markdown: string }[];
    examples.forEach((e, i) => { docs.push([`${file}#${i}`, e.markdown]); });
  }
  return docs;
}

describe('parse contracts over generated Markdown', () => {
  it('exact slices, order, coverage; stream under random writes equals parseMarkdown', async () => {
    await fc.assert(
      fc.asyncProperty(markdownDocument, fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 40 }), fc.constantFrom(1, 64, 512, 65536), async (text, cuts, batchSize) => {
        const bytes = Buffer.from(text, 'utf8');
        const sync = parseMarkdown(text, { batchSize });
        checkBlocks(text, sync);
        const streamed = await streamBlocks(cutInto(bytes, cuts), batchSize);
        expect(streamed).toEqual(sync);
      }),
      fcParams(150),
    );
  });

  it('one-byte writes give the same blocks', async () => {
    await fc.assert(
      fc.asyncProperty(markdownDocument, async (text) => {
        const bytes = Buffer.from(text, 'utf8');
        const pieces = Array.from(bytes, (b) => Uint8Array.of(b));
        expect(await streamBlocks(pieces, 256)).toEqual(parseMarkdown(text, { batchSize: 256 }));
      }),
      fcParams(20),
    );
  });
});

describeCorpus('parse contracts', () => {
  const docs = corpusDocuments();

  it('exact slices, order and coverage for every document, at default and small batch sizes', () => {
    expect(docs.length).toBeGreaterThan(0);
    for (const [name, text] of docs) {
      const clean = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
      for (const batchSize of [65536, 2048]) {
        try {
          checkBlocks(clean, parseMarkdown(text, { batchSize }));
        } catch (error) {
          throw new Error(`${name} (batchSize ${batchSize}): ${(error as Error).message}`);
        }
      }
    }
  });

  it('the stream in random-size writes emits exactly the blocks of parseMarkdown', async () => {
    const files = docs.filter(([name]) => !name.includes('#'));
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (const [name, text] of files) {
      const bytes = Buffer.from(text, 'utf8');
      const cuts = Array.from({ length: 50 }, random);
      const streamed = await streamBlocks(cutInto(bytes, cuts), 4096);
      expect(streamed, name).toEqual(parseMarkdown(text, { batchSize: 4096 }));
    }
  });
});
