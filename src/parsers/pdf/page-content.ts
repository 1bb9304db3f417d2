/**
 * One page's runs (and what it draws) → its content, before the pages around it are known: the runs in their font's
 * face (junk fonts dropped), turned into the frame the page reads in, rotated text set apart, ruled tables found and
 * their runs placed into cells, line fragments, figure labels marked, and tables found from the alignment of what is
 * left.
 */
import { findAlignedTables } from './aligned-tables.js';
import type { FontRegistry, PitchStats } from './fonts.js';
import { repairLigatureWords } from './ligatures.js';
import { buildLines } from './lines.js';
import type { Readability } from './readability.js';
import { levelled, pageDirection, splitRotated, turnGraphics, turnItems } from './rotation.js';
import { findRuledShapes } from './ruled-tables.js';
import { pdfLine } from './shapes.js';
import { appendRows, fillRuledTable, type TableGrid } from './tables.js';
import { joinLines, type Vocabulary } from './text.js';
import type { GlyphBox, PageFrame, PdfBox, PdfGraphics, PdfLine, PdfTextItem } from './types.js';

/** One page of text items, as the PDF reader hands it over. */
export interface PdfPageInput {
  /** 1-based page number. */
  readonly number: number;
  /** The page's runs; the assembler takes them over (it sets their font's face on them). */
  readonly items: readonly PdfTextItem[];
  /** What the page draws, when it was read (tables, figures). */
  readonly graphics?: PdfGraphics;
  /** Names of fonts first seen on this page, by id. */
  readonly fonts?: Readonly<Record<string, string>>;
  /** Right-to-left words the items spell backwards (a ligature's letters swapped by pdf.js), with their spelling. */
  readonly reversedWords?: ReadonlyMap<string, string>;
  /** How the page is shown: where the boxes of its text are measured from. A page without it gives blocks without boxes. */
  readonly frame?: PageFrame;
}

/** A page read, waiting for the pages after it. */
export interface PageContent {
  readonly number: number;
  /** Line fragments of the page's text outside its tables, in text-layer order. */
  readonly lines: PdfLine[];
  readonly tables: TableGrid[];
  /** Rotated text of the page, turned level, as lines. */
  readonly rotated: PdfLine[];
  /**
   * The page's figures (images, and vector drawings of some size that are no table and hold no prose): they cut the
   * reading order, and the lines inside them (`figure`) are their labels.
   */
  readonly figures: readonly PdfBox[];
}

/** Reads a page's content; `knows` tells the words hyphenation may join inside table cells. */
export function readPageContent(input: PdfPageInput, readability: Readability, fonts: FontRegistry, knows: Vocabulary, pitch: PitchStats): PageContent {
  const items = readableItems(input, readability, fonts, pitch);
  // A page whose text is drawn turned (for a page turned back in its viewer) is read in the frame of its text.
  const turn = pageDirection(items);
  const graphics = input.graphics === undefined ? undefined : turnGraphics(input.graphics, turn);
  const { level, rotated } = splitRotated(turnItems(items, turn));
  const ruled = ruledTables(level, rotated, graphics, knows);
  const plain = buildLines(level.filter((_, i) => !ruled.taken.has(i)));
  const figures = figureRegions(plain, graphics, ruled.tables, ruled.frames);
  const marked = plain.map((l) => (figures.regions.some((box) => inside(l, box)) ? pdfLine({ ...l, figure: true }) : l));
  const { tables, used } = withAlignedTables(ruled.tables, marked);
  return {
    number: input.number,
    lines: marked.filter((l) => !used.has(l)),
    tables,
    rotated: buildLines(levelled(rotated.filter((_, i) => !ruled.taken.has(level.length + i)))),
    figures: [...(graphics?.images ?? []).filter((img) => figures.boxes.includes(img)), ...figures.regions.filter((box) => !(graphics?.images ?? []).includes(box) && area(box) >= FIGURE_PLACE_AREA && holdsNoProse(box, plain))],
  };
}

