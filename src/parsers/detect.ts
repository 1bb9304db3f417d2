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
import { ChunkError } from '../errors.js';
import { FORMAT_TABLE, SIGNATURE_ORDER } from './formats.js';

/** How much of the input `detectFormat` looks at. */
export const DETECT_BYTES = 1024;
/** How much of a file the command line reads to tell text from binary. */
const TEXT_SNIFF_BYTES = 4 * DETECT_BYTES;

/** Extensions read as Markdown. */
export const MARKDOWN_EXTENSIONS: readonly string[] = FORMAT_TABLE.markdown.extensions;

/** The format whose signature the first bytes hold (a PDF header, …), or undefined when none does. */
export function sniffFormat(head: Uint8Array | string): DocumentFormat | undefined {
  const text = typeof head === 'string' ? head.slice(0, DETECT_BYTES) : Buffer.from(head.subarray(0, DETECT_BYTES)).toString('latin1');
  return SIGNATURE_ORDER.find((format) => FORMAT_TABLE[format].signature?.(text) === true);
}

/**
 * The format of an input from its first bytes: the format whose signature they hold (`%PDF-` within the first
 * kilobyte is a PDF), Markdown otherwise. The one rule of `parse({ format: 'auto' })`. Binary data (a NUL byte, or
 * the signature of a binary format chunkstream does not read: an image, an archive, a program) is none of them:
 * `ERR_UNSUPPORTED_FORMAT`, naming what it looks like.
 */
export function detectFormat(head: Uint8Array | string): DocumentFormat {
  const format = sniffFormat(head);
  if (format !== undefined) return format;
  const binary = binaryKind(head.slice(0, DETECT_BYTES));
  if (binary !== undefined) throw new ChunkError('ERR_UNSUPPORTED_FORMAT', `Not a format chunkstream reads: ${binary}`);
  return 'markdown';
}

/** A binary format's signature at the start of the input (as Latin-1), and what to call it. */
interface BinarySignature {
  readonly kind: string;
  readonly test: (head: string) => boolean;
}

const startsWith =
  (...magic: string[]) =>
  (head: string): boolean =>
    magic.some((m) => head.startsWith(m));

/**
 * Binary formats a document folder holds beside its documents, by their signatures. Most of them also hold a NUL
 * byte within their first bytes, which is enough on its own; the signature names them in the message.
 */
const BINARY_SIGNATURES: readonly BinarySignature[] = [
  { kind: 'a PNG image', test: startsWith('\x89PNG\r\n\x1a\n') },
  { kind: 'a JPEG image', test: startsWith('\xff\xd8\xff') },
  { kind: 'a GIF image', test: startsWith('GIF87a', 'GIF89a') },
  { kind: 'a RIFF file (WebP, WAV, AVI)', test: (head) => head.startsWith('RIFF') && /^(WEBP|WAVE|AVI )/.test(head.slice(8, 12)) },
  { kind: 'a TIFF image', test: startsWith('II*\0', 'MM\0*') },
  { kind: 'a ZIP archive', test: startsWith('PK\x03\x04', 'PK\x05\x06') },
  { kind: 'a gzip archive', test: startsWith('\x1f\x8b') },
  { kind: 'a bzip2 archive', test: (head) => /^BZh[1-9]1AY&SY/.test(head) },
  { kind: 'an xz archive', test: startsWith('\xfd7zXZ\0') },
  { kind: 'a zstd archive', test: startsWith('\x28\xb5\x2f\xfd') },
  { kind: 'a 7z archive', test: startsWith('7z\xbc\xaf\x27\x1c') },
  { kind: 'a RAR archive', test: startsWith('Rar!\x1a\x07') },
  { kind: 'an ELF program', test: startsWith('\x7fELF') },
  { kind: 'a Mach-O program', test: startsWith('\xfe\xed\xfa\xce', '\xfe\xed\xfa\xcf', '\xce\xfa\xed\xfe', '\xcf\xfa\xed\xfe', '\xca\xfe\xba\xbe') },
  { kind: 'a WebAssembly module', test: startsWith('\0asm') },
  { kind: 'an SQLite database', test: startsWith('SQLite format 3\0') },
  { kind: 'an Ogg or FLAC audio file', test: startsWith('OggS', 'fLaC') },
  { kind: 'an MP3 audio file', test: startsWith('ID3') },
  { kind: 'an MP4 or QuickTime video', test: (head) => head.slice(4, 8) === 'ftyp' },
];

/**
 * What binary data the first bytes of an input are (a known signature, else a NUL byte within them), or undefined
 * when they look like text; the caller chooses how many bytes (`detectFormat` the first kilobyte, as for the formats'
 * signatures). The one binary test of `detectFormat` and of the command line's inputs; a NUL further
 * into a text format's input is found as it is read (`text-input.ts`).
 */
export function binaryKind(head: Uint8Array | string): string | undefined {
  const text = typeof head === 'string' ? head : Buffer.from(head).toString('latin1');
  const known = BINARY_SIGNATURES.find((signature) => signature.test(text));
  if (known !== undefined) return known.kind;
  const nul = text.indexOf('\0');
  return nul === -1 ? undefined : `binary data (a NUL byte at byte offset ${nul})`;
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
  const byExtension = formatFromExtension(path);
  if (byExtension !== undefined) return byExtension;
  const head = await readHead(path);
  try {
    return detectFormat(head);
  } catch (error) {
    throw error instanceof ChunkError ? new ChunkError(error.code, error.message, { source: path }) : error;
  }
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
  if (found.walked !== true && binaryKind(head) === undefined) return 'markdown';
  return undefined;
}
