/**
 * Maps the top-level nodes of an mdast tree (one parsed batch) to `Block`s whose offsets and lines point into the
 * whole document.
 *
 * The tree may come from a full parse, or from a block-level parse (micromark's inline constructs disabled, the
 * tree an outline built from its events: `block-outline.ts`), which is several times faster and gives the same
 * block structure. Only a few block fields depend on inline parsing:
 * heading titles (emphasis, code spans, escapes, references are markup), images and inline math in `features`,
 * and code info strings (escapes and character references are decoded). `blocksFromBlockTree` finds the blocks
 * where these can differ and parses just those again, with inline constructs, in one small document.
 */
import type { Heading, Nodes, Parent, Root, RootContent, List, Table } from 'mdast';
import { toString as plainText } from 'mdast-util-to-string';
import type { Block, BlockFeatures, BlockKind, ListItemSpan, Span } from '../../types.js';
import type { MarkdownBatch } from './batcher.js';
import { countLineEndings } from '../../unicode/lines.js';
import { asMicromarkReads } from './block-syntax.js';
import { holdsInlineMathIn, HTML_IMAGE, mayHoldImageWithoutReferences } from './inline-math.js';
import { isWhitespace } from './inline-chars.js';
import { inlineContents } from './paragraph-content.js';
import { BACKTICK, CR, HASH, LF, SPACE, TAB } from './char-codes.js';

const KIND_OF: Record<string, BlockKind> = {
  heading: 'heading',
  paragraph: 'paragraph',
  code: 'code',
  table: 'table',
  list: 'list',
  blockquote: 'blockquote',
  html: 'html',
  math: 'math',
  thematicBreak: 'thematicBreak',
  yaml: 'frontmatter',
  toml: 'frontmatter',
  definition: 'definition',
  footnoteDefinition: 'definition',
};

/** Maps every top-level node of `tree` (parsed from `batch.text` with inline constructs on) to a block. */
export function blocksFromTree(tree: Root, batch: MarkdownBatch): Block[] {
  const blocks: Block[] = [];
  let previousEnd = 0;
  for (const node of tree.children) {
    const block = toBlock(node, batch, node, previousEnd, false);
    if (block !== null) {
      blocks.push(block);
      previousEnd = block.end - batch.offset;
    }
  }
  return blocks;
}

/** Parses a standalone Markdown document with every construct on (the parser `blocksFromBlockTree` re-parses with). */
export type FullParser = (text: string) => Root;

/**
 * Maps the top-level nodes of a block-level `tree` (parsed from `batch.text` with inline constructs off) to the
 * blocks a full parse of the batch gives. Returns null when the small document of re-parsed blocks does not
 * reproduce them exactly (an unclosed construct swallowing the separators, say); the caller then parses the
 * batch in full.
 *
 * `preludeEnd` is where the batch's own text starts when `batch.text` opens with a prelude (`parseBatch`): a
 * heading that starts before it is clipped to a paragraph, its title never read.
 */
export function blocksFromBlockTree(tree: Root, batch: MarkdownBatch, parseFull: FullParser, preludeEnd = 0): Block[] | null {
  const found = inlineNodes(tree, batch, parseFull, preludeEnd);
  if (found === null) return null;
  const blocks: Block[] = [];
  let previousEnd = 0;
  tree.children.forEach((node, i) => {
    // Most batches have no block parsed again and none with math: their lookups are skipped.
    const inline = found.nodes.size === 0 ? node : (found.nodes.get(i) ?? node);
    const block = toBlock(node, batch, inline, previousEnd, true, found.withMath.size !== 0 && found.withMath.has(i), found.titles[i]);
    if (block !== null) {
      blocks.push(block);
      previousEnd = block.end - batch.offset;
    }
  });
  return blocks;
}

/** The separator between re-parsed blocks: a blank line ends paragraphs, a thematic break ends lists and quotes. */
const SEPARATOR = '\n\n***\n\n';

/** What the inline parse found of a batch's blocks, by index in `tree.children`. */
interface InlineFound {
  /** The fully parsed node of each block that was parsed again. */
  readonly nodes: Map<number, RootContent>;
  /** Blocks known without that parse to hold inline math (`holdsInlineMath`), and nothing else it would find. */
  readonly withMath: Set<number>;
  /**
   * The titles of headings read without that parse (`plainTitle`), by index: read once, not again for their blocks.
   * A list rather than a map: a heading per line sets and gets one for every block.
   */
  readonly titles: readonly (string | undefined)[];
}

