/**
 * The blocks of an HTML page, from the drafts the reader builds: which of them are the page's content, and their
 * offsets in the extracted document text.
 *
 * Only the content: when the page has a `main` element (or `role="main"`), only what lies in it is read; else,
 * when it has exactly one `article`, only that. Whether a page has them is known only once they come, so the
 * drafts read before are held, up to `HOLD_LIMIT` units of text: past that, or when a second `article` comes,
 * the whole page is read (what was held comes out, in order). Memory stays within the limit whatever the page.
 *
 * Heading depths are counted from the first heading that comes out (see `#leveled`).
 *
 * The extracted document text is every emitted block's `gapBefore` and `text`, in order: `"\n\n"` between blocks,
 * and between the parts of a block cut for size the whitespace the cut fell on (none inside a word). Offsets and
 * lines are counted as blocks are emitted; the text is never held.
 */
import type { Block, BlockContinuation, BlockFeatures, ListItemSpan, Span } from '../../types.js';
import { countLineEndings } from '../../unicode/lines.js';

/** What of a page is read: only its content (`main`), or every visible element (`all`). */
export type ContentMode = 'main' | 'all';

/** Where a draft lies: in the page's `main`, in its n-th `article` (from 1), or elsewhere. */
export type Region = number;
/** The region of what lies in `main`. */
export const MAIN_REGION = -1;
/** The region of what lies outside `main` and every `article`. */
export const OUTSIDE_REGION = 0;

/** A block before it has document offsets: spans are relative to its text. */
export interface DraftBlock {
  readonly kind: 'heading' | 'paragraph' | 'code' | 'table' | 'list' | 'blockquote' | 'thematicBreak';
  readonly text: string;
  readonly sourceStart: number;
  readonly sourceEnd: number;
  readonly region: Region;
  /** The whitespace before this draft when it continues the one before it (a cut at a space or a line break). */
  readonly gap?: string;
  readonly depth?: 1 | 2 | 3 | 4 | 5 | 6;
  readonly lang?: string | null;
  readonly rows?: readonly Span[];
  readonly delimiterRow?: Span;
  readonly ordered?: boolean;
  readonly items?: readonly ListItemSpan[];
  readonly features?: BlockFeatures;
  readonly continuation?: BlockContinuation;
  readonly warnings?: readonly string[];
}

/** Text held, at most, while the reader does not know yet whether the page has a `main` or one `article`. */
export const HOLD_LIMIT = 1024 * 1024;


/** Chooses and numbers the blocks of one page. */
export class HtmlDocument {
  /** `undecided` until a `main` or a second `article` is seen, or the held text passes the limit. */
  #state: 'undecided' | 'main' | 'all' = 'undecided';
  #held: DraftBlock[] = [];
  #heldLength = 0;
  readonly #articles = new Set<number>();
  #out: Block[] = [];
  /** Offset and line where the next block's gap starts. */
  #offset = 0;
  #line = 1;
  /** How much shallower headings are read, set by the first heading. */
  #shift: number | undefined;
  /** True once a block has come out: the first has no gap before it. */
  #started = false;
  /** The page's `<title>`, given on the first block that comes out (`documentTitle`). */
  #title: string | undefined;

  constructor(mode: ContentMode) {
    if (mode === 'all') this.#state = 'all';
  }

