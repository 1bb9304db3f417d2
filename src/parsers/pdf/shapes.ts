/**
 * Makers of the objects the layout code reads most (text runs, lines, their runs), each one object literal with every
 * field set, an optional field that does not apply being `undefined`.
 *
 * Why: V8 gives an object built by one literal the hidden class of that literal, which it keeps as long as the code
 * does. An object built with optional fields spread in (`...(bold ? { bold: true } : {})`), or copied with a field
 * added (`{ ...line, figure: true }`), gets a class reached by adding fields one at a time; those classes are held
 * weakly, dropped once no object of theirs is alive (between two documents, or two pages), and made anew when
 * needed, and a copy with a field added gets a class of its own every time. The optimised layout code checks the
 * classes it has seen: each new one threw it back to the interpreter and had it compiled again, which cost about
 * as much CPU as the layout itself (docs/performance.md has the figures). Checks read an optional field as
 * `line.bold === true`, `run.angle ?? 0`, never `'bold' in line`, so `undefined` and absent read the same.
 */
import type { GlyphBox, PdfLine, PdfTextItem, TextRun } from './types.js';

/** A line with every field set (see the module comment): `fields` may leave the optional ones out. */
export function pdfLine(fields: PdfLine): PdfLine {
  return {
    text: fields.text,
    x: fields.x,
    y: fields.y,
    right: fields.right,
    fontSize: fields.fontSize,
    fontName: fields.fontName,
    fontShare: fields.fontShare,
    monospace: fields.monospace,
    cells: fields.cells,
    chars: fields.chars,
    region: fields.region,
    bold: fields.bold,
    rtl: fields.rtl,
    textX: fields.textX,
    markerEnd: fields.markerEnd,
    markerFont: fields.markerFont,
    figure: fields.figure,
    insert: fields.insert,
    runs: fields.runs,
  };
}

/** A run of a line's text with every field set (see the module comment). */
export function textRun(start: number, end: number, box: GlyphBox, rtl: boolean | undefined, angle: number | undefined): TextRun {
  return { start, end, box, rtl, angle };
}

/** A box of glyphs on a page, always of one hidden class. */
export function glyphBoxOf(page: number, x: number, y: number, width: number, height: number): GlyphBox {
  return { page, x, y, width, height };
}

/** A text run of a page with every field set (see the module comment): `fields` may leave the optional ones out. */
export function textItem(fields: PdfTextItem): PdfTextItem {
  return {
    str: fields.str,
    x: fields.x,
    y: fields.y,
    width: fields.width,
    height: fields.height,
    fontName: fields.fontName,
    fontSize: fields.fontSize,
    hasEOL: fields.hasEOL,
    monospace: fields.monospace,
    angle: fields.angle,
    bold: fields.bold,
    rtl: fields.rtl,
    descent: fields.descent,
    glyphs: fields.glyphs,
    glyphAngle: fields.glyphAngle,
  };
}
