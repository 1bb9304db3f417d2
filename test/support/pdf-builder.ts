/**
 * Writes small PDFs by hand (objects, content streams, a correct cross-reference table) for tests that need a PDF
 * with a known shape: a given text layout, an outline, an image-only page, a page with nothing, a compressed or
 * hostile content stream. `typeset` lays out a simple document (headings, paragraphs, lists, two columns,
 * running headers and footers, hyphenated words) on top of it.
 */
import { deflateSync } from 'node:zlib';

/** One page: a content stream, and whether it uses the image `/Im1`. */
export interface PageSpec {
  /**
   * PDF content stream operators, e.g. `BT /F1 12 Tf 72 720 Td (Hello) Tj ET`. Fonts: `/F1` Helvetica, `/F2`
   * Helvetica-Bold, `/F3` Courier, `/F4` Times-Roman, `/F5` Times-Bold, `/F6` a font without a Unicode mapping
   * (write its text with `unmappedString`), `/F7` Arabic letters with lam-alef ligatures (with `arabicString`),
   * `/F8` Courier-Bold, `/F9` a fixed-pitch font known by its widths alone (no name or flag says so).
   */
  readonly content: string;
  /** The page's `/Rotate`: how far a viewer turns it, clockwise. */
  readonly rotate?: 90 | 180 | 270;
  readonly image?: boolean;
  /** Compress the content stream with FlateDecode. */
  readonly compress?: boolean;
}

/** A bookmark: its title, the 1-based page it points to, and the bookmarks under it. */
export interface OutlineSpec {
  readonly title: string;
  readonly page: number;
  readonly children?: readonly OutlineSpec[];
}

/** Options of `buildPdf`. */
export interface PdfOptions {
  /** Bookmarks (the document outline). */
  readonly outline?: readonly OutlineSpec[];
  /** The document information dictionary's `Title`. */
  readonly title?: string;
}

/** Encodes text for a WinAnsi string operand: escapes, and the bullet and dashes outside Latin-1. */
export function pdfString(text: string): string {
  const winAnsi: Record<string, string> = { '•': '\x95', '–': '\x96', '—': '\x97', '‘': '\x91', '’': '\x92', '“': '\x93', '”': '\x94' };
  return `(${text.replace(/[\\()]/g, (c) => `\\${c}`).replace(/[•–—‘’“”]/g, (c) => winAnsi[c] as string)})`;
}

/** A line of text at a position, as PDF operators. */
export function textAt(x: number, y: number, text: string, size = 12, font = 'F1'): string {
  return `BT /${font} ${size} Tf ${x} ${y} Td ${pdfString(text)} Tj ET`;
}

/** A line of text set at an angle (degrees, counter-clockwise) through the text matrix (`Tm`). */
export function rotatedTextAt(x: number, y: number, degrees: number, text: string, size = 9, font = 'F1'): string {
  const r = (degrees * Math.PI) / 180;
  const [c, s] = [Math.cos(r), Math.sin(r)].map((v) => Number(v.toFixed(6)));
  return `BT /${font} ${size} Tf ${c} ${s} ${-(s as number)} ${c} ${x} ${y} Tm ${pdfString(text)} Tj ET`;
}

/**
 * Text for `/F6`, the font without a Unicode mapping: each character becomes a code in order of first use from 3,
 * as font subsetters number glyphs (space stays 32), so a reader without the font's glyph names sees control
 * characters and ASCII punctuation.
 */
export function unmappedString(text: string): string {
  const codes = new Map<string, number>();
  let next = 3;
  let out = '';
  for (const ch of text) {
    if (ch === ' ') {
      out += ' ';
      continue;
    }
    let code = codes.get(ch);
    if (code === undefined) {
      if (next === 32) next++;
      codes.set(ch, (code = next++));
    }
    out += String.fromCharCode(code);
  }
  return `(${out.replace(/[\\()\r\n]/g, (c) => `\\${c === '\r' ? 'r' : c === '\n' ? 'n' : c}`)})`;
}

