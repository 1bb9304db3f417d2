/**
 * Data shapes shared by every stage: blocks coming out of a parser, chunks coming out of a chunker, and the
 * statistics of a run. Offsets are UTF-16 indices (JavaScript string indices) into the whole decoded document;
 * lines are 1-based.
 */
import type { DocumentFormat } from './config.js';

/** Every kind of block a parser emits. */
export type BlockKind =
  | 'heading'
  | 'paragraph'
  | 'code'
  | 'table'
  | 'list'
  | 'blockquote'
  | 'html'
  | 'math'
  | 'thematicBreak'
  | 'frontmatter'
  | 'definition';

/** A half-open range `[start, end)` of UTF-16 offsets. */
export interface Span {
  readonly start: number;
  readonly end: number;
}

/**
 * Where on a page a text is drawn (PDF only): PDF points, origin at the top left of the page's visible area (its
 * crop box, before the page's `/Rotate`), `y` and `height` downwards, as a viewer draws a highlight. A glyph's box is
 * its em square, from its font's descent.
 */
export interface PageBox {
  /** 1-based page number. */
  readonly page: number;
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

/** A box of a block, with the span of the document text drawn in it (`[start, end)`, document offsets). */
export interface TextBox extends PageBox {
  readonly start: number;
  readonly end: number;
  /**
   * How the span's glyphs are laid in the box when not from left to right: from the right (Arabic, Hebrew), up the
   * page (text set bottom-up) or down it. A part of the span is that part of the box, its glyphs laid evenly.
   */
  readonly direction?: 'rtl' | 'up' | 'down';
}

/** The heading stack in force at some point of a document. */
export interface HeadingContext {
  /** Heading titles, outermost first: `['Install', 'Linux']`. */
  readonly path: readonly string[];
  /** The depth (1–6) of each entry of `path`. */
  readonly levels: readonly number[];
  /** `path` joined with `' > '`: `'Install > Linux'`. */
  readonly breadcrumb: string;
}

/** Inline features found inside a block (images, formulas, nested code), filled by the parser. */
export interface BlockFeatures {
  /** Sources of images (`![alt](src)`, `<img src>`), in order. */
  readonly images?: readonly string[];
  /** True when the block holds math (`$…$`, `$$…$$`). */
  readonly math?: boolean;
  /** Languages of code blocks nested in this block (`''` for a fence without info string). */
  readonly codeLangs?: readonly string[];
  /** True when a table is nested in this block (in a list item or a quote). */
  readonly table?: boolean;
  /** True when a list is nested in this block (in a quote). */
  readonly list?: boolean;
}

/**
 * How a block continues a construct that the parser had to cut (a table of many rows, an unclosed fence, one line
 * of megabytes): the chunker treats a run of such parts as one block.
 */
export interface BlockContinuation {
  /** The block continues the block before it: its text starts inside the construct. */
  readonly previous: boolean;
  /** The block goes on in the block after it. */
  readonly next: boolean;
  /** Where the cut before this block fell, when `previous`: between list items, table rows or lines, or inside a line. */
  readonly cut?: 'item' | 'row' | 'line' | 'inline';
  /**
   * What frames every part of the construct for the embedder, which this part's text lacks: a table's header and
   * delimiter rows, a fence's opening line. Only on parts that continue a previous one.
   */
  readonly frame?: string;
}

/** Fields every block has. */
export interface BlockBase {
  readonly kind: BlockKind;
  /** The exact source slice: `documentText.slice(start, end)`. */
  readonly text: string;
  readonly start: number;
  readonly end: number;
  readonly startLine: number;
  readonly endLine: number;
  /** 1-based page the block came from (PDF only). */
  readonly page?: number;
  /** Last page the block touches, when it spans pages (PDF only). */
  readonly pageEnd?: number;
  /**
   * For a block across pages (PDF only): the document offsets inside the block where each next page begins, one per
   * page after `page`, so a piece of the block knows its pages.
   */
  readonly pageBreaks?: readonly number[];
  /**
   * Where the block's text is drawn (PDF only, when the page's area is known): one box per run of text (a line, or
   * the part of a line a run of the text layer holds; a table row), in the order of the text, each with the span of
   * the text it holds. Together they cover the glyphs of the block's text and nothing else of its pages.
   */
  readonly boxes?: readonly TextBox[];
  /**
   * Where the block comes from in the HTML source (HTML and Word): UTF-16 offsets `[sourceStart, sourceEnd)` into
   * the decoded source, from the start tag of its element to the end of its end tag, so the original can be
   * highlighted. Its `start`/`end` point into the extracted document text.
   */
  readonly sourceStart?: number;
  readonly sourceEnd?: number;
  /** Attached by `trackHeadings()`. */
  readonly heading?: HeadingContext;
  /**
   * The whitespace between the end of the previous block (or the start of the document) and this block's start,
   * so that a chunk spanning several blocks is rebuilt as an exact slice of the document.
   */
  readonly gapBefore?: string;
  readonly features?: BlockFeatures;
  /** Set on the parts of a construct too large for one parse batch, which the parser gives as consecutive blocks. */
  readonly continuation?: BlockContinuation;
  /**
   * The document's title as its format declares it (HTML `<title>`, PDF metadata `Title`), on the first block a
   * parser gives. Front matter `title` and a first level-1 heading are read from their own blocks.
   */
  readonly documentTitle?: string;
  /** What the parser had to do to read this block, in words (a line cut inside, containers nested too deep read as text). */
  readonly warnings?: readonly string[];
  /** Who spoke this turn (transcripts only). */
  readonly speaker?: string;
  /** 0-based index of this turn in its transcript (transcripts only). */
  readonly turn?: number;
  /** What was said, without the speaker: the `text` field of a JSONL record, or a line after `Speaker: ` (transcripts only). */
  readonly utterance?: string;
}

/** An ATX (`## Title`) or setext (`Title\n===`) heading. */
export interface HeadingBlock extends BlockBase {
  readonly kind: 'heading';
  readonly depth: 1 | 2 | 3 | 4 | 5 | 6;
  /** Plain text of the heading, markup removed. */
  readonly title: string;
}

/** A fenced or indented code block. */
export interface CodeBlock extends BlockBase {
  readonly kind: 'code';
  /** First word of the info string, or `null`. */
  readonly lang: string | null;
  /** Rest of the info string, or `null`. */
  readonly meta: string | null;
  /** The opening fence (```` ``` ````, `~~~~`), or `null` for an indented block. */
  readonly fence: string | null;
}

/** A GFM table. */
export interface TableBlock extends BlockBase {
  readonly kind: 'table';
  /**
   * Each row's offsets, header row first; the delimiter row is not a row. A part that continues a table cut by the
   * parser (`continuation.previous`) holds data rows only: its header and delimiter rows are `continuation.frame`.
   */
  readonly rows: readonly Span[];
  /** The delimiter row (`| --- | :-: |`); an empty span at the block's start in a part that continues a table. */
  readonly delimiterRow: Span;
}

/** One list item and the items of lists nested directly inside it. */
export interface ListItemSpan extends Span {
  readonly items: readonly ListItemSpan[];
}

/** A bullet or ordered list. */
export interface ListBlock extends BlockBase {
  readonly kind: 'list';
  readonly ordered: boolean;
  /** Top-level items, each with its nested items. */
  readonly items: readonly ListItemSpan[];
}

/** A block with no kind-specific fields. */
export interface PlainBlock extends BlockBase {
  readonly kind: 'paragraph' | 'blockquote' | 'html' | 'math' | 'thematicBreak' | 'frontmatter' | 'definition';
}

/** A typed block of a document, as emitted by `parse()`. */
export type Block = HeadingBlock | CodeBlock | TableBlock | ListBlock | PlainBlock;

/** What a chunk contains, for filtering at retrieval time. */
export interface ChunkMetadata {
  readonly hasCode: boolean;
  readonly hasTable: boolean;
  readonly hasList: boolean;
  readonly hasImage: boolean;
  readonly hasFormula: boolean;
  /** True when the chunk is a piece of a block that was cut. */
  readonly isSplit: boolean;
  /** Kinds of the blocks the chunk touches, in order of first appearance. */
  readonly kinds: readonly BlockKind[];
  /** Languages of the code in the chunk. */
  readonly languages: readonly string[];
  /** Image sources in the chunk. */
  readonly images: readonly string[];
  /** Set when the chunk exceeds `maxSize`: why it was allowed to. */
  readonly oversizedReason?: string;
  /** Set when a table row or list item had to go through the TextSplitter. */
  readonly fallback?: 'text-splitter';
}

/** One retrieval chunk. */
export interface Chunk {
  /**
   * Stable id: `${documentId}#${digest}` (`#${digest}` for a document given no id), the digest being the first 16 hex digits of the sha-256 of what the
   * embedder sees (`embedText`, or prefix + text + suffix); the second and later chunks with the same content in a
   * document get `-2`, `-3`, …. An edit elsewhere in the document leaves it unchanged; `index` gives the order.
   */
  readonly id: string;
  /** The document's id (`documentId`), or `''` when none was given: the id is then the digest alone, `#…`. */
  readonly documentId: string;
  /** Where the document came from (a path, a URL), when known. */
  readonly origin?: string;
  /**
   * The document's title, when it has one: front matter `title`, HTML `<title>`, PDF metadata `Title`, else its
   * first heading when that is of level 1 (see docs/retrieval-context.md).
   */
  readonly documentTitle?: string;
  /** 0-based position of the chunk in its document. */
  readonly index: number;
  /** The exact source slice: `documentText.slice(start, end)`. */
  readonly text: string;
  readonly start: number;
  readonly end: number;
  readonly startLine: number;
  readonly endLine: number;
  /** Text added before `text` for the embedder (a repeated table header, a re-opened fence). Never part of the source slice. */
  readonly prefix: string;
  /** Text added after `text` for the embedder (a closing fence). */
  readonly suffix: string;
  readonly heading: HeadingContext;
  readonly pageStart?: number;
  readonly pageEnd?: number;
  /**
   * Where the chunk's text is drawn (PDF only): one box per line run of its text, in the order of the text, from
   * the boxes of its blocks, cut where the chunk begins or ends inside a run. Absent for other formats.
   */
  readonly boxes?: readonly PageBox[];
  readonly metadata: ChunkMetadata;
  /** Size in the configured unit, counting what the embedder sees. */
  readonly size: number;
  readonly charCount: number;
  readonly wordCount: number;
  /** Hex sha-256 of `text`, for dedupe. */
  readonly hash: string;
  /** True when the chunk exceeds `maxSize` because the user asked to keep an element whole. */
  readonly oversized?: boolean;
  /** Breadcrumb line, prefix, text and suffix: what to send to the embedding model. Set with `contextualize`. */
  readonly embedText?: string;
  /** First and last turn index of a conversation chunk (turn strategy only). */
  readonly startTurn?: number;
  readonly endTurn?: number;
  /** The id of its parent (a heading section, or a window of one), with the option `parents`. */
  readonly parentId?: string;
  /** The id of the chunk before this one in its document; none on the first. */
  readonly prevId?: string;
  /** The id of the chunk after this one in its document; none on the last. */
  readonly nextId?: string;
}

/** Summary figures of a chunking run. */
export interface ChunkStatistics {
  readonly documents: number;
  readonly chunks: number;
  /** Sum of chunk sizes, in the unit. */
  readonly totalSize: number;
  readonly averageSize: number;
  readonly minSize: number;
  readonly maxSize: number;
  /** Chunks above `maxSize` (only allowed for elements kept whole on request). */
  readonly oversized: number;
  /** Why chunks were oversized, with counts. */
  readonly oversizedReasons: Readonly<Record<string, number>>;
  /** Chunks below `minSize` that could not be fused with a neighbour. */
  readonly undersized: number;
  /** Pages read (PDF only). */
  readonly pages?: number;
  /** True when a PDF had pages without a text layer. */
  readonly needsOcr?: boolean;
  readonly warnings: readonly string[];
  /** @deprecated `chunks`, under the name the chunker's documentation gave it: read `chunks`. Goes in 0.3. */
  readonly totalChunks: number;
  /** @deprecated `averageSize`, under the name the chunker's documentation gave it: read `averageSize`. Goes in 0.3. */
  readonly avgSize: number;
  /** @deprecated `oversized`, under the name the chunker's documentation gave it: read `oversized`. Goes in 0.3. */
  readonly oversizedCount: number;
  /** @deprecated `undersized`, under the name the chunker's documentation gave it: read `undersized`. Goes in 0.3. */
  readonly undersizedCount: number;
}

/** The document a result is about. */
export interface ChunkedDocument {
  /** The id every chunk's `documentId` and `id` carry. */
  readonly documentId: string;
  /** What the document was read as; `'blocks'` when blocks were given (`chunkBlocks`), so no format was read. */
  readonly format: DocumentFormat | 'blocks';
  /** The document's title, when it has one (`chunk.documentTitle` on every chunk). */
  readonly title?: string;
}

/** A parent: a heading section, or a window of one, with its chunks' `parentId` as id. */
export interface ParentRecord {
  /** `${documentId}#p-${digest}`: the digest of its text and the chunking settings. */
  readonly id: string;
  readonly documentId: string;
  readonly origin?: string;
  /** 0-based position among the document's parents. */
  readonly index: number;
  /** The exact slice `documentText.slice(start, end)`, from its first chunk's start to its last chunk's end. */
  readonly text: string;
  readonly start: number;
  readonly end: number;
  readonly startLine: number;
  readonly endLine: number;
  /** The heading context of its first chunk. */
  readonly heading: HeadingContext;
  /** Size of `text` in the unit (special tokens included). */
  readonly size: number;
  /** How many chunks it holds. */
  readonly chunks: number;
}

/** What the synchronous and promise APIs return. */
export interface ChunkingResult {
  readonly chunks: Chunk[];
  /** The parents, in order, with the option `parents` (see docs/retrieval-context.md). */
  readonly parents?: ParentRecord[];
  readonly statistics: ChunkStatistics;
  readonly document: ChunkedDocument;
}

/** One document for the strategy chunkers. */
export interface Source {
  readonly id: string;
  readonly origin?: string;
  readonly text: string;
}
