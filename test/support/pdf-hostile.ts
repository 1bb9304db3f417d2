/**
 * Hostile PDFs, made by hand at a requested size: decompression bombs, operator floods, deep nesting, floods of
 * pages, fonts and text runs. Each generator takes the size of the file to write, in bytes, and returns a PDF of
 * about that size (never less than a few hundred bytes), so the same shape can be made small for a test and at 2, 8
 * or 32 MB for a benchmark.
 *
 * Every file has three pages: an ordinary page, the hostile page, and another ordinary page, so that a test can
 * check that what comes before the hostile page is read. Their texts are `BEFORE_TEXT` and `AFTER_TEXT`.
 */
import { deflateRawSync, constants } from 'node:zlib';
import { serializePdf, type PdfObject } from './pdf-builder.js';

/** Text of the page before the hostile one. */
export const BEFORE_TEXT = 'This ordinary page comes before the hostile page and must be read.';
/** Text of the page after the hostile one. */
export const AFTER_TEXT = 'This ordinary page comes after the hostile page.';

const HELVETICA = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>';

/** An ordinary line of text as content-stream operators. */
function line(text: string, y = 700): string {
  return `BT /F1 11 Tf 72 ${y} Td (${text}) Tj ET\n`;
}

/** What the hostile page of a document needs besides the two ordinary pages. */
interface HostilePage {
  /** The hostile page's content stream: operators, or a stream object (its dictionary entries and bytes). */
  readonly content: string | { readonly entries: string; readonly data: Uint8Array };
  /** More objects; the first is numbered `HOSTILE_FIRST`, the next one more, and so on. */
  readonly objects?: readonly PdfObject[];
  /** More entries of the hostile page's font dictionary (beside `/F1`). */
  readonly fonts?: string;
  /** More entries of the hostile page's resource dictionary. */
  readonly resources?: string;
}

/**
 * Objects of every three-page file: 1 the catalog, 2 the page tree, 3 the font, 4–5 the first page and its
 * content, 6–7 the hostile page and its content, 8–9 the last page and its content; a shape's own objects follow.
 */
const HOSTILE_FIRST = 10;