/** A ruled table: every cell boxed with stroked rules (`re` for the frame, `m l S` inside), text in the cells. */
export interface RuledTableSpec {
  readonly x: number;
  /** Top edge of the table. */
  readonly top: number;
  /** Width of each column. */
  readonly widths: readonly number[];
  /** Height of each row; a row whose cell wraps onto more lines is as many times higher. */
  readonly rowHeight: number;
  readonly rows: readonly (readonly string[])[];
  readonly size?: number;
  /** Font of the first row. Default `F2` (bold). */
  readonly headerFont?: string;
  /** Lines of each cell (a cell's text is cut at `\n`); rows are as high as their tallest cell. */
}

/** The operators of a ruled table, and the bottom edge it ends at. */
export function ruledTableAt(spec: RuledTableSpec): { content: string; bottom: number } {
  const size = spec.size ?? 9;
  const ops: string[] = ['0.5 w'];
  const width = spec.widths.reduce((a, b) => a + b, 0);
  let y = spec.top;
  const lefts = spec.widths.map((_, i) => spec.x + spec.widths.slice(0, i).reduce((a, b) => a + b, 0));
  spec.rows.forEach((row, r) => {
    const lines = Math.max(...row.map((cell) => cell.split('\n').length));
    const height = spec.rowHeight * lines;
    row.forEach((cell, k) => {
      cell.split('\n').forEach((text, l) => {
        if (text !== '') ops.push(textAt((lefts[k] as number) + 3, y - size - 2 - l * (size + 2), text, size, r === 0 ? (spec.headerFont ?? 'F2') : 'F1'));
      });
    });
    ops.push(`${spec.x} ${y - height} m ${spec.x + width} ${y - height} l S`);
    y -= height;
  });
  ops.push(`${spec.x} ${y} ${width} ${spec.top - y} re S`);
  for (const left of lefts.slice(1)) ops.push(`${left} ${spec.top} m ${left} ${y} l S`);
  return { content: ops.join('\n'), bottom: y };
}

/** A vector figure: a curved shape and a box, with labels set inside it at body size in another font. */
export function figureAt(x: number, y: number, width: number, height: number, labels: readonly string[], size = 11): string {
  const ops = [
    '1 w',
    `${x} ${y} ${width} ${height} re S`,
    `${x + 10} ${y + 10} m ${x + width / 3} ${y + height} ${x + (2 * width) / 3} ${y} ${x + width - 10} ${y + height - 10} c S`,
    `${x + width / 2} ${y + height / 2} m ${x + width / 2 + 20} ${y + height / 2 + 20} l S`,
  ];
  labels.forEach((label, i) => { ops.push(textAt(x + 12 + (i % 2) * (width / 2), y + height - 20 - Math.floor(i / 2) * 18, label, size, 'F5')); });
  return ops.join('\n');
}

/** An image (`/Im1`, a page with `image: true`) painted over a box. */
export function imageAt(x: number, y: number, width: number, height: number): string {
  return `q ${width} 0 0 ${height} ${x} ${y} cm /Im1 Do Q`;
}

const FONTS: readonly [string, string][] = [
  ['F1', 'Helvetica'],
  ['F2', 'Helvetica-Bold'],
  ['F3', 'Courier'],
  ['F4', 'Times-Roman'],
  ['F5', 'Times-Bold'],
];

/** `/F6`: glyph names a reader cannot map to Unicode (`/g1`, `/g2`, …), no `ToUnicode` table. */
const UNMAPPED_FONT = (descriptor: number): string => {
  const names = [
    ...Array.from({ length: 31 }, (_, i) => `/g${i + 1}`),
    ...Array.from({ length: 94 }, (_, i) => `/g${i + 33}`),
  ];
  return (
    `<< /Type /Font /Subtype /Type1 /BaseFont /ABCDEF+ReviewSerif /FirstChar 1 /LastChar 126 /Widths [${Array(126).fill(500).join(' ')}] ` +
    `/Encoding << /Type /Encoding /Differences [1 ${names.slice(0, 31).join(' ')} 33 ${names.slice(31).join(' ')}] >> /FontDescriptor ${descriptor} 0 R >>`
  );
};

/** Units of `/F7`: the Arabic letters, then the lam-alef ligatures, each one glyph that stands for two letters. */
const ARABIC_UNITS = [...Array.from({ length: 0x64a - 0x621 + 1 }, (_, i) => String.fromCodePoint(0x621 + i)), 'لا', 'لأ', 'لإ', 'لآ'];
const ARABIC_FIRST_CODE = 0x41;