/**
 * Parses, with inline constructs, the top-level blocks whose inline content matters, in one small document; the
 * batch's definitions are appended, since they decide whether `[x]` is a reference. Returns each such block's
 * fully parsed node by its index in `tree.children`, or null when the small document does not reproduce them.
 * A paragraph whose only question is whether a `$` starts math is answered without it, when it can be.
 */
function inlineNodes(tree: Root, batch: MarkdownBatch, parseFull: FullParser, preludeEnd: number): InlineFound | null {
  const wanted: { index: number; node: RootContent; at: number; length: number }[] = [];
  const withMath = new Set<number>();
  const titles: (string | undefined)[] = new Array<string | undefined>(tree.children.length);
  // The small document being written, and whether it holds a bracket (then the batch's definitions go after it).
  const small = { doc: '', brackets: false };
  let defined: boolean | undefined;
  const definitions = (): boolean => (defined ??= holdsDefinitions(tree));
  const marks = markupMarks(batch.text);
  tree.children.forEach((node, index) => {
    const math = marks.dollar ? mathWithoutInlineParse(node, batch.text, definitions) : null;
    if (math === true) withMath.add(index);
    if (math !== null) return;
    // A heading whose title needs no inline parse keeps it; one whose title does is parsed again. A heading that
    // starts in the prelude loses its title when it is clipped (`clip` in parse.ts): a setext heading of the
    // stand-in line and the batch's first line, at every batch boundary of a heading per line, where the small
    // document's parse (micromark set up anew, for a dozen characters) cost a sixth of the parse.
    const title = node.type !== 'heading' ? undefined : (node.position?.start.offset ?? 0) < preludeEnd ? '' : plainTitle(node, batch.text);
    if (title !== null && title !== undefined) titles[index] = title;
    if (title !== null && !holdsInlineFeature(node, batch.text, definitions, marks)) return;
    const from = node.position?.start.offset;
    const to = node.position?.end.offset;
    if (from === undefined || to === undefined) return;
    // Start at the beginning of the line so that indentation (tabs, list item columns) stays what it was.
    let lineStart = from;
    while (lineStart > 0 && (batch.text.charCodeAt(lineStart - 1) === SPACE || batch.text.charCodeAt(lineStart - 1) === TAB)) lineStart--;
    const source = batch.text.slice(lineStart, to);
    if (!small.brackets && source.includes('[')) small.brackets = true;
    wanted.push({ index, node, at: small.doc.length + (from - lineStart), length: to - from });
    small.doc += source + SEPARATOR;
  });
  const out = new Map<number, RootContent>();
  if (wanted.length === 0) return { nodes: out, withMath, titles };
  if (small.brackets) small.doc += definitionsOf(tree);
  const children = parseFull(small.doc).children;
  for (let k = 0; k < wanted.length; k++) {
    const w = wanted[k] as (typeof wanted)[number];
    const full = children[2 * k];
    const pos = full?.position;
    if (full === undefined || full.type !== w.node.type || pos?.start.offset !== w.at || pos.end.offset !== w.at + w.length) return null;
    // Alone in the small document, a block can nest differently: "> 2) x" after a paragraph is a quoted paragraph
    // (an ordered list not starting at 1 cannot interrupt one), but a list when it opens a document.
    if (containerShape(full) !== containerShape(w.node)) return null;
    out.set(w.index, full);
  }
  return { nodes: out, withMath, titles };
}

/**
 * Whether a paragraph (or a quote or a list of them: `inlineContents`) holds inline math, read without the inline
 * parse; null when it must be parsed: it has no `$` (the parse decides nothing about math then, and `holdsInlineFeature`
 * says whether images need it), the batch defines references, it may hold an image, or the reading cannot tell.
 */
function mathWithoutInlineParse(node: RootContent, source: string, definitions: () => boolean): boolean | null {
  // Looked for in the block's source first: most blocks hold no `$`, and need no contents cut out of it. Markers
  // and indentation hold none, so a `$` there is in a paragraph.
  if (!source.slice(node.position?.start.offset ?? 0, node.position?.end.offset ?? 0).includes('$')) return null;
  const contents = inlineContents(node, source);
  if (contents === null || definitions()) return null;
  if (contents.some((content) => mayHoldImageWithoutReferences(content) !== false)) return null;
  return holdsInlineMathIn(contents);
}

