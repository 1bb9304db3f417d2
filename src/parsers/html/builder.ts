/**
 * Tags and text to block drafts: the stack of open elements (with the implied end tags that change where blocks
 * end), what is not content (never-text elements, hidden ones, and by default navigation, banners, footers and
 * complementary content), and the mapping of elements to blocks: `h1`–`h6` (and `role="heading"`) to headings,
 * `p` to paragraphs, `pre` to code with its language, lists, tables and quotes to one block each, `hr` to a
 * thematic break, `img` to its `alt` text; text outside any of them to paragraphs.
 *
 * Bounded: the stack holds at most `MAX_OPEN` elements (deeper ones are read as inline elements, with a warning),
 * an end tag that matches no open element is ignored in constant time, and a paragraph or code block longer than
 * `PART_SIZE` is given in parts cut at a line break or a space.
 */
import type { BlockContinuation } from '../../types.js';
import {
  createList,
  createQuote,
  createTable,
  endCell,
  endItem,
  endQuoteItem,
  endQuoteList,
  endRow,
  flowOf,
  listDraft,
  PART_SIZE,
  quoteDraft,
  startItem,
  startQuoteItem,
  startQuoteList,
  tableDraft,
  takeListPart,
  takeTablePart,
  type Container,
} from './containers.js';
import { MAIN_REGION, OUTSIDE_REGION, type ContentMode, type DraftBlock, type Region } from './document.js';
import { BLOCK_ELEMENTS, BOILERPLATE, BOILERPLATE_ROLES, CLOSED_BY, hasClassName, HEADING_DEPTH, NAVIGATION_CLASSES, NEVER_TEXT, PERMALINK_TEXTS, SECTIONING, VOID_ELEMENTS } from './elements.js';
import { cutPoint, dropHead, FlowText, sourceAt } from './flow-text.js';
import { MAX_ATTRIBUTE_LENGTH, type Attributes, type TokenHandler } from './tokens.js';

/** The deepest stack of open elements kept; elements deeper are read as inline elements. */
export const MAX_OPEN = 512;
const DEEP_WARNING = `elements nested deeper than ${MAX_OPEN} levels were read as inline elements`;
/** Said when an `alt` (the only kept attribute that becomes text) was cut. */
const ALT_CUT_WARNING = `an image's alt text longer than ${MAX_ATTRIBUTE_LENGTH} characters was cut there`;
/** Elements whose content the tokenizer reads as raw text: skipped to their end tag, whatever the depth. */
const RAW_TEXT: ReadonlySet<string> = new Set(['script', 'style', 'textarea', 'title', 'xmp', 'iframe', 'noembed', 'noframes']);
/** Anything but HTML's whitespace (space, tab, line feed, form feed, carriage return). */
const NOT_BLANK = /[^ \t\n\f\r]/;

/** True when `text` is only HTML whitespace: the source's layout between elements, not text. */
function isBlank(text: string): boolean {
  return !NOT_BLANK.test(text);
}