/** The runs of a page in their font's face, without those of junk fonts; none when the page is unreadable. */
function readableItems(input: PdfPageInput, readability: Readability, fonts: FontRegistry, pitch: PitchStats): PdfTextItem[] {
  const items: PdfTextItem[] = [];
  if (readability.unreadable) return items;
  pitch.add(input.items);
  for (const item of input.items) {
    if (readability.junkFonts.has(item.fontName)) continue;
    const face = fonts.face(item.fontName);
    // The items were made for this page alone: they take their font's face in place rather than as copies.
    const mutable = item as { fontName: string; monospace?: boolean; bold?: boolean };
    // Any of the font's name, pdf.js's flag (from the font's widths and flags) or the widths of its runs may tell a
    // fixed-pitch font; a name that says nothing (`ABCDEF+Code-Bold`) does not undo the others.
    mutable.monospace = face.monospace === true || item.monospace === true || pitch.fixed(item.fontName);
    mutable.fontName = face.key;
    if (face.bold) mutable.bold = true;
    if (input.reversedWords !== undefined && item.rtl === true) (item as { str: string }).str = repairLigatureWords(item.str, input.reversedWords);
    if (input.frame !== undefined) {
      const placed = item as { glyphs?: GlyphBox; glyphAngle?: number };
      placed.glyphs = glyphBox(item, input.number, input.frame);
      if ((item.angle ?? 0) !== 0) placed.glyphAngle = item.angle;
    }
    items.push(item);
  }
  return items;
}

/** A font's descent when pdf.js gives none, in font sizes (that of most text faces). */
const DEFAULT_DESCENT = -0.2;

/**
 * Where a run's glyphs are drawn: its em boxes (a font size high, from the font's descent) along its baseline, turned
 * by its angle, as an upright box in the page as a viewer shows it (`frame`: from its top left, turned as it is).
 */
