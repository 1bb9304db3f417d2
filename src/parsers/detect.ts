/**
 * Which format a document is in, decided in one place: from its first bytes (`detectFormat`, which
 * `parse({ format: 'auto' })` uses), from a file's extension (`formatFromExtension`), and from both for a file a
 * user named (`detectFileFormat`: `chunkFile`, `inspect`, the framework loaders). The command line's inputs
 * (`detectInputFormat`) follow the same rules, and skip what a folder of mixed files holds besides documents.
 */
import { open } from 'node:fs/promises';
import { extname } from 'node:path';
import type { DocumentFormat, InputFormat } from '../config.js';

const PDF_MAGIC = '%PDF-';
/** How much of the input `detectFormat` looks at. */
export const DETECT_BYTES = 1024;
/** How much of a file the command line reads to tell text from binary. */
const TEXT_SNIFF_BYTES = 4096;

/** Extensions read as Markdown. */
export const MARKDOWN_EXTENSIONS: readonly string[] = ['.md', '.markdown', '.mdown', '.mkd', '.mkdn'];

/** Guesses the format from the first bytes: PDF when they hold `%PDF-`, Markdown otherwise. */
export function detectFormat(head: Uint8Array | string): Exclude<InputFormat, 'auto'> {
  const text = typeof head === 'string' ? head.slice(0, DETECT_BYTES) : Buffer.from(head.subarray(0, DETECT_BYTES)).toString('latin1');
  // The PDF header may follow a few bytes of garbage; readers accept it within the first kilobyte.
  return text.includes(PDF_MAGIC) ? 'pdf' : 'markdown';
}

/** How a file came to be read. */
export interface FoundFile {
  /**
   * Found walking a folder rather than named by the user. A walk leaves `.jsonl` alone: that is also what the
   * command line writes, and an output folder inside an input folder must not be read back.
   */
  readonly walked?: boolean;
}

/** The format an extension implies, or undefined when it says nothing we read. */
export function formatFromExtension(path: string, found: FoundFile = {}): DocumentFormat | undefined {
  const ext = extname(path).toLowerCase();
  if (ext === '.pdf') return 'pdf';
  if (ext === '.transcript') return 'transcript';
  // A named .jsonl file is a conversation, one turn a line.
  if (ext === '.jsonl' && found.walked !== true) return 'transcript';
  // Plain text, not Markdown: a line of `===` or an indented line would otherwise become a heading or code.
  if (ext === '.txt') return 'text';
  if (MARKDOWN_EXTENSIONS.includes(ext)) return 'markdown';
  return undefined;
}

/** The first `bytes` bytes of a file (fewer when it is shorter). */
export async function readHead(path: string, bytes = DETECT_BYTES): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/**
 * The format of a file a user named: its extension, else its first bytes (`%PDF-` within the first kilobyte is a
 * PDF, anything else Markdown). The file is opened only when the extension says nothing.
 */
export async function detectFileFormat(path: string): Promise<DocumentFormat> {
  return formatFromExtension(path) ?? detectFormat(await readHead(path));
}

/**
 * The format of a command-line input: its extension, else its first bytes; undefined for a file we do not read.
 * A named file that is no PDF is read as Markdown only when its head looks like text (no NUL byte); a file found
 * walking a folder only when its extension or its PDF header says so, so a folder of mixed files yields only
 * what we know how to read.
 */
export async function detectInputFormat(path: string, found: FoundFile = {}): Promise<DocumentFormat | undefined> {
  const byExtension = formatFromExtension(path, found);
  if (byExtension) return byExtension;
  const head = await readHead(path, TEXT_SNIFF_BYTES);
  if (detectFormat(head) === 'pdf') return 'pdf';
  if (found.walked !== true && !head.includes(0)) return 'markdown';
  return undefined;
}
