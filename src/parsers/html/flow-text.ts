/**
 * The text of one block as a browser lays it out: runs of HTML whitespace shown as one space, none at the start or
 * end of a line, `<br>` and block boundaries as line breaks, preformatted text as it is (CR LF and CR as LF). Text
 * is only ever appended, so a prefix of it, once written, never changes: cut points taken from it do not depend
 * on how the input was split into writes.
 */

/** HTML's whitespace: space, tab, LF, FF, CR. */
const WHITESPACE_RUN = /[ \t\n\f\r]+/g;
const LINE_ENDINGS = /\r\n?/g;
const SPACE = 0x20;
const TAB = 0x09;
/** The most spaces and tabs at the end of preformatted text held back (see `#verbatimTail`). */
const MAX_HELD = 1024;

/** Where a piece of text came from in the source, for the offsets of a block's parts. */
export interface SourceAnchor {
  /** Offset in the flow text where the piece starts. */
  readonly at: number;
  /** Its start in the source. */
  readonly source: number;
}

/** Text being laid out. */
export class FlowText {
  text = '';
  /** Line breaks owed before the next character (1 for a line break, 2 for a paragraph break). */
  #breaks = 0;
  #space = false;
  /** What starts each new line: the indentation of the list item being read, or a quote's marker. */
  #indent = '';
  readonly #indents: string[] = [];
  /** Inside `pre`: whitespace is kept. */
  verbatim = 0;
  /** The next line feed of preformatted text is dropped (the one right after `<pre>`). */
  #dropNewline = false;
  /**
   * One anchor per run of text that is contiguous in the source (between two tags), at its first visible character:
   * how the tokenizer split a run (at the ends of writes, at character references) does not show in them.
   */
  readonly anchors: SourceAnchor[] = [];
  /** Where the last text written ended in the source, where its run started, and whether the run has its anchor. */
  #run = { end: -1, start: -1, anchored: false };
  /** Only markup (a list marker) has been written since the last line break. */
  #markupOnly = false;
  /** The last preformatted text ended with CR: a LF starting the next is the same line ending. */
  #afterCR = false;
  /**
   * Spaces and tabs that end the preformatted text so far (up to `MAX_HELD`), held until more of it comes: at the
   * end of a `pre` they show nothing (Node's docs put a space between the code and its copy button), and text once
   * written never changes.
   */
  #verbatimTail = '';

  /** True when nothing visible has been written. */
  get empty(): boolean {
    return this.text.length === 0;
  }

