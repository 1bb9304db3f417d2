/**
 * The Markdown parser core: UTF-8 decoding, batching at safe blank lines, the block structure of each batch (the
 * line scanner, else micromark), blocks with document offsets. `parseMarkdown` runs it over one string; `parse()` runs the same core as a stream, and can
 * hand the batches to worker threads (the decoder and batcher stay on the calling thread, so cut points never
 * depend on how the work is spread).
 */
import type { Root } from 'mdast';
import { normalizeParseOptions, type ParseConfig, type ParseOptions } from '../../config.js';
import { copyWith, type Core } from '../../core.js';
import { checkedTextBlocks } from '../text-input.js';
import { createUtf8Decoder } from '../utf8-decoder.js';
import { createMarkdownBatcher, type MarkdownBatch } from './batcher.js';
import { blocksFromBlockTree, blocksFromTree } from './blocks.js';
import type { Block, BlockContinuation, ListItemSpan } from '../../types.js';
import { countLineEndings } from '../../unicode/lines.js';
import { isSpaceCode } from '../../unicode/segment-windows.js';
import { capNesting, MAX_NESTING } from './nesting.js';
import { outlineOf } from './block-outline.js';
import { scanOutline } from './block-scanner.js';
import { blockExtensions, parseFull } from './remark.js';

export { INLINE_CONSTRUCTS } from './remark.js';

/**
 * How a batch is parsed. `block` (the default) reads block structure only, with the line scanner where it reads
 * the batch and from micromark's events elsewhere, and re-parses in full just the blocks whose inline content
 * shows in the output; `events` does the same without the scanner; `full` runs every inline construct over the
 * whole batch. All give the same blocks; `events` and `full` are kept as references the default is tested against.
 */
export type MarkdownParseMode = 'block' | 'events' | 'full';

/**
 * A line that could be a GFM table's delimiter row: after any quote markers and indentation, nothing but pipes,
 * colons, dashes and blanks, with a dash and a pipe or colon among them (a one-column table without pipes needs
 * a colon: `:-`). The table construct is tried at the start of every paragraph line, since the line could be a
 * header row; a batch without such a line cannot hold a table and skips it (on Node's API docs, 389 of 407
 * batches of 8 K). The quote markers are read as blanks each ending in `>`: as `[ \t>]*`, the blanks of an indented
 * line were shared with the row's own, and each way of sharing them was tried (quadratic in the indentation).
 */
const MAY_HOLD_TABLE = /^(?:[ \t]*>)*(?=[ \t|:-]*-)(?=[ \t|:-]*[|:])[ \t|:-]+$/m;

/**
 * The outline of `text` from micromark's events, with the block-level parse's extensions (tables only when a line
 * may be a delimiter row): what `block` mode falls back on, and the reference the line scanner is tested against.
 */
export function eventsOutline(text: string): Root | null {
  return outlineOf(text, blockExtensions(MAY_HOLD_TABLE.test(text)));
}

/**
 * Parses one batch and maps its top-level nodes to blocks: in `block` mode from the line scanner's outline, or
 * micromark's where the scanner leaves the batch (with remark's full parse of just the blocks whose inline content
 * matters), in `events` mode from micromark's always, in `full` mode with remark.
 *
 * A batch that continues a construct is parsed behind its prelude, and containers nested past the cap are read as
 * text; the blocks are then fitted back to the batch's own text (see `fitToBatch`).
 */
export function parseBatch(batch: MarkdownBatch, mode: MarkdownParseMode = 'block'): Block[] {
  // A batch of blank lines (a forced cut in a long run of them) holds no block; micromark would still tokenize them.
  if (WHITESPACE_ONLY.test(batch.text)) return [];
  const prelude = batch.continues?.prelude ?? '';
  const capped = capNesting(batch.text, batch.strict === true);
  if (prelude === '' && capped.capped.length === 0) {
    const blocks = parseText(batch, mode);
    return batch.continues === undefined && batch.continued !== true ? blocks : fitToBatch(blocks, batch, capped.capped);
  }
  const view: MarkdownBatch = {
    text: prelude + capped.text,
    offset: batch.offset - prelude.length,
    line: batch.line - countLineEndings(prelude),
  };
  return fitToBatch(parseText(view, mode, prelude.length), batch, capped.capped);
}

const WHITESPACE_ONLY = /^\s*$/;