/** `/F7`'s `ToUnicode` table: each code to the letters of its unit, in logical order (as font makers map ligatures). */
const ARABIC_TO_UNICODE = [
  '/CIDInit /ProcSet findresource begin 12 dict begin begincmap',
  '/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def /CMapName /Adobe-Identity-UCS def /CMapType 2 def',
  '1 begincodespacerange <00> <FF> endcodespacerange',
  `${ARABIC_UNITS.length + 1} beginbfchar <20> <0020>`,
  ...ARABIC_UNITS.map((unit, i) => {
    const hex = (n: number): string => n.toString(16).toUpperCase().padStart(2, '0');
    const utf16 = Array.from(unit, (c) => (c.codePointAt(0) as number).toString(16).toUpperCase().padStart(4, '0')).join('');
    return `<${hex(ARABIC_FIRST_CODE + i)}> <${utf16}>`;
  }),
  'endbfchar endcmap CMapName currentdict /CMapResource defineresource pop end end',
].join('\n');

/**
 * Arabic text for `/F7`, as a typesetter draws it: glyphs in visual order (the logical text reversed), with lam
 * followed by an alef as one ligature glyph.
 */
export function arabicString(text: string): string {
  const units = text.match(/ل[اأإآ]|./gsu) ?? [];
  const codes = units.reverse().map((unit) => {
    if (unit === ' ') return '20';
    const index = ARABIC_UNITS.indexOf(unit);
    if (index < 0) throw new Error(`arabicString: ${JSON.stringify(unit)} is not an Arabic letter of /F7`);
    return (ARABIC_FIRST_CODE + index).toString(16).toUpperCase();
  });
  return `<${codes.join('')}>`;
}

/** One indirect object: a body in PDF syntax (Latin-1), or a stream given as its dictionary entries and its bytes. */
export type PdfObject = string | { readonly entries: string; readonly data: Uint8Array };

/** A stream object: its dictionary entries and its data (Latin-1), compressed with FlateDecode when asked. */
function streamObject(data: string | Uint8Array, compress: boolean, entries = ''): PdfObject {
  const raw = typeof data === 'string' ? Buffer.from(data, 'latin1') : Buffer.from(data);
  return { entries: `${compress ? ' /Filter /FlateDecode' : ''}${entries}`, data: compress ? deflateSync(raw) : raw };
}

/**
 * Writes numbered objects (object `i + 1` is `objects[i]`) as a PDF file with a correct cross-reference table and a
 * trailer naming `root` as the catalog. Streams get their `/Length`. Bytes are written as they are, so a file of
 * tens of megabytes never becomes one JavaScript string.
 */
export function serializePdf(objects: readonly PdfObject[], root: number, trailer = ''): Uint8Array {
  const parts: Buffer[] = [];
  let length = 0;
  const write = (part: string | Uint8Array): void => {
    const bytes = typeof part === 'string' ? Buffer.from(part, 'latin1') : Buffer.from(part.buffer, part.byteOffset, part.byteLength);
    parts.push(bytes);
    length += bytes.length;
  };
  write('%PDF-1.4\n%\u00e2\u00e3\u00cf\u00d3\n');
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(length);
    if (typeof body === 'string') {
      write(`${i + 1} 0 obj\n${body}\nendobj\n`);
    } else {
      write(`${i + 1} 0 obj\n<< /Length ${body.data.length}${body.entries} >>\nstream\n`);
      write(body.data);
      write('\nendstream\nendobj\n');
    }
  });
  const xref = length;
  const table = [`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`];
  for (const offset of offsets) table.push(`${String(offset).padStart(10, '0')} 00000 n \n`);
  write(table.join(''));
  write(`trailer\n<< /Size ${objects.length + 1} /Root ${root} 0 R${trailer} >>\nstartxref\n${xref}\n%%EOF\n`);
  return new Uint8Array(Buffer.concat(parts, length));
}

