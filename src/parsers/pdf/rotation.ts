/**
 * Rotated text: a margin stamp set bottom-up (`arXiv:2305.03393v1 [cs.CL]`), a column header set upright. Read with
 * the page's text it would become a heading, cut the page into false columns and break the reading order, so it is
 * kept apart: it is read along its own baseline as its own block, or as the text of the table cell it sits in.
 */
import { textItem } from './shapes.js';
import type { PdfBox, PdfGraphics, PdfTextItem } from './types.js';

/** Degrees from the page's own direction within which text counts as level (a slightly skewed scan). */
const LEVEL = 3;

/** A page's text split by direction. */
export interface DirectedText {
  /** Text along the page's direction. */
  readonly level: PdfTextItem[];
  /** Text at another angle. */
  readonly rotated: PdfTextItem[];
}

/** Splits a page's runs into level and rotated ones. */
export function splitRotated(items: readonly PdfTextItem[]): DirectedText {
  const level: PdfTextItem[] = [];
  const rotated: PdfTextItem[] = [];
  for (const item of items) {
    const angle = item.angle ?? 0;
    if (Math.abs(angle) <= LEVEL || Math.abs(Math.abs(angle) - 360) <= LEVEL) level.push(item);
    else rotated.push(item);
  }
  return { level, rotated };
}

/**
 * The rotated runs of a page turned level, so that they can be read as lines: each is rotated about the origin by
 * minus its angle, which keeps runs of one direction in their order along and across their baseline.
 */
export function levelled(items: readonly PdfTextItem[]): PdfTextItem[] {
  return items.map((item) => {
    const rad = (-(item.angle ?? 0) * Math.PI) / 180;
    const cos = Math.cos(rad);
    const sin = Math.sin(rad);
    return textItem({ ...item, x: item.x * cos - item.y * sin, y: item.x * sin + item.y * cos, angle: 0 });
  });
}

/** A quarter turn a page's text may be set at. */
export type QuarterTurn = 0 | 90 | 180 | 270;

/** Share of a page's characters that must read in another direction for the page to be read in it. */
const TURNED_SHARE = 0.75;
/** Fewest characters of a page turned that way: a title page's stamp may outweigh its title. */
const TURNED_MIN_CHARS = 200;

/**
 * The direction a page is read in, as a quarter turn: a page turned in its viewer (`/Rotate 90`) whose content is
 * drawn turned the other way reads at 90° in page space, and is to be read in that frame. A page turns only when
 * most of its text (three quarters, and enough of it) reads that way.
 */
export function pageDirection(items: readonly PdfTextItem[]): QuarterTurn {
  const chars = [0, 0, 0, 0];
  for (const item of items) {
    const angle = (((item.angle ?? 0) % 360) + 360) % 360;
    const quarter = Math.round(angle / 90) % 4;
    if (Math.abs(angle - quarter * 90) <= LEVEL || (quarter === 0 && angle >= 360 - LEVEL)) chars[quarter]! += item.str.length;
  }
  let best = 0;
  for (let q = 1; q < 4; q++) if ((chars[q] as number) > (chars[best] as number)) best = q;
  const total = chars.reduce((a, b) => a + b, 0);
  const turned = chars[best] as number;
  if (best === 0 || turned < TURNED_MIN_CHARS || turned < TURNED_SHARE * total) return 0;
  return (best * 90) as QuarterTurn;
}

/** Turns a point of page space into the frame of a page read at `turn`. */
function turnPoint(x: number, y: number, turn: QuarterTurn): [number, number] {
  if (turn === 90) return [y, -x];
  if (turn === 180) return [-x, -y];
  if (turn === 270) return [-y, x];
  return [x, y];
}

/** A page's runs in the frame of its direction: the text read at `turn` becomes level. */
export function turnItems(items: readonly PdfTextItem[], turn: QuarterTurn): PdfTextItem[] {
  if (turn === 0) return [...items];
  return items.map((item) => {
    const [x, y] = turnPoint(item.x, item.y, turn);
    const angle = ((((item.angle ?? 0) - turn) % 360) + 540) % 360 - 180;
    return textItem({ ...item, x, y, angle: angle !== 0 ? angle : undefined });
  });
}

/** A box of page space in the frame of a page read at `turn`. */
export function turnBox(box: PdfBox, turn: QuarterTurn): PdfBox {
  if (turn === 0) return box;
  const [ax, ay] = turnPoint(box.x0, box.y0, turn);
  const [bx, by] = turnPoint(box.x1, box.y1, turn);
  return { x0: Math.min(ax, bx), y0: Math.min(ay, by), x1: Math.max(ax, bx), y1: Math.max(ay, by) };
}

/** What a page draws, in the frame of a page read at `turn`. */
export function turnGraphics(graphics: PdfGraphics, turn: QuarterTurn): PdfGraphics {
  if (turn === 0) return graphics;
  return {
    rules: graphics.rules.map((r) => turnBox(r, turn)),
    images: graphics.images.map((b) => turnBox(b, turn)),
    drawings: graphics.drawings.map((b) => turnBox(b, turn)),
    ...(graphics.truncated === true ? { truncated: true } : {}),
  };
}
