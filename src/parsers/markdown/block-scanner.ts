/**
 * A line scanner for Markdown block structure: the outline `outlineOf` builds from micromark's events, found
 * without micromark for the batches it can read.
 *
 * micromark reads a batch through a generic state machine, character by character, and then walks its events to
 * build the outline: on Node's API docs that was nine tenths of chunking, and, run cold, the state machine is
 * slower still. The block structure of CommonMark is decided line by line (the spec's appendix, "A parsing
 * strategy"), so this module follows that strategy, as commonmark.js does: open containers are matched against
 * each line, new blocks are started from its first characters, and what is left is text for the paragraph, code
 * or HTML block the line belongs to. It builds the same outline nodes, with micromark's positions (a fence
 * starts at its marker, an HTML block at its line's indentation, a list item ends where its last content ends).
 *
 * It reads CommonMark's blocks, GFM tables, remark-math's `$$` blocks and YAML front matter. What it leaves to
 * micromark gives null, and the caller parses the batch with micromark: footnote definitions, link reference
 * definitions over lines, CDATA, containers nested past its depth, and the few places where micromark places
 * things its own way (an unclosed fence that a new container ends, an HTML tag on a lazy line, a table header
 * right after a table). The pure syntax of a line is in `block-syntax.ts`. Property tests hold its outlines equal
 * to micromark's over the corpus, the CommonMark spec examples and generated Markdown.
 */
import type { Root } from 'mdast';
import { settleFields } from '../../core.js';
import {
  asMicromarkReads, atxOpenLength, atxTitle, cellStarts, closesFence, delimiterCells, fenceLineEnd, fenceOpen, frontMatterEnd, headerCells, htmlEnds,
  htmlStartCondition, indexOrEnd, isBlankFrom, isSetextUnderline, isThematicBreak, LINE, mayBeDelimiterRow, mayStartBlock, readDefinition, readInfo,
  SPACE_OR_TAB, Unsupported,
} from './block-syntax.js';
import { APOSTROPHE, BACKTICK, CARET, CR, DASH, DOLLAR, EQUALS, GREATER, HASH, isDigit, LEFT_BRACKET, LEFT_PAREN, LESS, LF, PLUS, QUOTE, SPACE, STAR, TAB, TILDE, UNDERSCORE } from './char-codes.js';

/** A place in the text, as mdast positions give it. */
interface Place {
  line: number;
  column: number;
  offset: number;
}

/** A node of the outline, in mdast's shapes (the fields block mapping reads). */
interface OutlineNode {
  type: string;
  position: { start: Place; end: Place };
  children?: OutlineNode[];
  [field: string]: unknown;
}


type Kind = 'root' | 'blockquote' | 'list' | 'listItem' | 'paragraph' | 'heading' | 'thematicBreak' | 'code' | 'html' | 'table' | 'yaml';

/** A block being read: the open ones form a chain from the root to the tip. */
interface Block {
  kind: Kind;
  parent: Block | null;
  children: Block[];
  open: boolean;
  start: number;
  startLine: number;
  end: number;
  endLine: number;
  /** list: ordered, and the bullet or delimiter character. */
  ordered: boolean;
  marker: number;
  /** listItem: the columns its content is indented by, and whether blank lines followed it with nothing in it. */
  contentIndent: number;
  furtherBlank: boolean;
  /** code: fenced (marker, length, indentation) or indented; info string. */
  fenceChar: number;
  fenceLength: number;
  fenceOffset: number;
  lang: string | null;
  meta: string | null;
  /** blockquote: where its prefix (the marker and a blank after it) ends on the last line it went on in. */
  quotePrefixEnd: number;
  /** Indented code: read as one line only (see `startBlock`). */
  oneLine: boolean;
  /** Indented code: where its last line that is not blank ends. */
  lastTextEnd: number;
  lastTextLine: number;
  /** html: the start condition (1–7), and the text of its lines without container prefixes. */
  htmlType: number;
  value: string;
  /** heading: depth and, for ATX headings, the raw title (null: a setext heading, whose text is not read). */
  depth: number;
  title: string | null;
  /**
   * paragraph: its lines, `LINE` numbers each (start, end, number, flags), for the definitions that may open it
   * and the table header that may end it; table: its rows (the delimiter row left out), the same way.
   */
  lines: number[];
  /** Definitions read from the start of a paragraph, in order. */
  definitions: OutlineNode[];
}

/**
 * The lists of a block that has none yet, shared: a leaf holds no children, most blocks hold no lines and no
 * definitions, and a document of one-letter paragraphs or of a heading per line opens a block every few bytes.
 * Frozen, so that a push meant for a list of a block's own fails loudly; a block gets its own list when it has
 * something to put there.
 */
const NO_CHILDREN: Block[] = Object.freeze([]) as unknown as Block[];
const NO_LINES: number[] = Object.freeze([]) as unknown as number[];
const NO_DEFINITIONS: OutlineNode[] = Object.freeze([]) as unknown as OutlineNode[];

function newBlock(kind: Kind, parent: Block | null, start: number, line: number): Block {
  const holds = kind === 'root' || kind === 'blockquote' || kind === 'list' || kind === 'listItem';
  return {
    kind, parent, children: holds ? [] : NO_CHILDREN, open: true, start, startLine: line, end: start, endLine: line,
    ordered: false, marker: 0, contentIndent: 0, furtherBlank: false,
    fenceChar: 0, fenceLength: 0, fenceOffset: 0, lang: null, meta: null, oneLine: false, quotePrefixEnd: -1, lastTextEnd: start, lastTextLine: line,
    htmlType: 0, value: '', depth: 0, title: null, lines: NO_LINES, definitions: NO_DEFINITIONS,
  };
}