/** Blocks of `batch.text`, with document offsets; the first `preludeEnd` characters are a prelude (`fitToBatch` clips them). */
function parseText(batch: MarkdownBatch, mode: MarkdownParseMode, preludeEnd = 0): Block[] {
  if (mode !== 'full') {
    const scanned = mode === 'block' ? scanOutline(batch.text) : null;
    const outline = scanned ?? eventsOutline(batch.text);
    const blocks = outline === null ? null : blocksFromBlockTree(outline, batch, parseFull, preludeEnd);
    if (blocks !== null) return blocks;
  }
  return blocksFromTree(parseFull(batch.text), batch);
}

/** The warning of a block holding containers nested past the cap. */
const NESTING_WARNING = `containers nested deeper than ${MAX_NESTING} levels were read as text`;
/** The warning of a block cut inside a line. */
const LONG_LINE_WARNING = 'a line longer than maxBatchSize was cut inside the line';

/**
 * Fits the blocks of a parse behind a prelude, or of a capped copy, back to the batch: blocks that lie in the
 * prelude go; the one that runs from the prelude into the batch is clipped to the batch's start and marked as
 * continuing the previous batch's last block; every text is sliced from the batch itself; the last block is
 * marked as going on when the batch was cut inside it.
 */
function fitToBatch(blocks: Block[], batch: MarkdownBatch, capped: readonly number[]): Block[] {
  const start = batch.offset;
  const end = start + batch.text.length;
  const out: Block[] = [];
  for (const block of blocks) {
    if (block.end <= start) continue;
    let fitted: Block = block;
    if (block.start < start) {
      // A construct whose rest in this batch is only whitespace leaves it to the gap.
      if (isBlankBetween(batch, start, block.end)) continue;
      fitted = clip(block, batch);
    }
    else if (capped.length > 0) fitted = copyWith(block, { text: batch.text.slice(block.start - start, block.end - start) });
    if (capped.length > 0 && capped.some((at) => at + start >= fitted.start && at + start < fitted.end)) fitted = withWarning(fitted, NESTING_WARNING);
    out.push(fitted);
  }
  // Cut between list items, the batch needed no prelude: its first list still continues the previous one.
  const first = out[0];
  if (batch.continues?.cut === 'item' && first?.kind === 'list' && first.continuation === undefined && isBlankBetween(batch, start, first.start)) {
    out[0] = copyWith(first, { continuation: { previous: true, next: false, cut: 'item' } });
  }
  const last = out.at(-1);
  if (batch.continued === true && last !== undefined && last.end <= end) {
    // The cut may fall after whitespace the construct holds: it belongs to the gap before the next part, as the
    // whitespace between any two blocks does.
    const trimmed = trimEnd(last, batch);
    out[out.length - 1] = copyWith(trimmed, { continuation: { previous: last.continuation?.previous ?? false, next: true, ...pick(last.continuation) } });
  }
  return out;
}

/** `block` without trailing whitespace (its rows and items ending no later). */
function trimEnd(block: Block, batch: MarkdownBatch): Block {
  let end = block.end;
  while (end > block.start && isSpaceCode(batch.text.charCodeAt(end - 1 - batch.offset))) end--;
  if (end === block.end || end === block.start) return block;
  const text = batch.text.slice(block.start - batch.offset, end - batch.offset);
  const fitted = copyWith(block, { text, end, endLine: block.startLine + countLineEndings(text) });
  switch (fitted.kind) {
    case 'table':
      return copyWith(fitted, { rows: fitted.rows.map((r) => (r.end > end ? { start: r.start, end } : r)) });
    case 'list':
      return copyWith(fitted, { items: endItems(fitted.items, end) });
    default:
      return fitted;
  }
}

/** List items ending no later than `end`. */
function endItems(items: readonly ListItemSpan[], end: number): ListItemSpan[] {
  return items.map((item) => (item.end <= end ? item : { start: item.start, end, items: endItems(item.items, end) }));
}

/** True when the batch holds nothing but whitespace between the document offsets `from` and `to`. */
function isBlankBetween(batch: MarkdownBatch, from: number, to: number): boolean {
  for (let i = from - batch.offset; i < to - batch.offset; i++) if (!isSpaceCode(batch.text.charCodeAt(i))) return false;
  return true;
}

/** The `cut` and `frame` of a continuation, when set. */
function pick(c: BlockContinuation | undefined): Partial<BlockContinuation> {
  if (c === undefined) return {};
  return { ...(c.cut !== undefined ? { cut: c.cut } : {}), ...(c.frame !== undefined ? { frame: c.frame } : {}) };
}