  /** Appends source text `[source, sourceEnd)` (-1 for text that is not in the source). */
  write(raw: string, source: number, sourceEnd = -1): void {
    if (source >= 0 && source !== this.#run.end) this.#run = { end: sourceEnd, start: source, anchored: false };
    else if (source >= 0) this.#run.end = sourceEnd;
    if (this.verbatim > 0) {
      this.#writeVerbatim(raw, source >= 0);
      return;
    }
    let text = raw.replace(WHITESPACE_RUN, ' ');
    if (text.charCodeAt(0) === SPACE) {
      this.#space = true;
      text = text.slice(1);
    }
    if (text === '') return;
    const trailing = text.charCodeAt(text.length - 1) === SPACE;
    this.#emit(trailing ? text.slice(0, -1) : text, source >= 0);
    this.#space = trailing;
  }

  /** Appends text that is not in the source (a list marker): it needs no anchor, and a break right after it is none. */
  writeMarkup(text: string): void {
    this.#emit(text, false);
    this.#markupOnly = true;
  }

  /** A line break (`<br>`): the next text starts a new line. */
  lineBreak(): void {
    if (this.text.length === 0 || this.#markupOnly) return;
    this.#breaks = Math.max(this.#breaks, 1);
    this.#space = false;
  }

  /** A new line even right after a marker (the next list item after an empty one). */
  newLine(): void {
    this.#markupOnly = false;
    this.lineBreak();
  }

  /** A block boundary inside the block (paragraphs of a list item or a quote). */
  paragraphBreak(): void {
    if (this.text.length === 0 || this.#markupOnly) return;
    this.#breaks = 2;
    this.#space = false;
  }

  /** Preformatted text starts: its first line feed, if it comes first, is not shown. */
  startVerbatim(): void {
    this.verbatim++;
    this.#dropNewline = true;
  }

  endVerbatim(): void {
    this.verbatim = Math.max(0, this.verbatim - 1);
    this.#dropNewline = false;
    this.#verbatimTail = '';
    this.lineBreak();
  }

  /** Lines from here on start with `indent` besides the current one (a list item's content, a quote's marker). */
  pushIndent(indent: string): void {
    this.#indents.push(this.#indent);
    this.#indent += indent;
  }

  popIndent(): void {
    this.#indent = this.#indents.pop() ?? '';
  }

  /** Forgets what was owed (a block ends: no space or break after its last character). */
  settle(): void {
    this.#breaks = 0;
    this.#space = false;
  }

  #writeVerbatim(raw: string, inSource: boolean): void {
    let text = raw;
    if (this.#afterCR && text.charCodeAt(0) === 0x0a) text = text.slice(1);
    this.#afterCR = text.charCodeAt(text.length - 1) === 0x0d;
    if (text.indexOf('\r') !== -1) text = text.replace(LINE_ENDINGS, '\n');
    if (this.#dropNewline && text !== '') {
      if (text.charCodeAt(0) === 0x0a) text = text.slice(1);
      this.#dropNewline = false;
    }
    if (text === '') return;
    let end = text.length;
    while (end > 0 && (text.charCodeAt(end - 1) === SPACE || text.charCodeAt(end - 1) === TAB)) end--;
    // The held spaces go with the text after them, so that how the writes fell does not show in the anchors; of a
    // longer run only the last MAX_HELD are held, whatever the writes, so memory stays bounded.
    let shown = end === 0 ? '' : this.#verbatimTail + text.slice(0, end);
    let held = end === 0 ? this.#verbatimTail + text : text.slice(end);
    if (held.length > MAX_HELD) {
      shown += held.slice(0, held.length - MAX_HELD);
      held = held.slice(held.length - MAX_HELD);
    }
    this.#verbatimTail = held;
    if (shown === '') return;
    if (this.#indent !== '') shown = shown.replaceAll('\n', `\n${this.#indent}`);
    this.#emit(shown, inSource);
  }

  #emit(text: string, inSource: boolean): void {
    if (this.text.length > 0) {
      if (this.#breaks > 0) this.text += (this.#breaks === 1 ? '\n' : '\n\n') + this.#indent;
      // A list marker ends in its space: whitespace after it (`<li>` then a line break) adds none.
      else if (this.#space && !this.#markupOnly) this.text += ' ';
    } else if (this.#indent !== '' && this.verbatim === 0) {
      this.text += this.#indent;
    }
    this.#breaks = 0;
    this.#space = false;
    this.#markupOnly = false;
    if (inSource && !this.#run.anchored) {
      this.anchors.push({ at: this.text.length, source: this.#run.start });
      this.#run.anchored = true;
    }
    this.text += text;
  }
}

/** Where a long text is cut: the part before, the whitespace between, and where the rest starts. */
export interface TextCut {
  readonly end: number;
  readonly resume: number;
}

const HIGH_SURROGATE_FIRST = 0xd800;
const HIGH_SURROGATE_LAST = 0xdbff;

/**
 * Where to cut `text` (longer than `size`) so that the part before is at most `size` long: at the last line break
 * in its second half, else the last space, else at `size` (never inside a surrogate pair).
 */
export function cutPoint(text: string, size: number): TextCut {
  const floor = size >> 1;
  const newline = text.lastIndexOf('\n', size - 1);
  if (newline >= floor) return { end: newline, resume: newline + 1 };
  const space = text.lastIndexOf(' ', size - 1);
  if (space >= floor) return { end: space, resume: space + 1 };
  const code = text.charCodeAt(size - 1);
  const end = code >= HIGH_SURROGATE_FIRST && code <= HIGH_SURROGATE_LAST ? size - 1 : size;
  return { end, resume: end };
}

/** Drops the first `resume` units of `flow` (a part was emitted), keeping its anchors in step. */
export function dropHead(flow: FlowText, resume: number): number {
  const kept = flow.anchors.filter((a) => a.at >= resume).map((a) => ({ at: a.at - resume, source: a.source }));
  const before = [...flow.anchors].reverse().find((a) => a.at < resume);
  flow.anchors.length = 0;
  flow.anchors.push(...kept);
  flow.text = flow.text.slice(resume);
  return before?.source ?? -1;
}

/** The source offset of the text at `at`: the start of the piece it lies in, or -1. */
export function sourceAt(flow: FlowText, at: number): number {
  let found = -1;
  for (const anchor of flow.anchors) {
    if (anchor.at > at) break;
    found = anchor.source;
  }
  return found;
}