/** Builds a PDF whose pages are given as content streams. Bytes are Latin-1. */
export function buildPdf(pages: readonly PageSpec[], options: PdfOptions = {}): Uint8Array {
  const objects: PdfObject[] = [];
  const add = (body: PdfObject): number => {
    objects.push(body);
    return objects.length;
  };
  const catalog = add('');
  const pagesId = add('');
  const fontRefs = FONTS.map(([name, base]) => `/${name} ${add(`<< /Type /Font /Subtype /Type1 /BaseFont /${base} /Encoding /WinAnsiEncoding >>`)} 0 R`);
  const descriptor = add('<< /Type /FontDescriptor /FontName /ABCDEF+ReviewSerif /Flags 34 /FontBBox [0 -200 1000 900] /ItalicAngle 0 /Ascent 800 /Descent -200 /CapHeight 700 /StemV 80 >>');
  fontRefs.push(`/F6 ${add(UNMAPPED_FONT(descriptor))} 0 R`);
  // Only the files that use it get the Arabic font, so that every other file stays byte for byte what it was.
  if (pages.some((page) => page.content.includes('/F7 '))) {
    const arabicMap = add(streamObject(ARABIC_TO_UNICODE, false));
    fontRefs.push(`/F7 ${add(`<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /ToUnicode ${arabicMap} 0 R >>`)} 0 R`);
  }
  if (pages.some((page) => page.content.includes('/F8 '))) fontRefs.push(`/F8 ${add('<< /Type /Font /Subtype /Type1 /BaseFont /Courier-Bold /Encoding /WinAnsiEncoding >>')} 0 R`);
  if (pages.some((page) => page.content.includes('/F9 '))) {
    const flags = add('<< /Type /FontDescriptor /FontName /ABCDEF+ListingFace /Flags 32 /FontBBox [0 -200 600 800] /ItalicAngle 0 /Ascent 800 /Descent -200 /CapHeight 700 /StemV 80 >>');
    fontRefs.push(`/F9 ${add(`<< /Type /Font /Subtype /Type1 /BaseFont /ABCDEF+ListingFace /FirstChar 32 /LastChar 126 /Widths [${Array(95).fill(600).join(' ')}] /Encoding /WinAnsiEncoding /FontDescriptor ${flags} 0 R >>`)} 0 R`);
  }
  const pixels = '\u0000\u00ff\u00ff\u0000';
  const image = add(streamObject(pixels, false, ' /Type /XObject /Subtype /Image /Width 2 /Height 2 /ColorSpace /DeviceGray /BitsPerComponent 8'));
  const kids: number[] = [];
  for (const page of pages) {
    const contents = add(streamObject(page.content, page.compress === true));
    const resources = `<< /Font << ${fontRefs.join(' ')} >>${page.image === true ? ` /XObject << /Im1 ${image} 0 R >>` : ''} >>`;
    kids.push(add(`<< /Type /Page /Parent ${pagesId} 0 R /MediaBox [0 0 612 792]${page.rotate === undefined ? '' : ` /Rotate ${page.rotate}`} /Resources ${resources} /Contents ${contents} 0 R >>`));
  }
  const outlines = options.outline !== undefined && options.outline.length > 0 ? addOutline(options.outline, kids, add, objects) : null;
  objects[catalog - 1] = `<< /Type /Catalog /Pages ${pagesId} 0 R${outlines === null ? '' : ` /Outlines ${outlines} 0 R /PageMode /UseOutlines`} >>`;
  objects[pagesId - 1] = `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${kids.length} >>`;
  const info = options.title === undefined ? null : add(`<< /Title ${pdfString(options.title)} >>`);
  return serializePdf(objects, catalog, info === null ? '' : ` /Info ${info} 0 R`);
}

/** Adds the outline dictionary and its items (linked as siblings and children); returns the dictionary's number. */
function addOutline(entries: readonly OutlineSpec[], kids: readonly number[], add: (body: PdfObject) => number, objects: PdfObject[]): number {
  const root = add('');
  const level = (items: readonly OutlineSpec[], parent: number): { first: number; last: number; count: number } => {
    const ids = items.map(() => add(''));
    let count = items.length;
    items.forEach((item, i) => {
      const page = kids[item.page - 1];
      if (page === undefined) throw new Error(`outline entry "${item.title}" points to page ${item.page}, which does not exist`);
      const children = item.children !== undefined && item.children.length > 0 ? level(item.children, ids[i] as number) : null;
      if (children !== null) count += children.count;
      const links = [
        `/Parent ${parent} 0 R`,
        i > 0 ? `/Prev ${ids[i - 1]} 0 R` : '',
        i < ids.length - 1 ? `/Next ${ids[i + 1]} 0 R` : '',
        children === null ? '' : `/First ${children.first} 0 R /Last ${children.last} 0 R /Count ${children.count}`,
      ].filter(Boolean);
      objects[(ids[i] as number) - 1] = `<< /Title ${pdfString(item.title)} ${links.join(' ')} /Dest [${page} 0 R /XYZ 0 792 0] >>`;
    });
    return { first: ids[0] as number, last: ids.at(-1) as number, count };
  };
  const top = level(entries, root);
  objects[root - 1] = `<< /Type /Outlines /First ${top.first} 0 R /Last ${top.last} 0 R /Count ${top.count} >>`;
  return root;
}

