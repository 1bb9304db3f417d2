/**
 * The text pdf.js itself reports inside boxes: the check that a chunk's (or a block's) boxes hold exactly the
 * glyphs of its text. pdf.js gives each run of text its start, baseline, width and font size, not each glyph's; a
 * run's glyphs are taken as laid evenly along its width, and a glyph is inside a box when its em square's centre is.
 */
import { openPdfSession } from '../../src/parsers/pdf/sandbox.js';
import type { PageFrame, PdfTextItem } from '../../src/parsers/pdf/types.js';
import type { PageBox } from '../../src/types.js';

/** A glyph as pdf.js places it: its character and the centre of its em square (page points, from the top left). */
export interface PlacedGlyph {
  readonly char: string;
  readonly x: number;
  readonly y: number;
  /** The run it belongs to (its index on the page), its index in the run, and the run's font size. */
  readonly run: number;
  readonly index: number;
  readonly size: number;
}

/** A US Letter page shown upright: what a page without a frame is taken as. */
const UPRIGHT_LETTER: PageFrame = [1, 0, 0, -1, 0, 792];

/** Letters of the scripts written right to left: a run of them is laid from the right. */
const RTL_SCRIPT = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]/u;

/** The glyphs of pages `1..pages` of a PDF (a path or its bytes), by page, in the text layer's order. */
export async function pdfGlyphs(file: string | Uint8Array, pages: number): Promise<Map<number, PlacedGlyph[]>> {
  const source = typeof file === 'string' ? { path: file } : { data: file };
  const session = await openPdfSession(source, { password: undefined, limits: { seconds: 120, memoryMb: 512 } });
  const out = new Map<number, PlacedGlyph[]>();
  try {
    for (let n = 1; n <= Math.min(pages, session.pages); n++) {
      const page = await session.page(n);
      const frame = page.frame ?? UPRIGHT_LETTER;
      out.set(n, page.items.flatMap((item, run) => placeGlyphs(item, run, frame)));
    }
  } finally {
    await session.close();
  }
  return out;
}

/**
 * The glyphs of one run, laid evenly along its baseline: from the right for right-to-left script (pdf.js also calls
 * a run of Latin letters drawn from the right `rtl`, and gives its text in reading order: it is laid from the left).
 */
function placeGlyphs(item: PdfTextItem, run: number, frame: PageFrame): PlacedGlyph[] {
  const n = item.str.length;
  // A run of no width (the bar of `↦` set as `7` in a math font) has its glyphs at its start.
  if (n === 0 || !(item.width >= 0)) return [];
  const size = item.fontSize > 0 ? item.fontSize : item.height > 0 ? item.height : 1;
  const rise = ((item.descent ?? -0.2) + 0.5) * size;
  const radians = ((item.angle ?? 0) * Math.PI) / 180;
  const [cos, sin] = [Math.cos(radians), Math.sin(radians)];
  const rtl = item.rtl === true && RTL_SCRIPT.test(item.str);
  const out: PlacedGlyph[] = [];
  for (let i = 0; i < n; i++) {
    const along = ((rtl ? n - i - 0.5 : i + 0.5) * item.width) / n;
    const x = item.x + along * cos - rise * sin;
    const y = item.y + along * sin + rise * cos;
    const [a, b, c, d, e, f] = frame;
    out.push({ char: item.str[i] as string, x: a * x + c * y + e, y: b * x + d * y + f, run, index: i, size });
  }
  return out;
}

/**
 * Letters and digits of a text, in compatibility form: what a box check compares. Lam and alef are left out: the
 * reader spells a lam-alef ligature back from its glyph where pdf.js gives its two letters swapped.
 */
export function boxLetters(text: string): string {
  return text.normalize('NFKC').replace(/[^\p{L}\p{N}]+|[\u0622\u0623\u0625\u0627\u0644]/gu, '');
}

/**
 * The letters of the glyphs inside `boxes`, box after box; inside one box in the order they are read (down the box,
 * and along each line from the left, or from the right when `rtl`). A glyph drawn twice at one place (a bold face
 * made by drawing the text twice) counts once.
 */
export function lettersInBoxes(glyphs: ReadonlyMap<number, readonly PlacedGlyph[]>, boxes: readonly PageBox[], rtl = false): string {
  let out = '';
  // Boxes of one chunk may overlap (a raised letter's box over its line's): a glyph is read in the first only.
  const seen = new Set<PlacedGlyph>();
  for (const box of boxes) {
    const inside = (glyphs.get(box.page) ?? []).filter((g) => !seen.has(g) && g.x >= box.x - 0.5 && g.x <= box.x + box.width + 0.5 && g.y >= box.y - 0.5 && g.y <= box.y + box.height + 0.5);
    for (const g of inside) seen.add(g);
    out += boxLetters(readingOrder(withoutOverprint(inside), rtl).map((g) => g.char).join(''));
  }
  return out;
}

/** Glyphs without a second drawing of the same character within a fifth of its size (a bold face or a shadow). */
function withoutOverprint(glyphs: readonly PlacedGlyph[]): PlacedGlyph[] {
  const kept: PlacedGlyph[] = [];
  for (const g of glyphs) {
    if (!kept.some((k) => k.char === g.char && k.run !== g.run && Math.abs(k.x - g.x) < 0.2 * g.size && Math.abs(k.y - g.y) < 0.2 * g.size)) kept.push(g);
  }
  return kept;
}

/**
 * Glyphs in reading order: line by line down the box, the runs of a line from the left (from the right when the box
 * reads right to left), each run's glyphs in its own order (a run set at an angle reads along its baseline).
 */
function readingOrder(glyphs: readonly PlacedGlyph[], rtl: boolean): PlacedGlyph[] {
  const runs = new Map<number, PlacedGlyph[]>();
  for (const g of glyphs) (runs.get(g.run) ?? runs.set(g.run, []).get(g.run)!).push(g);
  const ordered = [...runs.values()].map((run) => {
    run.sort((a, b) => a.index - b.index);
    return { run, x: Math.min(...run.map((g) => g.x)), right: Math.max(...run.map((g) => g.x)), y: (run[0] as PlacedGlyph).y };
  });
  ordered.sort((a, b) => (Math.abs(a.y - b.y) > 2 ? a.y - b.y : rtl ? b.right - a.right : a.x - b.x));
  return ordered.flatMap((r) => r.run);
}

/** Letters and how many times each comes in `text`. */
function letterCounts(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const ch of text) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  return counts;
}

/** The letters of `a` beyond those of `b`, counted (`aab` less `ab` is `a`). */
export function lettersBeyond(a: string, b: string): string {
  const have = letterCounts(b);
  let out = '';
  for (const [ch, n] of letterCounts(a)) {
    const more = n - (have.get(ch) ?? 0);
    if (more > 0) out += ch.repeat(more);
  }
  return out;
}
