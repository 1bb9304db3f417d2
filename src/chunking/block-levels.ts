/**
 * Each block kind's own levels, as data: a table's rows; a list's items, then nested items (and the text of an
 * item around them); a code or math block's runs of lines between blank lines, then lines. A kind also says what
 * it adds around a span for the embedder: a table's header rows as prefix, a fence's opening and closing lines.
 * Under the lowest of them every block has the text levels (`text-levels.ts`), reached through the TextSplitter;
 * a kind without levels of its own (a paragraph, a heading, HTML) is cut at the text levels alone.
 */
import type { Block, ListItemSpan, Span } from '../types.js';
import type { Frame } from './pack.js';

/** A span of a block's own level (offsets into the block's text), with the spans one level down. */
export interface BlockNode {
  readonly start: number;
  readonly end: number;
  /** The spans one level down, in order: a run's lines, an item's own text and its nested items. */
  readonly below?: readonly BlockNode[];
}

/** What a block kind gives the cutting engine. */
export interface BlockLevels {
  /** The spans of the top level, in order; none when the block is cut at the text levels alone. */
  readonly spans: readonly BlockNode[];
  /** What each span gets around it (see `Frame`). */
  readonly frame: Frame;
  /**
   * Where the text that travels with the first span ends (a table's header rows, a fence's opening line): the
   * first span starts at the block's start. Undefined when nothing travels with it.
   */
  readonly head?: number;
  /** The last span ends at the block's end: the text after it (a fence's closing line) travels with it. */
  readonly tail: boolean;
  /** A span the TextSplitter cut out of a span too large stands alone, without the frame: a part of a row is no row. */
  readonly partsStandAlone: boolean;
  /** Every span is marked a fallback: the frame was too large to repeat, and was dropped. */
  readonly fallback: boolean;
}

/** A block's levels as the kind gives them, with `room` the size a chunk has for one span. */
export function blockLevels(block: Block, room: number, options: { preserveTables: boolean; frameSize(text: string): number }): BlockLevels {
  switch (block.kind) {
    case 'table':
      return tableLevels(block, options.preserveTables);
    case 'list':
      return listLevels(block);
    case 'code':
      return lineLevels(block, block.fence === null ? null : fenceLines(block, block.fence), room, options.frameSize);
    case 'math': {
      const fence = mathFence(block);
      return lineLevels(block, fence === undefined ? null : fenceLines(block, fence), room, options.frameSize);
    }
    default:
      return TEXT_ONLY;
  }
}

/** A kind with no levels of its own. */
const TEXT_ONLY: BlockLevels = Object.freeze({ spans: [], frame: Object.freeze({ prefix: '', suffix: '', prefixFirst: false, suffixLast: false }), tail: false, partsStandAlone: false, fallback: false });

/**
 * A table: its data rows. The header and delimiter rows travel with the first row, and every span after the first
 * gets them as prefix (with `preserveTables`). A part that continues a table the parser cut holds data rows only:
 * every span of it, the first too, gets the table's header (`continuation.frame`).
 */
function tableLevels(block: Extract<Block, { kind: 'table' }>, preserveTables: boolean): BlockLevels {
  const rel = (s: Span): Span => ({ start: s.start - block.start, end: s.start === s.end ? s.start - block.start : s.end - block.start });
  const continued = block.continuation?.previous === true ? block.continuation.frame : undefined;
  const rows = block.rows.map(rel);
  const delimiter = rel(block.delimiterRow);
  const header = rows[0] as Span;
  const headerText = continued ?? `${block.text.slice(header.start, header.end)}\n${block.text.slice(delimiter.start, delimiter.end)}`;
  return {
    spans: continued === undefined ? rows.slice(1) : rows,
    frame: { prefix: preserveTables ? `${headerText}\n` : '', suffix: '', prefixFirst: continued !== undefined, suffixLast: false },
    ...(continued === undefined ? { head: Math.max(delimiter.end, header.end) } : {}),
    tail: false,
    partsStandAlone: true,
    fallback: false,
  };
}

/**
 * A list: its top-level items; an item too large goes down to its own text, each nested item (in turn cut the
 * same way) and the text between or after them (a paragraph between two nested lists belongs to the item too).
 * A list is never cut inside an item's first line but by the TextSplitter.
 */
function listLevels(block: Extract<Block, { kind: 'list' }>): BlockLevels {
  return { spans: block.items.map((item) => itemNode(block, item)), frame: TEXT_ONLY.frame, tail: false, partsStandAlone: false, fallback: false };
}

/** An item of `block` and, when it holds nested items, the spans under it. */
function itemNode(block: Extract<Block, { kind: 'list' }>, item: ListItemSpan): BlockNode {
  const start = item.start - block.start;
  const end = item.end - block.start;
  if (item.items.length === 0) return { start, end };
  const text = block.text;
  const below: BlockNode[] = [];
  const addText = (from: number, to: number): void => {
    if (to > from) below.push({ start: from, end: to });
  };
  let cursor = start;
  for (const nested of item.items) {
    const n = nested.start - block.start;
    addText(trimStart(text, cursor, n), trimEnd(text, cursor, n));
    below.push(itemNode(block, nested));
    cursor = nested.end - block.start;
  }
  addText(trimStart(text, cursor, end), end);
  return { start, end, below };
}

