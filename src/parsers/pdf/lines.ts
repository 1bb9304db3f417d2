/**
 * Text items → lines. Items are grouped in the order the text layer gives them: an item joins the current line when
 * it sits on the same baseline (superscripts and subscripts included) and continues to the right without a wide gap.
 * A wide gap starts a new fragment, so that columns and table cells stay apart until `orderLines` decides.
 */
import { sliceBox } from './runs.js';
import { pdfLine, textRun } from './shapes.js';
import type { GlyphBox, PdfLine, PdfTextItem, TextRun } from './types.js';

/** Horizontal gap, in font sizes, from which two runs on one baseline are separate fragments. */
const FRAGMENT_GAP = 1.5;
/** Vertical offset, in font sizes, within which a run is on the current baseline (sub- and superscripts). */
const BASELINE_TOLERANCE = 0.45;
/** Horizontal gap, in font sizes, from which a space is put between two runs. */
const SPACE_GAP = 0.15;

interface LineDraft {
  text: string;
  x: number;
  y: number;
  right: number;
  /** Size of the first run, for the geometry tests. */
  size: number;
  eol: boolean;
  fonts: Map<string, number>;
  sizes: Map<number, number>;
  mono: number;
  bold: number;
  chars: number;
  /** Runs appended so far, and where the second one started. */
  runs: number;
  secondX: number;
  firstText: string;
  /** Right edge of the first run. */
  firstRight: number;
  /** Font of the first run. */
  firstFont: string;
  /** Characters of right-to-left runs. */
  rtl: number;
  /** The runs appended, in order, each with whether a space was put before it: what the line's runs are made from. */
  parts: { item: PdfTextItem; spaced: boolean }[];
  /** A run without a box was appended: the line gets no runs. */
  glyphless: boolean;
}

/** Collapses whitespace and drops control characters that broken font encodings produce. */
export function cleanText(text: string): string {
  // Most lines have nothing to clean: telling so in one pass over the characters spares two regex replacements.
  if (isClean(text)) return text;
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u00ad\ufffe\uffff]/g, '').replace(/\s+/g, ' ');
}

/** True when `cleanText` would give `text` back as it is: nothing to drop, and every space a single plain one. */
function isClean(text: string): boolean {
  let afterSpace = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (isDropped(c)) return false;
    if (!isSpace(c)) afterSpace = false;
    else if (c !== SPACE || afterSpace) return false;
    else afterSpace = true;
  }
  return true;
}

/** Groups the items of one page into line fragments, in text-layer order. */
export function buildLines(items: readonly PdfTextItem[]): PdfLine[] {
  const out: PdfLine[] = [];
  let line: LineDraft | null = null;
  for (const item of items) {
    // A run of whitespace is a gap, not text: pdf.js gives one as wide as the gap it fills (between the cells of a
    // table, across a gutter), which must not join what it separates. The gap is measured from the text itself.
    if (item.str.length === 0 || !Number.isFinite(item.x) || !Number.isFinite(item.y) || isBlank(item.str)) {
      if (item.hasEOL && line !== null) line.eol = true;
      continue;
    }
    const size = item.fontSize > 0 ? item.fontSize : item.height > 0 ? item.height : 1;
    if (line !== null && continues(line, item, size)) {
      append(line, item, size);
    } else {
      if (line !== null) pushLine(out, line);
      line = start(item, size);
    }
    if (item.hasEOL) line.eol = true;
  }
  if (line !== null) pushLine(out, line);
  return out;
}

function isBlank(str: string): boolean {
  for (let i = 0; i < str.length; i++) {
    const c = str.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 0xa0 && c !== 10 && c !== 13) return false;
  }
  return true;
}

function continues(line: LineDraft, item: PdfTextItem, size: number): boolean {
  const scale = Math.max(line.size, size);
  const dy = Math.abs(item.y - line.y);
  if (dy > BASELINE_TOLERANCE * scale) return false;
  // Right-to-left text goes on to the left of what came before it, in the text layer's (reading) order.
  const leftward = line.rtl > 0 && item.x + item.width <= line.x + 0.5 * scale;
  const gap = leftward ? line.x - (item.x + Math.max(0, item.width)) : item.x - line.right;
  if (gap < -0.5 * scale || gap > FRAGMENT_GAP * scale) return false;
  // The text layer's line end wins unless the next run clearly goes on along the same baseline.
  if (line.eol && (dy > 0.1 * scale || gap > SPACE_GAP * scale * 4)) return false;
  return true;
}

