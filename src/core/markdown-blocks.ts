/**
 * Maps the top-level nodes of an mdast tree (one parsed batch) to `Block`s whose offsets and lines point into the
 * whole document.
 */
import type { Nodes, Parent, Root, RootContent, List, Table } from 'mdast';
import { toString } from 'mdast-util-to-string';
import type { Block, BlockFeatures, BlockKind, ListItemSpan, Span } from '../types.js';
import { countLineEndings, type MarkdownBatch } from './markdown-batcher.js';

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

/** Maps every top-level node of `tree` (parsed from `batch.text`) to a block. */
export function blocksFromTree(tree: Root, batch: MarkdownBatch): Block[] {
  const blocks: Block[] = [];
  let previousEnd = 0;
  for (const node of tree.children) {
    const block = toBlock(node, batch, previousEnd);
    if (block !== null) {
      blocks.push(block);
      previousEnd = block.end - batch.offset;
    }
  }
  return blocks;
}

function toBlock(node: RootContent, batch: MarkdownBatch, previousEnd: number): Block | null {
  const pos = node.position;
  if (pos === undefined || pos.start.offset === undefined || pos.end.offset === undefined) return null;
  let from = pos.start.offset;
  let startLine = pos.start.line;
  if (from < previousEnd) {
    // mdast starts a setext heading at the definitions that precede its text ("[a]: /u\nbar\n==="), so the two
    // nodes overlap; the heading's own text begins after the definition.
    const skipped = /^\s*/.exec(batch.text.slice(previousEnd))?.[0] ?? '';
    startLine += countLineEndings(batch.text.slice(from, previousEnd + skipped.length));
    from = previousEnd + skipped.length;
  }
  const to = pos.end.offset;
  const shift = batch.offset;
  const base = {
    text: batch.text.slice(from, to),
    start: from + shift,
    end: to + shift,
    startLine: startLine + batch.line - 1,
    endLine: pos.end.line + batch.line - 1,
  };
  const features = featuresOf(node);
  if (features !== undefined) Object.assign(base, { features });
  switch (node.type) {
    case 'heading':
      return { kind: 'heading', ...base, depth: node.depth, title: toString(node).trim() };
    case 'code':
      return { kind: 'code', ...base, lang: node.lang ?? null, meta: node.meta ?? null, fence: fenceOf(base.text) };
    case 'table':
      return { kind: 'table', ...base, ...tableRows(node, batch.text, shift) };
    case 'list':
      return { kind: 'list', ...base, ordered: node.ordered === true, items: listItems(node, shift) };
    default: {
      // Unknown node types (from future plugins) are kept as paragraphs so that no text is lost.
      const kind = (KIND_OF[node.type] ?? 'paragraph') as Exclude<BlockKind, 'heading' | 'code' | 'table' | 'list'>;
      return { kind, ...base };
    }
  }
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
  if (end > start && text.charCodeAt(end - 1) === 13) end--;
  // Container prefixes (a table inside a quote) are not part of the row.
  while (start < end && (text.charCodeAt(start) === 32 || text.charCodeAt(start) === 9)) start++;
  return { rows, delimiterRow: { start: start + shift, end: end + shift } };
}

function listItems(list: List, shift: number): ListItemSpan[] {
  return list.children.map((item) => {
    const nested: ListItemSpan[] = [];
    for (const child of item.children) if (child.type === 'list') nested.push(...listItems(child, shift));
    return { ...spanOf(item, shift), items: nested };
  });
}

const IMG_SRC = /<img\b[^>]*?\bsrc\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/gi;

/** Images, math, and code, tables and lists nested in a block. Undefined when there is none. */
function featuresOf(node: RootContent): BlockFeatures | undefined {
  const images: string[] = [];
  const codeLangs: string[] = [];
  let math = node.type === 'math';
  let table = false;
  let list = false;
  const visit = (n: Nodes, depth: number): void => {
    switch (n.type) {
      case 'image':
        images.push(n.url);
        break;
      case 'html':
        for (const m of n.value.matchAll(IMG_SRC)) images.push(m[1] ?? m[2] ?? m[3] ?? '');
        break;
      case 'inlineMath':
      case 'math':
        math = true;
        break;
      case 'code':
        if (depth > 0) codeLangs.push(n.lang ?? '');
        break;
      case 'table':
        if (depth > 0) table = true;
        break;
      case 'list':
        if (depth > 0 && node.type !== 'list') list = true;
        break;
    }
    if ('children' in n) for (const child of (n as Parent).children) visit(child as Nodes, depth + 1);
  };
  visit(node, 0);
  if (images.length === 0 && codeLangs.length === 0 && !math && !table && !list) return undefined;
  const features: { -readonly [K in keyof BlockFeatures]: BlockFeatures[K] } = {};
  if (images.length > 0) features.images = images;
  if (math) features.math = true;
  if (codeLangs.length > 0) features.codeLangs = codeLangs;
  if (table) features.table = true;
  if (list) features.list = true;
  return features;
}