/** Writes the three-page document around a hostile page. */
function threePages(hostile: HostilePage): Uint8Array {
  const page = (contents: number, fonts = '', resources = ''): string =>
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R${fonts} >>${resources} >> /Contents ${contents} 0 R >>`;
  const content = hostile.content;
  const objects: PdfObject[] = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [4 0 R 6 0 R 8 0 R] /Count 3 >>',
    HELVETICA,
    page(5),
    stream(line(BEFORE_TEXT)),
    page(7, hostile.fonts, hostile.resources),
    typeof content === 'string' ? stream(content) : content,
    page(9),
    stream(line(AFTER_TEXT)),
    ...(hostile.objects ?? []),
  ];
  return serializePdf(objects, 1);
}

function stream(data: string | Uint8Array): PdfObject {
  return { entries: '', data: typeof data === 'string' ? Buffer.from(data, 'latin1') : data };
}

/** Room the rest of a three-page file takes, so that a shape's own part can be sized to the requested total. */
const FRAME_BYTES = 900;

/** Bytes left for the hostile part of a file of `bytes` bytes. */
function room(bytes: number): number {
  return Math.max(64, bytes - FRAME_BYTES);
}

/** `unit` repeated to fill `bytes` bytes. */
function repeat(unit: string, bytes: number): string {
  return unit.repeat(Math.max(1, Math.floor(bytes / unit.length)));
}

const ADLER_BASE = 65521;

/** Adler-32 of some bytes (the checksum that ends a zlib stream). */
function adler32(bytes: Uint8Array): number {
  let a = 1;
  let b = 0;
  for (let i = 0; i < bytes.length; i++) {
    a = (a + (bytes[i] as number)) % ADLER_BASE;
    b = (b + a) % ADLER_BASE;
  }
  return ((b << 16) | a) >>> 0;
}

/** The Adler-32 of two pieces joined, from theirs and the length of the second (zlib's `adler32_combine`). */
function adler32Combine(first: number, second: number, secondLength: number): number {
  const rem = secondLength % ADLER_BASE;
  let sum1 = first & 0xffff;
  let sum2 = (rem * sum1) % ADLER_BASE;
  sum1 += (second & 0xffff) + ADLER_BASE - 1;
  sum2 += ((first >>> 16) & 0xffff) + ((second >>> 16) & 0xffff) + ADLER_BASE - rem;
  if (sum1 >= ADLER_BASE) sum1 -= ADLER_BASE;
  if (sum1 >= ADLER_BASE) sum1 -= ADLER_BASE;
  if (sum2 >= ADLER_BASE * 2) sum2 -= ADLER_BASE * 2;
  if (sum2 >= ADLER_BASE) sum2 -= ADLER_BASE;
  return (sum1 | (sum2 << 16)) >>> 0;
}

/** Uncompressed size of one repeated piece of a bomb. */
const BOMB_PIECE = 1 << 20;

/**
 * A valid zlib stream of `head`, then `filler` (Latin-1 text) repeated until the compressed stream is about `bytes` long, then
 * `tail`. Each piece is compressed once and flushed fully, so that copies can be concatenated; the stream thus
 * inflates to about a thousand times its size without ever being inflated here.
 */
export function zlibBomb(head: Uint8Array, filler: string, tail: Uint8Array, bytes: number): { data: Uint8Array; inflated: number } {
  const full = { finishFlush: constants.Z_FULL_FLUSH, level: 9 };
  const piece = Buffer.from(filler.repeat(Math.ceil(BOMB_PIECE / filler.length)).slice(0, BOMB_PIECE), 'latin1');
  const headZ = deflateRawSync(head, full);
  const pieceZ = deflateRawSync(piece, full);
  const tailZ = deflateRawSync(tail, { level: 9 });
  const copies = Math.max(1, Math.floor((bytes - headZ.length - tailZ.length - 6) / pieceZ.length));
  let checksum = adler32(head);
  const pieceSum = adler32(piece);
  for (let i = 0; i < copies; i++) checksum = adler32Combine(checksum, pieceSum, BOMB_PIECE);
  checksum = adler32Combine(checksum, adler32(tail), tail.length);
  const out = new Uint8Array(2 + headZ.length + copies * pieceZ.length + tailZ.length + 4);
  out.set([0x78, 0xda], 0);
  let at = 2;
  out.set(headZ, at);
  at += headZ.length;
  for (let i = 0; i < copies; i++, at += pieceZ.length) out.set(pieceZ, at);
  out.set(tailZ, at);
  at += tailZ.length;
  new DataView(out.buffer).setUint32(at, checksum);
  return { data: out, inflated: head.length + copies * BOMB_PIECE + tail.length };
}

/**
 * A decompression bomb: the hostile page's content stream is a line of text, then spaces that inflate to about a
 * thousand times the file's size (2 MB of file, 2 GB of content), then another line.
 */
export function inflateBombPdf(bytes: number): Uint8Array {
  const { data } = zlibBomb(Buffer.from(line('Text before the bomb.'), 'latin1'), ' ', Buffer.from(line('Text after the bomb.', 680), 'latin1'), room(bytes));
  return threePages({ content: { entries: ' /Filter /FlateDecode', data } });
}

/** Options of `saveFloodPdf`. */
export interface SaveFloodOptions {
  /**
   * Compress the content stream: the file then holds about 440 `q` per byte (two million in 4.5 KB), so that at a
   * few megabytes it is a decompression bomb as well as a flood.
   */
  readonly compress?: boolean;
}

/** A flood of nested graphics-state saves: `q` without `Q`, one every two bytes of the file (or compressed). */
export function saveFloodPdf(bytes: number, options: SaveFloodOptions = {}): Uint8Array {
  const head = line('Text before the flood.');
  const tail = `\n${line('Text inside the flood.', 680)}`;
  if (options.compress !== true) return threePages({ content: `${head}${repeat('q ', room(bytes))}${tail}` });
  const { data } = zlibBomb(Buffer.from(head, 'latin1'), 'q ', Buffer.from(tail, 'latin1'), room(bytes));
  return threePages({ content: { entries: ' /Filter /FlateDecode', data } });
}

/** A flood of drawing operators: a short path stroked over and over (`m l S`), with a line of text among them. */
export function operatorFloodPdf(bytes: number): Uint8Array {
  return threePages({ content: `${line('Text before the paths.')}${repeat('10 10 m 500 700 l S\n', room(bytes))}` });
}

/** A flood of text runs: one single-character run a line, stepping down a point each time. */
export function textFloodPdf(bytes: number): Uint8Array {
  return threePages({ content: `BT /F1 1 Tf 72 780 Td ${repeat('0 -0.001 Td (a) Tj\n', room(bytes))} ET\n` });
}

/** A single line of text as long as the file: words, no line break. */
export function longLinePdf(bytes: number): Uint8Array {
  return threePages({ content: `BT /F1 11 Tf 72 700 Td (${repeat('lorem ipsum dolor sit amet ', room(bytes))}) Tj ET\n` });
}

/** One text-showing `TJ` whose array holds a number (a kerning step) for every few bytes of the file. */
export function kerningFloodPdf(bytes: number): Uint8Array {
  return threePages({ content: `BT /F1 11 Tf 72 700 Td [(a) ${repeat('-1 ', room(bytes))}(b)] TJ ET\n` });
}

/** Form XObjects nested as deep as the file allows: each form draws the next; the deepest one draws text. */
export function deepFormPdf(bytes: number): Uint8Array {
  const depth = Math.max(2, Math.floor(room(bytes) / 195));
  const forms = Array.from({ length: depth }, (_, i): PdfObject => {
    const last = i === depth - 1;
    const next = last ? '' : ` /XObject << /Fm0 ${HOSTILE_FIRST + i + 1} 0 R >>`;
    return {
      entries: ` /Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >>${next} >>`,
      data: Buffer.from(last ? line('Text in the deepest form.', 600) : '/Fm0 Do', 'latin1'),
    };
  });
  return threePages({ content: `${line('Text before the forms.')}/Fm0 Do\n`, resources: ` /XObject << /Fm0 ${HOSTILE_FIRST} 0 R >>`, objects: forms });
}

/** A page tree nested as deep as the file allows: each node of the tree has one child, the last one the page. */
export function deepPageTreePdf(bytes: number): Uint8Array {
  const depth = Math.max(2, Math.floor(room(bytes) / 92));
  const objects: PdfObject[] = ['<< /Type /Catalog /Pages 2 0 R >>', '', HELVETICA];
  const add = (body: PdfObject): number => objects.push(body);
  const font = '<< /Font << /F1 3 0 R >> >>';
  const before = add(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources ${font} /Contents ${add(stream(line(BEFORE_TEXT)))} 0 R >>`);
  const content = add(stream(line('Text at the bottom of the page tree.')));
  // Node k of the chain is object top + k; the page sits under the last node.
  const top = objects.length + 1;
  for (let k = 0; k < depth; k++) {
    const parent = k === 0 ? 2 : top + k - 1;
    add(`<< /Type /Pages /Parent ${parent} 0 R /Kids [${top + k + 1} 0 R] /Count 1 >>`);
  }
  add(`<< /Type /Page /Parent ${top + depth - 1} 0 R /MediaBox [0 0 612 792] /Resources ${font} /Contents ${content} 0 R >>`);
  const after = add(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources ${font} /Contents ${add(stream(line(AFTER_TEXT)))} 0 R >>`);
  objects[1] = `<< /Type /Pages /Kids [${before} 0 R ${top} 0 R ${after} 0 R] /Count 3 >>`;
  return serializePdf(objects, 1);
}

/** A page that uses a new font object for every run of text, as many fonts as the file allows. */
export function manyFontsPdf(bytes: number): Uint8Array {
  const count = Math.max(2, Math.floor(room(bytes) / 165));
  const runs: string[] = [];
  const fonts: string[] = [];
  for (let i = 0; i < count; i++) {
    runs.push(`BT /G${i} 9 Tf ${72 + (i % 40) * 12} ${760 - (Math.floor(i / 40) % 60) * 12} Td (f) Tj ET\n`);
    fonts.push(` /G${i} ${HOSTILE_FIRST + i} 0 R`);
  }
  return threePages({ content: runs.join(''), fonts: fonts.join(''), objects: Array.from({ length: count }, () => HELVETICA) });
}

/** A page whose resource dictionary holds an array nested as deep as the file allows (`[[[[…]]]]`). */
export function deepArrayPdf(bytes: number): Uint8Array {
  const depth = Math.max(2, Math.floor(room(bytes) / 2));
  return threePages({ content: line('Text beside a deep array.'), resources: ` /Junk ${'['.repeat(depth)}${']'.repeat(depth)}` });
}

/**
 * A page without text that paints one image whose pixels inflate to about a thousand times the file's size: a
 * scan check or a table finder that decodes images must not decode this one whole.
 */
export function imageBombPdf(bytes: number): Uint8Array {
  const { data, inflated } = zlibBomb(new Uint8Array(0), '\xff', new Uint8Array(0), room(bytes));
  const width = 16_384;
  const height = Math.max(1, Math.floor(inflated / width));
  return threePages({
    content: 'q 400 0 0 500 100 150 cm /Im1 Do Q\n',
    resources: ` /XObject << /Im1 ${HOSTILE_FIRST} 0 R >>`,
    objects: [{ entries: ` /Type /XObject /Subtype /Image /Width ${width} /Height ${height} /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode`, data }],
  });
}

/** Many pages, each a short line of text that differs from the others; as many pages as the file allows. */
export function pageFloodPdf(bytes: number): Uint8Array {
  const words = ['amber', 'birch', 'cedar', 'delta', 'ember', 'fjord', 'grove', 'heron', 'inlet', 'juniper', 'kestrel', 'larch', 'maple'];
  const count = Math.max(3, Math.floor(bytes / 235));
  const objects: PdfObject[] = ['<< /Type /Catalog /Pages 2 0 R >>', '', HELVETICA];
  const kids: number[] = [];
  for (let p = 0; p < count; p++) {
    const text = p === 0 ? BEFORE_TEXT : `Page ${words[p % 13]} ${words[Math.floor(p / 13) % 13]} ${words[Math.floor(p / 169) % 13]} of a flood.`;
    const content = objects.push(stream(line(text)));
    kids.push(objects.push(`<< /Type /Page /Parent 2 0 R /Contents ${content} 0 R >>`));
  }
  objects[1] = `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${count} /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> >>`;
  return serializePdf(objects, 1);
}

/** A PDF header followed by pseudo-random bytes. */
export function randomBytesPdf(bytes: number): Uint8Array {
  const out = new Uint8Array(Math.max(64, bytes));
  let state = 0x2545f491;
  for (let i = 0; i < out.length; i++) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    out[i] = state & 0xff;
  }
  out.set(Buffer.from('%PDF-1.7\n', 'latin1'), 0);
  return out;
}

/** A hostile shape: its name, what it is, and its generator. */
export interface HostilePdfShape {
  readonly name: string;
  readonly what: string;
  readonly make: (bytes: number) => Uint8Array;
}

/** Every hostile shape, for tests and benchmarks that run them all. */
export const HOSTILE_PDF_SHAPES: readonly HostilePdfShape[] = [
  { name: 'inflate-bomb', what: 'a content stream that inflates to about 1000 times the file', make: inflateBombPdf },
  { name: 'save-flood', what: 'nested q without Q, one every two bytes', make: (bytes) => saveFloodPdf(bytes) },
  { name: 'save-flood-compressed', what: 'nested q without Q, compressed: about 440 a byte', make: (bytes) => saveFloodPdf(bytes, { compress: true }) },
  { name: 'operator-flood', what: 'a stroked path repeated, one every 20 bytes', make: operatorFloodPdf },
  { name: 'text-flood', what: 'a one-character text run every 19 bytes, each on its own baseline', make: textFloodPdf },
  { name: 'long-line', what: 'one line of words as long as the file', make: longLinePdf },
  { name: 'kerning-flood', what: 'one TJ array of kerning numbers as long as the file', make: kerningFloodPdf },
  { name: 'deep-forms', what: 'form XObjects nested one in the next, about 150 bytes each', make: deepFormPdf },
  { name: 'deep-page-tree', what: 'a page tree one node wide and as deep as the file allows', make: deepPageTreePdf },
  { name: 'many-fonts', what: 'a new font object for every text run', make: manyFontsPdf },
  { name: 'deep-array', what: 'an array nested as deep as the file allows', make: deepArrayPdf },
  { name: 'image-bomb', what: 'an image on a page without text whose pixels inflate to about 1000 times the file', make: imageBombPdf },
  { name: 'page-flood', what: 'a page of one line for every 190 bytes', make: pageFloodPdf },
  { name: 'random-bytes', what: 'a PDF header, then random bytes', make: randomBytesPdf },
];