/** Containers whose children are blocks; the shape of a block is its type and, for these, its children's shapes. */
const CONTAINERS = new Set(['blockquote', 'list', 'listItem', 'footnoteDefinition']);

/** The block structure of a node: types of the nested blocks, not descending into phrasing content. */
function containerShape(node: Nodes): string {
  if (!CONTAINERS.has(node.type)) return node.type;
  return `${node.type}(${(node as Parent).children.map((child) => containerShape(child as Nodes)).join(',')})`;
}

/** Stand-ins for every link and footnote definition of `tree`: only their labels matter to inline parsing. */
function definitionsOf(tree: Root): string {
  let out = '';
  const visit = (n: Nodes): void => {
    if (n.type === 'definition') out += `[${n.label ?? n.identifier}]: x\n\n`;
    else if (n.type === 'footnoteDefinition') out += `[^${n.label ?? n.identifier}]: x\n\n`;
    if ('children' in n) for (const child of (n as Parent).children) visit(child as Nodes);
  };
  visit(tree);
  return out;
}

/** Markup a heading title may hold: with none of these, the title is the same text with or without inline parsing. */
const TITLE_MARKUP = /[\\`*_[\]<>&!~$]/;
/** The same, less the backtick: markup other than code spans. */
const MARKUP_BESIDES_CODE = /[\\*_[\]<>&!~$]/;

/**
 * The title of a heading from the block-level parse, when no inline parse is needed to read it: its text when it
 * holds no markup, or its text with the code spans read out when they are its only markup (the titles of API
 * references: "`fs.readFile(path[, options])`"). The block-level parse leaves a setext heading without text: its
 * title is then read from its one line of content in `source` (the batch), and a setext heading of several lines
 * is left to the inline parse (a line ending in it may be a hard break). Null when anything else may be in it.
 */
function plainTitle(node: Heading, source: string): string | null {
  let text: string;
  const only = node.children.length === 1 ? node.children[0] : undefined;
  // One text child (a block-level parse gives a heading's title so) is its own plain text: no walk, no join.
  if (only?.type === 'text') text = only.value;
  else if (node.children.length > 0) text = plainText(node);
  else {
    // Read in place (a setext heading every two lines asks this of every block, twice): the heading's own text is
    // `source[start, end)`, its title line the part before the first line ending, and only an underline after it.
    const start = node.position?.start.offset ?? 0;
    const end = node.position?.end.offset ?? 0;
    if (source.charCodeAt(start) === HASH && ATX_OPENING.test(source.slice(start, end))) return '';
    const lineEnd = lineBreakIn(source, start, end);
    if (lineEnd === -1) return null;
    const underline = source.charCodeAt(lineEnd) === CR && lineEnd + 1 < end && source.charCodeAt(lineEnd + 1) === LF ? lineEnd + 2 : lineEnd + 1;
    if (lineBreakIn(source, underline, end) !== -1) return null;
    text = asMicromarkReads(source.slice(start, lineEnd));
  }
  if (!TITLE_MARKUP.test(text)) return text.trim();
  // A GFM autolink literal (`http://…`, `www.…`, an e-mail address) may run over backticks and keep them as text.
  if (AUTOLINK_LITERAL.test(text)) return null;
  return readCodeSpans(text)?.trim() ?? null;
}

/** The first line ending (CR or LF) in `text[from, to)`, or -1. */
function lineBreakIn(text: string, from: number, to: number): number {
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === LF || c === CR) return i;
  }
  return -1;
}

/** The opening sequence of an ATX heading: one with no text has no children in either parse. */
const ATX_OPENING = /^#{1,6}(?:[ \t]|$)/;

/** What may start a GFM autolink literal. */
const AUTOLINK_LITERAL = /www\.|:\/\/|@/i;

/**
 * `text` with each code span replaced by its content, as CommonMark reads it; null when there is markup outside
 * the code spans. A run of backticks opens a span when a run of the same length follows; otherwise it is text.
 * Inside a span nothing is markup, so it does not matter that `[`, `<` or `*` may be there.
 */
