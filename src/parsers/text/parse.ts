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

/** Creates the plain-text core: bytes or strings in, paragraph blocks out. */
export function createTextCore(config: Pick<ParseConfig, 'fatal' | 'maxBufferBytes'>): Core<string | Uint8Array, Block> {
  const decoder = createUtf8Decoder({ fatal: config.fatal });
  const cap = config.maxBufferBytes;
  /** Text since the end of the last block emitted: the gap, then the paragraph being read. */
  let buffer = '';
  /** Document offset and line of `buffer[0]`. */
  let base = 0;
  let baseLine = 1;
  /** Buffer index of the first line not yet looked at. */
  let scan = 0;
  /** Buffer indices of the paragraph being read: its first non-whitespace character and the end of its last line's text. */
  let start = -1;
  let end = -1;

  /** Emits `buffer[start, end)` as a paragraph and drops it from the buffer; the whitespace after it stays. */
  const emit = (out: Block[]): void => {
    const text = buffer.slice(start, end);
    const startLine = baseLine + countLineEndings(buffer, 0, start);
    out.push({
      kind: 'paragraph',
      text,
      start: base + start,
      end: base + end,
      startLine,
      endLine: startLine + countLineEndings(text),
      gapBefore: buffer.slice(0, start),
    });
    baseLine = startLine + countLineEndings(text);
    base += end;
    buffer = buffer.slice(end);
    scan -= end;
    start = -1;
    end = -1;
  };

  const overflow = (at: number): never => {
    throw new ChunkError('ERR_BUFFER_OVERFLOW', `A line longer than maxBufferBytes (${cap}) starts at offset ${base + at}; raise maxBufferBytes or check the input`, {
      offset: base + at,
      line: baseLine + countLineEndings(buffer, 0, at),
    });
  };

  /** Reads the complete lines of the buffer (all of it when `final`). */
  const scanLines = (final: boolean): Block[] => {
    const out: Block[] = [];
    for (;;) {
      const nl = buffer.indexOf('\n', scan);
      if (nl === -1 && !final) break;
      const lineEnd = nl === -1 ? buffer.length : nl + 1;
      if (lineEnd === scan) break;
      if (lineEnd - scan > cap) overflow(scan);
      NON_SPACE.lastIndex = scan;
      const first = NON_SPACE.exec(buffer);
      scan = lineEnd;
      if (first === null || first.index >= lineEnd) {
        // A blank line ends the paragraph.
        if (start !== -1) emit(out);
        continue;
      }
      if (start === -1) start = first.index;
      const line = buffer.slice(first.index, lineEnd);
      end = first.index + line.length - (TRAILING_SPACE.exec(line)?.[0].length ?? 0);
      // A paragraph that passed the cap is cut after the line that passed it and goes on in a block of its own.
      if (start !== -1 && end - start > cap) emit(out);
    }
    if (buffer.length - scan > cap) overflow(scan);
    return out;
  };

  return {
    write(input) {
      buffer += decoder.write(input);
      return scanLines(false);
    },
    end() {
      buffer += decoder.end();
      const out = scanLines(true);
      if (start !== -1) emit(out);
      return out;
    },
  };
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