// Every field of a block changed once when the module loads (`settleFields`): a paragraph turned into a setext
// heading (its `kind`) and a table's first row (its `startLine`) threw a dozen compiled functions of the scanner away
// in the middle of a pass over many small documents.
settleFields(newBlock('paragraph', null, 0, 1), {
  kind: 'heading', parent: {}, children: [], open: false, start: 1, startLine: 2, end: 1, endLine: 2,
  ordered: true, marker: DASH, contentIndent: 2, furtherBlank: true,
  fenceChar: BACKTICK, fenceLength: 3, fenceOffset: 1, lang: 'js', meta: 'x', oneLine: true, quotePrefixEnd: 0, lastTextEnd: 1, lastTextLine: 2,
  htmlType: 1, value: 'x', depth: 1, title: 'x', lines: [], definitions: [],
});

/**
 * What a line does to a block open before it (`continues`): the block goes on, it ends here, or it goes on and the
 * line is read to its end (a closing fence). commonmark.js numbers these 0, 1, 2.
 */
type LineMatch = 'goes-on' | 'ends' | 'line-read';
/**
 * What the line's next characters start (`startBlock`): nothing, a container (a quote, a list item) whose content
 * may start more blocks on the same line, or a leaf that takes the rest of the line.
 */
type BlockStart = 'none' | 'container' | 'leaf';

/** Containers deeper than this leave the batch to micromark (with the nesting cap, only hostile text gets here). */
const MAX_DEPTH = 40;

const CODE_INDENT = 4;

/**
 * The flags of a paragraph line (`LINE` numbers a line in `Block.lines`): read lazily, indented by four or more,
 * read right after a table on a line that ended the table's containers.
 */
const LAZY = 1;
const INDENTED = 2;
const ENDED_TABLE_CONTAINERS = 4;

/**
 * The outline of `text`'s top-level blocks, as `outlineOf` gives it for the block-level parse, or null when the
 * text may hold a construct this scanner leaves to micromark.
 */
export function scanOutline(text: string): Root | null {
  const scanned = scan(text);
  return typeof scanned === 'string' ? null : scanned;
}

/** Why `scanOutline` leaves `text` to micromark, or null when it reads it (for tests and benches). */
export function unscannedReason(text: string): string | null {
  const scanned = scan(text);
  return typeof scanned === 'string' ? scanned : null;
}

/** The outline of `text`, or what it holds that the scanner leaves to micromark. */
function scan(text: string): Root | string {
  try {
    return new Scanner(text).run();
  } catch (error) {
    if (error instanceof Unsupported) return error.message;
    throw error;
  }
}

const ORDERED_MARKER = /(\d{1,9})([.)])/y;

/** The line-by-line reader of one text. */
class Scanner {
  private readonly root: Block;
  private tip: Block;
  private oldTip: Block;
  private lastMatched: Block;
  private allClosed = true;
  /** Whether every open container (quote, list item) went on on this line, whatever its leaf did. */
  private containersMatched = true;
  /** Whether the line has ended a container (micromark then reads on in a new flow, which interrupts nothing). */
  private closedContainer = false;
  /** The tip when the line began (`oldTip` moves up as blocks close). */
  private tipBefore: Block;
  /** No line opens a quote or a list item (after an unclosed front matter fence). */
  private noContainers = false;
  /** Where the prefixes of the containers around the last block matched on the line end. */
  private prefixEnd = 0;
  /** Whether list items that the line opens interrupt a paragraph or indented code (see `readLine`). */
  private interrupting = false;

  // The line being read: its start, the end of its content (before the line ending), its number.
  private lineStart = 0;
  private lineEnd = 0;
  private lineNo = 0;
  // Where reading has got to in the line, in characters and in columns (tabs to the next multiple of 4).
  private offset = 0;
  private column = 0;
  private partialTab = false;
  private nextNonspace = 0;
  private nextNonspaceColumn = 0;
  private indent = 0;
  private indented = false;
  private blank = false;
  /** Starts of lines, by line number less one, for the columns of positions. */
  private readonly lineStarts: number[] = [];

  constructor(private readonly text: string) {
    this.root = newBlock('root', null, 0, 1);
    this.tip = this.root;
    this.oldTip = this.root;
    this.tipBefore = this.root;
    this.lastMatched = this.root;
  }

  run(): Root {
    const text = this.text;
    const frontMatter = frontMatterEnd(text);
    // An opening fence without a closing one: micromark reads to the end looking for it, and no line opens a
    // container meanwhile (a construct in progress holds them off); when none is found, the lines are read again
    // as flow, still without containers.
    this.noContainers = frontMatter === -1 && fenceLineEnd(text, 0) !== -1 && fenceLineEnd(text, 0) < text.length;
    let start = 0;
    let line = 1;
    // Line ends are found with indexOf, which is as fast in a cold process as in a warm one: a loop over every
    // character ran in the interpreter for most of a first megabyte.
    let lf = -1;
    let cr = -1;
    while (start < text.length) {
      if (lf < start) lf = indexOrEnd(text, '\n', start);
      if (cr < start) cr = indexOrEnd(text, '\r', start);
      const end = Math.min(lf , cr);
      let next = end;
      if (next < text.length) next += text.charCodeAt(next) === CR && text.charCodeAt(next + 1) === LF ? 2 : 1;
      this.lineStarts.push(start);
      if (start > frontMatter) this.readLine(start, end, line);
      else if (end === frontMatter) this.addFrontMatter(end, line);
      start = next;
      line++;
    }
    this.lineStarts.push(text.length);
    // A last line without a line ending, blank once some containers matched and others did not: micromark ends
    // the unmatched ones at its end, its own way. Left to it (batches end with line endings).
    if (this.lineEnd === text.length && this.blank && !this.containersMatched && this.lineStart < this.lineEnd) throw new Unsupported('a blank last line that ends containers');
    if (isConcrete(this.tip)) this.endConcreteAtEnd(this.tip);
    while (this.tip !== this.root) this.finalize(this.tip);
    this.finalize(this.root);
    return this.outline() as unknown as Root;
  }

