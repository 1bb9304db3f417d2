/**
 * The Markdown parser core: UTF-8 decoding, batching at safe blank lines, remark on each batch, blocks with
 * document offsets. `parseMarkdown` runs it over one string; `parse()` runs the same core as a stream, and can
 * hand the batches to worker threads (the decoder and batcher stay on the calling thread, so cut points never
 * depend on how the work is spread).
 */
import { unified } from 'unified';
import type { Extension } from 'micromark-util-types';
import remarkParse from 'remark-parse';
import remarkGfm from 'remark-gfm';
import remarkFrontmatter from 'remark-frontmatter';
import type { Root } from 'mdast';
import { normalizeParseOptions, type ParseConfig, type ParseOptions } from '../../config.js';
import type { Core } from '../../core.js';
import { createUtf8Decoder } from '../utf8-decoder.js';
import { createMarkdownBatcher, type MarkdownBatch } from './batcher.js';
import { blocksFromBlockTree, blocksFromTree } from './blocks.js';
import type { Block } from '../../types.js';
import { untokenizedParagraphs } from './untokenized-paragraph.js';
import { outlineOf } from './block-outline.js';
import { remarkMathSyntax } from './math-syntax.js';

/**
 * How a batch is parsed. `block` (the default) parses block structure only and re-parses in full just the blocks
 * whose inline content shows in the output; `full` runs every inline construct over the whole batch. Both give
 * the same blocks; `full` is kept as the reference the block-level parse is tested against.
 */
export type MarkdownParseMode = 'block' | 'full';

/**
 * micromark's inline constructs, by name. Block structure never depends on them, and they cost about half of
 * the parse time. The benches disable the same ones for their bare-remark floor.
 */
export const INLINE_CONSTRUCTS: readonly string[] = [
  'attention', 'autolink', 'characterEscape', 'characterReference', 'codeText', 'hardBreakEscape', 'htmlText',
  'labelEnd', 'labelStartImage', 'labelStartLink',
  // From the extensions: GFM autolink literals, strikethrough, footnote calls and task list checks; inline math.
  'wwwAutolink', 'protocolAutolink', 'emailAutolink', 'strikethrough', 'gfmFootnoteCall', 'gfmPotentialFootnoteCall',
  'tasklistCheck', 'mathText',
];

const fullProcessor = unified().use(remarkParse).use(remarkGfm).use(remarkFrontmatter, ['yaml']).use(remarkMathSyntax).freeze();

/** The micromark extensions of the full parse (GFM, front matter, math), with the inline constructs off. */
const blockExtensions: readonly Extension[] = [
  ...((fullProcessor.data('micromarkExtensions') ?? []) as Extension[]),
  { disable: { null: [...INLINE_CONSTRUCTS] } },
  untokenizedParagraphs as Extension,
];
/** The same without GFM tables, for batches that cannot hold one. */
const blockExtensionsWithoutTables: readonly Extension[] = [...blockExtensions, { disable: { null: ['table'] } }];

/**
 * A line that could be a GFM table's delimiter row: after any quote markers and indentation, nothing but pipes,
 * colons, dashes and blanks, with a dash and a pipe or colon among them (a one-column table without pipes needs
 * a colon: `:-`). The table construct is tried at the start of every paragraph line, since the line could be a
 * header row; a batch without such a line cannot hold a table and skips it (on Node's API docs, 389 of 407
 * batches of 8 K).
 */
const MAY_HOLD_TABLE = /^[ \t>]*(?=[ \t|:-]*-)(?=[ \t|:-]*[|:])[ \t|:-]+$/m;

const parseFull = (text: string): Root => fullProcessor.parse(text) as Root;

/**
 * Parses one batch and maps its top-level nodes to blocks: in `block` mode from the outline of micromark's events
 * (with remark's full parse of just the blocks whose inline content matters), in `full` mode with remark.
 */
export function parseBatch(batch: MarkdownBatch, mode: MarkdownParseMode = 'block'): Block[] {
  if (mode === 'block') {
    const outline = outlineOf(batch.text, MAY_HOLD_TABLE.test(batch.text) ? blockExtensions : blockExtensionsWithoutTables);
    const blocks = outline === null ? null : blocksFromBlockTree(outline, batch, parseFull);
    if (blocks !== null) return blocks;
  }
  return blocksFromTree(parseFull(batch.text), batch);
}

/** Creates the front half of the Markdown core: bytes or strings in, batches cut at safe blank lines out. */
export function createMarkdownBatchCore(config: ParseConfig): Core<string | Uint8Array, MarkdownBatch> {
  const decoder = createUtf8Decoder({ fatal: config.fatal });
  const batcher = createMarkdownBatcher(config);
  return {
    write: (input) => batcher.write(decoder.write(input)),
    end: () => [...batcher.write(decoder.end()), ...batcher.end()],
  };
}

/** Creates the Markdown core: bytes or strings in, blocks out, in bounded memory. */
export function createMarkdownCore(config: ParseConfig, mode: MarkdownParseMode = 'block'): Core<string | Uint8Array, Block> {
  const batches = createMarkdownBatchCore(config);
  const gaps = createGapTracker();
  const parseAll = (list: MarkdownBatch[]): Block[] => {
    if (list.length === 0) return [];
    if (list.length === 1) return gaps.fill(list[0] as MarkdownBatch, parseBatch(list[0] as MarkdownBatch, mode));
    return list.flatMap((batch) => gaps.fill(batch, parseBatch(batch, mode)));
  };
  return {
    write: (input) => parseAll(batches.write(input)),
    end: () => parseAll(batches.end()),
  };
}

/**
 * Sets `gapBefore` on each block: the whitespace since the previous block, carried across batches (the tail of
 * one batch after its last block belongs to the first block of a later batch).
 */
export function createGapTracker() {
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
  return parseMarkdownWith('block', text, options);
}

/** `parseMarkdown` with the parse mode chosen: `full` is the reference the block-level default is tested against. */
export function parseMarkdownWith(mode: MarkdownParseMode, text: string | Uint8Array, options?: ParseOptions): Block[] {
  const core = createMarkdownCore(normalizeParseOptions({ ...options, format: 'markdown' }), mode);
  return [...core.write(text), ...core.end()];
}
