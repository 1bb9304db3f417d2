/**
 * The messages between the PDF reader and the process that runs pdf.js for it (`sandbox-child.ts`). Plain data
 * only: they cross a process boundary with Node's advanced (structured clone) serialization. One document is open
 * at a time; requests are answered in order.
 */
import type { OutlineEntry } from './headings.js';
import type { PageFrame, PdfGraphics, PdfTextItem } from './types.js';
import { textItem } from './shapes.js';

/**
 * Most text runs taken from one page. A dense page (a directory, a map's labels) has a few thousand; past this a page
 * is a flood, and what it would cost to lay out and to send is better spent on the pages after it.
 */
export const MAX_PAGE_ITEMS = 50_000;

/** Where the document comes from: a file the child reads itself, or bytes. */
export type SandboxSource = { readonly path: string } | { readonly data: Uint8Array };

/** Requests of the reader. */
export type SandboxRequest =
  | { readonly op: 'open'; readonly source: SandboxSource; readonly password: string | undefined }
  | { readonly op: 'page'; readonly number: number }
  | { readonly op: 'graphics'; readonly number: number }
  | { readonly op: 'close' };

/** The text of one page. */
export interface SandboxPage {
  readonly number: number;
  /** How the page is shown: where the boxes of its text are measured from. */
  readonly frame?: PageFrame;
  readonly items: PdfTextItem[];
  /** The page had more text runs than the reader takes from one page; the rest were dropped. */
  readonly truncated: boolean;
}

/**
 * A page's runs as they cross the process boundary: columns rather than one object a run, since cloning tens of
 * thousands of small objects was measured to cost a quarter of what pdf.js spends reading a math-heavy page.
 */
export interface PackedItems {
  readonly strs: string[];
  /** x, y, width, height, font size and angle of each run, in turn. */
  readonly numbers: Float64Array;
  /** Each run's font, as an index into `fonts`. */
  readonly font: Uint32Array;
  readonly fonts: string[];
  /** Each font's descent, in font sizes (negative below the baseline), or NaN when pdf.js gave none. */
  readonly descents: number[];
  /** Bit 1: a line end follows the run; bit 2: its font is fixed-pitch (by pdf.js's fallback name); bit 4: right-to-left. */
  readonly flags: Uint8Array;
}

/** Packs runs for the trip across the process boundary. */
export function packItems(items: readonly PdfTextItem[]): PackedItems {
  const n = items.length;
  const numbers = new Float64Array(6 * n);
  const font = new Uint32Array(n);
  const flags = new Uint8Array(n);
  const fonts: string[] = [];
  const descents: number[] = [];
  const index = new Map<string, number>();
  const strs = new Array<string>(n);
  for (let i = 0; i < n; i++) {
    const item = items[i] as PdfTextItem;
    strs[i] = item.str;
    numbers.set([item.x, item.y, item.width, item.height, item.fontSize, item.angle ?? 0], 6 * i);
    let f = index.get(item.fontName);
    if (f === undefined) {
      index.set(item.fontName, (f = fonts.push(item.fontName) - 1));
      descents.push(item.descent ?? Number.NaN);
    }
    font[i] = f;
    flags[i] = (item.hasEOL ? 1 : 0) | (item.monospace === true ? 2 : 0) | (item.rtl === true ? 4 : 0);
  }
  return { strs, numbers, font, fonts, descents, flags };
}

/** The runs of a packed page, each made by `textItem` (one hidden class: see `shapes.ts`). */
export function unpackItems(packed: PackedItems): PdfTextItem[] {
  const { strs, numbers, font, fonts, descents, flags } = packed;
  const out = new Array<PdfTextItem>(strs.length);
  for (let i = 0; i < strs.length; i++) {
    const k = 6 * i;
    const angle = numbers[k + 5] as number;
    const descent = descents[font[i] as number] as number;
    out[i] = textItem({
      str: strs[i] as string,
      x: numbers[k] as number,
      y: numbers[k + 1] as number,
      width: numbers[k + 2] as number,
      height: numbers[k + 3] as number,
      fontName: fonts[font[i] as number] as string,
      fontSize: numbers[k + 4] as number,
      hasEOL: ((flags[i] as number) & 1) !== 0,
      monospace: ((flags[i] as number) & 2) !== 0,
      angle: angle !== 0 ? angle : undefined,
      rtl: ((flags[i] as number) & 4) !== 0 ? true : undefined,
      descent: Number.isFinite(descent) ? descent : undefined,
    });
  }
  return out;
}

/** What one page draws (from its operator list), and the names of the fonts it uses. */
export interface SandboxGraphics {
  readonly number: number;
  readonly graphics: PdfGraphics;
  /** Names of the page's fonts (`ABCDEF+Calibri-Bold`), by the id its items carry. */
  readonly fonts: Readonly<Record<string, string>>;
  /** Right-to-left words the page's text spells backwards (a ligature's letters swapped), with their spelling. */
  readonly reversedWords?: ReadonlyMap<string, string>;
}

/** Replies of the child, one per request; `ready` comes first, unasked, once pdf.js is loaded. */
export type SandboxReply =
  | { readonly op: 'ready' }
  | { readonly op: 'opened'; readonly pages: number; readonly outline: OutlineEntry[]; readonly warnings: string[]; readonly title?: string }
  | { readonly op: 'page'; readonly number: number; readonly packed: PackedItems; readonly truncated: boolean; readonly frame?: PageFrame }
  | ({ readonly op: 'graphics' } & SandboxGraphics)
  | { readonly op: 'closed' }
  | { readonly op: 'failed'; readonly code: string; readonly message: string; readonly page?: number };