function readCodeSpans(text: string): string | null {
  let out = '';
  /** Start of the text not yet copied to `out`. */
  let copied = 0;
  let from = 0;
  for (;;) {
    const open = text.indexOf('`', from);
    if (open === -1) break;
    const openEnd = backtickRunEnd(text, open);
    const close = matchingRun(text, openEnd, openEnd - open);
    if (close === -1) {
      from = openEnd;
      continue;
    }
    const before = text.slice(copied, open);
    if (MARKUP_BESIDES_CODE.test(before)) return null;
    out += before + codeSpanContent(text.slice(openEnd, close));
    copied = close + (openEnd - open);
    from = copied;
  }
  const rest = text.slice(copied);
  return MARKUP_BESIDES_CODE.test(rest) ? null : out + rest;
}

function backtickRunEnd(text: string, at: number): number {
  while (text.charCodeAt(at) === BACKTICK) at++;
  return at;
}

/** Start of the first run of exactly `length` backticks at or after `from`, or -1. */
function matchingRun(text: string, from: number, length: number): number {
  for (;;) {
    const at = text.indexOf('`', from);
    if (at === -1) return -1;
    const end = backtickRunEnd(text, at);
    if (end - at === length) return at;
    from = end;
  }
}

/** A code span's content: one space stripped from each end when both ends have one and it is not all spaces. */
function codeSpanContent(content: string): string {
  const padded = content.startsWith(' ') && content.endsWith(' ') && /[^ ]/.test(content);
  return padded ? content.slice(1, -1) : content;
}
/**
 * What a batch holds of the markup that sends a block to the inline parse: a `$` (math), an `<img` or a `![`
 * (images). Looked for once in the batch rather than in each block's source: a batch of one-letter paragraphs has
 * thousands of blocks, and most batches hold none of these.
 */
interface MarkupMarks {
  readonly dollar: boolean;
  readonly image: boolean;
}

function markupMarks(text: string): MarkupMarks {
  return { dollar: text.indexOf('$') !== -1, image: text.indexOf('![') !== -1 || HTML_IMAGE.test(text) };
}

/** True when `source` may hold a formula (a `$`) or an image (see `mayHoldImage`). */
function mayHoldFeature(source: string, definitions: () => boolean): boolean {
  return source.indexOf('$') !== -1 || mayHoldImage(source, definitions);
}

/**
 * True when `source` may hold an image: an HTML `<img`, or a `![` that may start one. An inline image needs a `](`
 * after its `![`; without one only a reference (`![ref]`, `![alt][ref]`) could make an image, and only when the
 * batch defines a reference. Text full of unmatched brackets is thus not sent to the inline parser, where it
 * costs the most.
 */
function mayHoldImage(source: string, definitions: () => boolean): boolean {
  if (HTML_IMAGE.test(source)) return true;
  const image = source.indexOf('![');
  if (image === -1) return false;
  return source.indexOf('](', image + 2) !== -1 || definitions();
}

/** True when `tree` holds a link or footnote definition, at any depth. */
function holdsDefinitions(tree: Root): boolean {
  const visit = (n: Nodes): boolean => {
    if (n.type === 'definition' || n.type === 'footnoteDefinition') return true;
    if ('children' in n) for (const child of (n as Parent).children) if (visit(child as Nodes)) return true;
    return false;
  };
  return visit(tree);
}
/** What an info string decodes (backslash escapes, character references). */
const INFO_ESCAPE = /[\\&]/;

/**
 * True when a block-level node, or a node in it, may hold what only the inline parse finds (a heading's title
 * aside, which `plainTitle` reads): its block could then differ from its fully parsed self. The block-level parse
 * leaves paragraph text untokenized (paragraphs and setext headings have no children), so their source is what
 * is searched.
 */
function holdsInlineFeature(n: Nodes, text: string, definitions: () => boolean, marks: MarkupMarks): boolean {
  switch (n.type) {
    case 'text':
      return mayHoldFeature(n.value, definitions);
    case 'paragraph':
    case 'heading':
    case 'tableCell':
      // A slice of the batch cannot hold what the whole batch does not.
      if (!marks.dollar && !marks.image) return false;
      return mayHoldFeature(text.slice(n.position?.start.offset ?? 0, n.position?.end.offset ?? 0), definitions);
    case 'code':
      return INFO_ESCAPE.test(n.lang ?? '') || INFO_ESCAPE.test(n.meta ?? '');
    default:
      if ('children' in n) for (const child of (n as Parent).children) if (holdsInlineFeature(child as Nodes, text, definitions, marks)) return true;
      return false;
  }
}