function start(item: PdfTextItem, size: number): LineDraft {
  const line: LineDraft = {
    text: '',
    x: item.x,
    y: item.y,
    right: item.x,
    size,
    eol: false,
    fonts: new Map(),
    sizes: new Map(),
    mono: 0,
    bold: 0,
    chars: 0,
    runs: 0,
    secondX: NaN,
    firstText: '',
    firstRight: NaN,
    firstFont: '',
    rtl: 0,
    parts: [],
    glyphless: false,
  };
  append(line, item, size);
  return line;
}

function append(line: LineDraft, item: PdfTextItem, size: number): void {
  const str = item.str;
  let spaced = false;
  if (line.text.length > 0) {
    const gap = line.rtl > 0 && item.x + item.width <= line.x + 0.5 * size ? line.x - (item.x + Math.max(0, item.width)) : item.x - line.right;
    if (gap > SPACE_GAP * size && !isSpace(line.text.charCodeAt(line.text.length - 1)) && !isSpace(str.charCodeAt(0))) {
      line.text += ' ';
      spaced = true;
    }
  }
  line.text += str;
  if (item.glyphs === undefined) line.glyphless = true;
  else line.parts.push({ item, spaced });
  line.right = Math.max(line.right, item.x + Math.max(0, item.width));
  line.x = Math.min(line.x, item.x);
  line.eol = false;
  const n = visibleLength(str);
  if (n > 0) {
    line.runs++;
    if (line.runs === 1) {
      line.firstText = str.trim();
      line.firstRight = item.x + Math.max(0, item.width);
      line.firstFont = item.fontName;
    } else if (line.runs === 2) line.secondX = item.x;
  }
  if (n === 0) return;
  line.chars += n;
  line.fonts.set(item.fontName, (line.fonts.get(item.fontName) ?? 0) + n);
  const rounded = roundSize(size);
  line.sizes.set(rounded, (line.sizes.get(rounded) ?? 0) + n);
  if (item.monospace === true) line.mono += n;
  if (item.bold === true) line.bold += n;
  if (item.rtl === true) line.rtl += n;
}

function pushLine(out: PdfLine[], draft: LineDraft): void {
  const text = cleanText(draft.text).trim();
  if (text.length === 0) return;
  const runs = draft.parts.length > 0 && !draft.glyphless ? lineRuns(draft.parts, text) : undefined;
  const [fontName, fontChars] = top(draft.fonts, '');
  const [fontSize] = top(draft.sizes, roundSize(draft.size));
  const marker = draft.runs >= 2 && draft.firstText.length <= 4;
  out.push(pdfLine({
    text,
    x: draft.x,
    y: draft.y,
    right: draft.right,
    fontSize,
    fontName,
    fontShare: draft.chars === 0 ? 1 : fontChars / draft.chars,
    monospace: draft.chars > 0 && draft.mono / draft.chars > 0.8,
    cells: 1,
    chars: draft.chars,
    region: 0,
    bold: draft.chars > 0 && draft.bold / draft.chars > 0.8 ? true : undefined,
    rtl: draft.chars > 0 && draft.rtl / draft.chars > 0.5 ? true : undefined,
    // A marker set as a run of its own (a bullet, `1.`, a glyph): the item's text starts at the next run.
    textX: marker ? draft.secondX : undefined,
    markerEnd: marker ? draft.firstRight : undefined,
    markerFont: marker ? draft.firstFont : undefined,
    runs,
  }));
}

const SPACE = 0x20;

/** True for the characters `cleanText` removes. */
function isDropped(c: number): boolean {
  return c <= 0x08 || c === 0x0b || c === 0x0c || (c >= 0x0e && c <= 0x1f) || c === 0xad || c === 0xfffe || c === 0xffff;
}

/** True for the characters a JavaScript `\s` matches. */
function isSpace(c: number): boolean {
  return (
    c === 0x20 || (c >= 0x09 && c <= 0x0d) || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 ||
    c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff
  );
}

/** Characters of a string other than whitespace (as `\s` tells it), counted without a copy. */
function visibleLength(str: string): number {
  let n = 0;
  for (let i = 0; i < str.length; i++) if (!isSpace(str.charCodeAt(i))) n++;
  return n;
}

/**
 * The runs of a line: for each part, the span of the line's text its characters became and the box of those glyphs.
 * The text is rebuilt as `cleanText(raw).trim()` makes it (characters dropped, whitespace collapsed, ends trimmed),
 * noting which part each character came from; a part's box is narrowed to the characters it keeps. Returns
 * undefined when the rebuilt text is not `text` (it always is; the check keeps a box from pointing at other text).
 */