  /**
   * The end of an unclosed fence, math or raw HTML block at the end of the text, as micromark places it. After a
   * last line ending, the block takes it and so runs to the very end, unless a quote holds it: the empty line at
   * the end does not go on in a quote, so it is lazy. A last line that the containers' prefixes take whole leaves
   * the block at the line's start, and the containers at the line's end.
   */
  private endConcreteAtEnd(block: Block): void {
    const text = this.text;
    if (this.lineEnd < text.length) {
      if (insideQuote(block)) return;
      if (block.kind === 'html') block.value += text.slice(block.end);
      block.end = text.length;
      block.endLine = this.lineNo + 1;
      return;
    }
    if (this.prefixEnd < this.lineEnd || this.lineStart === this.lineEnd) return;
    block.end = this.lineStart;
    block.endLine = this.lineNo;
    for (let up = block.parent; up !== null && up !== this.root; up = up.parent) {
      up.end = text.length;
      up.endLine = this.lineNo;
    }
  }

  /** The front matter, as a block of its own, ending at `end` on line `line`. */
  private addFrontMatter(end: number, line: number): void {
    const yaml = newBlock('yaml', this.root, 0, 1);
    yaml.open = false;
    yaml.end = end;
    yaml.endLine = line;
    this.root.children.push(yaml);
  }

  // ---- the columns of a line ----

  /** Finds the line's next non-space from where reading has got to, and the indentation before it, in columns. */
  private findNextNonspace(): void {
    const text = this.text;
    let i = this.offset;
    let cols = this.column;
    while (i < this.lineEnd) {
      const c = text.charCodeAt(i);
      if (c === SPACE) {
        i++;
        cols++;
      } else if (c === TAB) {
        i++;
        cols += 4 - (cols % 4);
      } else break;
    }
    this.blank = i === this.lineEnd;
    this.nextNonspace = i;
    this.nextNonspaceColumn = cols;
    this.indent = cols - this.column;
    this.indented = this.indent >= CODE_INDENT;
  }

  /** Moves reading to the next non-space. */
  private advanceNextNonspace(): void {
    this.offset = this.nextNonspace;
    this.column = this.nextNonspaceColumn;
    this.partialTab = false;
  }

  /** Moves `count` characters on, or `count` columns when `columns` (a tab may then be consumed in part). */
  private advanceOffset(count: number, columns: boolean): void {
    const text = this.text;
    while (count > 0 && this.offset < this.lineEnd) {
      if (text.charCodeAt(this.offset) === TAB) {
        const toTab = 4 - (this.column % 4);
        if (columns) {
          this.partialTab = toTab > count;
          const cols = Math.min(toTab , count);
          this.column += cols;
          if (!this.partialTab) this.offset++;
          count -= cols;
        } else {
          this.partialTab = false;
          this.column += toTab;
          this.offset++;
          count--;
        }
      } else {
        this.partialTab = false;
        this.offset++;
        this.column++;
        count--;
      }
    }
  }

  /** The character code at `at`, or -1 past the line's end. */
  private peek(at: number): number {
    return at < this.lineEnd ? this.text.charCodeAt(at) : -1;
  }

  // ---- one line ----

  /** Reads one line: the containers it goes on in, the blocks it starts, and the text left for a leaf. */
  private readLine(start: number, end: number, line: number): void {
    this.lineStart = start;
    this.lineEnd = end;
    this.lineNo = line;
    this.offset = start;
    this.column = 0;
    this.partialTab = false;
    this.oldTip = this.tip;
    this.tipBefore = this.tip;
    this.closedContainer = false;

    // Which open containers the line continues.
    let container = this.root;
    this.containersMatched = true;
    let depth = 0;
    for (;;) {
      const last = container.children[container.children.length - 1];
      if (last === undefined || !last.open) break;
      container = last;
      if (++depth > MAX_DEPTH) throw new Unsupported('deep nesting');
      this.findNextNonspace();
      this.prefixEnd = this.offset;
      const matched = this.continues(container);
      if (matched === 'line-read') return; // a closing fence
      if (matched === 'ends') {
        this.containersMatched = !isContainer(container);
        container = container.parent as Block;
        break;
      }
    }
    this.allClosed = container === this.oldTip;
    this.lastMatched = container;

    // micromark decides once a line whether new list items on it interrupt something: a paragraph or an indented
    // code block that the line goes on in. The rule then holds for every item the line opens, at any depth.
    this.interrupting = this.containersMatched && (this.oldTip.kind === 'paragraph' || (this.oldTip.kind === 'code' && this.oldTip.fenceLength === 0 && !this.oldTip.oneLine));

    // New blocks that start on the line.
    // Code and HTML take the rest of the line as it is.
    let matchedLeaf = container.kind === 'code' || container.kind === 'html';
    while (!matchedLeaf) {
      this.findNextNonspace();
      // GFM footnote definitions are containers of their own: left to micromark wherever one may open.
      if (this.peek(this.nextNonspace) === LEFT_BRACKET && this.peek(this.nextNonspace + 1) === CARET) throw new Unsupported('a footnote definition');
      if (!this.indented && !mayStartBlock(this.peek(this.nextNonspace))) {
        this.advanceNextNonspace();
        break;
      }
      const started = this.startBlock(container);
      if (started === 'none') {
        this.advanceNextNonspace();
        break;
      }
      container = this.tip;
      if (started === 'leaf') matchedLeaf = true;
      if (++depth > MAX_DEPTH) throw new Unsupported('deep nesting');
    }

    // What is left of the line is text.
    if (!this.allClosed && !this.blank && this.tip.kind === 'paragraph') {
      this.addParagraphLine(this.tip, true); // a lazy continuation line
      return;
    }
    this.closeUnmatched();
    if (container.kind === 'paragraph') {
      if (!this.startTable(container)) this.addParagraphLine(container);
    } else if (container.kind === 'table') {
      if (!this.blank) this.addTableRow(container);
    } else if (container.kind === 'code' || container.kind === 'html') {
      this.addLeafLine(container);
    } else if (!this.blank && container.kind !== 'heading' && container.kind !== 'thematicBreak' && container.kind !== 'yaml') {
      const paragraph = this.addChild('paragraph', container, this.nextNonspace);
      this.advanceNextNonspace();
      this.addParagraphLine(paragraph);
    }
  }

