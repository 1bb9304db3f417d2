/**
 * The block-level parse's tree, built straight from micromark's events.
 *
 * remark's compiler (mdast-util-from-markdown) calls a handler for every event and builds every node; on the
 * block-level parse that was a third of the time, and the objects it builds were the largest share of what
 * outlives V8's young generation (so of what grows the heap). Block mapping reads little of a tree: the nodes,
 * their positions, heading depth and text, code info strings, list items, table rows and cells, HTML values and
 * definition labels. `outlineOf` builds just that, in mdast's shapes, so that `blocksFromBlockTree` reads it as
 * it reads a compiled tree. Leaf values nothing reads (code, math and front matter contents, identifiers, URLs)
 * are left empty.
 *
 * Where the events take a shape this module does not expect, `outlineOf` returns null and the caller parses the
 * batch in full; a property test holds the blocks of both paths equal over the corpus and generated Markdown.
 */
import { createRequire } from 'node:module';
import type * as Micromark from 'micromark';
import type { Event, Extension, Point, Token } from 'micromark-util-types';
import type { Root } from 'mdast';
import { bundledPackage } from './remark-packages.js';

/** A place in the text, as mdast positions give it. */
type Place = Pick<Point, 'line' | 'column' | 'offset'>;

/** A node of the outline: an mdast node with only the fields block mapping reads filled in. */
interface OutlineNode {
  type: string;
  position: { start: Place; end: Place };
  children?: OutlineNode[];
  [field: string]: unknown;
}

/** The mdast node each node-making token opens (inline tokens are absent: the block-level parse has none). */
const NODE_OF: Readonly<Record<string, () => Omit<OutlineNode, 'position'>>> = {
  atxHeading: () => ({ type: 'heading', depth: 0, children: [] }),
  setextHeading: () => ({ type: 'heading', depth: 0, children: [] }),
  paragraph: () => ({ type: 'paragraph', children: [] }),
  blockQuote: () => ({ type: 'blockquote', children: [] }),
  codeFenced: () => ({ type: 'code', lang: null, meta: null, value: '' }),
  codeIndented: () => ({ type: 'code', lang: null, meta: null, value: '' }),
  htmlFlow: () => ({ type: 'html', value: '' }),
  thematicBreak: () => ({ type: 'thematicBreak' }),
  definition: () => ({ type: 'definition', identifier: '', label: null, url: '', title: null }),
  listOrdered: () => ({ type: 'list', ordered: true, start: null, spread: false, children: [] }),
  listUnordered: () => ({ type: 'list', ordered: false, start: null, spread: false, children: [] }),
  table: () => ({ type: 'table', align: [], children: [] }),
  tableRow: () => ({ type: 'tableRow', children: [] }),
  tableHeader: () => ({ type: 'tableCell', children: [] }),
  tableData: () => ({ type: 'tableCell', children: [] }),
  mathFlow: () => ({ type: 'math', meta: null, value: '' }),
  yaml: () => ({ type: 'yaml', value: '' }),
  gfmFootnoteDefinition: () => ({ type: 'footnoteDefinition', identifier: '', label: null, children: [] }),
};

/**
 * Tokens whose text a field of the enclosing node is made of, and that field. As in mdast, the text is the
 * serialized `data` (and line endings) inside the token: container prefixes such as `> ` are not part of it.
 */
const COLLECTED_INTO: Readonly<Record<string, string>> = {
  atxHeadingText: 'children',
  codeFencedFenceInfo: 'lang',
  codeFencedFenceMeta: 'meta',
  htmlFlow: 'value',
  definitionLabelString: 'label',
  gfmFootnoteDefinitionLabelString: 'label',
};
const COLLECTED_PIECES = new Set(['data', 'htmlFlowData', 'lineEnding', 'chunkText']);

/** Tokens that may come between a list item's content and the next item: they are not part of the item. */
const ITEM_TRAILER = new Set(['linePrefix', 'blockQuotePrefix', 'blockQuotePrefixWhitespace', 'blockQuoteMarker', 'listItemIndent']);

const require = createRequire(import.meta.url);
let micromark: typeof Micromark | undefined;

/**
 * micromark, loaded on first use: the line scanner reads nearly every batch, so a process may never need it (see
 * `remark.ts`).
 */
function loadMicromark(): typeof Micromark {
  return (micromark ??= bundledPackage<typeof Micromark>('micromark') ?? (require('micromark') as typeof Micromark));
}

/** An event shape the outline does not handle; the caller then parses in full. */
class UnexpectedShape extends Error {}

/**
 * Parses `text` with micromark and the given extensions, and returns the outline of its mdast tree, or null when
 * the events take a shape this module does not handle.
 */
export function outlineOf(text: string, extensions: readonly Extension[]): Root | null {
  const { parse, postprocess, preprocess } = loadMicromark();
  const parser = parse({ extensions: [...extensions] });
  const events = parser.document().write(preprocess()(text, undefined, true));
  leaveTextUntokenized(events);
  postprocess(events);
  try {
    return outlineFromEvents(events);
  } catch (error) {
    if (error instanceof UnexpectedShape) return null;
    throw error;
  } finally {
    releaseTokenizers(events, parser);
  }
}

/**
 * Keeps micromark from tokenizing the phrasing text of headings and table cells. With every inline construct
 * disabled, the text tokenizer finds nothing in it but still walks every character through its state machine and
 * allocates its events; the outline reads a heading's title from the raw text chunks instead, and a table only
 * needs its cells' positions, which the table construct sets before any text is tokenized. The flow tokenizers
 * have run by the time the document is written (they are fed as it goes): their text chunks lose the content type
 * that would send them to the text tokenizer. String content (info strings, labels) is still tokenized.
 */
