/**
 * The Markdown parser core: UTF-8 decoding, batching at safe blank lines, remark on each batch, blocks with
 * document offsets. `parseMarkdown` runs it over one string; `parse()` runs the same core as a stream.
 */
import { unified } from 'unified';
import remarkParse from 'remark-parse';
import remarkGfm from 'remark-gfm';
import remarkFrontmatter from 'remark-frontmatter';
import remarkMath from 'remark-math';
import type { Root } from 'mdast';
import { normalizeParseOptions, type ParseConfig, type ParseOptions } from '../config.js';
import type { Core } from '../core/core.js';
import { createUtf8Decoder } from '../core/utf8-decoder.js';
import { createMarkdownBatcher, type MarkdownBatch } from '../core/markdown-batcher.js';
import { blocksFromTree } from '../core/markdown-blocks.js';
import type { Block } from '../types.js';

const processor = unified().use(remarkParse).use(remarkGfm).use(remarkFrontmatter, ['yaml']).use(remarkMath).freeze();

/** Parses one batch with remark and maps its top-level nodes to blocks. */
export function parseBatch(batch: MarkdownBatch): Block[] {
  const tree = processor.parse(batch.text) as Root;
  return blocksFromTree(tree, batch);
}

/** Creates the Markdown core: bytes or strings in, blocks out, in bounded memory. */
export function createMarkdownCore(config: ParseConfig): Core<string | Uint8Array, Block> {
  const decoder = createUtf8Decoder({ fatal: config.fatal });
  const batcher = createMarkdownBatcher(config);
  const gaps = createGapTracker();
  const parseAll = (batches: MarkdownBatch[]): Block[] => {
    if (batches.length === 0) return [];
    if (batches.length === 1) return gaps.fill(batches[0] as MarkdownBatch, parseBatch(batches[0] as MarkdownBatch));
    return batches.flatMap((batch) => gaps.fill(batch, parseBatch(batch)));
  };
  return {
    write: (input) => parseAll(batcher.write(decoder.write(input))),
    end: () => parseAll([...batcher.write(decoder.end()), ...batcher.end()]),
  };
}

/**
 * Sets `gapBefore` on each block: the whitespace since the previous block, carried across batches (the tail of
 * one batch after its last block belongs to the first block of a later batch).
 */
function createGapTracker() {
  let carried = '';
  return {
    fill(batch: MarkdownBatch, blocks: Block[]): Block[] {
      let previousEnd = batch.offset;
      const out = blocks.map((block) => {
        const gap = batch.text.slice(previousEnd - batch.offset, block.start - batch.offset);
        previousEnd = block.end;
        const gapBefore = carried === '' ? gap : carried + gap;
        carried = '';
        return { ...block, gapBefore };
      });
      carried += batch.text.slice(previousEnd - batch.offset);
      return out;
    },
  };
}

/**
 * Parses a whole Markdown document into blocks, synchronously. Gives exactly the blocks `parse()` emits for the
 * same text, whatever the write sizes.
 */
export function parseMarkdown(text: string | Uint8Array, options?: ParseOptions): Block[] {
  const core = createMarkdownCore(normalizeParseOptions({ ...options, format: 'markdown' }));
  return [...core.write(text), ...core.end()];
}
