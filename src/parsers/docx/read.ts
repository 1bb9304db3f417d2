/**
 * Word files: mammoth turns the document into HTML (its default style map gives Heading 1–6 headings, lists and
 * tables with their header rows), and the HTML reader turns that into blocks. The archive is checked first
 * (`zip-check.ts`); images are never read (their alt text is kept). Block offsets point into the extracted text;
 * `sourceStart`/`sourceEnd` into the HTML mammoth wrote.
 */
import { readFile } from 'node:fs/promises';
import mammoth from 'mammoth';
import type { ParseConfig } from '../../config.js';
import { ChunkError } from '../../errors.js';
import type { Block } from '../../types.js';
import { createHtmlCore, extractedText } from '../html/parse.js';
import { checkDocxArchive } from './zip-check.js';

/** A Word file read into blocks. */
export interface DocxDocument {
  readonly blocks: Block[];
  /** The extracted document text: `text.slice(b.start, b.end) === b.text`. */
  readonly text: string;
  /** What mammoth could not map (an unknown style), each once, at most ten. */
  readonly warnings: string[];
}

/** mammoth's link from the end of a note back to where it is referenced. */
const BACK_LINK = /<a href="#(?:footnote|endnote|comment)-ref-[^"<>]*">\u2191<\/a>/g;

/**
 * mammoth ends each footnote and endnote with a link back to its reference, written `↑`: no text of the document, and
 * a token in every note's chunk. It is blanked with spaces of its length, so that `sourceStart`/`sourceEnd` still
 * point into the HTML mammoth wrote.
 */
function blankBackLinks(html: string): string {
  return html.replace(BACK_LINK, (link) => ' '.repeat(link.length));
}

/** Images are not read: a Word file's pictures would be inlined as data URIs, megabytes each. */
const NO_IMAGES = mammoth.images.imgElement(async () => ({ src: '' }));
const MAX_WARNINGS = 10;

/** Reads a Word file's bytes into blocks. Throws `ERR_DOCX_INVALID` or `ERR_DOCX_LIMIT`. */
export async function readDocx(bytes: Buffer, config: Pick<ParseConfig, 'fatal'>): Promise<DocxDocument> {
  checkDocxArchive(bytes);
  let result: { value: string; messages: { type: string; message: string }[] };
  try {
    result = await mammoth.convertToHtml({ buffer: bytes }, { convertImage: NO_IMAGES });
  } catch (error) {
    throw new ChunkError('ERR_DOCX_INVALID', `Not a readable Word file: ${(error as Error).message}`, { cause: error });
  }
  const core = createHtmlCore({ fatal: config.fatal, htmlContent: 'all' });
  const blocks = [...core.write(blankBackLinks(result.value)), ...core.end()];
  const warnings = [...new Set(result.messages.map((m) => m.message))].slice(0, MAX_WARNINGS);
  return { blocks, text: extractedText(blocks), warnings };
}

/** Reads the Word file at `path` (the streaming entry: `parse()` spools its input to a file). */
export async function readDocxFile(path: string, config: Pick<ParseConfig, 'fatal'>): Promise<DocxDocument> {
  return readDocx(await readFile(path), config);
}

/** The blocks of the Word file at `path`, one at a time, then its warnings. */
export async function* readDocxFileBlocks(path: string, config: ParseConfig, onInfo?: (info: object) => void): AsyncGenerator<Block> {
  const document = await readDocxFile(path, config);
  yield* document.blocks;
  onInfo?.({ warnings: document.warnings });
}
