/**
 * Headings. Without an outline, a line is a heading when its font is larger than the body size (the size holding the
 * most characters), ranked by the ratio, or when it is a short standalone line in another font of the body size
 * (bold or small caps). With an outline (bookmarks), the outline entries are the headings: each is matched to the
 * lines of the page it points to.
 */
import type { PdfLine } from './types.js';

/** Character counts by font size and font, for the body size and body font. */
export interface FontStats {
  add(line: PdfLine): void;
  /** The size (to half a point) holding the most characters; 0 before any line. */
  bodySize(): number;
  /** The font holding the most characters at about the body size. */
  bodyFont(): string;
}

/** Creates empty font statistics. */
export function createFontStats(): FontStats {
  const bySize = new Map<number, number>();
  const byFont = new Map<string, Map<number, number>>();
  return {
    add(line) {
      const size = sizeKey(line.fontSize);
      bySize.set(size, (bySize.get(size) ?? 0) + line.chars);
      let fonts = byFont.get(line.fontName);
      if (fonts === undefined) byFont.set(line.fontName, (fonts = new Map()));
      fonts.set(size, (fonts.get(size) ?? 0) + line.chars);
    },
    bodySize() {
      let best = 0;
      let count = -1;
      for (const [size, n] of bySize) if (n > count || (n === count && size < best)) [best, count] = [size, n];
      return best;
    },
    bodyFont() {
      const body = this.bodySize();
      let best = '';
      let count = -1;
      for (const [font, sizes] of byFont) {
        let n = 0;
        for (const [size, c] of sizes) if (Math.abs(size - body) <= 0.6) n += c;
        if (n > count) [best, count] = [font, n];
      }
      return best;
    },
  };
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
}

/** Ratios to the body size from which a larger line is a heading of depth 1, 2 and 3. */
const SIZE_STEPS: readonly [number, Depth][] = [
  [1.7, 1],
  [1.35, 2],
  [1.08, 3],
];

/** Depth of a heading line from its font, or null when the line is not a heading. */
export function fontHeadingDepth(line: PdfLine, cues: HeadingCues): Depth | null {
  if (line.text.length > 160 || !/\p{L}/u.test(line.text) || cues.bodySize <= 0 || line.monospace) return null;
  const ratio = line.fontSize / cues.bodySize;
  for (const [step, depth] of SIZE_STEPS) if (ratio >= step) return depth;
  if (ratio < 0.92 || line.fontName === cues.bodyFont || line.fontShare < 0.9 || !cues.startsBlock) return null;
  // A full-width line in another font is emphasis inside a paragraph, not a heading.
  if (line.right - line.x > 0.85 * cues.columnWidth || /[,;]$/.test(line.text)) return null;
  return 4;
}

/** One outline (bookmark) entry, resolved to its page. */
export interface OutlineEntry {
  readonly title: string;
  /** Nesting depth, 1 for top-level entries, at most 6. */
  readonly depth: Depth;
  /** 1-based page the entry points to. */
  readonly page: number;
}

/** Lower-case word tokens, accents removed, for matching outline titles to page text. */
export function titleTokens(text: string): string[] {
  return (
    text
      .normalize('NFKD')
      .replace(/\p{M}+/gu, '')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  );
}

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
