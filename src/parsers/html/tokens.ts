/**
 * HTML text to tags and text with their source offsets, over htmlparser2's `Tokenizer` (a streaming state machine
 * that reports index ranges into what was written, decodes character references as it goes, and reads the content
 * of `script`, `style`, `textarea` and `title` as raw text). Its `Parser` is not used: it keeps every attribute
 * whole and its stack of open elements with `unshift` (quadratic on deep nesting); the stack is ours
 * (`tree.ts`), and only the attributes the block reader looks at are kept, each up to `MAX_ATTRIBUTE_LENGTH`.
 *
 * Offsets are UTF-16 indices into the decoded source. The writes a range may reach back into are kept until an
 * event has moved past them, at most `MAX_RETAINED` units of them (a tag name or a comment longer than that is
 * read from what is left), so memory stays flat on a megabyte-long comment or attribute.
 */
import { createRequire } from 'node:module';
import type { Tokenizer, TokenizerCallbacks } from 'htmlparser2';

/**
 * htmlparser2's `Tokenizer`, required when the first HTML document is read (of an ES module: Node 20.19 and later,
 * as remark is): its package index loads its DOM handler and utilities too, and `import 'chunkstream'` loaded them
 * for every user, of Markdown too.
 */
function tokenizerClass(): typeof Tokenizer {
  return (createRequire(import.meta.url)('htmlparser2') as { Tokenizer: typeof Tokenizer }).Tokenizer;
}

/** The attributes of a start tag that the block reader looks at, by lower-case name. */
export type Attributes = Readonly<Record<string, string>>;

/** Receives the tokens of a document, in order. */
export interface TokenHandler {
  /** A start tag `[start, end)`; `selfClosing` for `<x/>`, which only foreign content honours. */
  openTag(name: string, attributes: Attributes, start: number, end: number, selfClosing: boolean): void;
  /** An end tag `[start, end)`. */
  closeTag(name: string, start: number, end: number): void;
  /** Text with its character references decoded, from `[start, end)` of the source. */
  text(text: string, start: number, end: number): void;
  /** A kept attribute of the next start tag was longer than `MAX_ATTRIBUTE_LENGTH` and comes cut there. */
  attributeCut(name: string): void;
}

/** Attributes the block reader looks at; the others are skipped as they are read. */
const KEPT_ATTRIBUTES: ReadonlySet<string> = new Set(['class', 'role', 'hidden', 'aria-hidden', 'aria-level', 'alt', 'src', 'start', 'open']);
/** The longest attribute value kept (an `alt` text longer than this is cut). */
export const MAX_ATTRIBUTE_LENGTH = 4096;
/** The most source kept for ranges that reach back over several writes. */
const MAX_RETAINED = 1024 * 1024;
const GREATER_THAN = 0x3e;

/** The writes a range may still reach into, from the absolute offset `base`. */
class SourceWindow {
  #pieces: string[] = [];
  #base = 0;
  #length = 0;