export function glyphBox(item: PdfTextItem, page: number, frame: PageFrame): GlyphBox {
  const size = item.fontSize > 0 ? item.fontSize : item.height > 0 ? item.height : 1;
  const bottom = (item.descent ?? DEFAULT_DESCENT) * size;
  const radians = ((item.angle ?? 0) * Math.PI) / 180;
  const cos = Math.cos(radians);
  const sin = Math.sin(radians);
  const top = bottom + size;
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  // The four corners of the em boxes, without an array for each: this runs for every run of every page.
  for (let corner = 0; corner < 4; corner++) {
    const u = (corner & 1) === 0 ? 0 : item.width;
    const v = (corner & 2) === 0 ? bottom : top;
    const px = item.x + u * cos - v * sin;
    const py = item.y + u * sin + v * cos;
    const x = frame[0] * px + frame[2] * py + frame[4];
    const y = frame[1] * px + frame[3] * py + frame[5];
    x0 = Math.min(x0, x);
    x1 = Math.max(x1, x);
    y0 = Math.min(y0, y);
    y1 = Math.max(y1, y);
  }
  return { page, x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
}

/** The ruled tables of a page, filled with its runs (level ones, then rotated ones, by index), and the runs they took. */
function ruledTables(level: readonly PdfTextItem[], rotated: readonly PdfTextItem[], graphics: PdfGraphics | undefined, knows: Vocabulary) {
  const tables: TableGrid[] = [];
  const taken = new Set<number>();
  if (graphics === undefined || graphics.rules.length < 4) return { tables, taken, frames: [] };
  const all = [...level, ...rotated];
  const { tables: ruled, frames } = findRuledShapes(graphics.rules);
  for (const table of ruled) {
    const { grid, used } = fillRuledTable(table, all, (cell) => joinLines(cell, knows, false));
    if (grid === null) continue;
    tables.push(grid);
    for (const index of used) taken.add(index);
  }
  return { tables, taken, frames };
}

/**
 * The page's figure boxes (images and vector drawings), and the regions whose text is a figure's labels: those boxes
 * that are no table, and the ruled frames that hold code. A box that holds most of the page's text is a page image
 * (a scan under its OCR text) or a frame, not a figure.
 */
function figureRegions(plain: readonly PdfLine[], graphics: PdfGraphics | undefined, tables: readonly TableGrid[], frames: readonly PdfBox[]): { boxes: PdfBox[]; regions: PdfBox[] } {
  const boxes = figureBoxes(graphics).filter((box) => plain.filter((l) => inside(l, box)).length <= 0.5 * plain.length);
  const regions = boxes.filter((box) => !tables.some((t) => overlaps(t.box, box)));
  return { boxes, regions: [...regions, ...frames.filter((box) => holdsCode(box, plain))] };
}

/** Fewest lines of a ruled frame of short lines, in any font, for it to be a box of code. */
const CODE_BOX_LINES = 2;

/**
 * True when a ruled frame is a box of code (a listing, an SQL statement, a syntax box): the lines inside it are set
 * in a fixed-pitch font, or there are two or more and none reads as prose (a fixed-pitch font whose name pdf.js does
 * not know reads as any other). A frame around one line in a proportional font (a boxed heading) or around prose (a
 * note) is not.
 */
function holdsCode(box: PdfBox, lines: readonly PdfLine[]): boolean {
  const held = lines.filter((l) => inside(l, box));
  if (held.length === 0 || held.length > 0.5 * lines.length) return false;
  return held.every((l) => l.monospace) || (held.length >= CODE_BOX_LINES && holdsNoProse(box, held));
}

/**
 * Least area (square points) of a vector drawing that takes a place in the reading order: a chart or a diagram, not
 * an icon or a button (a figure set across columns is some 400 by 100 points or more).
 */
const FIGURE_PLACE_AREA = 15_000;

function area(box: PdfBox): number {
  return (box.x1 - box.x0) * (box.y1 - box.y0);
}

/** Words from which a line reads as a line of prose rather than a figure's label. */
const PROSE_WORDS = 7;

/**
 * True when no line inside a box reads as prose: a drawing whose text is labels. A box drawn behind a column's text
 * (a background, drawings merged into one) holds lines of prose, and must not cut the page's reading order.
 */
export function holdsNoProse(box: PdfBox, lines: readonly PdfLine[]): boolean {
  return !lines.some((l) => inside(l, box) && l.text.split(' ').length >= PROSE_WORDS);
}

/**
 * Tables without rulings, from the alignment of the lines outside tables and figures, added to the ruled ones: an
 * aligned table just below a ruled header of as many columns is that table's body. Returns the tables and the
 * fragments the aligned ones took.
 */
function withAlignedTables(ruled: readonly TableGrid[], marked: readonly PdfLine[]): { tables: TableGrid[]; used: Set<PdfLine> } {
  const tables = [...ruled];
  const used = new Set<PdfLine>();
  for (const table of findAlignedTables(marked.filter((l) => l.figure !== true))) {
    for (const f of table.fragments) used.add(f);
    const head = tables.findIndex((t) => heads(t, table.grid));
    if (head === -1) tables.push(table.grid);
    else tables[head] = appendRows(tables[head] as TableGrid, table.grid.rows, table.grid.cellBoxes, spanOf((tables[head] as TableGrid).box, table.grid.box));
  }
  return { tables, used };
}

/** Least area (square points) of a figure: smaller drawings are rules, marks and decorations. */
const FIGURE_AREA = 2_500;
/** Drawings within this distance (points) of one another are one figure. */
const FIGURE_GAP = 6;
/** Most figure boxes merged on one page; past them a page is a flood of drawings. */
const MAX_FIGURE_BOXES = 500;

/** The boxes of a page's figures: images, and vector drawings merged where they touch, large enough to hold labels. */
function figureBoxes(graphics: PdfGraphics | undefined): PdfBox[] {
  if (graphics === undefined) return [];
  const boxes: PdfBox[] = [];
  for (const d of graphics.drawings) {
    let box = d;
    for (let k = boxes.length - 1; k >= 0; k--) {
      const other = boxes[k] as PdfBox;
      if (box.x0 > other.x1 + FIGURE_GAP || other.x0 > box.x1 + FIGURE_GAP || box.y0 > other.y1 + FIGURE_GAP || other.y0 > box.y1 + FIGURE_GAP) continue;
      box = spanOf(box, other);
      boxes.splice(k, 1);
    }
    boxes.push(box);
    if (boxes.length > MAX_FIGURE_BOXES) break;
  }
  return [...boxes, ...graphics.images].filter((b) => area(b) >= FIGURE_AREA);
}

/**
 * True when a ruled table is the header of a table found below it from alignment: it ends just above, holds only
 * header rows, and has as many columns.
 */
function heads(ruled: TableGrid, aligned: TableGrid): boolean {
  const gap = ruled.box.y0 - aligned.box.y1;
  return gap >= -2 && gap <= 3 * aligned.fontSize && ruled.rows.length <= ruled.headerRows + 1 && (ruled.rows[0]?.length ?? 0) === (aligned.rows[0]?.length ?? -1);
}

/** The smallest box holding two boxes. */
export function spanOf(a: PdfBox, b: PdfBox): PdfBox {
  return { x0: Math.min(a.x0, b.x0), y0: Math.min(a.y0, b.y0), x1: Math.max(a.x1, b.x1), y1: Math.max(a.y1, b.y1) };
}

function overlaps(a: PdfBox, b: PdfBox): boolean {
  return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
}

/** True when a line lies inside a box (its baseline and its extent, within a point). */
export function inside(line: PdfLine, box: PdfBox): boolean {
  return line.x >= box.x0 - 1 && line.right <= box.x1 + 1 && line.y >= box.y0 - 1 && line.y <= box.y1 + 1;
}