  /** Whether `block` goes on on this line (see `LineMatch`). */
  private continues(block: Block): LineMatch {
    switch (block.kind) {
      case 'blockquote':
        if (this.indented || this.peek(this.nextNonspace) !== GREATER) return 'ends';
        this.advanceNextNonspace();
        this.advanceOffset(1, false);
        this.quoteLineEnds(block);
        if (SPACE_OR_TAB(this.peek(this.offset))) this.advanceOffset(1, true);
        block.quotePrefixEnd = this.offset;
        return 'goes-on';
      case 'listItem':
        if (this.blank) {
          // An item with nothing in it yet ends at the first line after blank ones that is not blank: micromark
          // keeps it open over the blank lines (CommonMark's "a blank line ends an empty item" gives the same tree).
          if (block.children.length === 0) block.furtherBlank = true;
          // micromark takes no more of a blank line than the item's indent: the rest is the line's own (blank
          // lines of indented code, of an HTML block).
          this.advanceOffset(Math.min(this.indent, block.contentIndent), true);
          return 'goes-on';
        }
        if (block.furtherBlank) return 'ends';
        if (this.indent >= block.contentIndent) {
          this.advanceOffset(block.contentIndent, true);
          return 'goes-on';
        }
        return 'ends';
      case 'code':
        if (block.fenceLength > 0) {
          if (this.isClosingFence(block)) {
            block.end = this.lineEnd;
            block.endLine = this.lineNo;
            this.finalize(block);
            return 'line-read';
          }
          let skip = block.fenceOffset;
          while (skip > 0 && SPACE_OR_TAB(this.peek(this.offset))) {
            this.advanceOffset(1, true);
            skip--;
          }
          return 'goes-on';
        }
        if (block.oneLine) return 'ends';
        if (this.indent >= CODE_INDENT) {
          // A line indented enough is code, blank or not.
          this.advanceOffset(CODE_INDENT, true);
          block.lastTextEnd = this.lineEnd;
          block.lastTextLine = this.lineNo;
          return 'goes-on';
        }
        if (this.blank) {
          this.advanceNextNonspace();
          return 'goes-on';
        }
        return 'ends';
      case 'html':
        return this.blank && (block.htmlType === 6 || block.htmlType === 7) ? 'ends' : 'goes-on';
      case 'paragraph':
      case 'table':
        return this.blank ? 'ends' : 'goes-on';
      case 'list':
        // Over a blank line of an enclosing quote, a list reaches the quote's marker (micromark exits the list
        // after the prefixes of the last line it spanned).
        if (this.blank) this.listOverQuoteLine(block);
        return 'goes-on';
      default:
        return 'ends'; // headings and thematic breaks hold one line
    }
  }

  /** True when the line closes the fence or math block `block`: its marker, at least as many, then blanks. */
  private isClosingFence(block: Block): boolean {
    return this.indent <= 3 && closesFence(this.text, this.nextNonspace, this.lineEnd, block.fenceChar, block.fenceLength);
  }

  /** Starts the block the line's next characters open under `container`, if any (see `BlockStart`). */
  private startBlock(container: Block): BlockStart {
    const c = this.peek(this.nextNonspace);
    if (!this.indented) {
      const started = this.startUnindented(container, c);
      if (started !== 'none') return started;
    }
    // List item.
    if ((!this.indented || container.kind === 'list') && !this.noContainers && (c === STAR || c === PLUS || c === DASH || isDigit(c))) {
      if (this.startListItem(container)) return 'container';
    }
    if (this.indented && this.tip.kind !== 'paragraph' && !this.blank) return this.startIndentedCode(container);
    return 'none';
  }

  /** Starts a block that opens at most three spaces in, by its first character `c`: a quote, heading, fence, HTML or break. */
  private startUnindented(container: Block, c: number): BlockStart {
    if (c === GREATER && !this.noContainers) return this.startQuote(container);
    const at = this.nextNonspace;
    const rest = this.text.slice(at, this.lineEnd);
    let started: BlockStart = 'none';
    if (c === HASH) started = this.startAtxHeading(container, at, rest);
    else if (c === BACKTICK || c === TILDE || c === DOLLAR) started = this.startFence(container, at, c, rest);
    else if (c === LESS) started = this.startHtml(container, rest);
    if (started !== 'none') return started;
    // Setext heading underline.
    if ((c === EQUALS || c === DASH) && container.kind === 'paragraph' && isSetextUnderline(rest, 0)) return this.startSetextHeading(container, c);
    // Thematic break.
    if ((c === STAR || c === DASH || c === UNDERSCORE) && isThematicBreak(rest, 0)) {
      this.closeUnmatched();
      return this.endLeafHere(this.addChild('thematicBreak', container, at));
    }
    return 'none';
  }