  append(text: string): void {
    this.#pieces.push(text);
    this.#length += text.length;
    // A token longer than the cap (a comment, a tag name) is read from what is left of it.
    while (this.#pieces.length > 1 && this.#length > MAX_RETAINED) this.#drop();
  }

  /** The source `[start, end)`, as much of it as is kept. */
  slice(start: number, end: number): string {
    const last = this.#pieces.length - 1;
    const lastBase = this.#base + this.#length - (this.#pieces[last]?.length ?? 0);
    if (start >= lastBase) return (this.#pieces[last] as string).slice(start - lastBase, end - lastBase);
    const from = Math.max(start, this.#base) - this.#base;
    return this.#pieces.join('').slice(from, Math.max(from, end - this.#base));
  }

  /** The offset of the first `>` at or after `from` in the kept source, or `from` when none is kept. */
  tagEnd(from: number): number {
    const last = this.#pieces.length - 1;
    const lastBase = this.#base + this.#length - (this.#pieces[last]?.length ?? 0);
    if (from < lastBase) return from;
    const piece = this.#pieces[last] as string;
    for (let i = from - lastBase; i < piece.length; i++) if (piece.charCodeAt(i) === GREATER_THAN) return lastBase + i + 1;
    return from;
  }

  /** Forgets the writes that end at or before `offset` (the last one is always kept). */
  release(offset: number): void {
    while (this.#pieces.length > 1 && this.#base + (this.#pieces[0] as string).length <= offset) this.#drop();
  }

  #drop(): void {
    const first = this.#pieces.shift() as string;
    this.#base += first.length;
    this.#length -= first.length;
  }
}

/** The start tag being read. */
interface PendingTag {
  name: string;
  start: number;
  attributes: Record<string, string>;
  /** The attribute being read, when it is one of the kept ones. */
  attribute: string | null;
  value: string;
}

/** Tokenizes a document written in pieces; `handler` receives its tokens. */
export class HtmlTokens {
  readonly #window = new SourceWindow();
  readonly #tokenizer: Tokenizer;
  #tag: PendingTag = { name: '', start: 0, attributes: {}, attribute: null, value: '' };
  /** Where the last token ended: the start of an entity's text. */
  #cursor = 0;

  constructor(handler: TokenHandler) {
    const window = this.#window;
    const callbacks: TokenizerCallbacks = {
      ontext: (start, end) => {
        handler.text(window.slice(start, end), start, end);
        this.#moved(end);
      },
      ontextentity: (codePoint, end) => {
        handler.text(String.fromCodePoint(codePoint), this.#cursor, end);
        this.#moved(end);
      },
      onopentagname: (start, end) => {
        this.#tag = { name: window.slice(start, end).toLowerCase(), start: start - 1, attributes: {}, attribute: null, value: '' };
        this.#moved(end);
      },
      onattribname: (start, end) => {
        const name = end - start > 32 ? '' : window.slice(start, end).toLowerCase();
        this.#tag.attribute = KEPT_ATTRIBUTES.has(name) ? name : null;
        this.#tag.value = '';
        this.#moved(end);
      },
      onattribdata: (start, end) => {
        const room = this.#valueRoom();
        if (room > 0) this.#tag.value += window.slice(start, Math.min(end, start + room));
        this.#moved(end);
      },
      onattribentity: (codePoint) => {
        if (this.#valueRoom() > 0) this.#tag.value += String.fromCodePoint(codePoint);
      },
      onattribend: (_quote, end) => {
        const tag = this.#tag;
        if (tag.attribute !== null && !(tag.attribute in tag.attributes)) {
          if (tag.value.length > MAX_ATTRIBUTE_LENGTH) {
            tag.value = tag.value.slice(0, MAX_ATTRIBUTE_LENGTH);
            handler.attributeCut(tag.attribute);
          }
          tag.attributes[tag.attribute] = tag.value;
        }
        tag.attribute = null;
        this.#moved(end);
      },
      onopentagend: (end) => this.#openTag(handler, end, false),
      onselfclosingtag: (end) => this.#openTag(handler, end, true),
      onclosetag: (start, end) => {
        handler.closeTag(window.slice(start, end).toLowerCase(), start - 2, window.tagEnd(end));
        this.#moved(end);
      },
      oncomment: (_start, end) => this.#moved(end),
      oncdata: (_start, end) => this.#moved(end),
      ondeclaration: (_start, end) => this.#moved(end),
      onprocessinginstruction: (_start, end) => this.#moved(end),
      onend: () => {},
    };
    const HtmlTokenizer = tokenizerClass();
    this.#tokenizer = new HtmlTokenizer({ decodeEntities: true }, callbacks);
  }

  /**
   * How much more of the attribute being read is kept: none of an attribute the reader does not look at (nothing is
   * sliced for it), else up to one unit past the cap, so that `onattribend` knows a value was longer.
   */
  #valueRoom(): number {
    const tag = this.#tag;
    return tag.attribute === null ? 0 : MAX_ATTRIBUTE_LENGTH + 1 - tag.value.length;
  }

  write(text: string): void {
    if (text === '') return;
    this.#window.append(text);
    this.#tokenizer.write(text);
  }

  end(): void {
    this.#tokenizer.end();
  }

  #openTag(handler: TokenHandler, end: number, selfClosing: boolean): void {
    const tag = this.#tag;
    handler.openTag(tag.name, tag.attributes, tag.start, end + 1, selfClosing);
    this.#moved(end + 1);
  }

  #moved(offset: number): void {
    this.#cursor = offset;
    this.#window.release(offset);
  }
}
