/**
 * Headings. Without an outline, a line is a heading when its font is larger than the body size (the size holding the
 * most characters), or when it is a short standalone line in another font of the body size (bold or small caps).
 * Depth follows the size, ranked over the document (the largest heading size is depth 1, the next 2, …), or the
 * line's numbering (`1.2 Title` is depth 2, `I. INTRODUCTION` 1, `A. Title` 2). With an outline (bookmarks) whose
 * entries match the page text, the outline entries are the headings: each is matched to the lines of its page.
 */
import type { PdfLine } from './types.js';

/** Character counts by font size and font, for the body size and body font. */
export interface FontStats {
  add(line: PdfLine): void;
  /**
   * The size (to half a point) holding the most characters of the text flow; 0 before any line. Fixed-pitch lines
   * (code listings) count only in a document that is mostly code: API references set more characters in code than
   * in prose, and a body size taken from the code made every paragraph of larger prose a heading.
   */
  bodySize(): number;
  /** The font holding the most characters at about the body size, among the lines the body size was read from. */
  bodyFont(): string;
}

/** Share of a document's characters in proportional fonts from which its body is read from them alone. */
const PROSE_SHARE = 0.25;

/** Characters by size, and by font and size, of one set of lines. */
interface FontCounts {
  chars: number;
  readonly bySize: Map<number, number>;
  readonly byFont: Map<string, Map<number, number>>;
}

const emptyCounts = (): FontCounts => ({ chars: 0, bySize: new Map(), byFont: new Map() });

function addCounts(counts: FontCounts, line: PdfLine): void {
  const size = sizeKey(line.fontSize);
  counts.chars += line.chars;
  counts.bySize.set(size, (counts.bySize.get(size) ?? 0) + line.chars);
  let fonts = counts.byFont.get(line.fontName);
  if (fonts === undefined) counts.byFont.set(line.fontName, (fonts = new Map()));
  fonts.set(size, (fonts.get(size) ?? 0) + line.chars);
}

function mostCharsSize(counts: FontCounts): number {
  let best = 0;
  let count = -1;
  for (const [size, n] of counts.bySize) if (n > count || (n === count && size < best)) [best, count] = [size, n];
  return best;
}

function mostCharsFont(counts: FontCounts, body: number): string {
  let best = '';
  let count = -1;
  for (const [font, sizes] of counts.byFont) {
    let n = 0;
    for (const [size, c] of sizes) if (Math.abs(size - body) <= 0.6) n += c;
    if (n > count) [best, count] = [font, n];
  }
  return best;
}

/**
 * Creates empty font statistics. A class: `add` runs for every line, and closures made anew for each document were
 * compiled anew for each (see `createFurnitureDetector`).
 */
export function createFontStats(): FontStats {
  return new CharCountStats();
}

class CharCountStats implements FontStats {
  readonly #all = emptyCounts();
  readonly #prose = emptyCounts();