  /** Starts a block quote: its marker and one space after it are read. */
  private startQuote(container: Block): BlockStart {
    const at = this.nextNonspace;
    this.advanceNextNonspace();
    this.advanceOffset(1, false);
    if (SPACE_OR_TAB(this.peek(this.offset))) this.advanceOffset(1, true);
    this.closeUnmatched(true);
    this.quoteLineEnds(this.addChild('blockquote', container, at));
    return 'container';
  }

  /** Starts an ATX heading when `rest` (the line from `at`) opens one. */
  private startAtxHeading(container: Block, at: number, rest: string): BlockStart {
    const depth = atxOpenLength(rest, 0);
    if (depth === 0) return 'none';
    this.closeUnmatched();
    const heading = this.addChild('heading', container, at);
    heading.depth = depth;
    heading.title = atxTitle(this.text, at + depth, this.lineEnd);
    return this.endLeafHere(heading);
  }

  /** Starts fenced code, or math (remark-math's `$$` blocks), when `rest` opens a fence of `c` (`fenceOpen`). */
  private startFence(container: Block, at: number, c: number, rest: string): BlockStart {
    const fence = fenceOpen(rest, 0);
    if (fence === null) return 'none';
    this.closeUnmatched();
    const code = this.addChild('code', container, at);
    code.fenceChar = c;
    code.fenceLength = fence.marker.length;
    code.fenceOffset = this.indent;
    if (c !== DOLLAR) Object.assign(code, readInfo(fence.info));
    return this.endLeafHere(code);
  }

  /** Starts an HTML block when `rest` meets one of the start conditions. */
  private startHtml(container: Block, rest: string): BlockStart {
    const type = this.htmlStart(container, rest);
    if (type === 0) return 'none';
    if (this.partialTab) throw new Unsupported('HTML after part of a tab');
    this.closeUnmatched();
    const html = this.addChild('html', container, this.offset);
    html.htmlType = type;
    return 'leaf';
  }

  /** Turns the paragraph `container` into a setext heading, the line being its underline of `c`. */
  private startSetextHeading(container: Block, c: number): BlockStart {
    // mdast starts a setext heading at the definitions before its text: left to micromark.
    if (this.text.charCodeAt(container.lines[0] as number) === LEFT_BRACKET) throw new Unsupported('a setext heading after a bracket');
    this.closeUnmatched();
    container.kind = 'heading';
    container.depth = c === EQUALS ? 1 : 2;
    container.title = null;
    return this.endLeafHere(container);
  }

  /** Starts indented code: a line indented four columns or more that no paragraph goes on into. */
  private startIndentedCode(container: Block): BlockStart {
    const start = this.offset;
    if (this.partialTab) throw new Unsupported('indented code after part of a tab');
    this.advanceOffset(CODE_INDENT, true);
    this.closeUnmatched();
    const code = this.addChild('code', container, start);
    code.lastTextEnd = this.lineEnd;
    code.lastTextLine = this.lineNo;
    // Opened on a line that ends a container, indented code is one line long: micromark reads it in the flow
    // it is closing, and the next line starts afresh (and interrupts nothing).
    code.oneLine = this.closedContainer;
    return 'leaf';
  }

  /**
   * A list or quote that a new container ends: it reaches the end of the prefix that the innermost quote around it
   * that went on read of this line, blank included (micromark exits it there, where the new container starts). A
   * list item ends with its content, as mdast places it.
   */
  private upToQuotePrefix(block: Block): void {
    if (block.kind !== 'list' && block.kind !== 'blockquote') return;
    let up = block.parent;
    while (up !== null && !(up.kind === 'blockquote' && up.endLine === this.lineNo)) up = up.parent;
    if (up !== null && up.quotePrefixEnd > block.end) {
      block.end = up.quotePrefixEnd;
      block.endLine = this.lineNo;
    }
  }

  /** A list spanning a blank line: it reaches what the innermost quote around it read of the line. */
  private listOverQuoteLine(list: Block): void {
    let up = list.parent;
    while (up !== null && up.kind !== 'blockquote') up = up.parent;
    if (up !== null && up.endLine === this.lineNo && up.end > list.end) {
      list.end = up.end;
      list.endLine = this.lineNo;
    }
  }

  /** A quote's line, its marker just read: the quote reaches the marker, or the line's end when only blanks follow. */
  private quoteLineEnds(quote: Block): void {
    let i = this.offset;
    while (i < this.lineEnd && SPACE_OR_TAB(this.text.charCodeAt(i))) i++;
    quote.end = i === this.lineEnd ? i : this.offset;
    quote.endLine = this.lineNo;
  }

  /** A leaf of one line (or whose first line is all of it so far) ends at the line's end; the line is read. */
  private endLeafHere(block: Block): 'leaf' {
    block.end = this.lineEnd;
    block.endLine = this.lineNo;
    this.offset = this.lineEnd;
    return 'leaf';
  }

  /** The HTML block condition the line starts, 0 when none (or when it cannot interrupt what is open). */
  private htmlStart(container: Block, line: string): number {
    const condition = htmlStartCondition(line);
    if (condition === 5) throw new Unsupported('CDATA');
    if (condition !== 7) return condition;
    if (container.kind === 'paragraph') return 0;
    if (!this.allClosed && this.tip.kind === 'paragraph') throw new Unsupported('an HTML tag on a lazy line');
    return 7;
  }