function lineRuns(parts: readonly { item: PdfTextItem; spaced: boolean }[], text: string): TextRun[] | undefined {
  const { built, owner, source } = rebuild(parts);
  let from = 0;
  let to = built.length;
  while (from < to && built.charCodeAt(from) === SPACE) from++;
  while (to > from && built.charCodeAt(to - 1) === SPACE) to--;
  if (built.slice(from, to) !== text) return undefined;
  const runs: TextRun[] = [];
  for (let k = from; k < to; ) {
    const p = owner[k] as number;
    let end = k + 1;
    while (end < to && owner[end] === p) end++;
    if (p >= 0) {
      const item = (parts[p] as { item: PdfTextItem }).item;
      const angle = item.glyphAngle ?? 0;
      const box = narrowed(item, source[k] as number, (source[end - 1] as number) + 1);
      runs.push(textRun(k - from, end - from, box, laidFromRight(item) ? true : undefined, angle !== 0 ? angle : undefined));
    }
    k = end;
  }
  return runs;
}

/** A line's text being rebuilt from its parts, and where each of its characters came from. */
interface Rebuilt {
  /** Pieces of the text, joined once at the end: stretches of a part kept as they are go in whole. */
  readonly pieces: string[];
  /** For each character: the part it came from (-1 for a space put between parts), and its index there. */
  readonly owner: Int32Array;
  readonly source: Int32Array;
  length: number;
  /** The last character is a space. */
  afterSpace: boolean;
}

/** A line's text rebuilt as `cleanText` makes it (before trimming), with the owner and source of each character. */
function rebuild(parts: readonly { item: PdfTextItem; spaced: boolean }[]): { built: string; owner: Int32Array; source: Int32Array } {
  let bound = parts.length;
  for (const part of parts) bound += part.item.str.length;
  const r: Rebuilt = { pieces: [], owner: new Int32Array(bound), source: new Int32Array(bound), length: 0, afterSpace: false };
  parts.forEach((part, p) => {
    if (part.spaced && !r.afterSpace) addChar(r, ' ', -1, -1);
    addPart(r, part.item.str, p);
  });
  return { built: r.pieces.join(''), owner: r.owner, source: r.source };
}

function addChar(r: Rebuilt, char: string, part: number, index: number): void {
  r.pieces.push(char);
  r.owner[r.length] = part;
  r.source[r.length] = index;
  r.length++;
  r.afterSpace = char === ' ';
}

/** Adds the characters of a part's string: dropped ones left out, whitespace collapsed to one space. */
function addPart(r: Rebuilt, str: string, part: number): void {
  /** Start of the stretch of `str` kept as it is. */
  let kept = 0;
  for (let i = 0; i < str.length; i++) {
    const c = str.charCodeAt(i);
    const space = isSpace(c);
    if (!isDropped(c) && (!space || (c === SPACE && !r.afterSpace))) {
      r.owner[r.length] = part;
      r.source[r.length] = i;
      r.length++;
      r.afterSpace = space;
      continue;
    }
    if (i > kept) r.pieces.push(str.slice(kept, i));
    kept = i + 1;
    if (space && !r.afterSpace) addChar(r, ' ', part, i);
  }
  if (str.length > kept) r.pieces.push(kept === 0 ? str : str.slice(kept));
}

/** The box of the glyphs `[from, to)` of a run's string. */
function narrowed(item: PdfTextItem, from: number, to: number): GlyphBox {
  return sliceBox(item.glyphs as GlyphBox, from, to, item.str.length, laidFromRight(item), item.glyphAngle ?? 0);
}

/** Letters of the scripts written right to left. */
const RTL_SCRIPT = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]/u;

/**
 * True when a run's glyphs are laid from the right: right-to-left script. pdf.js also calls `rtl` a run of Latin
 * letters drawn from the right, whose text it gives in reading order: those glyphs read from the left.
 */
function laidFromRight(item: PdfTextItem): boolean {
  return item.rtl === true && RTL_SCRIPT.test(item.str);
}

function top<K>(counts: Map<K, number>, fallback: K): [K, number] {
  let best: K = fallback;
  let bestCount = -1;
  for (const [key, count] of counts) {
    if (count > bestCount) {
      best = key;
      bestCount = count;
    }
  }
  return [best, Math.max(0, bestCount)];
}

/** Rounds a font size to a tenth of a point, so that sizes compare as equal across pages. */
export function roundSize(size: number): number {
  return Math.round(size * 10) / 10;
}