/** One element of a document for `typeset`. */
export type DocElement =
  | { readonly heading: string; readonly size?: number; readonly font?: string }
  | { readonly paragraph: string; readonly font?: string; readonly size?: number }
  | { readonly list: readonly string[]; readonly ordered?: boolean }
  | { readonly code: readonly string[] }
  /** A table: cells at fixed columns, or drawn with rules when `ruled` (a cell's `\n` starts a line of it). */
  | { readonly table: readonly (readonly string[])[]; readonly ruled?: boolean }
  /** A margin stamp set bottom-up in the left margin of the current page. */
  | { readonly stamp: string }
  /** A vector figure with labels in another font at body size. */
  | { readonly figure: readonly string[] }
  /** An image block. */
  | { readonly image: true }
  /** A footnote at the foot of the current page, in small type, starting with its mark. */
  | { readonly footnote: string }
  /** A paragraph in the font without a Unicode mapping: text that reads as junk. */
  | { readonly unreadable: string }
  /** Starts a new page, laid out in one or two columns. */
  | { readonly page: 1 | 2 };

/** Options of `typeset`. */
export interface TypesetOptions {
  /** A running header on every page, given the page number. */
  readonly header?: (page: number) => string;
  /** A running footer on every page, given the page number. */
  readonly footer?: (page: number) => string;
  /** A margin stamp set bottom-up in the left margin of every page, given the page number. */
  readonly stamp?: (page: number) => string;
  /** Hyphenate words that do not fit at a line end (`infor-` + `mation`). */
  readonly hyphenate?: boolean;
  /** Body font size. Default 11. */
  readonly bodySize?: number;
  readonly outline?: readonly OutlineSpec[];
}

/** Average advance of a Helvetica character, in ems: enough to wrap lines well inside their column. */
const EM_PER_CHAR = 0.56;
const TOP = 720;
const BOTTOM = 80;
const LEFT = 72;
const WIDTH = 468;
const GUTTER = 24;

/**
 * Lays out a document on US Letter pages: headings in bold at their size, paragraphs wrapped to the column and
 * separated by a gap, lists with bullets (or numbers), code in Courier line by line, tables as rows of cells at
 * fixed columns; `{ page: 2 }` starts a page of two columns. Returns the page specs for `buildPdf`.
 */