/**
 * A code or math block: runs of lines between blank lines, then lines. With a fence, every span but the first is
 * re-opened with the opening fence line as prefix, and every span but the last is closed with the fence as
 * suffix, so that each is a valid block on its own; the opening line travels with the first span and the closing
 * line with the last. A fence that would take half a chunk leaves no room for code: the block is cut without it,
 * every span marked a fallback.
 */
function lineLevels(block: Block, fence: FenceLines | null, room: number, frameSize: (text: string) => number): BlockLevels {
  const text = block.text;
  const framed = fence !== null && frameSize(fence.prefix + fence.suffix) * 2 <= room;
  const used = framed ? fence : null;
  const bodyStart = used?.open ? Math.min(text.length, used.open.end + (text[used.open.end] === '\r' ? 2 : 1)) : 0;
  const bodyEnd = used?.close ? used.close.start : text.length;
  const runs: BlockNode[] = [];
  let lines: Span[] = [];
  const endRun = (): void => {
    if (lines.length > 0) runs.push({ start: (lines[0] as Span).start, end: (lines.at(-1) as Span).end, below: lines });
    lines = [];
  };
  for (const line of lineSpans(text, bodyStart, bodyEnd)) {
    if (text.slice(line.start, line.end).trim() === '') endRun();
    else lines.push(line);
  }
  endRun();
  return {
    spans: runs,
    frame: used === null ? TEXT_ONLY.frame : { prefix: used.prefix, suffix: used.suffix, prefixFirst: used.reopen, suffixLast: used.closeLast },
    head: bodyStart,
    tail: true,
    partsStandAlone: false,
    fallback: fence !== null && !framed,
  };
}

/** The opening and closing lines of a fenced block, and the strings that re-open and close a span of it. */
interface FenceLines {
  /** The opening line, or null in a part that continues a fence the parser cut (its text starts inside). */
  readonly open: Span | null;
  readonly close: Span | null;
  readonly prefix: string;
  readonly suffix: string;
  /** The first span is re-opened too: the part's text lacks the opening line. */
  readonly reopen: boolean;
  /** The last span is closed too: the fence goes on in the next part. */
  readonly closeLast: boolean;
}

/** The `$$` of a display formula (from the opening line, or the frame of a part that continues one). */
function mathFence(block: Block): string | undefined {
  return /^[ \t]*(\${2,})/.exec(block.continuation?.frame ?? block.text)?.[1];
}

function fenceLines(block: Block, fence: string): FenceLines {
  const text = block.text;
  const continuation = block.continuation;
  const reopen = continuation?.previous === true && continuation.frame !== undefined;
  const lines = lineSpans(text);
  const open = reopen ? null : (lines[0] as Span);
  const last = lines.at(-1) as Span;
  const lastText = text.slice(last.start, last.end).trim();
  const closed = lines.length > (reopen ? 0 : 1) && lastText.length >= fence.length && [...lastText].every((c) => c === fence[0]);
  const openLine = (reopen ? (continuation.frame as string) : text.slice((open as Span).start, (open as Span).end)).replace(/^[ \t]+/, '');
  return { open, close: closed ? last : null, prefix: `${openLine}\n`, suffix: `\n${fence}`, reopen, closeLast: continuation?.next === true && !closed };
}

/**
 * What a block cut by the parser needs around it for the embedder when it is kept whole: a part that continues a
 * table gets the table's header as `prefix`, one that continues a fence its opening line; a fence that goes on in
 * the next part is closed by `suffix`.
 */
export function continuationFrame(block: Block, preserveTables: boolean): { prefix: string; suffix: string } {
  const c = block.continuation;
  if (c === undefined) return { prefix: '', suffix: '' };
  if (block.kind === 'table') return { prefix: c.previous && c.frame !== undefined && preserveTables ? `${c.frame}\n` : '', suffix: '' };
  const fence = block.kind === 'code' ? block.fence : block.kind === 'math' ? mathFence(block) : undefined;
  if (fence === undefined || fence === null) return { prefix: '', suffix: '' };
  const lines = fenceLines(block, fence);
  return { prefix: lines.reopen ? lines.prefix : '', suffix: lines.closeLast ? lines.suffix : '' };
}

/** Lines of a block's text as spans without their line endings. */
function lineSpans(text: string, from = 0, to = text.length): Span[] {
  const lines: Span[] = [];
  let start = from;
  while (start < to) {
    let nl = text.indexOf('\n', start);
    if (nl === -1 || nl >= to) nl = to;
    let end = nl;
    if (end > start && text.charCodeAt(end - 1) === CARRIAGE_RETURN) end--;
    lines.push({ start, end });
    start = nl + 1;
  }
  return lines;
}

const CARRIAGE_RETURN = 0x0d;

/** Where `[start, end)` ends without the whitespace at its end. */
export function trimEnd(text: string, start: number, end: number): number {
  while (end > start && /\s/.test(text[end - 1] as string)) end--;
  return end;
}

/** Where `[start, end)` starts without the whitespace at its start. */
export function trimStart(text: string, start: number, end: number): number {
  while (start < end && /\s/.test(text[start] as string)) start++;
  return start;
}
