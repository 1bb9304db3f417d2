/**
 * Cuts a growing Markdown text into batches that can be parsed on their own and give the blocks a parse of the
 * whole text would give.
 *
 * A batch ends after a blank line once it holds `batchSize` characters, at the first such place where the next
 * line starts a fresh top-level block: not indented (so not a list continuation or indented code), not a list
 * item (a loose list spans blank lines), and outside front matter, fenced code, `$$` math and the HTML blocks that
 * may contain blank lines. Cut points depend only on the text, never on how it was written, so the stream and
 * the one-string parse give the same batches.
 *
 * `maxBufferBytes` caps a batch: a region without such a blank line is cut at the last line boundary under the
 * cap, and a single line longer than the cap fails with `ERR_BUFFER_OVERFLOW`.
 */
import { ChunkError } from '../../errors.js';
import { countLineEndings } from '../../text/lines.js';

/** A piece of the document to parse on its own. */
export interface MarkdownBatch {
  readonly text: string;
  /** UTF-16 offset of `text` in the document. */
  readonly offset: number;
  /** 1-based line of the first character of `text`. */
  readonly line: number;
  /** True when the batch was cut at the cap, not at a safe blank line. */
  readonly forced: boolean;
}

/** Options of the batcher (from `ParseConfig`). */
export interface BatcherOptions {
  readonly batchSize: number;
  readonly maxBufferBytes: number;
}

/** Creates a batcher: `write(text)` returns the batches that are complete. */
export function createMarkdownBatcher(options: BatcherOptions) {
  const { batchSize, maxBufferBytes } = options;
  let buffer = '';
  /** Document offset of `buffer[0]`. */
  let base = 0;
  /** Line number of `buffer[0]`. */
  let baseLine = 1;
  /** Buffer index of the first line not yet scanned. */
  let scan = 0;
  const state = createLineState();
  let previousBlank = false;
  let blankAllowsCut = false;
  /** Byte length of the text before `buffer`, for error messages. */
  let bytesBefore = 0;

  function take(end: number, forced: boolean): MarkdownBatch {
    const text = buffer.slice(0, end);
    const batch: MarkdownBatch = { text, offset: base, line: baseLine, forced };
    base += end;
    baseLine += countLineEndings(text);
    bytesBefore += Buffer.byteLength(text);
    buffer = buffer.slice(end);
    scan -= end;
    return batch;
  }

  function overflow(at: number): never {
    const byteOffset = bytesBefore + Buffer.byteLength(buffer.slice(0, at));
    throw new ChunkError(
      'ERR_BUFFER_OVERFLOW',
      `A line longer than maxBufferBytes (${maxBufferBytes}) starts at byte offset ${byteOffset}; raise maxBufferBytes or check the input`,
      { byteOffset, offset: base + at, line: baseLine + countLineEndings(buffer, 0, at) },
    );
  }

  /** Scans complete lines; returns batches cut along the way. */
  function scanLines(final: boolean): MarkdownBatch[] {
    const out: MarkdownBatch[] = [];
    for (;;) {
      const nl = buffer.indexOf('\n', scan);
      if (nl === -1 && !final) break;
      const lineEnd = nl === -1 ? buffer.length : nl + 1;
      if (lineEnd === scan) break;
      if (lineEnd > maxBufferBytes) {
        // This line would carry the buffer past its cap.
        if (scan === 0) overflow(0);
        out.push(take(scan, true));
        continue;
      }
      const lineStart = scan;
      const blank = isBlankLine(buffer, lineStart, lineEnd);
      if (!blank && previousBlank && blankAllowsCut && lineStart >= batchSize && startsFreshBlock(buffer, lineStart)) {
        out.push(take(lineStart, false));
        // The line is scanned again as the first line of the new buffer.
        continue;
      }
      if (blank) {
        blankAllowsCut = !state.blank();
      } else {
        state.line(buffer, lineStart, lineEnd);
      }
      previousBlank = blank;
      scan = lineEnd;
      if (nl === -1) break;
    }
    // An unfinished line that already passes the cap: cut before it, or fail when it is the whole buffer.
    if (!final && buffer.length > maxBufferBytes) {
      if (scan === 0) overflow(0);
      out.push(take(scan, true));
    }
    return out;
  }

  return {
    /** Adds decoded text; returns the batches that are complete. */
    write(text: string): MarkdownBatch[] {
      if (text.length === 0) return [];
      buffer += text;
      return scanLines(false);
    },
    /** Returns the last batches. */
    end(): MarkdownBatch[] {
      const out = scanLines(true);
      if (buffer.length > 0) out.push(take(buffer.length, false));
      return out;
    },
  };
}

function isBlankLine(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 10 && c !== 13) return false;
  }
  return true;
}

const LIST_MARKER = /^(?:[-+*]|\d{1,9}[.)])(?:[ \t]|\r?\n|$)/;

/** True when the line at `start` begins a block that cannot continue what came before a blank line. */
function startsFreshBlock(text: string, start: number): boolean {
  const c = text.charCodeAt(start);
  if (c === 32 || c === 9) return false; // indented: list continuation or indented code
  if (c === 45 || c === 43 || c === 42 || (c >= 48 && c <= 57)) {
    return !LIST_MARKER.test(text.slice(start, start + 12));
  }
  return true;
}

