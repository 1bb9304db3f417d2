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
}
