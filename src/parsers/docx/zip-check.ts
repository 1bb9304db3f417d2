/**
 * A Word file is a ZIP archive; mammoth (over JSZip) inflates every part it reads whole, trusting the sizes the
 * archive declares. Before it does, this reads the archive's central directory and inflates each XML part once
 * with a cap on its output (`zlib`'s `maxOutputLength`), so a ZIP bomb or an oversized part ends in
 * `ERR_DOCX_LIMIT` within the memory budget instead of exhausting it, and an archive that is no Word file ends in
 * `ERR_DOCX_INVALID`. Written here because the check is 80 lines over Node's own `zlib`, and a ZIP library would
 * inflate the parts a second time to the same end.
 */
import { inflateRawSync } from 'node:zlib';
import { ChunkError } from '../../errors.js';

/** The most bytes a Word file may have. */
export const MAX_DOCX_BYTES = 64 * 1024 * 1024;
/** The most bytes one XML part may inflate to (the document body of a book of thousands of pages is some 30 MB). */
export const MAX_PART_BYTES = 32 * 1024 * 1024;
/** The most bytes all XML parts together may inflate to. */
export const MAX_XML_BYTES = 96 * 1024 * 1024;
/** The most entries an archive may list. */
const MAX_ENTRIES = 20_000;

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
const STORED = 0;
const DEFLATED = 8;
const ZIP64_MARK = 0xffffffff;

/** One entry of the central directory. */
interface ZipEntry {
  readonly name: string;
  readonly method: number;
  readonly compressed: number;
  readonly size: number;
  readonly offset: number;
}

function invalid(reason: string): ChunkError {
  return new ChunkError('ERR_DOCX_INVALID', `Not a readable Word file: ${reason}`);
}

function limit(reason: string): ChunkError {
  return new ChunkError('ERR_DOCX_LIMIT', `The Word file is past a limit: ${reason}`);
}

/** The entries of the archive's central directory. */
function entriesOf(bytes: Buffer): ZipEntry[] {
  const from = Math.max(0, bytes.length - 65_557);
  let end = -1;
  for (let i = bytes.length - 22; i >= from; i--) {
    if (bytes.readUInt32LE(i) === END_OF_DIRECTORY) {
      end = i;
      break;
    }
  }
  if (end < 0) throw invalid('no ZIP central directory');
  const count = bytes.readUInt16LE(end + 10);
  const start = bytes.readUInt32LE(end + 16);
  if (start === ZIP64_MARK || count === 0xffff) throw limit('a ZIP64 archive (over 4 GB or 65,535 entries)');
  if (count > MAX_ENTRIES) throw limit(`${count} entries, more than ${MAX_ENTRIES}`);
  const entries: ZipEntry[] = [];
  let at = start;
  for (let n = 0; n < count; n++) {
    if (at + 46 > bytes.length || bytes.readUInt32LE(at) !== DIRECTORY_ENTRY) throw invalid('a damaged central directory');
    const nameLength = bytes.readUInt16LE(at + 28);
    entries.push({
      name: bytes.toString('utf8', at + 46, at + 46 + nameLength),
      method: bytes.readUInt16LE(at + 10),
      compressed: bytes.readUInt32LE(at + 20),
      size: bytes.readUInt32LE(at + 24),
      offset: bytes.readUInt32LE(at + 42),
    });
    at += 46 + nameLength + bytes.readUInt16LE(at + 30) + bytes.readUInt16LE(at + 32);
  }
  return entries;
}

/** The size an entry really inflates to, stopping at `MAX_PART_BYTES`. */
function inflatedSize(bytes: Buffer, entry: ZipEntry): number {
  if (entry.offset + 30 > bytes.length || bytes.readUInt32LE(entry.offset) !== LOCAL_HEADER) throw invalid(`a damaged entry ${entry.name}`);
  const dataStart = entry.offset + 30 + bytes.readUInt16LE(entry.offset + 26) + bytes.readUInt16LE(entry.offset + 28);
  if (dataStart + entry.compressed > bytes.length) throw invalid(`a truncated entry ${entry.name}`);
  if (entry.method === STORED) return entry.compressed;
  if (entry.method !== DEFLATED) throw invalid(`entry ${entry.name} uses compression method ${entry.method}`);
  try {
    return inflateRawSync(bytes.subarray(dataStart, dataStart + entry.compressed), { maxOutputLength: MAX_PART_BYTES }).length;
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' || error instanceof RangeError) throw limit(`${entry.name} inflates to more than ${MAX_PART_BYTES} bytes`);
    throw invalid(`entry ${entry.name} does not inflate: ${(error as Error).message}`);
  }
}

/**
 * Checks that `bytes` are a Word archive whose XML parts inflate within the limits; throws `ERR_DOCX_INVALID` or
 * `ERR_DOCX_LIMIT` otherwise.
 */
export function checkDocxArchive(bytes: Buffer): void {
  if (bytes.length > MAX_DOCX_BYTES) throw limit(`${bytes.length} bytes, more than ${MAX_DOCX_BYTES}`);
  if (bytes.length < 22 || bytes.readUInt32LE(0) !== LOCAL_HEADER) throw invalid('no ZIP signature');
  const entries = entriesOf(bytes);
  if (!entries.some((e) => e.name === 'word/document.xml')) throw invalid('no word/document.xml part');
  let total = 0;
  for (const entry of entries) {
    if (!/\.(?:xml|rels)$/i.test(entry.name)) continue;
    if (entry.size > MAX_PART_BYTES) throw limit(`${entry.name} declares ${entry.size} bytes, more than ${MAX_PART_BYTES}`);
    total += inflatedSize(bytes, entry);
    if (total > MAX_XML_BYTES) throw limit(`its XML parts inflate to more than ${MAX_XML_BYTES} bytes`);
  }
}
