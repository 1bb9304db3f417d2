/**
 * The document's title, and the stage that finds it before any block is chunked.
 *
 * A title comes, first, from what the document declares: front matter `title` (a `frontmatter` block), or a title
 * a parser puts on the first block it gives (`documentTitle`: HTML `<title>`, PDF metadata `Title`). Otherwise it
 * is the document's first heading when that is a level-1 heading and not a numbered section (`1. Introduction`
 * opens a document's first section; it does not name the document). The chunks of a document all carry its title,
 * and with `contextualize: { title: true }` it is part of what each chunk's size counts, so it must be known
 * before the first block is packed: the stage holds blocks until the title is settled, which a declared title or
 * the first heading does, and at most `TITLE_WINDOW` blocks, past which the document has no title. Memory stays
 * within that window (a block is at most a parse batch), and the title depends on the blocks alone, never on
 * how the input was written.
 */
import type { Core } from '../core.js';
import type { Block } from '../types.js';

/** Blocks held at most while a document's title is not known: a title is what a document opens with. */
export const TITLE_WINDOW = 16;

/** The longest title kept, in UTF-16 units: a title is a line of context, not a paragraph. */
export const MAX_TITLE_LENGTH = 300;

/** What the chunks of one document share: its title once settled. */
export interface DocumentContext {
  /** The title, `undefined` while unknown or when the document has none. */
  title: string | undefined;
  /** True once the title can no longer change. */
  settled: boolean;
}

/** A new document context, title not known yet. */
export function createDocumentContext(): DocumentContext {
  return { title: undefined, settled: false };
}

/** Whitespace runs (line breaks too) made one space, ends trimmed, cut to `MAX_TITLE_LENGTH`; `undefined` when empty. */
export function cleanTitle(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const clean = text.replace(/\s+/g, ' ').trim();
  if (clean === '') return undefined;
  return clean.length <= MAX_TITLE_LENGTH ? clean : `${clean.slice(0, MAX_TITLE_LENGTH - 1).trimEnd()}…`;
}

/** A top-level `title:` key with its value on the same line (YAML keys are case-sensitive). */
const TITLE_KEY = /^title[ \t]*:[ \t]*(.*)$/m;
/** A trailing YAML comment: ` # …` after a plain value. */
const TRAILING_COMMENT = /\s+#.*$/;

/**
 * The `title` of YAML front matter (the block's text, fences included), or `undefined`. Only a top-level key with
 * a one-line scalar is read, plain, single- or double-quoted: that is how titles are written, and a full YAML
 * parser would be a dependency for a single key. A folded or literal block (`title: >`) or a nested value gives
 * no title rather than a wrong one.
 */
export function frontMatterTitle(text: string): string | undefined {
  const match = TITLE_KEY.exec(text);
  if (match === null) return undefined;
  const raw = (match[1] as string).trim();
  if (raw === '' || /^[>|[{&*!]/.test(raw)) return undefined;
  const quote = raw[0];
  if (quote === '"' || quote === "'") {
    const close = raw.lastIndexOf(quote);
    if (close <= 0) return undefined;
    const inner = raw.slice(1, close);
    return cleanTitle(quote === "'" ? inner.replaceAll("''", "'") : unescapeDoubleQuoted(inner));
  }
  return cleanTitle(raw.replace(TRAILING_COMMENT, ''));
}

/** The common escapes of a double-quoted YAML scalar; others are left as written. */
function unescapeDoubleQuoted(text: string): string {
  return text.replace(/\\(["\\/nt])/g, (_, c: string) => (c === 'n' ? '\n' : c === 't' ? '\t' : c));
}

/**
 * A section number opening a heading (`1. `, `2.3 `, `4.1.2. `): such a heading is a section, not the document's
 * title. A number without a dot is left alone, as it opens titles too (`10 Tips for …`, `1984 and After`).
 */
const SECTION_NUMBER = /^\d{1,2}(?:\.\d{1,2})*\.\s|^\d{1,2}(?:\.\d{1,2})+\s/;

/**
 * The title a block settles, if it settles one: a declared title, else a first heading (of level 1 and not a
 * numbered section, or none).
 */
function titleFrom(block: Block): { settles: boolean; title?: string | undefined } {
  const declared = cleanTitle(block.documentTitle) ?? (block.kind === 'frontmatter' ? frontMatterTitle(block.text) : undefined);
  if (declared !== undefined) return { settles: true, title: declared };
  if (block.kind !== 'heading') return { settles: false };
  const title = block.depth === 1 ? cleanTitle(block.title) : undefined;
  return { settles: true, title: title !== undefined && !SECTION_NUMBER.test(title) ? title : undefined };
}

/**
 * The stage that settles `document.title` before passing blocks on: blocks are held until a declared title or
 * the first heading comes, or `TITLE_WINDOW` blocks have, or the input ends.
 */
export function createTitleStage(document: DocumentContext): Core<Block, Block> {
  const state = { held: [] as Block[] };
  const release = (): Block[] => {
    document.settled = true;
    const out = state.held;
    state.held = [];
    return out;
  };
  return {
    write(block) {
      if (document.settled) return [block];
      const found = titleFrom(block);
      state.held.push(block);
      if (found.settles) {
        document.title = found.title;
        return release();
      }
      return state.held.length >= TITLE_WINDOW ? release() : [];
    },
    end: () => release(),
  };
}
