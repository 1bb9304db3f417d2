/**
 * Which format a document is in, decided in one place, from the format table (`formats.ts`): from its first bytes
 * (`detectFormat`, which `parse({ format: 'auto' })` uses), from a file's extension (`formatFromExtension`), and
 * from both for a file a user named (`detectFileFormat`: `chunkFile`, `inspect`, the framework loaders). The
 * command line's inputs (`detectInputFormat`) follow the same rules, and skip what a folder of mixed files holds
 * besides documents.
 */
import { open } from 'node:fs/promises';
import { extname } from 'node:path';
import type { DocumentFormat } from '../config.js';
import { FORMAT_TABLE, SIGNATURE_ORDER } from './formats.js';

/** How much of the input `detectFormat` looks at. */
export const DETECT_BYTES = 1024;
/** How much of a file the command line reads to tell text from binary. */
const TEXT_SNIFF_BYTES = 4096;

/** Extensions read as Markdown. */
export const MARKDOWN_EXTENSIONS: readonly string[] = FORMAT_TABLE.markdown.extensions;

/** The format whose signature the first bytes hold (a PDF header, …), or undefined when none does. */
export function sniffFormat(head: Uint8Array | string): DocumentFormat | undefined {
  const text = typeof head === 'string' ? head.slice(0, DETECT_BYTES) : Buffer.from(head.subarray(0, DETECT_BYTES)).toString('latin1');
  return SIGNATURE_ORDER.find((format) => FORMAT_TABLE[format].signature?.(text) === true);
}

/**
 * The format of an input from its first bytes: the format whose signature they hold (`%PDF-` within the first
 * kilobyte is a PDF), Markdown otherwise. The one rule of `parse({ format: 'auto' })`.
 */
export function detectFormat(head: Uint8Array | string): DocumentFormat {
  return sniffFormat(head) ?? 'markdown';
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
  for (const entry of Object.values(FORMAT_TABLE)) {
    if (entry.extensions.includes(ext)) return entry.name;
    if (found.walked !== true && entry.namedExtensions?.includes(ext) === true) return entry.name;
  }
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
 * The format of a file a user named: its extension, else its first bytes (`detectFormat`). The file is opened only
 * when the extension says nothing.
 */
export async function detectFileFormat(path: string): Promise<DocumentFormat> {
  return formatFromExtension(path) ?? detectFormat(await readHead(path));
}

/**
 * The format of a command-line input: its extension, else its first bytes; undefined for a file we do not read.
 * A named file without a signature is read as Markdown only when its head looks like text (no NUL byte); a file
 * found walking a folder only when its extension or its signature says so, so a folder of mixed files yields only
 * what we know how to read.
 */
export async function detectInputFormat(path: string, found: FoundFile = {}): Promise<DocumentFormat | undefined> {
  const byExtension = formatFromExtension(path, found);
  if (byExtension) return byExtension;
  const head = await readHead(path, TEXT_SNIFF_BYTES);
  const signed = sniffFormat(head);
  if (signed !== undefined) return signed;
  if (found.walked !== true && !head.includes(0)) return 'markdown';
  return undefined;
}