function withWarning(block: Block, warning: string): Block {
  const warnings = block.warnings ?? [];
  return warnings.includes(warning) ? block : copyWith(block, { warnings: [...warnings, warning] });
}

/** A block that starts in the prelude, clipped to the batch's start: the rest of a construct the previous batch began. */
function clip(block: Block, batch: MarkdownBatch): Block {
  const continues = batch.continues as NonNullable<MarkdownBatch['continues']>;
  let from = batch.offset;
  // Code keeps its indentation; any other block starts at its first visible character, as blocks do.
  if (block.kind !== 'code') while (from < block.end && isSpaceCode(batch.text.charCodeAt(from - batch.offset))) from++;
  const text = batch.text.slice(from - batch.offset, block.end - batch.offset);
  const continuation: BlockContinuation = { previous: true, next: false, cut: continues.cut, ...(continues.frame !== undefined ? { frame: continues.frame } : {}) };
  const base = copyWith(block, { text, start: from, startLine: batch.line + countLineEndings(batch.text, 0, from - batch.offset), continuation });
  const clipped = continues.cut === 'inline' ? withWarning(base as Block, LONG_LINE_WARNING) : (base as Block);
  switch (clipped.kind) {
    case 'table':
      return copyWith(clipped, { rows: clipped.rows.filter((r) => r.start >= from), delimiterRow: { start: from, end: from } });
    case 'list':
      return copyWith(clipped, { items: clipItems(clipped.items, from) });
    case 'heading': {
      // A setext underline that met the prelude's stand-in line: what is left is its underline, not a heading.
      const { depth: _depth, title: _title, ...rest } = clipped;
      return copyWith(rest, { kind: 'paragraph' }) as Block;
    }
    default:
      return clipped;
  }
}

/** List items clipped to start at `from`: items before it go, an item that runs across it starts there. */
function clipItems(items: readonly ListItemSpan[], from: number): ListItemSpan[] {
  const out: ListItemSpan[] = [];
  for (const item of items) {
    if (item.end <= from) continue;
    out.push(item.start >= from ? item : { start: from, end: item.end, items: clipItems(item.items, from) });
  }
  return out;
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
 *
 * The blocks are those `parseBatch` just made (or a worker thread's, cloned on arrival), which nothing else holds
 * yet: `gapBefore` is set on them rather than on copies. Copying each block was a tenth of the time of a document
 * of one-letter paragraphs, a block every three bytes.
 */
export function createGapTracker() {
  // A long tail is carried as a copy of its own: a slice keeps the whole text it was cut from alive, and a file of
  // blank lines held five times its size.
  let carried = '';
  return {
    fill(batch: MarkdownBatch, blocks: Block[]): Block[] {
      let previousEnd = batch.offset;
      for (const block of blocks) {
        const gap = batch.text.slice(previousEnd - batch.offset, block.start - batch.offset);
        previousEnd = block.end;
        (block as { gapBefore?: string }).gapBefore = carried === '' ? gap : carried + gap;
        carried = '';
      }
      const tail = batch.text.slice(previousEnd - batch.offset);
      carried += tail.length > OWN_COPY_FROM ? ownCopy(tail) : tail;
      return blocks;
    },
  };
}

/** Length from which a carried tail is copied rather than kept as a slice (V8 copies shorter slices itself). */
const OWN_COPY_FROM = 1024;

/** A flat copy of `text` that holds no reference to the string it was sliced from. */
function ownCopy(text: string): string {
  // Joining makes a new string, flattened into fresh memory when it is sliced; the slice refers to that copy alone.
  return ` ${text}`.slice(1);
}

/**
 * Parses a whole Markdown document into blocks, synchronously. Gives exactly the blocks `parse()` emits for the
 * same text, whatever the write sizes.
 */
export function parseMarkdown(text: string | Uint8Array, options?: ParseOptions): Block[] {
  // The text check (binary refused, replacements counted) comes after the options are checked.
  const config = normalizeParseOptions({ ...options, format: 'markdown' });
  return checkedTextBlocks(text, (input) => parseMarkdownWith('block', input, config));
}

/** `parseMarkdown` with the parse mode chosen: `full` is the reference the block-level default is tested against. */
export function parseMarkdownWith(mode: MarkdownParseMode, text: string | Uint8Array, options?: ParseOptions): Block[] {
  const core = createMarkdownCore(normalizeParseOptions({ ...options, format: 'markdown' }), mode);
  return [...core.write(text), ...core.end()];
}