  /** Starts a list item (and its list) at the line's first non-space, when a marker is there. */
  private startListItem(container: Block): boolean {
    if (this.indent >= CODE_INDENT) return false;
    const text = this.text;
    const at = this.nextNonspace;
    const c = text.charCodeAt(at);
    let markerEnd: number;
    let ordered = false;
    let marker = c;
    let number = 1;
    if (c === STAR || c === PLUS || c === DASH) {
      markerEnd = at + 1;
    } else {
      ORDERED_MARKER.lastIndex = at;
      const m = ORDERED_MARKER.exec(text);
      if (m === null || ORDERED_MARKER.lastIndex > this.lineEnd) return false;
      markerEnd = ORDERED_MARKER.lastIndex;
      ordered = true;
      marker = (m[2] as string).charCodeAt(0);
      number = Number(m[1]);
    }
    const after = this.peek(markerEnd);
    if (after !== -1 && !SPACE_OR_TAB(after)) return false;
    // A list item interrupts only when it has content and, if ordered, starts at 1.
    if (this.interrupting) {
      if (ordered && number !== 1) return false;
      let i = markerEnd;
      while (i < this.lineEnd && SPACE_OR_TAB(text.charCodeAt(i))) i++;
      if (i === this.lineEnd) return false;
    }
    const markerIndent = this.indent;
    this.advanceNextNonspace();
    this.advanceOffset(markerEnd - at, true);
    const spacesStartColumn = this.column;
    const spacesStartOffset = this.offset;
    let next: number;
    do {
      this.advanceOffset(1, true);
      next = this.peek(this.offset);
    } while (this.column - spacesStartColumn < 5 && SPACE_OR_TAB(next));
    const blankItem = this.peek(this.offset) === -1;
    const spacesAfterMarker = this.column - spacesStartColumn;
    let padding: number;
    if (spacesAfterMarker >= 5 || spacesAfterMarker < 1 || blankItem) {
      padding = markerEnd - at + 1;
      this.column = spacesStartColumn;
      this.offset = spacesStartOffset;
      this.partialTab = false;
      if (SPACE_OR_TAB(this.peek(this.offset))) this.advanceOffset(1, true);
    } else {
      padding = markerEnd - at + spacesAfterMarker;
    }
    // An item of the list that is open goes on in it: micromark then ends what the line closes where its content
    // ended, and does not reach them to the prefixes of the line as for a new container.
    const open = this.allClosed ? this.tip : this.lastMatched;
    this.closeUnmatched(true, !(open.kind === 'list' && open.ordered === ordered && open.marker === marker));
    let list: Block;
    if (this.tip.kind === 'list' && this.tip.ordered === ordered && this.tip.marker === marker) {
      list = this.tip;
    } else {
      list = this.addChild('list', container, at);
      list.ordered = ordered;
      list.marker = marker;
    }
    const item = this.addChild('listItem', list, at);
    item.contentIndent = markerIndent + padding;
    // An item with nothing on its line reaches the line's end, blanks included.
    item.end = isBlankFrom(text, markerEnd, this.lineEnd) ? this.lineEnd : markerEnd;
    item.endLine = this.lineNo;
    return true;
  }

  // ---- the tree ----

  /** Opens a block of `kind` in `parent` (or the nearest ancestor that may hold it), starting at `start`. */
  private addChild(kind: Kind, parent: Block, start: number): Block {
    // A block that cannot hold the new one ends first: a paragraph a list interrupts, a list that a paragraph follows.
    while (!canContain(parent.kind, kind)) {
      this.finalize(parent);
      if (kind === 'blockquote' || kind === 'list' || kind === 'listItem') this.upToQuotePrefix(parent);
      parent = parent.parent as Block;
    }
    const block = newBlock(kind, parent, start, this.lineNo);
    parent.children.push(block);
    this.tip = block;
    return block;
  }

  /**
   * Ends the blocks that the line did not continue, up to the last one it matched: `byContainer` when a container
   * starting on the line ends them, `reachPrefixes` when the lists and quotes among them reach the line's prefixes.
   */
  private closeUnmatched(byContainer = false, reachPrefixes = byContainer): void {
    if (this.allClosed) return;
    while (this.oldTip !== this.lastMatched) {
      const parent = this.oldTip.parent as Block;
      // An unclosed fence or raw HTML block that a new container ends: micromark places the ends of the blocks
      // around it by where the containers of the new line stop, in ways of its own. Left to it.
      if (byContainer && isConcrete(this.oldTip)) throw new Unsupported('an unclosed fence that a container ends');
      if (isContainer(this.oldTip) && !byContainer) this.closedContainer = true;
      this.finalize(this.oldTip);
      if (reachPrefixes) this.upToQuotePrefix(this.oldTip);
      this.oldTip = parent;
    }
    this.allClosed = true;
  }

  /**
   * Turns the paragraph's last line into a table's header when this line is a delimiter row with as many cells
   * (GFM tables, as micromark reads them: the delimiter row is not lazy, nor indented by four, and the header is
   * a line of the paragraph read in its containers). True when the line was taken.
   */
  private startTable(paragraph: Block): boolean {
    if (this.indented || !mayBeDelimiterRow(this.peek(this.nextNonspace))) return false;
    const lines = paragraph.lines;
    const last = lines.length - LINE;
    const cells = delimiterCells(this.text, this.nextNonspace, this.lineEnd);
    if (cells === 0 || cells !== headerCells(this.text, lines[last] as number, lines[last + 1] as number)) return false;
    const flags = lines[last + 3] as number;
    if ((flags & INDENTED) !== 0) return false;
    if ((flags & LAZY) !== 0) throw new Unsupported('a table header on a lazy line');
    // A header right after a table, on the line that ended the table's containers: micromark takes it for a row of
    // that table, finds the row lazy, and reads it as text. Left to it.
    if ((flags & ENDED_TABLE_CONTAINERS) !== 0) throw new Unsupported('a table header on a line that ends containers');
    // A tag alone on the header line: once the table has ended the paragraph, micromark reads the line again and
    // finds an HTML block there, which a paragraph had kept from starting.
    if (this.text.charCodeAt(lines[last] as number) === LESS) throw new Unsupported('a table header that may be HTML');
    const header = lines.slice(last);
    paragraph.lines = lines.slice(0, last);
    if (paragraph.lines.length > 0) {
      paragraph.end = paragraph.lines[last - LINE + 1] as number;
      paragraph.endLine = paragraph.lines[last - LINE + 2] as number;
    }
    const parent = paragraph.parent as Block;
    this.finalize(paragraph);
    if (paragraph.lines.length === 0 && paragraph.definitions.length === 0) parent.children.pop();
    const table = this.addChild('table', parent, header[0] as number);
    table.startLine = header[2] as number;
    table.lines = header;
    table.end = this.lineEnd;
    table.endLine = this.lineNo;
    this.offset = this.lineEnd;
    return true;
  }