export function typeset(elements: readonly DocElement[], options: TypesetOptions = {}): PageSpec[] {
  const body = options.bodySize ?? 11;
  const leading = Math.round(body * 1.3);
  const pages: string[][] = [];
  const images = new Set<number>();
  const notes: string[][] = [];
  let columns = 1;
  let column = 0;
  let y = TOP;
  const newPage = (cols: number): void => {
    pages.push([]);
    notes.push([]);
    columns = cols;
    column = 0;
    y = TOP;
  };
  newPage(1);
  const columnWidth = () => (columns === 1 ? WIDTH : (WIDTH - GUTTER) / 2);
  const columnLeft = () => LEFT + column * (columnWidth() + GUTTER);
  const room = (height: number): void => {
    if (y - height >= BOTTOM) return;
    if (column + 1 < columns) {
      column++;
      y = TOP;
    } else newPage(columns);
  };
  const put = (x: number, text: string, size: number, font: string): void => {
    (pages.at(-1) as string[]).push(textAt(x, y, text, size, font));
  };
  const wrap = (text: string, size: number, width: number): string[] => {
    const perLine = Math.max(8, Math.floor(width / (size * EM_PER_CHAR)));
    const lines: string[] = [];
    let line = '';
    for (const word of text.split(/\s+/).filter(Boolean)) {
      const candidate = line === '' ? word : `${line} ${word}`;
      if (candidate.length <= perLine) {
        line = candidate;
        continue;
      }
      const free = perLine - line.length - 2;
      if (options.hyphenate === true && line !== '' && word.length >= 8 && free >= 4 && /^\p{L}+$/u.test(word)) {
        lines.push(`${line} ${word.slice(0, free)}-`);
        line = word.slice(free);
        continue;
      }
      if (line !== '') lines.push(line);
      line = word;
    }
    if (line !== '') lines.push(line);
    return lines;
  };
  for (const element of elements) {
    if ('page' in element) {
      newPage(element.page);
      continue;
    }
    if ('stamp' in element) {
      (pages.at(-1) as string[]).push(rotatedTextAt(30, 250, 90, element.stamp, 14, 'F1'));
      continue;
    }
    if ('footnote' in element) {
      (notes.at(-1) as string[]).push(element.footnote);
      continue;
    }
    if ('figure' in element) {
      room(140);
      (pages.at(-1) as string[]).push(figureAt(columnLeft(), y - 120, columnWidth(), 120, element.figure, body));
      y -= 140;
      continue;
    }
    if ('image' in element) {
      room(80);
      images.add(pages.length - 1);
      (pages.at(-1) as string[]).push(imageAt(columnLeft(), y - 60, 80, 60));
      y -= 80;
      continue;
    }
    if ('unreadable' in element) {
      for (const line of wrap(element.unreadable, body, columnWidth())) {
        room(leading);
        (pages.at(-1) as string[]).push(`BT /F6 ${body} Tf ${columnLeft()} ${y} Td ${unmappedString(line)} Tj ET`);
        y -= leading;
      }
      y -= leading;
      continue;
    }
    if ('heading' in element) {
      const size = element.size ?? 16;
      room(size * 3);
      y -= Math.round(size * 0.6);
      put(columnLeft(), element.heading, size, element.font ?? 'F2');
      y -= Math.round(size * 1.4);
      continue;
    }
    if ('paragraph' in element) {
      const size = element.size ?? body;
      for (const line of wrap(element.paragraph, size, columnWidth())) {
        room(leading);
        put(columnLeft(), line, size, element.font ?? 'F1');
        y -= Math.round(size * 1.3);
      }
      y -= leading;
      continue;
    }
    if ('list' in element) {
      element.list.forEach((item, i) => {
        const marker = element.ordered === true ? `${i + 1}.` : '•';
        wrap(item, body, columnWidth() - 18).forEach((line, k) => {
          room(leading);
          if (k === 0) put(columnLeft(), marker, body, 'F1');
          put(columnLeft() + 18, line, body, 'F1');
          y -= leading;
        });
      });
      y -= leading;
      continue;
    }
    if ('code' in element) {
      for (const line of element.code) {
        room(leading);
        put(columnLeft() + 12, line, body - 1, 'F3');
        y -= leading;
      }
      y -= leading;
      continue;
    }
    const cells = element.table[0]?.length ?? 1;
    const cellWidth = columnWidth() / cells;
    if (element.ruled === true) {
      // A ruled table is cut between rows at a page end; each part is drawn with its own rules.
      const rowHeight = Math.round(body * 1.6);
      let rows = [...element.table];
      while (rows.length > 0) {
        const lines = (row: readonly string[]) => Math.max(...row.map((c) => c.split('\n').length));
        let fit = 0;
        let height = 0;
        while (fit < rows.length && y - height - rowHeight * lines(rows[fit] as readonly string[]) >= BOTTOM) height += rowHeight * lines(rows[fit++] as readonly string[]);
        if (fit === 0) {
          room(y);
          continue;
        }
        const { content, bottom } = ruledTableAt({ x: columnLeft(), top: y, widths: Array(cells).fill(cellWidth), rowHeight, rows: rows.slice(0, fit), size: body - 2 });
        (pages.at(-1) as string[]).push(content);
        y = bottom;
        rows = rows.slice(fit);
        if (rows.length > 0) room(y);
      }
      y -= leading;
      continue;
    }
    for (const row of element.table) {
      room(leading);
      row.forEach((cell, c) => { put(columnLeft() + c * cellWidth, cell, body - 1, 'F1'); });
      y -= leading;
    }
    y -= leading;
  }
  return pages.map((content, i) => {
    const furniture: string[] = [];
    if (options.header) furniture.push(textAt(LEFT, 752, options.header(i + 1), 9, 'F1'));
    if (options.footer) furniture.push(textAt(LEFT + WIDTH / 2 - 10, 40, options.footer(i + 1), 9, 'F1'));
    if (options.stamp) furniture.push(rotatedTextAt(30, 250, 90, options.stamp(i + 1), 9, 'F1'));
    // Footnotes stand above the footer, below the text, the first one lowest but one.
    (notes[i] ?? []).forEach((note, k, all) => { furniture.push(textAt(LEFT, 56 + (all.length - 1 - k) * 10, note, 8, 'F4')); });
    return { content: [...furniture, ...content].join('\n'), ...(images.has(i) ? { image: true } : {}) };
  });
}