const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,}|\${2,})([^\r\n]*)/;
const ITEM_FENCE = /^[ \t]*(?:[-+*]|\d{1,9}[.)])[ \t]+(?:(?:[-+*]|\d{1,9}[.)])[ \t]+)*(`{3,}|~{3,})([^\r\n]*)/;
const HTML_RAW = /^ {0,3}<(script|pre|style|textarea)(?:[\s>]|$)/i;
const HTML_TYPE_6 =
  /^ {0,3}<\/?(address|article|aside|base|basefont|blockquote|body|caption|center|col|colgroup|dd|details|dialog|dir|div|dl|dt|fieldset|figcaption|figure|footer|form|frame|frameset|h[1-6]|head|header|hr|html|iframe|legend|li|link|main|menu|menuitem|nav|noframes|ol|optgroup|option|p|param|search|section|summary|table|tbody|td|tfoot|th|thead|title|tr|track|ul)(?:[\s/>]|$)/i;
const HTML_TYPE_7 = /^ {0,3}(?:<[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?\/?>|<\/[A-Za-z][A-Za-z0-9-]*\s*>)[ \t]*\r?\n?$/;

/**
 * Tracks the multi-line constructs a blank line does not end: front matter, fenced code and math, and HTML
 * blocks of kinds 1–5. HTML blocks of kinds 6–7 end at a blank line, but are tracked too so that a fence-like
 * line inside one is not taken for a fence.
 */
function createLineState() {
  let first = true;
  let frontmatter = false;
  let fence: { close: RegExp; length: number } | null = null;
  let htmlEnd: string | null = null;
  let htmlUntilBlank = false;

  return {
    /** Records a blank line; returns true when it lies inside a construct that a blank line does not end. */
    blank(): boolean {
      first = false;
      htmlUntilBlank = false;
      return frontmatter || fence !== null || htmlEnd !== null;
    },
    /** Updates the state with one non-blank line. */
    line(text: string, start: number, end: number): void {
      const isFirst = first;
      first = false;
      const c0 = text.charCodeAt(start);
      if (frontmatter) {
        if (/^---[ \t]*\r?\n?$/.test(text.slice(start, end))) frontmatter = false;
        return;
      }
      if (isFirst && c0 === 45 && /^---[ \t]*\r?\n?$/.test(text.slice(start, end))) {
        frontmatter = true;
        return;
      }
      if (fence !== null) {
        if (fence.close.test(text.slice(start, end))) fence = null;
        return;
      }
      if (htmlEnd !== null) {
        if (text.slice(start, end).toLowerCase().includes(htmlEnd)) htmlEnd = null;
        return;
      }
      // Only lines that begin (after up to 3 spaces) with one of ` ~ $ < can open a tracked construct, or a list
      // item whose first line is a fence.
      let i = start;
      while (i < start + 3 && text.charCodeAt(i) === 32) i++;
      const c = text.charCodeAt(i);
      if (c === 45 || c === 43 || c === 42 || (c >= 48 && c <= 57) || c === 32 || c === 9) {
        openItemFence(text.slice(start, end));
        return;
      }
      if (c !== 96 && c !== 126 && c !== 36 && c !== 60) return;
      const line = text.slice(start, end);
      if (c === 60) {
        openHtml(line);
        return;
      }
      if (htmlUntilBlank) return;
      const m = FENCE_OPEN.exec(line);
      if (m === null) return;
      const marker = m[1] as string;
      const info = m[2] as string;
      // A backtick fence's info string may not contain a backtick; a `$$` fence's meta may not contain `$`.
      if (marker[0] === '`' && info.includes('`')) return;
      if (marker[0] === '$' && info.includes('$')) return;
      const escaped = marker[0] === '`' ? '`' : marker[0] === '~' ? '~' : '\\$';
      fence = { close: new RegExp(`^ {0,3}${escaped}{${marker.length},}[ \\t]*\\r?\\n?$`), length: marker.length };
    },
  };

  /**
   * A fence opened on a list item's marker line (`- ```js`) is closed by a fence line indented to the item's
   * content, at any depth: without tracking it, that closing line would look like an opening fence.
   */
  function openItemFence(line: string): void {
    if (htmlUntilBlank) return;
    const m = ITEM_FENCE.exec(line);
    if (m === null) return;
    const marker = m[1] as string;
    if (marker[0] === '`' && (m[2] as string).includes('`')) return;
    const escaped = marker[0] === '`' ? '`' : '~';
    fence = { close: new RegExp(`^[ \\t]*${escaped}{${marker.length},}[ \\t]*\\r?\\n?$`), length: marker.length };
  }

  function openHtml(line: string): void {
    const lower = line.toLowerCase();
    const raw = HTML_RAW.exec(line);
    let end: string | null = null;
    let from = 0;
    if (raw) {
      end = `</${(raw[1] as string).toLowerCase()}>`;
      from = raw[0].length;
    } else if (/^ {0,3}<!--/.test(line)) {
      end = '-->';
      from = line.indexOf('<!--') + 4;
    } else if (/^ {0,3}<\?/.test(line)) {
      end = '?>';
      from = line.indexOf('<?') + 2;
    } else if (/^ {0,3}<!\[CDATA\[/.test(line)) {
      end = ']]>';
      from = line.indexOf('<![CDATA[') + 9;
    } else if (/^ {0,3}<![A-Za-z]/.test(line)) {
      end = '>';
      from = line.indexOf('<!') + 2;
    }
    if (end !== null) {
      if (!lower.includes(end, from)) htmlEnd = end;
      return;
    }
    if (HTML_TYPE_6.test(line) || HTML_TYPE_7.test(line)) htmlUntilBlank = true;
  }
}