const LANGUAGE_CLASS = /(?:^|\s)(?:language|lang|highlight(?:-source)?)-([\w+#.-]+)/;


/** One open element. */
interface OpenElement {
  readonly name: string;
  /** It starts a subtree that is not content. */
  readonly dropped: boolean;
  /** It started the current leaf or container, or a list or list item of a quote. */
  opened: 'leaf' | 'container' | 'item' | null;
  /** It is a sectioning element (main, article, section): a `header` or `footer` inside belongs to it. */
  readonly sectioning: boolean;
  /** The region it starts, if any (main, an article). */
  readonly region: Region | null;
  /** For an `a` inside a heading: where its text starts in the heading. */
  readonly anchorAt: number;
}

/** The paragraph, heading or code block being read. */
interface Leaf {
  kind: 'paragraph' | 'heading' | 'code';
  readonly flow: FlowText;
  readonly region: Region;
  sourceStart: number;
  readonly depth: 1 | 2 | 3 | 4 | 5 | 6;
  lang: string | null;
  /** `code` elements read in this `pre`: a second one starts a block of its own. */
  codes: number;
  parts: number;
  /** The whitespace the last cut fell on: the gap before the next part. */
  gap?: string;
  readonly images: string[];
}

/** Where drafts go, the `main` signal, and the page's `<title>`. */
export interface DraftSink {
  add(draft: DraftBlock): void;
  mainStarts(): void;
  /** The text of the page's first `<title>` (outside SVG and other content that is not read). */
  titleFound?(title: string): void;
}

/** The most text of a `<title>` kept: a title is a line. */
const MAX_TITLE_TEXT = 1024;

/** Builds the drafts of one document from its tokens. */
export class BlockBuilder implements TokenHandler {
  readonly #sink: DraftSink;
  readonly #mode: ContentMode;
  readonly #stack: OpenElement[] = [];
  /** How many of each element name are open: an unmatched end tag is known at once. */
  readonly #counts = new Map<string, number>();
  /** Elements opened past `MAX_OPEN`, not on the stack. */
  #excess = 0;
  /** Index on the stack of the element whose subtree is skipped, or -1. */
  #dropFrom = -1;
  /** A raw-text element (script, style) whose text is skipped until its end tag. */
  #rawSkip: string | null = null;
  /** The text of the page's first `<title>` while it is read; `null` before it and once it has been given. */
  #title: string | null = null;
  #titleSeen = false;
  #leaf: Leaf | null = null;
  #container: Container | null = null;
  #region: Region = OUTSIDE_REGION;
  #articles = 0;
  #sectioning = 0;
  #mainSeen = false;
  #warnings: string[] = [];
  /** Where the last token ended. */
  #at = 0;

  constructor(sink: DraftSink, mode: ContentMode) {
    this.#sink = sink;
    this.#mode = mode;
  }

  attributeCut(name: string): void {
    if (name === 'alt' && !this.#warnings.includes(ALT_CUT_WARNING)) this.#warnings.push(ALT_CUT_WARNING);
  }

  text(text: string, start: number, end: number): void {
    this.#at = end;
    if (this.#title !== null && this.#rawSkip === 'title') this.#title = (this.#title + text).slice(0, MAX_TITLE_TEXT);
    if (this.#rawSkip !== null || this.#dropFrom !== -1) return;
    const container = this.#container;
    if (container !== null) {
      // Whitespace between rows and cells is the source's layout, not a cell.
      if (container.kind === 'table' && container.cell === null && isBlank(text)) return;
      flowOf(container).write(text, start, end);
      return;
    }
    if (this.#leaf === null) {
      if (isBlank(text)) return;
      this.#startLeaf('paragraph', start, 1);
    }
    const leaf = this.#leaf as Leaf;
    leaf.flow.write(text, start, end);
    if (leaf.flow.text.length > PART_SIZE) this.#emitLeafParts(leaf);
  }

  openTag(name: string, attributes: Attributes, start: number, end: number, selfClosing: boolean): void {
    this.#at = end;
    if (this.#rawSkip !== null) return;
    if (RAW_TEXT.has(name) && !selfClosing) {
      this.#rawSkip = name;
      // The page's title: the first, in the head (which is never text) or not, but not an SVG drawing's, which names the drawing.
      if (name === 'title' && !this.#titleSeen && (this.#counts.get('svg') ?? 0) === 0) this.#title = '';
      return;
    }
    if (this.#dropFrom !== -1) {
      this.#push(name, { dropped: false }, selfClosing);
      return;
    }
    const closes = CLOSED_BY.get(name);
    while (closes !== undefined && this.#stack.length > 0 && this.#excess === 0 && closes.has((this.#stack.at(-1) as OpenElement).name)) this.#pop(start);
    if (this.#isDropped(name, attributes)) {
      if (BLOCK_ELEMENTS.has(name) && this.#container === null) this.#endLeaf(start);
      if (this.#push(name, { dropped: true }, selfClosing) !== null) this.#dropFrom = this.#stack.length - 1;
      return;
    }
    if (VOID_ELEMENTS.has(name)) return this.#voidElement(name, attributes, start, end);
    const element = this.#push(name, this.#regionOf(name, attributes), selfClosing);
    if (element === null) {
      if (this.#excess === 1) this.#warnings.push(DEEP_WARNING);
      return;
    }
    this.#enter(element, name, attributes, start);
  }

  closeTag(name: string, _start: number, end: number): void {
    this.#at = end;
    if (this.#rawSkip !== null) {
      if (name !== this.#rawSkip) return;
      this.#rawSkip = null;
      if (name === 'title' && this.#title !== null) this.#endTitle();
      return;
    }
    if (name === 'br') return this.#voidElement('br', {}, _start, end);
    if (this.#excess > 0) {
      this.#excess--;
      return;
    }
    if ((this.#counts.get(name) ?? 0) === 0) return;
    for (;;) {
      const top = this.#pop(end);
      if (top === undefined || top.name === name) break;
    }
  }

  /** Hands the title read to the sink, once. */
  #endTitle(): void {
    const title = this.#title as string;
    this.#title = null;
    this.#titleSeen = true;
    this.#sink.titleFound?.(title);
  }

  /** The document has ended: every open element is closed. */
  finish(): void {
    if (this.#title !== null) this.#endTitle();
    this.#excess = 0;
    while (this.#stack.length > 0) this.#pop(this.#at);
    this.#endLeaf(this.#at);
    if (this.#container !== null) this.#endContainer(this.#at);
  }

  // The stack.

  /** Pushes an element (null past `MAX_OPEN`, where only a count is kept). */
  #push(name: string, extra: { dropped: boolean; region?: Region | null }, selfClosing: boolean): OpenElement | null {
    if (VOID_ELEMENTS.has(name) || selfClosing) return null;
    if (this.#stack.length >= MAX_OPEN) {
      this.#excess++;
      return null;
    }
    const element: OpenElement = {
      name,
      dropped: extra.dropped,
      opened: null,
      sectioning: SECTIONING.has(name) || extra.region === MAIN_REGION,
      region: extra.region ?? null,
      anchorAt: name === 'a' && this.#leaf?.kind === 'heading' && this.#container === null ? this.#leaf.flow.text.length : -1,
    };
    this.#stack.push(element);
    this.#counts.set(name, (this.#counts.get(name) ?? 0) + 1);
    if (element.sectioning) this.#sectioning++;
    return element;
  }

  /** Pops the top element and leaves it. */
  #pop(at: number): OpenElement | undefined {
    const element = this.#stack.pop();
    if (element === undefined) return undefined;
    // Names that are no longer open leave the map: a page of a million distinct tag names keeps it small.
    const open = (this.#counts.get(element.name) ?? 1) - 1;
    if (open === 0) this.#counts.delete(element.name);
    else this.#counts.set(element.name, open);
    if (element.sectioning) this.#sectioning--;
    if (this.#dropFrom !== -1) {
      if (this.#stack.length === this.#dropFrom) this.#dropFrom = -1;
      return element;
    }
    this.#leave(element, at);
    return element;
  }

  /** True when an element and its subtree are not content. */
  #isDropped(name: string, attributes: Attributes): boolean {
    if (NEVER_TEXT.has(name) || attributes.hidden !== undefined || attributes['aria-hidden']?.trim().toLowerCase() === 'true') return true;
    if (this.#mode === 'all') return false;
    if (BOILERPLATE.has(name) || BOILERPLATE_ROLES.has(attributes.role?.trim().toLowerCase() ?? '')) return true;
    if (hasClassName(attributes.class, NAVIGATION_CLASSES)) return true;
    return (name === 'header' || name === 'footer') && this.#sectioning === 0;
  }

  /** The region an element starts: the page's `main` (the first), or an `article` outside `main`. */
  #regionOf(name: string, attributes: Attributes): { dropped: false; region: Region | null } {
    if (this.#mode === 'main' && !this.#mainSeen && (name === 'main' || attributes.role?.trim().toLowerCase() === 'main')) {
      this.#mainSeen = true;
      this.#endLeaf(this.#at);
      if (this.#container !== null) this.#endContainer(this.#at);
      this.#sink.mainStarts();
      return { dropped: false, region: MAIN_REGION };
    }
    if (this.#mode === 'main' && name === 'article' && this.#region === OUTSIDE_REGION) {
      this.#endLeaf(this.#at);
      if (this.#container !== null) this.#endContainer(this.#at);
      return { dropped: false, region: ++this.#articles };
    }
    return { dropped: false, region: null };
  }

  // Elements.

  #enter(element: OpenElement, name: string, attributes: Attributes, start: number): void {
    if (element.region !== null) this.#region = element.region;
    const role = attributes.role?.trim().toLowerCase();
    const depth = HEADING_DEPTH.get(name) ?? (role === 'heading' ? 2 : undefined);
    const container = this.#container;
    if (container !== null && !this.#layoutTableEnds(container, depth !== undefined, start)) {
      return this.#enterInside(container, element, name, attributes, depth !== undefined);
    }
    if (depth !== undefined) {
      this.#endLeaf(start);
      this.#startLeaf('heading', start, headingDepth(depth, attributes['aria-level']));
      element.opened = 'leaf';
    } else if (name === 'p' || name === 'summary' || name === 'figcaption' || name === 'caption' || name === 'li' || name === 'dt' || name === 'dd') {
      this.#endLeaf(start);
      this.#startLeaf('paragraph', start, 1);
      element.opened = 'leaf';
    } else if (name === 'pre' || name === 'listing' || name === 'plaintext') {
      this.#endLeaf(start);
      const leaf = this.#startLeaf('code', start, 1);
      leaf.lang = languageOf(attributes.class);
      leaf.flow.startVerbatim();
      element.opened = 'leaf';
    } else if (name === 'code' && this.#leaf?.kind === 'code') {
      this.#codeElement(this.#leaf, attributes, start);
    } else if (name === 'ul' || name === 'ol' || name === 'dl' || name === 'menu' || name === 'dir') {
      this.#endLeaf(start);
      this.#container = createList(name === 'ol', Number.parseInt(attributes.start ?? '1', 10) || 1, this.#region, start, this.#stack.length);
      element.opened = 'container';
    } else if (name === 'table' && role !== 'presentation' && role !== 'none') {
      // A table marked as layout (`role="presentation"`) is no table: its cells are read as the blocks they hold.
      this.#endLeaf(start);
      this.#container = createTable(this.#region, start, this.#stack.length);
      element.opened = 'container';
    } else if (name === 'blockquote') {
      this.#endLeaf(start);
      this.#container = createQuote(this.#region, start, this.#stack.length);
      element.opened = 'container';
    } else if (BLOCK_ELEMENTS.has(name)) {
      this.#endLeaf(start);
    }
  }

  /** An element inside a list, table or quote: laid out into its text. */
  #enterInside(container: Container, element: OpenElement, name: string, attributes: Attributes, heading: boolean): void {
    if (container.kind === 'table') return this.#enterInTable(container, name);
    const flow = container.flow;
    if (container.kind === 'list' && (name === 'li' || name === 'dt' || name === 'dd') && container.open.length < container.lists.length) {
      startItem(container, name);
      return;
    }
    const isList = name === 'ul' || name === 'ol' || name === 'dl' || name === 'menu' || name === 'dir';
    if (container.kind === 'blockquote' && (isList || (isListItem(name) && container.lists.length > 0))) {
      // A quote's list is laid out as a list block's (Node's docs quote their resolution algorithms as numbered lists).
      if (isList) startQuoteList(container, name === 'ol', Number.parseInt(attributes.start ?? '1', 10) || 1);
      else startQuoteItem(container, name);
      element.opened = 'item';
      return;
    }
    if (isList) {
      if (container.kind === 'list') container.lists.push({ ordered: name === 'ol', next: Number.parseInt(attributes.start ?? '1', 10) || 1 });
      else container.nestedList = true;
      flow.lineBreak();
      return;
    }
    if (isListItem(name)) {
      flow.lineBreak();
      flow.writeMarkup('- ');
      return;
    }
    if (name === 'pre') {
      flow.lineBreak();
      flow.startVerbatim();
      const lang = languageOf(attributes.class);
      if (lang !== null) container.codeLangs.push(lang);
      return;
    }
    if (name === 'code' && flow.verbatim > 0) {
      const lang = languageOf(attributes.class);
      if (lang !== null && !container.codeLangs.includes(lang)) container.codeLangs.push(lang);
      return;
    }
    if (name === 'blockquote' && container.kind === 'blockquote') {
      // A quote in a quote is more of its text, one `> ` deeper; its end is not the end of the block.
      flow.paragraphBreak();
      flow.pushIndent('> ');
      return;
    }
    if (name === 'table' || name === 'tr') {
      if (name === 'table') container.nestedTable = true;
      flow.lineBreak();
      return;
    }
    if (heading || BLOCK_ELEMENTS.has(name)) flow.paragraphBreak();
  }

  /**
   * True when a heading starts in a cell of the table being read, or of a table nested in it: that table lays a page
   * out rather than holding data (old generated docs set a whole page in `border="0"` tables nested three deep), so
   * it ends here, what its rows held so far given as a table, and the rest of it is read as the blocks its cells hold.
   */
  #layoutTableEnds(container: Container, heading: boolean, at: number): boolean {
    if (!heading || container.kind !== 'table') return false;
    // The table's element stays open, as an element that opened nothing.
    (this.#stack[container.depth - 1] as OpenElement).opened = null;
    // The row the heading stands in holds nothing yet but the cell it opens: it is no row of the table.
    if ((container.row?.cells ?? []).every(isBlank) && isBlank(container.cell?.text ?? '')) {
      container.row = null;
      container.cell = null;
    }
    this.#endContainer(at);
    return true;
  }

  #enterInTable(table: Extract<Container, { kind: 'table' }>, name: string): void {
    if (name === 'table') {
      table.nested++;
      table.nestedTable = true;
    }
    if (table.nested > 0) {
      if (name === 'td' || name === 'th' || name === 'tr') flowOf(table).write(' ', -1);
      return;
    }
    if (name === 'thead' || name === 'tbody' || name === 'tfoot' || name === 'colgroup') return;
    if (name === 'tr') endRow(table);
    else if (name === 'td' || name === 'th') {
      endCell(table);
      flowOf(table);
    } else if (name === 'caption') {
      table.caption = new FlowText();
      table.inCaption = true;
    }
    else if (BLOCK_ELEMENTS.has(name)) flowOf(table).write(' ', -1);
  }

  #leave(element: OpenElement, at: number): void {
    if (element.region !== null) this.#region = OUTSIDE_REGION;
    const container = this.#container;
    if (container !== null && element.opened !== 'container') return this.#leaveInside(container, element, at);
    if (element.opened === 'container') return this.#endContainer(at);
    if (element.opened === 'leaf' || (BLOCK_ELEMENTS.has(element.name) && this.#leaf !== null)) return this.#endLeaf(at);
    if (element.anchorAt >= 0 && this.#leaf?.kind === 'heading') dropPermalink(this.#leaf.flow, element.anchorAt);
    if (element.name === 'code' && this.#leaf?.kind === 'code') this.#leaf.flow.settle();
  }

  #leaveInside(container: Container, element: OpenElement, at: number): void {
    const name = element.name;
    if (container.kind === 'table') {
      if (name === 'table') container.nested--;
      else if (container.nested === 0) {
        if (name === 'td' || name === 'th') endCell(container);
        else if (name === 'tr') endRow(container);
        else if (name === 'caption') container.inCaption = false;
        const part = name === 'tr' ? takeTablePart(container, at) : null;
        if (part !== null) this.#sink.add(part);
      }
      return;
    }
    const flow = container.flow;
    if (container.kind === 'blockquote' && element.opened === 'item') {
      if (isListItem(name)) endQuoteItem(container);
      else endQuoteList(container);
      return;
    }
    if (container.kind === 'list' && (name === 'li' || name === 'dt' || name === 'dd') && container.open.length > 0) {
      endItem(container);
      const part = container.open.length === 0 ? takeListPart(container, at) : null;
      if (part !== null) this.#sink.add(part);
      return;
    }
    if (container.kind === 'list' && (name === 'ul' || name === 'ol' || name === 'dl' || name === 'menu' || name === 'dir') && container.lists.length > 1) {
      container.lists.pop();
      // Text after a nested list is a new line of the item that holds it.
      flow.lineBreak();
      return;
    }
    if (name === 'pre') flow.endVerbatim();
    else if (name === 'blockquote' && container.kind === 'blockquote') {
      flow.popIndent();
      flow.paragraphBreak();
    } else if (BLOCK_ELEMENTS.has(name) || HEADING_DEPTH.has(name)) flow.paragraphBreak();
  }

  #voidElement(name: string, attributes: Attributes, start: number, end: number): void {
    if (name === 'br') {
      if (this.#container !== null) flowOf(this.#container).lineBreak();
      else this.#leaf?.flow.lineBreak();
      return;
    }
    if (name === 'hr') {
      if (this.#container !== null) return flowOf(this.#container).paragraphBreak();
      this.#endLeaf(start);
      this.#sink.add({ kind: 'thematicBreak', text: '---', sourceStart: start, sourceEnd: end, region: this.#region, ...this.#takeWarnings() });
      return;
    }
    if (name !== 'img') return;
    const alt = (attributes.alt ?? '').trim();
    const src = attributes.src;
    if (this.#container !== null) {
      if (src !== undefined) this.#container.images.push(src);
      if (alt !== '') flowOf(this.#container).write(alt, start, end);
      return;
    }
    if (alt === '' && src === undefined) return;
    if (this.#leaf === null) {
      if (alt === '') return;
      this.#startLeaf('paragraph', start, 1);
    }
    const leaf = this.#leaf as Leaf;
    if (src !== undefined) leaf.images.push(src);
    if (alt !== '') leaf.flow.write(` ${alt} `, start, end);
  }

  /** A `code` element in a `pre`: its language, and a second one (another variant of the example) is a block of its own. */
  #codeElement(leaf: Leaf, attributes: Attributes, start: number): void {
    const lang = languageOf(attributes.class);
    if (leaf.codes > 0 && !leaf.flow.empty) {
      this.#endLeaf(start);
      const next = this.#startLeaf('code', start, 1);
      next.flow.startVerbatim();
      next.lang = lang;
      // The `pre` that opened the first block closes this one.
      next.codes = 1;
      return;
    }
    leaf.codes++;
    leaf.lang ??= lang;
  }

  // Leaves and containers.

  #startLeaf(kind: Leaf['kind'], start: number, depth: 1 | 2 | 3 | 4 | 5 | 6): Leaf {
    const leaf: Leaf = { kind, flow: new FlowText(), region: this.#region, sourceStart: start, depth, lang: null, codes: 0, parts: 0, images: [] };
    this.#leaf = leaf;
    return leaf;
  }

  #endLeaf(at: number): void {
    const leaf = this.#leaf;
    if (leaf === null) return;
    this.#leaf = null;
    // A no-break space is text to a browser but whitespace to `trim()`: a block of nothing else is no block.
    const text = leaf.kind === 'code' ? trimCode(leaf.flow.text) : leaf.parts > 0 ? leaf.flow.text.trimEnd() : leaf.flow.text.trim();
    if (text.trim() === '') return;
    const kind = leaf.kind === 'heading' && leaf.parts > 0 ? 'paragraph' : leaf.kind;
    this.#sink.add(this.#leafDraft(leaf, kind, text, at, leaf.parts > 0 ? { previous: true, next: false, cut: leaf.kind === 'code' ? 'line' : 'inline' } : undefined));
  }

  /** Gives the parts of a leaf past `PART_SIZE`, cut at a line break or a space; the rest stays. */
  #emitLeafParts(leaf: Leaf): void {
    while (leaf.flow.text.length > PART_SIZE) {
      const cut = cutPoint(leaf.flow.text, PART_SIZE);
      const text = leaf.flow.text.slice(0, cut.end);
      const gap = leaf.flow.text.slice(cut.end, cut.resume);
      const kind = leaf.kind === 'heading' ? 'paragraph' : leaf.kind;
      const previous = leaf.parts > 0;
      const continuation: BlockContinuation = previous ? { previous, next: true, cut: leaf.kind === 'code' ? 'line' : 'inline' } : { previous, next: true };
      const sourceEnd = Math.max(leaf.sourceStart, sourceAt(leaf.flow, cut.resume));
      this.#sink.add(this.#leafDraft(leaf, kind, text, sourceEnd, continuation));
      const resumeSource = dropHead(leaf.flow, cut.resume);
      leaf.kind = kind;
      leaf.parts++;
      leaf.gap = gap;
      leaf.sourceStart = Math.max(leaf.sourceStart, resumeSource);
    }
  }

  #leafDraft(leaf: Leaf, kind: DraftBlock['kind'], text: string, sourceEnd: number, continuation: BlockContinuation | undefined): DraftBlock {
    const features = leaf.images.length > 0 ? { images: [...leaf.images] } : undefined;
    leaf.images.length = 0;
    return {
      kind,
      text,
      sourceStart: leaf.sourceStart,
      sourceEnd: Math.max(sourceEnd, leaf.sourceStart),
      region: leaf.region,
      ...(kind === 'heading' ? { depth: leaf.depth } : {}),
      ...(kind === 'code' ? { lang: leaf.lang } : {}),
      ...(features !== undefined ? { features } : {}),
      ...(continuation !== undefined ? { continuation } : {}),
      ...(continuation?.previous === true ? { gap: leaf.gap ?? '' } : {}),
      ...this.#takeWarnings(),
    };
  }

  #endContainer(at: number): void {
    const container = this.#container;
    if (container === null) return;
    this.#container = null;
    if (container.kind === 'list') {
      while (container.open.length > 0) endItem(container);
      const draft = listDraft(container, at, false);
      if (draft !== null) this.#sink.add({ ...draft, ...this.#takeWarnings() });
    } else if (container.kind === 'table') {
      endRow(container);
      const caption = container.caption?.text ?? '';
      if (caption !== '' && container.parts === 0) this.#sink.add({ kind: 'paragraph', text: caption, sourceStart: container.sourceStart, sourceEnd: at, region: container.region });
      const draft = tableDraft(container, at, false);
      if (draft !== null) this.#sink.add({ ...draft, ...this.#takeWarnings() });
    } else {
      const draft = quoteDraft(container, at);
      if (draft !== null) this.#sink.add({ ...draft, ...this.#takeWarnings() });
    }
  }

  #takeWarnings(): { warnings?: string[] } {
    if (this.#warnings.length === 0) return {};
    const warnings = this.#warnings;
    this.#warnings = [];
    return { warnings };
  }
}

function isListItem(name: string): boolean {
  return name === 'li' || name === 'dt' || name === 'dd';
}

/** The depth of a heading: its `aria-level` (clamped to 1–6) when it has one, else its tag's. */
function headingDepth(depth: number, ariaLevel: string | undefined): 1 | 2 | 3 | 4 | 5 | 6 {
  const level = ariaLevel === undefined ? Number.NaN : Number.parseInt(ariaLevel, 10);
  const chosen = Number.isFinite(level) ? level : depth;
  return Math.min(6, Math.max(1, chosen)) as 1 | 2 | 3 | 4 | 5 | 6;
}

/** The language of a code element from its classes: `language-x`, `lang-x`, `highlight-x`. */
function languageOf(classes: string | undefined): string | null {
  if (classes === undefined) return null;
  return LANGUAGE_CLASS.exec(classes)?.[1]?.toLowerCase() ?? null;
}

/** Code keeps its indentation: only blank lines at its start and whitespace at its end go. */
function trimCode(text: string): string {
  return text.replace(/^(?:[ \t]*\n)+/, '').trimEnd();
}

/** Removes a heading's permalink anchor (`#`, `¶`) from its text, when that is all the anchor holds. */
function dropPermalink(flow: FlowText, at: number): void {
  const anchorText = flow.text.slice(at).trim().toLowerCase();
  if (at === 0 || !PERMALINK_TEXTS.has(anchorText)) return;
  flow.text = flow.text.slice(0, at).trimEnd();
  while (flow.anchors.length > 0 && (flow.anchors.at(-1) as { at: number }).at >= flow.text.length) flow.anchors.pop();
  flow.settle();
}
