/**
 * The inline content of the paragraphs of a block, as micromark's inline tokenizer sees it, for blocks simple
 * enough to read it from the source: a paragraph; a block quote, nested or not, around one paragraph; a list whose
 * items each hold one paragraph (or nothing). `holdsInlineMath` reads these without the full parse.
 *
 * A line's indentation and the blank after a `>` only change the whitespace the tokenizer sees, which decides
 * nothing it looks for; the `>` markers themselves must go, since a `>` may end inline HTML. A line with a tab
 * before one of its `>`s (whether that `>` is a marker then depends on the tab's width) is left to the full parse.
 */
import type { Blockquote, List, RootContent } from 'mdast';

/** The inline content of each paragraph of `node` (offsets into `source`), or null when the block is not that simple. */
export function inlineContents(node: RootContent, source: string): string[] | null {
  switch (node.type) {
    case 'paragraph': {
      const text = sliceOf(node, source);
      return text === null ? null : [text];
    }
    case 'blockquote':
      return quotedParagraph(node, source);
    case 'list':
      return itemParagraphs(node, source);
    default:
      return null;
  }
}

/** The paragraph of a quote (of quotes) around just one, its lines without their markers. */
function quotedParagraph(quote: Blockquote, source: string): string[] | null {
  let depth = 1;
  let inner: RootContent = quote;
  while (inner.type === 'blockquote' && inner.children.length === 1) {
    const child = inner.children[0] as RootContent;
    if (child.type !== 'blockquote') break;
    inner = child;
    depth++;
  }
  if (inner.type !== 'blockquote' || inner.children.length !== 1 || inner.children[0]?.type !== 'paragraph') return null;
  const text = sliceOf(inner.children[0], source);
  if (text === null) return null;
  // The first line starts after its markers; each later one starts with up to `depth` of them (fewer: lazy).
  const lines = text.split(LINE_END);
  const markers = quoteMarkers(depth);
  for (let i = 2; i < lines.length; i += 2) {
    const line = lines[i] as string;
    if (TAB_AMONG_MARKERS.test(line)) return null;
    lines[i] = line.replace(markers, '');
  }
  return [lines.join('')];
}

/** Line endings, kept by `split`. */
const LINE_END = /(\r\n|\r|\n)/;
/** A tab among a line's leading blanks and `>`s with a `>` after it (which a tab's width may make a marker). */
const TAB_AMONG_MARKERS = /^[ >]*\t[ \t>]*>/;

const markersByDepth = new Map<number, RegExp>();

/** Up to `depth` quote markers at a line's start: the first after at most three spaces, each later one after at most four (its predecessor's blank, and three). */
function quoteMarkers(depth: number): RegExp {
  let found = markersByDepth.get(depth);
  if (found === undefined) {
    found = new RegExp(`^ {0,3}>(?: {0,4}>){0,${depth - 1}}`);
    markersByDepth.set(depth, found);
  }
  return found;
}

/** The paragraphs of a list whose items each hold one paragraph or nothing. */
function itemParagraphs(list: List, source: string): string[] | null {
  const out: string[] = [];
  for (const item of list.children) {
    if (item.children.length === 0) continue;
    if (item.children.length !== 1 || item.children[0]?.type !== 'paragraph') return null;
    const text = sliceOf(item.children[0], source);
    if (text === null) return null;
    out.push(text);
  }
  return out;
}

function sliceOf(node: RootContent, source: string): string | null {
  const from = node.position?.start.offset;
  const to = node.position?.end.offset;
  return from === undefined || to === undefined ? null : source.slice(from, to);
}