/** Advance widths of Helvetica (`/F1`), per 1,000 units of the font size, for WinAnsi codes 32–126 (pdf.js's metrics). */
const HELVETICA_WIDTHS = [
  278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584,
  584, 556, 1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278,
  278, 278, 469, 556, 333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556, 556, 556, 333, 500, 278, 556, 500, 722, 500, 500,
  500, 334, 260, 334, 584,
];
/** Ascent and descent of Helvetica, per 1,000 units of the font size. */
export const HELVETICA_ASCENT = 718;
export const HELVETICA_DESCENT = -207;

/** The width of a line of ASCII text set in Helvetica at `size`, with `wordSpacing` added to each space. */
export function helveticaWidth(text: string, size: number, wordSpacing = 0): number {
  let units = 0;
  let spaces = 0;
  for (const ch of text) {
    const code = ch.charCodeAt(0);
    units += HELVETICA_WIDTHS[code - 32] ?? 556;
    if (code === 32) spaces++;
  }
  return (units * size) / 1000 + spaces * wordSpacing;
}

/** A line the column writer set: where its baseline starts, its width, and its text as drawn. */
export interface SetLine {
  readonly page: number;
  readonly text: string;
  readonly x: number;
  /** Baseline, in PDF space (from the page's bottom). */
  readonly y: number;
  readonly width: number;
  readonly size: number;
}

/** Pages of justified prose in columns, as `columnPages` sets them (the shapes of a newspaper, a Federal Register notice). */
export interface ColumnLayout {
  readonly columns: 2 | 3;
  /** Paragraphs flowed column by column, band by band, page by page: justified, first lines indented, no gap between. */
  readonly paragraphs: readonly string[];
  /** Body size. Default 8. */
  readonly size?: number;
  /** A title set across the columns at the top of the first page. */
  readonly title?: string;
  /** A running header across the top of every page. */
  readonly header?: (page: number) => string;
  /** A margin stamp set bottom-up in the left margin of every page. */
  readonly stamp?: (page: number) => string;
  /** A ruled frame drawn around the first column of the first page's first band. */
  readonly frame?: boolean;
  /**
   * Something set across the columns of the first page, `top` points below the top of the text: a figure with labels,
   * or a table without rules (its cells at fixed columns); the columns go on below it.
   */
  readonly across?: { readonly top: number; readonly figure?: readonly string[]; readonly table?: readonly (readonly string[])[] };
}

/** The bands of column text of a page: tops and bottoms of the runs of lines the columns hold. */
interface Band {
  readonly top: number;
  readonly bottom: number;
}

/**
 * Sets `layout` on US Letter pages; returns the pages for `buildPdf` and every line of body text it set (for tests
 * that check where a line is). Lines are wrapped by Helvetica's real widths and justified with word spacing (`Tw`),
 * so every full line of a column starts and ends at the column's edges, as in a typeset notice.
 */