  add(line: PdfLine): void {
    addCounts(this.#all, line);
    if (!line.monospace) addCounts(this.#prose, line);
  }

  bodySize(): number {
    return mostCharsSize(this.#flow());
  }

  bodyFont(): string {
    const counts = this.#flow();
    return mostCharsFont(counts, mostCharsSize(counts));
  }

  #flow(): FontCounts {
    const prose = this.#prose;
    return prose.chars > 0 && prose.chars >= PROSE_SHARE * this.#all.chars ? prose : this.#all;
  }
}

/** Font sizes are compared to half a point: 10.9 and 11.1 are one size. */
export function sizeKey(size: number): number {
  return Math.round(size * 2) / 2;
}

/** Heading depth (1–6). */
export type Depth = 1 | 2 | 3 | 4 | 5 | 6;

/** What `fontHeadingDepth` needs to know about a line's surroundings. */
export interface HeadingCues {
  readonly bodySize: number;
  readonly bodyFont: string;
  /** The line starts a block: first of its column, after a paragraph gap, or after another heading line. */
  readonly startsBlock: boolean;
  /** Width of the column the line is in. */
  readonly columnWidth: number;
  /** Heading sizes ranked over the document; without them, depth follows fixed ratios to the body size. */
  readonly ranks?: SizeRanks;
}

/** Depths of heading sizes, ranked over the lines seen so far. */
export interface SizeRanks {
  /** Notes a line that may be a heading by its size (larger than the body), once per line. */
  add(line: PdfLine, bodySize: number): void;
  /**
   * The depth of a heading set in `size`: one more than the number of larger heading sizes seen when this size was
   * first asked for, and the same ever after, so that one size is one depth through the document.
   */
  depthOf(size: number): Depth;
  /** The depth of a heading at about the body size (bold, small caps): one below the smallest ranked size. */
  bodyDepth(): Depth;
  /** 1 when the largest heading size is an unnumbered title above `size`, which numbered headings then sit under. */
  titleOffset(size: number): 0 | 1;
}

/** Most distinct heading sizes ranked; a document with more (a poster, a font sampler) ranks the rest as the last. */
const MAX_RANKED_SIZES = 64;

/** Creates empty size ranks: a class, for the reason `createFontStats` gives. */
export function createSizeRanks(): SizeRanks {
  return new SeenSizeRanks();
}

class SeenSizeRanks implements SizeRanks {
  readonly #seen = new Map<number, { numbered: number; plain: number }>();
  readonly #assigned = new Map<number, Depth>();
  #body: Depth | null = null;

  add(line: PdfLine, bodySize: number): void {
    if (bodySize <= 0 || line.fontSize < 1.08 * bodySize || !isHeadingLike(line)) return;
    const key = sizeKey(line.fontSize);
    let entry = this.#seen.get(key);
    if (entry === undefined) {
      if (this.#seen.size >= MAX_RANKED_SIZES) return;
      this.#seen.set(key, (entry = { numbered: 0, plain: 0 }));
    }
    if (numberingDepth(line.text) === null) entry.plain++;
    else entry.numbered++;
  }

  depthOf(size: number): Depth {
    const key = sizeKey(size);
    let depth = this.#assigned.get(key);
    if (depth === undefined) {
      depth = Math.min(6, 1 + this.#larger(key)) as Depth;
      this.#assigned.set(key, depth);
    }
    return depth;
  }

  bodyDepth(): Depth {
    this.#body ??= Math.min(6, 1 + this.#seen.size) as Depth;
    return this.#body;
  }

  titleOffset(size: number): 0 | 1 {
    let top = -Infinity;
    for (const s of this.#seen.keys()) top = Math.max(top, s);
    const entry = this.#seen.get(top);
    return entry !== undefined && entry.numbered === 0 && top > sizeKey(size) + 0.5 ? 1 : 0;
  }

  #larger(size: number): number {
    let n = 0;
    for (const s of this.#seen.keys()) if (s > size) n++;
    return n;
  }
}

/** Two letters, wherever they are in a text. */
const TWO_LETTERS = /\p{L}\P{L}*\p{L}/u;

/**
 * Short lines with letters, not code: what a heading line looks like, whatever its font. Every line of a page is asked;
 * two letters are looked for by one search rather than all of them listed and counted (the list of every letter of
 * every line took 7% of the main thread's samples over four passes of tracemonkey.pdf in `node --cpu-prof`).
 */
function isHeadingLike(line: PdfLine): boolean {
  return line.text.length <= 160 && !line.monospace && line.figure !== true && TWO_LETTERS.test(line.text);
}

const DECIMAL = /^(\d{1,2}(?:\.\d{1,2}){0,5})\.?\s+(?=\p{L})/u;
const ROMAN = /^(?=[IVXLC])(?:C{0,3})(?:XC|XL|L?X{0,3})(?:IX|IV|V?I{0,3})\.\s+(?=\p{L})/u;
const LETTER = /^[A-Z]\.\s+(?=\p{L})/u;
const PARENTHESIZED = /^\(?(?:\d{1,2}|[a-z])\)\s+(?=\p{L})/u;

/** Depth a heading's numbering gives it: `1` 1, `1.2` 2, `I.` 1, `A.` 2, `(1)` 3; null when it has none. */
export function numberingDepth(text: string): Depth | null {
  const decimal = DECIMAL.exec(text);
  if (decimal !== null) return Math.min(6, (decimal[1] as string).split('.').length) as Depth;
  if (ROMAN.test(text)) return 1;
  if (LETTER.test(text)) return 2;
  if (PARENTHESIZED.test(text)) return 3;
  return null;
}

/** Longest heading set at the body size in another face. */
const BODY_HEADING_CHARS = 80;

/** Ratios to the body size from which a larger line is a heading of depth 1, 2 and 3. */
const SIZE_STEPS: readonly [number, Depth][] = [
  [1.7, 1],
  [1.35, 2],
  [1.08, 3],
];

/** Depth of a heading line from its font (and its numbering), or null when the line is not a heading. */
export function fontHeadingDepth(line: PdfLine, cues: HeadingCues): Depth | null {
  if (!isHeadingLike(line) || cues.bodySize <= 0) return null;
  const ratio = line.fontSize / cues.bodySize;
  const ranks = cues.ranks;
  const numbered = numberingDepth(line.text);
  if (ratio >= 1.08) {
    if (ranks === undefined) {
      for (const [step, depth] of SIZE_STEPS) if (ratio >= step) return depth;
    }
    const sized = (ranks as SizeRanks).depthOf(line.fontSize);
    return numbered === null ? sized : (Math.min(6, numbered + (ranks as SizeRanks).titleOffset(line.fontSize)) as Depth);
  }
  if (ratio < 0.92 || (line.fontName === cues.bodyFont && line.bold !== true) || line.fontShare < 0.9 || !cues.startsBlock) return null;
  // A full-width line in another font is emphasis inside a paragraph, not a heading; so is a long one (a question
  // of a form set in bold).
  if (line.right - line.x > 0.85 * cues.columnWidth || line.text.length > BODY_HEADING_CHARS || /[,;]$/.test(line.text)) return null;
  if (ranks === undefined) return 4;
  return numbered === null ? ranks.bodyDepth() : (Math.min(6, numbered + ranks.titleOffset(line.fontSize)) as Depth);
}

/** One outline (bookmark) entry, resolved to its page. */
export interface OutlineEntry {
  readonly title: string;
  /** Nesting depth, 1 for top-level entries, at most 6. */
  readonly depth: Depth;
  /** 1-based page the entry points to. */
  readonly page: number;
}

/**
 * Lower-case word tokens, accents removed, for matching outline titles to page text. A hyphen between letters joins
 * its word (`non-regular` is `nonregular`), since bookmarks often drop it: pdfTeX's outline of a heading set
 * `Non-regular files` reads `Nonregular files`.
 */
export function titleTokens(text: string): string[] {
  return (
    text
      .normalize('NFKD')
      .replace(/\p{M}+/gu, '')
      .replace(HYPHEN_IN_WORD, '')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  );
}

/** A hyphen (ASCII, soft, Unicode's hyphen and non-breaking hyphen) between two letters. */
const HYPHEN_IN_WORD = /(?<=\p{L})[-\u00ad\u2010\u2011](?=\p{L})/gu;

/** A match of an outline title: `count` lines from `index`. */
export interface TitleMatch {
  readonly index: number;
  readonly count: number;
  readonly score: number;
}

/**
 * Finds the lines of a page that carry an outline title: the one to three consecutive lines whose words cover most of
 * the title's words (numbers aside, as `Chapter 1` is often set as `CHAPTER ONE`) without many other words. Larger
 * fonts win ties, then earlier lines. Null when no line covers at least 60% of the title.
 */
export function matchTitle(title: string, lines: readonly PdfLine[], taken: ReadonlySet<number> = new Set()): TitleMatch | null {
  const all = titleTokens(title);
  const words = all.filter((t) => !/^\p{N}+$/u.test(t));
  const wanted = words.length > 0 ? words : all;
  if (wanted.length === 0) return null;
  let best: (TitleMatch & { size: number }) | null = null;
  for (let i = 0; i < lines.length; i++) {
    if (taken.has(i)) continue;
    const tokens: string[] = [];
    for (let count = 1; count <= 3 && i + count <= lines.length; count++) {
      if (taken.has(i + count - 1)) break;
      const line = lines[i + count - 1] as PdfLine;
      tokens.push(...titleTokens(line.text));
      if (tokens.length > all.length + 4) break;
      const have = new Set(tokens);
      let hit = 0;
      for (const w of wanted) if (have.has(w)) hit++;
      const score = hit / wanted.length - 0.01 * Math.max(0, tokens.length - all.length);
      if (hit / wanted.length < 0.6) continue;
      const size = (lines[i] as PdfLine).fontSize;
      if (best === null || score > best.score + 1e-9 || (Math.abs(score - best.score) < 1e-9 && size > best.size)) {
        best = { index: i, count, score, size };
      }
    }
  }
  return best === null ? null : { index: best.index, count: best.count, score: best.score };
}
