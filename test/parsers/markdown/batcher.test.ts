/**
 * The Markdown batcher keeps the places to cut at for the batches after the one being filled (`lookaheadBatches`),
 * so that a forced cut does not scan the lines after it again, and the places inside a long line it found unmarked,
 * so that the next cut inside the line does not hash them again. The batches must be those of scanning again:
 * the same texts, offsets and continuations, whatever the writes.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createMarkdownBatcher, type BatcherOptions, type MarkdownBatch } from '../../../src/parsers/markdown/batcher.js';
import { hostileShape } from '../../support/hostile-markdown.js';
import { fcParams } from '../../support/property.js';

/** The batches of `text` written in `pieces` (lengths, repeated), or in one write. */
function batches(text: string, options: BatcherOptions, pieces: readonly number[] = []): MarkdownBatch[] {
  const batcher = createMarkdownBatcher(options);
  const out: MarkdownBatch[] = [];
  let at = 0;
  for (let i = 0; at < text.length; i++) {
    const length = pieces.length === 0 ? text.length : (pieces[i % pieces.length] as number);
    out.push(...batcher.write(text.slice(at, at + length)));
    at += length;
  }
  out.push(...batcher.end());
  return out;
}

/** Lines of the constructs the batcher tracks, mostly without blank lines between them, so that cuts are forced. */
const LINES = [
  '# a\n', '## Heading two\n', 'a\n', '=\n', '-\n', '---\n', '***\n', '- item\n', '1. first\n', '  - nested\n', '| a | b |\n', '|---|---|\n',
  '```js\n', '```\n', '~~~\n', '$$\n', '> quoted\n', '    indented code\n', '<div>\n', '</div>\n', '<!-- c\n', '-->\n', '[a]: /url\n',
  'plain text of a paragraph\n', '\n', 'x'.repeat(90) + '\n', 'tail without line feed',
  // Words without a line feed: lines longer than the bound, cut after whitespace.
  'words on one line ', 'more words ',
];

describe('createMarkdownBatcher: places kept for the batches ahead', () => {
  it('cuts as scanning again after every forced cut does, over generated text and writes', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...LINES), { minLength: 20, maxLength: 400 }),
        fc.integer({ min: 16, max: 200 }),
        fc.integer({ min: 2, max: 9 }),
        fc.array(fc.integer({ min: 1, max: 700 }), { maxLength: 4 }),
        (lines, batchSize, times, pieces) => {
          const text = lines.join('');
          const options = { batchSize, maxBatchSize: batchSize * times };
          const expected = batches(text, { ...options, lookaheadBatches: 0 });
          expect(batches(text, options, pieces)).toEqual(expected);
          // Few levels kept: places past them make the cut scan again, with the same batches.
          expect(batches(text, { ...options, lookaheadBatches: 1 }, pieces)).toEqual(expected);
        },
      ),
      fcParams(150),
    );
  });

  it('cuts one long line of words as hashing every place again does', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('a ', 'bb ', 'ccc ', 'dd\t', 'e  ', 'f\u0301 '), { minLength: 200, maxLength: 1500 }),
        fc.integer({ min: 16, max: 120 }),
        fc.integer({ min: 2, max: 9 }),
        fc.array(fc.integer({ min: 1, max: 700 }), { maxLength: 4 }),
        (words, batchSize, times, pieces) => {
          const text = words.join('');
          const options = { batchSize, maxBatchSize: batchSize * times };
          expect(batches(text, options, pieces)).toEqual(batches(text, { ...options, lookaheadBatches: 0 }));
        },
      ),
      fcParams(100),
    );
  });

  it('cuts the hostile shapes of a block every few bytes as scanning again does', () => {
    for (const name of ['setext-headings', 'tight-atx-headings', 'tight-changelog', 'one-letter-paragraphs', 'changelog', 'csv-table', 'words-line']) {
      const text = hostileShape(name).make(60_000);
      const options = { batchSize: 1024, maxBatchSize: 4096 };
      const expected = batches(text, { ...options, lookaheadBatches: 0 });
      expect(expected.length).toBeGreaterThan(10);
      expect(batches(text, options, [4096, 777])).toEqual(expected);
    }
  });
});
