/**
 * The HTML reader: bytes (or text) in, blocks out, as they are read. The encoding comes from a byte order mark or
 * a `<meta charset>` (`decode.ts`), tags and text from htmlparser2's tokenizer (`tokens.ts`), blocks from the
 * elements (`builder.ts`), and only the page's content, with offsets in the extracted text (`document.ts`). No
 * document tree is ever built: memory stays flat whatever the size of the page.
 *
 * Every block's `text` is a slice of the extracted document text (`parseHtml(...).text`, the blocks' gaps and
 * texts in order), and `sourceStart`/`sourceEnd` point at its element in the decoded source.
 */
import { readFile } from 'node:fs/promises';
import { normalizeParseOptions, type ParseConfig, type ParseOptions } from '../../config.js';
import type { Core } from '../../core.js';
import type { Block } from '../../types.js';
import { BlockBuilder } from './builder.js';
import { createHtmlDecoder } from './decode.js';
import { HtmlDocument } from './document.js';
import { HtmlTokens } from './tokens.js';

/** A whole HTML document read into blocks. */
export interface HtmlDocumentResult {
  readonly blocks: Block[];
  /** The extracted document text: `text.slice(b.start, b.end) === b.text` for every block. */
  readonly text: string;
}

/** Creates the HTML core: bytes or strings in, blocks out. */
export function createHtmlCore(config: Pick<ParseConfig, 'fatal' | 'htmlContent'>): Core<string | Uint8Array, Block> {
  const decoder = createHtmlDecoder({ fatal: config.fatal });
  const document = new HtmlDocument(config.htmlContent);
  const builder = new BlockBuilder(document, config.htmlContent);
  const tokens = new HtmlTokens(builder);
  return {
    write(input) {
      tokens.write(decoder.write(input));
      return document.take();
    },
    end() {
      tokens.write(decoder.end());
      tokens.end();
      builder.finish();
      return document.finish();
    },
  };
}

/** The extracted document text of blocks read in order: each block's gap, then its text. */
export function extractedText(blocks: readonly Block[]): string {
  return blocks.map((b) => (b.gapBefore ?? '') + b.text).join('');
}

/**
 * Parses a whole HTML document, synchronously: the blocks `parse({ format: 'html' })` emits for the same input,
 * whatever the write sizes, and the extracted text their offsets point into.
 *
 * ```ts
 * const { blocks, text } = parseHtml(readFileSync('page.html'));
 * const { chunks } = chunkBlocks(blocks, { maxSize: 256 });
 * ```
 */
export function parseHtml(input: string | Uint8Array, options?: ParseOptions): HtmlDocumentResult {
  const core = createHtmlCore(normalizeParseOptions({ ...options, format: 'html' }));
  const blocks = [...core.write(input), ...core.end()];
  return { blocks, text: extractedText(blocks) };
}

/** Reads an HTML file whole (for `chunkFile`): its blocks and extracted text. */
export async function readHtmlFile(path: string, config: ParseConfig): Promise<HtmlDocumentResult> {
  const core = createHtmlCore(config);
  const blocks = [...core.write(await readFile(path)), ...core.end()];
  return { blocks, text: extractedText(blocks) };
}
