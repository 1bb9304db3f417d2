/** Hand-made text items and lines for the PDF layout tests. */
import type { PdfLine, PdfTextItem } from '../../src/parsers/pdf/types.js';

/** A text item; width defaults to half the font size per character. */
export function item(str: string, x: number, y: number, extra: Partial<PdfTextItem> = {}): PdfTextItem {
  const fontSize = extra.fontSize ?? 10;
  return { str, x, y, width: str.length * fontSize * 0.5, height: fontSize, fontName: 'body', fontSize, hasEOL: false, ...extra };
}

/** A line; width defaults to half the font size per character. */
export function line(text: string, x: number, y: number, extra: Partial<PdfLine> = {}): PdfLine {
  const fontSize = extra.fontSize ?? 10;
  return {
    text,
    x,
    y,
    right: x + text.length * fontSize * 0.5,
    fontSize,
    fontName: 'body',
    fontShare: 1,
    monospace: false,
    cells: 1,
    chars: text.replace(/\s/g, '').length,
    region: 0,
    ...extra,
  };
}
