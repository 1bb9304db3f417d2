/**
 * Plain text: paragraphs at blank lines, nothing else interpreted. A line of `===` stays text (no setext heading),
 * an indented line stays text (no code block), `#`, `*`, `|` and `<` mean nothing. Every block is a `paragraph`
 * whose `text` is the exact slice from its first to its last non-whitespace character; the whitespace between
 * paragraphs is their `gapBefore`, so chunks spanning several of them are exact slices too.
 *
 * Lines end at `\n` (CRLF included). Streaming in bounded memory: only the paragraph being read is held. A
 * paragraph that grows past `maxBufferBytes` is cut after the line that took it past and goes on in a block of its
 * own; a single line longer than the cap fails with `ERR_BUFFER_OVERFLOW`, as for Markdown.
 */
import { normalizeParseOptions, type ParseConfig, type ParseOptions } from '../../config.js';
import type { Core } from '../../core.js';
import { ChunkError } from '../../errors.js';
import { countLineEndings } from '../../unicode/lines.js';
import type { Block } from '../../types.js';
import { checkedTextBlocks } from '../text-input.js';
import { createUtf8Decoder } from '../utf8-decoder.js';

const NON_SPACE = /\S/g;
const TRAILING_SPACE = /\s+$/;

/** What the plain-text reader holds: the text since the last block it gave, and where the paragraph being read lies. */
interface TextReader {
  readonly cap: number;
  /** Text since the end of the last block emitted: the gap, then the paragraph being read. */
  buffer: string;
  /** Document offset and line of `buffer[0]`. */
  base: number;
  baseLine: number;
  /** Buffer index of the first line not yet looked at. */
  scan: number;
  /** Buffer indices of the paragraph being read: its first non-whitespace character and the end of its last line's text (-1: none). */
  start: number;
  end: number;
}

/** Creates the plain-text core: bytes or strings in, paragraph blocks out. */
export function createTextCore(config: Pick<ParseConfig, 'fatal' | 'maxBufferBytes'>): Core<string | Uint8Array, Block> {
  const decoder = createUtf8Decoder({ fatal: config.fatal });
  const reader: TextReader = { cap: config.maxBufferBytes, buffer: '', base: 0, baseLine: 1, scan: 0, start: -1, end: -1 };
  return {
    write(input) {
      reader.buffer += decoder.write(input);
      return scanLines(reader, false);
    },
    end() {
      reader.buffer += decoder.end();
      const out = scanLines(reader, true);
      if (reader.start !== -1) emitParagraph(reader, out);
      return out;
    },
  };
}

/** Emits `buffer[start, end)` as a paragraph and drops it from the buffer; the whitespace after it stays. */
function emitParagraph(r: TextReader, out: Block[]): void {
  const { buffer, start, end } = r;
  const text = buffer.slice(start, end);
  const startLine = r.baseLine + countLineEndings(buffer, 0, start);
  out.push({
    kind: 'paragraph',
    text,
    start: r.base + start,
    end: r.base + end,
    startLine,
    endLine: startLine + countLineEndings(text),
    gapBefore: buffer.slice(0, start),
  });
  r.baseLine = startLine + countLineEndings(text);
  r.base += end;
  r.buffer = buffer.slice(end);
  r.scan -= end;
  r.start = -1;
  r.end = -1;
}

/** Throws `ERR_BUFFER_OVERFLOW` for the line at buffer index `at`, longer than the cap. */
function overflow(r: TextReader, at: number): never {
  throw new ChunkError('ERR_BUFFER_OVERFLOW', `A line longer than maxBufferBytes (${r.cap}) starts at offset ${r.base + at}; raise maxBufferBytes or check the input`, {
    offset: r.base + at,
    line: r.baseLine + countLineEndings(r.buffer, 0, at),
  });
}

/** Reads the complete lines of the buffer (all of it when `final`); returns the paragraphs they complete. */
function scanLines(r: TextReader, final: boolean): Block[] {
  const out: Block[] = [];
  for (;;) {
    const nl = r.buffer.indexOf('\n', r.scan);
    if (nl === -1 && !final) break;
    const lineEnd = nl === -1 ? r.buffer.length : nl + 1;
    if (lineEnd === r.scan) break;
    if (lineEnd - r.scan > r.cap) overflow(r, r.scan);
    readLine(r, lineEnd, out);
  }
  if (r.buffer.length - r.scan > r.cap) overflow(r, r.scan);
  return out;
}

/** Reads the line from `scan` to `lineEnd`: a blank line ends the paragraph, any other goes on with it. */
function readLine(r: TextReader, lineEnd: number, out: Block[]): void {
  NON_SPACE.lastIndex = r.scan;
  const first = NON_SPACE.exec(r.buffer);
  r.scan = lineEnd;
  if (first === null || first.index >= lineEnd) {
    if (r.start !== -1) emitParagraph(r, out);
    return;
  }
  if (r.start === -1) r.start = first.index;
  const line = r.buffer.slice(first.index, lineEnd);
  r.end = first.index + line.length - (TRAILING_SPACE.exec(line)?.[0].length ?? 0);
  // A paragraph that passed the cap is cut after the line that passed it and goes on in a block of its own.
  if (r.start !== -1 && r.end - r.start > r.cap) emitParagraph(r, out);
}

/**
 * Parses a whole plain-text document into paragraph blocks, synchronously: the blocks `parse({ format: 'text' })`
 * emits for the same text, whatever the write sizes.
 *
 * ```ts
 * const { chunks } = chunkBlocks(parseText(readFileSync('notes.txt', 'utf8')), { maxSize: 256 });
 * ```
 */
export function parseText(text: string | Uint8Array, options?: ParseOptions): Block[] {
  const core = createTextCore(normalizeParseOptions({ ...options, format: 'text' }));
  return checkedTextBlocks(text, (input) => [...core.write(input), ...core.end()]);
}