function leaveTextUntokenized(events: readonly Event[]): void {
  const seen = new Set<object>();
  for (const [kind, token] of events) {
    const flow = kind === 'enter' ? (token as Token & { _tokenizer?: { events: Event[] } })._tokenizer : undefined;
    if (flow === undefined || seen.has(flow)) continue;
    seen.add(flow);
    for (const [, inner] of flow.events) if (inner.contentType === 'text') inner.contentType = undefined;
  }
}

/**
 * Empties the tokenizer contexts, the event tuples and the parser, once the outline is built.
 *
 * micromark runs checks and interrupts with `Object.create(context)` as `this`. V8 gives each such object a map
 * whose prototype is the context, and maps live in the old generation: until the next full collection, that map
 * holds the context, and through it the tokenizer's events, chunks and closures, however dead they are. Every
 * scavenge then promoted a batch's token stream to the old generation, and V8 sized the heap to that rate. So the
 * contexts are emptied, the event tuples too (they also stay reachable from old objects), and the parser (the
 * batch's combined constructs, definitions and lazy lines): nothing of a parsed batch outlives it.
 */
function releaseTokenizers(events: Event[], parser: object): void {
  const fields = parser as Record<string, unknown>;
  for (const key of Object.keys(fields)) fields[key] = undefined;
  let last: unknown;
  const released = new Set<object>();
  for (const event of events) {
    const context = event[2] as unknown as Record<string, unknown>;
    (event as unknown[]).length = 0;
    if (context === last || released.has(context)) continue;
    last = context;
    released.add(context);
    for (const key of Object.keys(context)) context[key] = undefined;
  }
}

function outlineFromEvents(events: Event[]): Root {
  const root: OutlineNode = { type: 'root', children: [], position: { start: { line: 1, column: 1, offset: 0 }, end: { line: 1, column: 1, offset: 0 } } };
  const stack: OutlineNode[] = [root];
  const top = (): OutlineNode => stack[stack.length - 1] as OutlineNode;
  /** The text being collected for a field of the node on top of the stack, or null. */
  let collected: string | null = null;

  const open = (node: Omit<OutlineNode, 'position'>, token: Token): void => {
    const parent = top();
    if (parent.children === undefined) throw new UnexpectedShape(`${token.type} inside ${parent.type}`);
    const full = node as OutlineNode;
    full.position = { start: token.start, end: token.end };
    parent.children.push(full);
    stack.push(full);
  };
  const close = (end: Place): void => {
    const node = stack.pop() as OutlineNode;
    if (stack.length === 0) throw new UnexpectedShape('closing the root');
    node.position.end = end;
  };
  /** At the event that ends a list item (the next item's prefix, or the list's exit): closes the open item. */
  const closeListItem = (index: number): void => {
    if (top().type === 'listItem') close(listItemEnd(events, index));
    if (top().type !== 'list') throw new UnexpectedShape(`list item ending inside ${top().type}`);
  };

  for (let index = 0; index < events.length; index++) {
    const [kind, token, context] = events[index] as Event;
    const type = token.type as string;
    if (kind === 'enter') {
      const make = NODE_OF[type];
      if (make !== undefined) open(make(), token);
      else if (type === 'listItemPrefix') {
        closeListItem(index);
        open({ type: 'listItem', spread: false, checked: null, children: [] }, token);
      }
      if (COLLECTED_INTO[type] !== undefined) collected = '';
      continue;
    }
    if (collected !== null && COLLECTED_PIECES.has(type)) collected += context.sliceSerialize(token);
    const field = COLLECTED_INTO[type];
    if (field !== undefined && collected !== null) {
      const node = top();
      if (field === 'children') node.children = collected === '' ? [] : [{ type: 'text', value: collected, position: node.position }];
      else node[field] = collected;
      collected = null;
    }
    if (type === 'atxHeadingSequence') {
      if (top().depth === 0) top().depth = context.sliceSerialize(token).length;
    } else if (type === 'setextHeadingLineSequence') {
      top().depth = context.sliceSerialize(token).codePointAt(0) === 61 ? 1 : 2;
    } else if (type === 'listOrdered' || type === 'listUnordered') {
      closeListItem(index);
      close(token.end);
    } else if (NODE_OF[type] !== undefined) {
      // Events nest, so the node on top is the one this token opened; anything else is a shape not understood.
      if (top().position.start !== token.start) throw new UnexpectedShape(`${type} closing ${top().type}`);
      close(token.end);
    }
  }
  if (stack.length !== 1) throw new UnexpectedShape('unclosed nodes');
  const children = root.children as OutlineNode[];
  if (children.length > 0) root.position = { start: (children[0] as OutlineNode).position.start, end: (children.at(-1) as OutlineNode).position.end };
  return root as unknown as Root;
}

/**
 * Where a list item ends, given the event that ends it (the next item's prefix, or the list's exit): before the
 * line endings and prefixes that trail its content, as mdast-util-from-markdown's `prepareList` places it.
 */
function listItemEnd(events: Event[], index: number): Place {
  let lineEnding: Token | undefined;
  for (let i = index - 1; i >= 0; i--) {
    const [kind, token] = events[i] as Event;
    const type = token.type as string;
    if (type === 'lineEnding' || type === 'lineEndingBlank') {
      if (kind === 'enter') lineEnding = token;
    } else if (!ITEM_TRAILER.has(type)) {
      break;
    }
  }
  return lineEnding !== undefined ? lineEnding.start : (events[index] as Event)[1].end;
}