/**
 * Maps one top-level node to a block: positions and structure from `node`, inline-dependent fields (title, info
 * string, features) from `inline`, the same node fully parsed (or `node` itself when it was, or when `node` comes
 * from a block-level parse and needed no inline parse: `blockLevel` says which). `title` is a heading's title when
 * `plainTitle` has read it already.
 */
function toBlock(node: RootContent, batch: MarkdownBatch, inline: RootContent, previousEnd: number, blockLevel: boolean, withMath = false, title?: string): Block | null {
  const pos = node.position;
  if (pos === undefined || pos.start.offset === undefined || pos.end.offset === undefined) return null;
  let from = pos.start.offset;
  let startLine = pos.start.line;
  if (from < previousEnd) {
    // mdast starts a setext heading at the definitions that precede its text ("[a]: /u\nbar\n==="), so the two
    // nodes overlap; the heading's own text begins after the definition.
    const skipped = /^\s*/.exec(batch.text.slice(previousEnd))?.[0] ?? '';
    startLine += countLineEndings(batch.text, from, previousEnd + skipped.length);
    from = previousEnd + skipped.length;
  }
  const to = pos.end.offset;
  const shift = batch.offset;
  const text = batch.text.slice(from, to);
  const features = withMath ? { ...featuresOf(inline), math: true } : featuresOf(inline);
  const endLine = pos.end.line + batch.line - 1;
  if (node.type === 'heading') {
    const heading = blockLevel && inline === node ? (title ?? plainTitle(node, batch.text) ?? plainText(node).trim()) : plainText(inline).trim();
    return headingOf(text, from + shift, to + shift, startLine + batch.line - 1, endLine, features, node.depth, heading);
  }
  // Unknown node types (from future plugins) are kept as paragraphs so that no text is lost.
  const block = blockOf(KIND_OF[node.type] ?? 'paragraph', text, from + shift, to + shift, startLine + batch.line - 1, endLine, features);
  switch (node.type) {
    case 'code': {
      const code = inline.type === 'code' ? inline : node;
      block.lang = code.lang ?? null;
      block.meta = code.meta ?? null;
      block.fence = fenceOf(text);
      break;
    }
    case 'table':
      Object.assign(block, tableRows(node, batch.text, shift));
      break;
    case 'list':
      block.ordered = node.ordered === true;
      block.items = listItems(node, batch.text, shift);
      break;
  }
  return block as unknown as Block;
}

/**
 * The fields every block has, in the order blocks list them (a block's JSON keeps it); the caller stores the
 * fields of its kind after them. Built as one literal: a literal spread into another (`{ kind, ...base }`) took a
 * good part of the time of a batch of one-letter paragraphs.
 */
function blockOf(kind: BlockKind, text: string, start: number, end: number, startLine: number, endLine: number, features: BlockFeatures | undefined): Record<string, unknown> {
  if (features === undefined) return { kind, text, start, end, startLine, endLine };
  return { kind, text, start, end, startLine, endLine, features };
}

/**
 * A heading block: `blockOf`'s fields, then its depth and title, then `gapBefore`, which `createGapTracker` sets
 * (undefined until then). Stored after a literal, the three went to a store of properties apart from the block,
 * made anew for every heading, and a document of a heading per line makes a block every four bytes; in the
 * literal, in the order they were stored in, a block's JSON is what it was.
 */
function headingOf(text: string, start: number, end: number, startLine: number, endLine: number, features: BlockFeatures | undefined, depth: number, title: string): Block {
  const block = features === undefined
    ? { kind: 'heading' as const, text, start, end, startLine, endLine, depth, title, gapBefore: undefined }
    : { kind: 'heading' as const, text, start, end, startLine, endLine, features, depth, title, gapBefore: undefined };
  return block as unknown as Block;
}