  /** Takes a draft; its block comes out now or once the page shows whether it is content. */
  add(draft: DraftBlock): void {
    if (this.#state === 'all') return this.#emit(draft);
    if (draft.region === MAIN_REGION) {
      if (this.#state === 'undecided') this.#dropHeld();
      this.#state = 'main';
      return this.#emit(draft);
    }
    if (this.#state === 'main') return;
    if (draft.region > 0) this.#articles.add(draft.region);
    this.#held.push(draft);
    this.#heldLength += draft.text.length;
    if (this.#articles.size > 1 || this.#heldLength > HOLD_LIMIT) this.#readAll();
  }

  /** The page's `<title>`: the first block that comes out carries it, when it has not come out yet. */
  titleFound(title: string): void {
    if (!this.#started && this.#title === undefined) this.#title = title;
  }

  /** A `main` element starts: what was held is not content. */
  mainStarts(): void {
    if (this.#state !== 'undecided') return;
    this.#dropHeld();
    this.#state = 'main';
  }

  /** The blocks ready so far (each given once). */
  take(): Block[] {
    const out = this.#out;
    this.#out = [];
    return out;
  }

  /** The page has ended: what is held comes out, only the article's when there was exactly one. */
  finish(): Block[] {
    if (this.#state === 'undecided') {
      const only = this.#articles.size === 1 ? [...this.#articles][0] : undefined;
      const held = this.#held;
      this.#held = [];
      for (const draft of held) if (only === undefined || draft.region === only) this.#emit(draft);
    }
    return this.take();
  }

  /**
   * Heading depths counted from the first heading read: a page whose content starts at `h2` (its `h1` the site's
   * name, in a banner that is not read) has that `h2` at depth 1, as the Markdown it was written in would have.
   */
  #leveled(draft: DraftBlock): DraftBlock {
    if (draft.kind !== 'heading' || draft.depth === undefined) return draft;
    this.#shift ??= draft.depth - 1;
    return this.#shift === 0 ? draft : { ...draft, depth: Math.max(1, draft.depth - this.#shift) as DraftBlock['depth'] };
  }

  #dropHeld(): void {
    this.#held = [];
    this.#heldLength = 0;
  }

  #readAll(): void {
    this.#state = 'all';
    const held = this.#held;
    this.#dropHeld();
    for (const draft of held) this.#emit(draft);
  }

  #emit(draft: DraftBlock): void {
    const continues = draft.continuation?.previous === true;
    const first = !this.#started;
    const gapBefore = first ? '' : continues ? (draft.gap ?? '') : '\n\n';
    this.#started = true;
    const start = this.#offset + gapBefore.length;
    const startLine = this.#line + countLineEndings(gapBefore);
    const end = start + draft.text.length;
    const endLine = startLine + countLineEndings(draft.text);
    this.#offset = end;
    this.#line = endLine;
    const block = toBlock(this.#leveled(draft), { start, end, startLine, endLine, gapBefore });
    const title = first ? this.#title?.replace(/\s+/g, ' ').trim() : undefined;
    this.#out.push(title ? { ...block, documentTitle: title } : block);
  }
}

/** The document position of a draft. */
interface Placement {
  readonly start: number;
  readonly end: number;
  readonly startLine: number;
  readonly endLine: number;
  readonly gapBefore: string;
}

/** A draft placed in the document. */
function toBlock(draft: DraftBlock, at: Placement): Block {
  const base = {
    text: draft.text,
    start: at.start,
    end: at.end,
    startLine: at.startLine,
    endLine: at.endLine,
    gapBefore: at.gapBefore,
    sourceStart: draft.sourceStart,
    sourceEnd: draft.sourceEnd,
    ...(draft.features !== undefined ? { features: draft.features } : {}),
    ...(draft.continuation !== undefined ? { continuation: draft.continuation } : {}),
    ...(draft.warnings !== undefined && draft.warnings.length > 0 ? { warnings: draft.warnings } : {}),
  };
  const shift = (s: Span): Span => ({ start: s.start + at.start, end: s.end + at.start });
  switch (draft.kind) {
    case 'heading':
      return { ...base, kind: 'heading', depth: draft.depth ?? 1, title: draft.text };
    case 'code':
      return { ...base, kind: 'code', lang: draft.lang ?? null, meta: null, fence: null };
    case 'table':
      return { ...base, kind: 'table', rows: (draft.rows ?? []).map(shift), delimiterRow: shift(draft.delimiterRow ?? { start: 0, end: 0 }) };
    case 'list':
      return { ...base, kind: 'list', ordered: draft.ordered ?? false, items: shiftItems(draft.items ?? [], at.start) };
    default:
      return { ...base, kind: draft.kind };
  }
}

function shiftItems(items: readonly ListItemSpan[], by: number): ListItemSpan[] {
  return items.map((item) => ({ start: item.start + by, end: item.end + by, items: shiftItems(item.items, by) }));
}
