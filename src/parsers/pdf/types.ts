/**
 * Plain shapes the PDF layout modules work on. They carry no pdf.js type, so every layout step can be tested with
 * hand-made items. Coordinates are PDF user space: x grows to the right, y grows upwards, units are points.
 */

/** One run of text as a PDF text layer reports it. */
export interface PdfTextItem {
  readonly str: string;
  /** Left edge of the run. */
  readonly x: number;
  /** Baseline of the run. */
  readonly y: number;
  readonly width: number;
  readonly height: number;
  /** Document-wide id of the font. */
  readonly fontName: string;
  readonly fontSize: number;
  /** The text layer saw a line end after this run. */
  readonly hasEOL: boolean;
  /** The font is fixed-pitch (code listings keep their line breaks). */
  readonly monospace?: boolean;
  /** Direction of the baseline in degrees, counter-clockwise (0 for horizontal text; 90 for text read bottom-up). */
  readonly angle?: number;
  /** The font is a bold face, by its name. */
  readonly bold?: boolean;
  /** The run is right-to-left text (Arabic, Hebrew), in reading order. */
  readonly rtl?: boolean;
  /** The font's descent below the baseline, in font sizes (negative), as pdf.js reads it from the font. */
  readonly descent?: number;
  /** Where the run's glyphs are drawn on its page (set by the assembler, before the page is turned or levelled). */
  readonly glyphs?: GlyphBox;
  /** The angle of the run's baseline on its page, with `glyphs` (`angle` is turned with the page's reading frame). */
  readonly glyphAngle?: number;
}

/**
 * Where text is drawn on a page: PDF points, origin at the top left of the page's visible area, y growing downwards
 * (as a viewer draws a highlight); the box of a glyph is its em square, from its font's descent (as pdfminer and
 * pdfplumber measure characters).
 */
/**
 * How a page is shown: pdf.js's view transform at scale 1, `[a, b, c, d, e, f]`, from PDF space to points from the
 * top left of the page as a viewer shows it (its crop box, turned by its `/Rotate`).
 */
export type PageFrame = readonly [number, number, number, number, number, number];

export interface GlyphBox {
  /** 1-based page number. */
  readonly page: number;
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

/** A run of a line's text and where its glyphs are drawn: `[start, end)` of the line's text. */
export interface TextRun {
  readonly start: number;
  readonly end: number;
  readonly box: GlyphBox;
  /** The glyphs are laid from right to left (the run's first character is at the right of its box). */
  readonly rtl?: boolean;
  /** The run's baseline is set at this angle (degrees, counter-clockwise): its glyphs go up the page at 90. */
  readonly angle?: number;
}

/** An axis-aligned box in page space: `x0 <= x1`, `y0 <= y1`. */
export interface PdfBox {
  readonly x0: number;
  readonly y0: number;
  readonly x1: number;
  readonly y1: number;
}

/** A ruling segment: horizontal (`y0 === y1`) or vertical (`x0 === x1`). */
export type PdfRule = PdfBox;

/** What a page draws besides text. */
export interface PdfGraphics {
  /** Straight horizontal and vertical strokes, thin fills, and the sides of rectangles. */
  readonly rules: readonly PdfRule[];
  /** Where images are painted. */
  readonly images: readonly PdfBox[];
  /** Boxes of other vector drawings: curves, slanted lines, filled shapes. */
  readonly drawings: readonly PdfBox[];
  /** The page drew more than `MAX_PAGE_GRAPHICS` of them; the rest were not read. */
  readonly truncated?: boolean;
  /** pdf.js could not list what the page draws: nothing is known of it. */
  readonly unlisted?: boolean;
}

/** A line (or, before column ordering, a fragment of one) of a page. */
export interface PdfLine {
  /** Text with runs of whitespace collapsed to one space, trimmed. */
  readonly text: string;
  readonly x: number;
  /** Baseline. */
  readonly y: number;
  /** Right edge. */
  readonly right: number;
  /** Size of the font that holds most of the characters. */
  readonly fontSize: number;
  /** Font that holds most of the characters. */
  readonly fontName: string;
  /** Share of the non-space characters in `fontName` (1 when the whole line is in one font). */
  readonly fontShare: number;
  readonly monospace: boolean;
  /** Fragments set on the same baseline with wide gaps between them (more than 1: a table-like row). */
  readonly cells: number;
  /** Non-space characters of the line, by font and size, for the document's font statistics. */
  readonly chars: number;
  /** Reading-order region (a column of a band) the line belongs to; set by `orderLines`. */
  readonly region: number;
  /** Most of the line's characters are in a bold face. */
  readonly bold?: boolean;
  /** The line reads right to left: its fragments on one baseline are read from the rightmost. */
  readonly rtl?: boolean;
  /** Where the text after a leading bullet or number starts, when that marker is a run of its own. */
  readonly textX?: number;
  /** Where that marker's run ends, with `textX`. */
  readonly markerEnd?: number;
  /** The font of that marker's run, with `textX`: a glyph bullet is drawn in a font of its own (a symbol font). */
  readonly markerFont?: string;
  /** The line lies inside a figure (an image or a vector drawing): its text is a label, never a heading. */
  readonly figure?: boolean;
  /**
   * The line stands for something else of the page in the reading order, and has no text: the index of a table of
   * the page, or -1 for an image, which only cuts the page into bands.
   */
  readonly insert?: number;
  /** Where the line's text is drawn: runs in the order of the text, each a span of `text` and its glyphs' box. */
  readonly runs?: readonly TextRun[];
}
