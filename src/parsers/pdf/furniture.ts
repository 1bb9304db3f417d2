/**
 * Running headers and footers. A page's outermost lines (its top and bottom few) are candidates; a candidate is
 * furniture when a line with the same text, digits aside (page numbers), sits at about the same height on enough
 * pages of a window around it. The window is bounded, so the evidence costs a few pages of memory, not the document.
 */
import type { PdfLine } from './types.js';

/** Lines at the top and at the bottom of a page that may be furniture. */
export const FURNITURE_ZONE = 3;
/** How far (in points) the same header may move between pages. */
const Y_TOLERANCE = 4;

/** A well-formed roman numeral below 400 (front matter page numbers). */
const ROMAN = /^(?=[cxlvi])c{0,3}(?:xc|xl|l?x{0,3})(?:ix|iv|v?i{0,3})$/;

/** The text a running line is compared by: lower case, digits as `#`, letters and digits only. */
export function furnitureKey(text: string): string {
  const lower = text.toLowerCase().trim();
  // Front matter is numbered in roman numerals; only a line that is nothing else counts as one.
  if (ROMAN.test(lower)) return '#';
  return lower.replace(/\p{Nd}+/gu, '#').replace(/[^\p{L}#]+/gu, '');
}

/** One candidate line of one page. */
export interface FurnitureCandidate {
  readonly text: string;
  readonly key: string;
  readonly y: number;
  /** No other fragment shares its baseline. */
  readonly alone: boolean;
}

/** The outermost lines of a page: the `FURNITURE_ZONE` highest and lowest baselines. */
export function furnitureCandidates(lines: readonly PdfLine[]): FurnitureCandidate[] {
  const ys = [...new Set(lines.map((l) => Math.round(l.y)))].sort((a, b) => b - a);
  if (ys.length === 0) return [];
  const top = ys[Math.min(FURNITURE_ZONE, ys.length) - 1] as number;
  const bottom = ys[Math.max(0, ys.length - FURNITURE_ZONE)] as number;
  const perBaseline = new Map<number, number>();
  for (const line of lines) perBaseline.set(Math.round(line.y), (perBaseline.get(Math.round(line.y)) ?? 0) + 1);
  const out: FurnitureCandidate[] = [];
  for (const line of lines) {
    const y = Math.round(line.y);
    if (y < top && y > bottom) continue;
    out.push({ text: line.text, key: furnitureKey(line.text), y: line.y, alone: ys.length > 1 && perBaseline.get(y) === 1 });
  }
  return out;
}

/** Options of `createFurnitureDetector`. */
export interface FurnitureOptions {
  /** Pages on each side of a page that count as evidence. */
  readonly window: number;
  /** Pages (the page itself included) a line must appear on to be furniture. */
  readonly minPages: number;
}

/** Decides which lines are running headers and footers from the candidates of neighbouring pages. */
export interface FurnitureDetector {
  /** Records the candidates of a page; pages must be recorded in order. */
  record(page: number, candidates: readonly FurnitureCandidate[]): void;
  /**
   * True when `line` of `page` repeats on enough pages of the window, or is a page number alone on its line among
   * the page's top or bottom lines.
   * Pages below `page - window` are forgotten.
   */
  isFurniture(page: number, line: PdfLine): boolean;
}

/**
 * Creates a furniture detector holding at most `2 * window + 1` pages of candidates. A class rather than an object
 * of closures: its methods run for every line, and closures made anew for each document were compiled anew for each
 * (node --trace-opt: isFurniture compiled again in each pass of readPdfBlocks over a book), where a method's code
 * serves every document.
 */
export function createFurnitureDetector(options: FurnitureOptions): FurnitureDetector {
  return new WindowFurnitureDetector(options);
}

class WindowFurnitureDetector implements FurnitureDetector {
  readonly #options: FurnitureOptions;
  readonly #pages = new Map<number, readonly FurnitureCandidate[]>();

  constructor(options: FurnitureOptions) {
    this.#options = options;
  }

  record(page: number, candidates: readonly FurnitureCandidate[]): void {
    this.#pages.set(page, candidates);
  }

  isFurniture(page: number, line: PdfLine): boolean {
    const pages = this.#pages;
    const window = this.#options.window;
    for (const p of pages.keys()) if (p < page - window) pages.delete(p);
    // Only the page's own candidates can be furniture; most lines are not among them.
    const own = pages.get(page)?.find((c) => c.text === line.text && Math.abs(c.y - line.y) < 0.5);
    if (own === undefined) return false;
    const key = own.key;
    if (key.length === 0 && line.text.length > 12) return false;
    // A page number alone on its line at the top or bottom needs no evidence (a chapter's first page has only that),
    // nor does `Page 3`, `Page 3 of 20` there.
    if ((key === '#' || key === 'page#' || key === 'page#of#') && own.alone) return true;
    let seen = 1;
    for (const [p, candidates] of pages) {
      if (p === page || Math.abs(p - page) > window) continue;
      if (candidates.some((c) => c.key === key && Math.abs(c.y - line.y) <= Y_TOLERANCE)) seen++;
    }
    return seen >= this.#options.minPages;
  }
}