  /** A body row of a table. */
  private addTableRow(table: Block): void {
    table.lines.push(this.nextNonspace, this.lineEnd, this.lineNo, 0);
    table.end = this.lineEnd;
    table.endLine = this.lineNo;
  }

  /** A line of text for `paragraph`, from the line's first non-space; `lazy` when its containers did not go on. */
  private addParagraphLine(paragraph: Block, lazy = false): void {
    const afterTable = this.closedContainer && this.tipBefore.kind === 'table';
    const flags = (lazy ? LAZY : 0) | (this.indent >= CODE_INDENT ? INDENTED : 0) | (afterTable ? ENDED_TABLE_CONTAINERS : 0);
    // A paragraph's first line makes its list, as long as it needs to be: most paragraphs have one line, and a list
    // grown by a push has room for seventeen numbers.
    if (paragraph.lines === NO_LINES) paragraph.lines = [this.offset, this.lineEnd, this.lineNo, flags];
    else paragraph.lines.push(this.offset, this.lineEnd, this.lineNo, flags);
    paragraph.end = this.lineEnd;
    paragraph.endLine = this.lineNo;
  }

  /** A line of code or HTML. */
  private addLeafLine(block: Block): void {
    if (block.kind === 'html') {
      if (this.partialTab) throw new Unsupported('HTML after part of a tab');
      const first = block.endLine === this.lineNo && block.end === block.start;
      if (!first) block.value += this.lineEndingBefore();
      block.value += this.text.slice(this.offset, this.lineEnd);
      block.end = this.lineEnd;
      block.endLine = this.lineNo;
      if (htmlEnds(block.htmlType, this.text.slice(this.offset, this.lineEnd), first)) this.finalize(block);
      return;
    }
    if (block.fenceLength > 0) {
      block.end = this.lineEnd;
      block.endLine = this.lineNo;
      return;
    }
    // Indented code: its lines were counted as they continued it.
  }

  /** The line ending before the current line. */
  private lineEndingBefore(): string {
    const start = this.lineStart;
    if (start >= 2 && this.text.charCodeAt(start - 2) === CR && this.text.charCodeAt(start - 1) === LF) return '\r\n';
    return this.text.charAt(start - 1);
  }

  /** Takes the definitions that open a paragraph out of its lines. */
  private takeDefinitions(paragraph: Block): void {
    const lines = paragraph.lines;
    let k = 0;
    while (k < lines.length && this.text.charCodeAt(lines[k] as number) === LEFT_BRACKET) {
      const definition = readDefinition(this.text, lines, k);
      if (definition === null) break;
      // A title may follow on the next line: left to micromark.
      const next = lines[k + LINE];
      if (next !== undefined) {
        const n = this.text.charCodeAt(next);
        if (n === QUOTE || n === APOSTROPHE || n === LEFT_PAREN) throw new Unsupported('a definition title');
      }
      if (paragraph.definitions === NO_DEFINITIONS) paragraph.definitions = [];
      paragraph.definitions.push({
        type: 'definition', identifier: '', label: definition.label, url: '', title: null,
        position: { start: this.place(lines[k] as number, lines[k + 2] as number), end: this.place(definition.end, lines[k + 2] as number) },
      });
      k += LINE;
    }
    if (k > 0) {
      paragraph.lines = lines.slice(k);
      if (paragraph.lines.length > 0) {
        paragraph.start = paragraph.lines[0] as number;
        paragraph.startLine = paragraph.lines[2] as number;
      }
    }
  }

  /** Closes `block`: definitions are taken from a paragraph, indented code drops its blank tail, a container ends with its content. */
  private finalize(block: Block): void {
    if (!block.open) return;
    block.open = false;
    switch (block.kind) {
      case 'paragraph':
        this.takeDefinitions(block);
        break;
      case 'code':
        if (block.fenceLength === 0) {
          block.end = block.lastTextEnd;
          block.endLine = block.lastTextLine;
        }
        break;
      case 'blockquote':
      case 'listItem':
      case 'list':
      case 'root': {
        const last = block.children[block.children.length - 1];
        if (last !== undefined) {
          for (const child of block.children) this.finalize(child);
          const lastEnd = lastContent(block);
          if (lastEnd !== null && lastEnd[0] > block.end) {
            block.end = lastEnd[0];
            block.endLine = lastEnd[1];
          }
        }
        break;
      }
      default:
        break;
    }
    if (this.tip === block) this.tip = block.parent ?? this.root;
  }

  /** The mdast place of `offset`, on line `line`. */
  private place(offset: number, line: number): Place {
    return { line, column: offset - (this.lineStarts[line - 1] as number) + 1, offset };
  }

  // ---- the outline ----

  /** The outline's root. */
  private outline(): OutlineNode {
    const children = this.nodesOf(this.root);
    const root: OutlineNode = { type: 'root', children, position: { start: { line: 1, column: 1, offset: 0 }, end: { line: 1, column: 1, offset: 0 } } };
    if (children.length > 0) root.position = { start: (children[0] as OutlineNode).position.start, end: (children[children.length - 1] as OutlineNode).position.end };
    return root;
  }