export function columnPages(layout: ColumnLayout): { pages: PageSpec[]; lines: SetLine[] } {
  const size = layout.size ?? 8;
  const leading = Math.round(size * 1.25 * 100) / 100;
  const gutter = 14;
  const width = (WIDTH - gutter * (layout.columns - 1)) / layout.columns;
  const text: string[][] = [];
  const lines: SetLine[] = [];
  const wrapped = layout.paragraphs.flatMap((p) => justifyLines(p, size, width));
  let next = 0;
  for (let page = 1; next < wrapped.length; page++) {
    const ops: string[] = [];
    const top = layout.header !== undefined ? TOP - 10 : TOP;
    if (layout.header !== undefined) ops.push(textAt(LEFT, TOP + 8, layout.header(page), size, 'F1'), `0.5 w ${LEFT} ${TOP + 2} m ${LEFT + WIDTH} ${TOP + 2} l S`);
    if (layout.stamp !== undefined) ops.push(rotatedTextAt(40, 200, 90, layout.stamp(page), size, 'F1'));
    const bands = page === 1 ? firstPageBands(layout, top, size, ops) : [{ top, bottom: BOTTOM }];
    for (const band of bands) {
      for (let column = 0; column < layout.columns && next < wrapped.length; column++) {
        const x0 = LEFT + column * (width + gutter);
        for (let y = band.top - size; y >= band.bottom && next < wrapped.length; y -= leading) {
          const line = wrapped[next++] as JustifiedLine;
          const x = x0 + line.indent;
          ops.push(`BT /F1 ${size} Tf ${line.spacing.toFixed(4)} Tw ${x} ${y} Td ${pdfString(line.text)} Tj ET`);
          lines.push({ page, text: line.text, x, y, width: helveticaWidth(line.text, size, line.spacing), size });
        }
        if (layout.frame === true && page === 1 && band === bands[0] && column === 0) ops.push(`0.8 w ${x0 - 4} ${band.bottom - 4} ${width + 8} ${band.top - band.bottom + 6} re S`);
      }
    }
    text.push(ops);
  }
  return { pages: text.map((ops) => ({ content: ops.join('\n') })), lines };
}

/** The first page's bands below its title, around what is set across the columns; draws the title and that. */
function firstPageBands(layout: ColumnLayout, top: number, size: number, ops: string[]): Band[] {
  let y = top;
  if (layout.title !== undefined) {
    ops.push(textAt(LEFT, y - 16, layout.title, 16, 'F2'));
    y -= 30;
  }
  const across = layout.across;
  if (across === undefined) return [{ top: y, bottom: BOTTOM }];
  const breakTop = y - across.top;
  let height = 0;
  if (across.figure !== undefined) {
    height = 120;
    ops.push(figureAt(LEFT, breakTop - height, WIDTH, height, across.figure, size + 1));
  } else if (across.table !== undefined) {
    const rowStep = Math.round(size * 1.5);
    const cells = across.table[0]?.length ?? 1;
    across.table.forEach((row, r) => {
      row.forEach((cell, k) => { ops.push(textAt(LEFT + (k * WIDTH) / cells, breakTop - size - r * rowStep, cell, size, r === 0 ? 'F2' : 'F1')); });
    });
    height = across.table.length * rowStep;
  }
  return [
    { top: y, bottom: breakTop + size },
    { top: breakTop - height - size, bottom: BOTTOM },
  ];
}

/** A line of a justified paragraph: its text, its indent, and the word spacing that makes it reach the column's edge. */
interface JustifiedLine {
  readonly text: string;
  readonly indent: number;
  readonly spacing: number;
}

/** A paragraph wrapped to `width` by Helvetica's widths, its first line indented, every line but the last justified. */
function justifyLines(paragraph: string, size: number, width: number): JustifiedLine[] {
  const indent = size;
  const out: JustifiedLine[] = [];
  let words: string[] = [];
  const room = (): number => width - (out.length === 0 ? indent : 0);
  const push = (last: boolean): void => {
    const text = words.join(' ');
    const spaces = words.length - 1;
    const spacing = last || spaces === 0 ? 0 : (room() - helveticaWidth(text, size)) / spaces;
    out.push({ text, indent: out.length === 0 ? indent : 0, spacing });
    words = [];
  };
  for (const word of paragraph.split(/\s+/).filter(Boolean)) {
    if (words.length > 0 && helveticaWidth([...words, word].join(' '), size) > room()) push(false);
    words.push(word);
  }
  if (words.length > 0) push(true);
  return out;
}

/**
 * A box of code: a ruled frame (a stroked rectangle) around lines set in `/F8` Courier-Bold (or `font`), `leading`
 * font sizes apart, as a manual shows SQL.
 */
export function codeBoxAt(x: number, top: number, width: number, lines: readonly string[], size = 10, font = 'F8', leading = 1.4): string {
  const step = Math.round(size * leading);
  const height = lines.length * step + 8;
  const ops = ['0.6 w', `${x} ${top - height} ${width} ${height} re S`];
  lines.forEach((line, i) => { ops.push(textAt(x + 8, top - 4 - size - i * step, line, size, font)); });
  return ops.join('\n');
}