/** The opening fence of a fenced code block, or null for an indented one. */
function fenceOf(text: string): string | null {
  const m = /^[ \t]*(`{3,}|~{3,})/.exec(text);
  return m ? (m[1] as string) : null;
}

function spanOf(node: Nodes, shift: number): Span {
  return { start: (node.position?.start.offset ?? 0) + shift, end: (node.position?.end.offset ?? 0) + shift };
}

function tableRows(node: Table, text: string, shift: number): { rows: Span[]; delimiterRow: Span } {
  const rows = node.children.map((row) => spanOf(row, shift));
  // The delimiter row is not a node: it is the line right after the header row.
  const headerEnd = node.children[0]?.position?.end.offset ?? 0;
  let start = text.indexOf('\n', headerEnd);
  start = start === -1 ? headerEnd : start + 1;
  let end = text.indexOf('\n', start);
  if (end === -1) end = text.length;
  if (end > start && text.charCodeAt(end - 1) === CR) end--;
  // Container prefixes (a table inside a quote) are not part of the row.
  while (start < end && (text.charCodeAt(start) === SPACE || text.charCodeAt(start) === TAB)) start++;
  return { rows, delimiterRow: { start: start + shift, end: end + shift } };
}

/**
 * The spans of a list's items, each ending before the next item starts and within `limit` (its parent item's end).
 * mdast can end an item past the start of the next one: with GFM task lists, `- [x] \`\`\`` then an indented
 * fence runs the item over the next item's marker (marked's tasklist_blocks.md), and a chunk cut between the two
 * items overlapped the one before it.
 */
function listItems(list: List, text: string, shift: number, limit = Number.POSITIVE_INFINITY): ListItemSpan[] {
  return list.children.map((item, i) => {
    const span = spanOf(item, 0);
    const next = list.children[i + 1]?.position?.start.offset;
    let end = Math.min(span.end, limit);
    if (next !== undefined && end > next) {
      end = next;
      while (end > span.start && isWhitespace(text.charCodeAt(end - 1))) end--;
    }
    const nested: ListItemSpan[] = [];
    for (const child of item.children) if (child.type === 'list') nested.push(...listItems(child, text, shift, end));
    return { start: span.start + shift, end: end + shift, items: nested };
  });
}

const IMG_SRC = /<img\b[^>]*?\bsrc\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/gi;

/** Images, math, and code, tables and lists nested in a block. Undefined when there is none. */
function featuresOf(node: RootContent): BlockFeatures | undefined {
  // Most blocks are a paragraph or a heading without children (the block-level parse reads no inline content):
  // they have none, and nothing is allocated for them.
  if (node.type !== 'math' && node.type !== 'html' && (!('children' in node) || node.children.length === 0)) return undefined;
  const found: FoundFeatures = { images: [], codeLangs: [], math: node.type === 'math', table: false, list: false };
  collectFeatures(node, 0, node.type === 'list', found);
  const { images, codeLangs, math, table, list } = found;
  if (images.length === 0 && codeLangs.length === 0 && !math && !table && !list) return undefined;
  const features: { -readonly [K in keyof BlockFeatures]: BlockFeatures[K] } = {};
  if (images.length > 0) features.images = images;
  if (math) features.math = true;
  if (codeLangs.length > 0) features.codeLangs = codeLangs;
  if (table) features.table = true;
  if (list) features.list = true;
  return features;
}

/** What `featuresOf` finds in a block as it walks it. */
interface FoundFeatures {
  images: string[];
  codeLangs: string[];
  math: boolean;
  table: boolean;
  list: boolean;
}

/** Walks `n` (at `depth` below the block; `inList` when the block is a list) and notes its features in `found`. */
function collectFeatures(n: Nodes, depth: number, inList: boolean, found: FoundFeatures): void {
  switch (n.type) {
    case 'image':
      found.images.push(n.url);
      break;
    case 'html':
      for (const m of n.value.matchAll(IMG_SRC)) found.images.push(m[1] ?? m[2] ?? m[3] ?? '');
      break;
    case 'inlineMath':
    case 'math':
      found.math = true;
      break;
    case 'code':
      if (depth > 0) found.codeLangs.push(n.lang ?? '');
      break;
    case 'table':
      if (depth > 0) found.table = true;
      break;
    case 'list':
      if (depth > 0 && !inList) found.list = true;
      break;
  }
  if ('children' in n) for (const child of (n as Parent).children) collectFeatures(child as Nodes, depth + 1, inList, found);
}