  /** A table's rows and their cells: a cell runs from the pipe that opens it to the next cell (see `cellStarts`). */
  private rowsOf(table: Block): OutlineNode[] {
    const rows: OutlineNode[] = [];
    const lines = table.lines;
    for (let k = 0; k < lines.length; k += LINE) {
      const start = lines[k] as number;
      const end = lines[k + 1] as number;
      const line = lines[k + 2] as number;
      const starts = cellStarts(this.text, start, end);
      const cells: OutlineNode[] = starts.map((from, i) => ({
        type: 'tableCell',
        children: [],
        position: { start: this.place(from, line), end: this.place(starts[i + 1] ?? end, line) },
      }));
      rows.push({ type: 'tableRow', children: cells, position: { start: this.place(start, line), end: this.place(end, line) } });
    }
    return rows;
  }

  /** The outline nodes of `parent`'s children, definitions in their place, paragraphs left empty by them dropped. */
  private nodesOf(parent: Block): OutlineNode[] {
    const out: OutlineNode[] = [];
    // Loops by index: `for…of` over the frozen empty list most blocks share (`NO_DEFINITIONS`) made an iterator
    // and its result for every block.
    const children = parent.children;
    for (let i = 0; i < children.length; i++) {
      const block = children[i] as Block;
      for (let k = 0; k < block.definitions.length; k++) out.push(block.definitions[k] as OutlineNode);
      if (block.kind === 'paragraph' && block.lines.length === 0) continue;
      out.push(this.nodeOf(block));
    }
    return out;
  }

  /** The outline node of one block, in mdast's shape. */
  private nodeOf(block: Block): OutlineNode {
    const position = { start: this.place(block.start, block.startLine), end: this.place(block.end, block.endLine) };
    switch (block.kind) {
      case 'paragraph':
        return { type: 'paragraph', children: [], position };
      case 'heading':
        return { type: 'heading', depth: block.depth, children: block.title === null || block.title === '' ? [] : [{ type: 'text', value: block.title, position }], position };
      case 'thematicBreak':
        return { type: 'thematicBreak', position };
      case 'yaml':
        return { type: 'yaml', value: '', position };
      case 'table':
        return { type: 'table', align: [], children: this.rowsOf(block), position };
      case 'code':
        if (block.fenceChar === DOLLAR) return { type: 'math', meta: null, value: '', position };
        return { type: 'code', lang: block.lang, meta: block.meta, value: '', position };
      case 'html':
        return { type: 'html', value: asMicromarkReads(block.value), position };
      case 'blockquote':
        return { type: 'blockquote', children: this.nodesOf(block), position };
      case 'list':
        return { type: 'list', ordered: block.ordered, start: null, spread: false, children: this.nodesOf(block), position };
      case 'listItem':
        return { type: 'listItem', spread: false, checked: null, children: this.nodesOf(block), position };
      default:
        throw new Unsupported(block.kind);
    }
  }
}



/**
 * The outline's node shapes, each made once when the module loads with its `position` changed (`settleFields`).
 * They are remark's shapes too, field for field (what block mapping reads of both), and so share remark's hidden
 * classes: remark makes a node with `position` undefined and sets it after, and the first node of a shape it did
 * that to in the middle of a pass made `position` mutable there, which threw away the code compiled over the
 * scanner's nodes (`nodeOf` and `spanOf` of blocks.ts, the scanner's `run`).
 */
const OUTLINE_SHAPES = [
  { type: 'paragraph', children: [], position: undefined },
  { type: 'heading', depth: 1, children: [], position: undefined },
  { type: 'text', value: '', position: undefined },
  { type: 'thematicBreak', position: undefined },
  { type: 'table', align: [], children: [], position: undefined },
  { type: 'math', meta: null, value: '', position: undefined },
  { type: 'code', lang: null, meta: null, value: '', position: undefined },
  { type: 'list', ordered: false, start: null, spread: false, children: [], position: undefined },
  { type: 'listItem', spread: false, checked: null, children: [], position: undefined },
  { type: 'definition', identifier: '', label: '', url: '', title: null, position: undefined },
];
for (const node of OUTLINE_SHAPES) settleFields(node, { position: { start: null, end: null } });

/** Whether a quote holds `block`. */
function insideQuote(block: Block): boolean {
  for (let up = block.parent; up !== null; up = up.parent) if (up.kind === 'blockquote') return true;
  return false;
}

/** Quotes, lists and list items: the blocks that hold others. */
function isContainer(block: Block): boolean {
  return block.kind === 'blockquote' || block.kind === 'list' || block.kind === 'listItem';
}


/** Fenced code, math and HTML blocks of conditions 1–5: what micromark reads as concrete, to their end whatever follows. */
function isConcrete(block: Block): boolean {
  return (block.kind === 'code' && block.fenceLength > 0) || (block.kind === 'html' && block.htmlType < 6);
}

/** Whether a block of kind `parent` may hold one of kind `child`. */
function canContain(parent: Kind, child: Kind): boolean {
  switch (parent) {
    case 'root':
    case 'blockquote':
    case 'listItem':
      return child !== 'listItem';
    case 'list':
      return child === 'listItem';
    default:
      return false;
  }
}


/** The end of a container's last content: its last child's end, after that child is final. */
function lastContent(block: Block): [number, number] | null {
  for (let i = block.children.length - 1; i >= 0; i--) {
    const child = block.children[i] as Block;
    if (child.kind === 'paragraph' && child.lines.length === 0) {
      const d = child.definitions[child.definitions.length - 1];
      if (d !== undefined) return [d.position.end.offset, d.position.end.line];
      continue;
    }
    return [child.end, child.endLine];
  }
  return null;
}











