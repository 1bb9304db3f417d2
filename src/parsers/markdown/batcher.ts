/**
 * Cuts a growing Markdown text into batches that can be parsed on their own, each at most `maxBatchSize` long
 * whatever the text.
 *
 * A batch ends after a blank line once it holds `batchSize` characters, at the first such place where the next
 * line starts a fresh top-level block: not indented (so not a list continuation or indented code), not a list
 * item (a loose list spans blank lines), and outside front matter, fenced code, `$$` math and the HTML blocks that
 * may contain blank lines. Such a cut gives exactly the blocks a parse of the whole text would give.
 *
 * Text without such a cut within `maxBatchSize` (a CSV export as one table, a changelog without blank lines, an
 * unclosed fence, one line of megabytes) is cut at the most faithful place in `[batchSize, maxBatchSize]`, in this
 * order: before a top-level ATX heading or thematic break; between top-level list items; between table rows;
 * between the lines of a fenced code, math, HTML block or front matter; at a line end; after whitespace; between
 * grapheme clusters. Among the places of one kind, the first that the text after it marks (a hash, one place in
 * 64) wins over the first one, so that an edit moves no forced cut after the next one. Where the cut falls inside a construct, the next batch says so (`continues`): it is parsed
 * with a prelude (a table's header and delimiter rows, the opening line of a fence, math or HTML block, a stand-in
 * line that keeps a paragraph, list or quote open) so that its text parses as the rest of the same construct.
 *
 * Cut points depend only on the text, never on how it was written, so the stream and the one-string parse give the
 * same batches.
 */
import { listOfObjects, settleFields } from '../../core.js';
import { ChunkError } from '../../errors.js';
import { countLineEndings } from '../../unicode/lines.js';
import { boundaryAtOrAfter, isSpaceCode } from '../../unicode/segment-windows.js';
import { segmenterFor } from '../../unicode/segmenters.js';
import { HASH_REACH, textHash } from '../../unicode/text-hash.js';
import { afterIndent, atxOpenLength, blanksEnd, closesFence, delimiterCells, fenceLineEnd, fenceOpen, htmlEnds, htmlStartCondition, isListMarker, mayBeDelimiterRow, isSetextUnderline, isThematicBreak, itemFenceOpen } from './block-syntax.js';
import { BACKTICK, COLON, CR, DASH, DIGIT_0, DOLLAR, EQUALS, GREATER, HASH, isDigit, LEFT_BRACKET, LESS, LF, PIPE, PLUS, SPACE, STAR, TAB, TILDE, UNDERSCORE } from './char-codes.js';

/** How a batch cut at the bound continues the construct the previous batch ends in. */
export interface BatchContinuation {
  /** Where the cut fell: between list items, table rows, or lines, or inside a line. */
  readonly cut: 'item' | 'row' | 'line' | 'inline';
  /** Text parsed in front of the batch (never part of any block) so that it parses as the rest of the construct. */
  readonly prelude: string;
  /** What frames every part of the construct for the embedder: a table's header and delimiter rows, a fence's opening line. */
  readonly frame?: string;
}

/** A piece of the document to parse on its own. */
export interface MarkdownBatch {
  readonly text: string;
  /** UTF-16 offset of `text` in the document. */
  readonly offset: number;
  /** 1-based line of the first character of `text`. */
  readonly line: number;
  /** Set when the batch begins inside a construct the previous batch began. */
  readonly continues?: BatchContinuation;
  /** True when the batch ends inside a construct that the next batch continues. */
  readonly continued?: boolean;
  /** Fail on nesting past the cap instead of reading it as text (`ParseConfig.strict`). */
  readonly strict?: boolean;
}

/** Options of the batcher (from `ParseConfig`). */
export interface BatcherOptions {
  readonly batchSize: number;
  readonly maxBatchSize: number;
  /** Fail with `ERR_BUFFER_OVERFLOW` instead of cutting a line longer than `maxBatchSize`. */
  readonly strict?: boolean;
  /**
   * How many batches ahead the places to cut at are kept (`CandidateChain`); 0 scans the lines after every forced
   * cut again. The batches are the same either way (a test holds them so).
   */
  readonly lookaheadBatches?: number;
}

/** Ranks of the places a batch may be cut at when no safe cut falls within the bound, best first. */
const EXACT = 0;
const ITEM = 1;
const ROW = 2;
const INSIDE = 3;
const LINE_END = 4;

/**
 * Characters past the bound a forced cut may read (a line's first characters, the context of a grapheme
 * boundary): the cut is only chosen once they are here, so that it never depends on how the text was written.
 */
const LOOKAHEAD = 256;
/** One place in this many, by the hash of the text after it, is marked as a preferred forced cut. */
const MARK_EVERY = 64;

/**
 * True when the hash of `text[at, end)` marks `at` as a preferred place for a forced cut. The earliest marked
 * place of the best rank wins over the earliest place: where it lies depends on the text there, not on where the
 * batch began, so after an edit the batches that follow are cut at the same places again, and the blocks (and
 * chunks) beyond the edit stay the same.
 */
function isMarked(text: string, at: number, end: number): boolean {
  return textHash(text, at, end) % MARK_EVERY === 0;
}

/** A place to cut at, found while scanning, with the scan state just before it. */
interface Candidate {
  readonly at: number;
  readonly rank: number;
  /** Marked by the text that follows it (`isMarked`): preferred over the unmarked places of its rank. */
  readonly marked: boolean;
  readonly continues: BatchContinuation | undefined;
  readonly state: ScanState;
}

/**
 * The places to cut at, kept for the batch being filled and the batches after it (`lookaheadBatches`), so that a
 * forced cut need not scan the lines after it again. Level 0 is the best place since `batchSize`; level k the
 * best since `batchSize` past level k - 1's place, which is what the scan of the batch that starts at level k - 1's
 * place would keep as its best. A forced cut at level 0's place makes level 1 the next batch's best, and so on.
 * Text without blank lines (a heading a line, a setext heading every two lines) was scanned four times over, the
 * lines from each cut to the bound again after every cut.
 */
interface CandidateChain {
  levels: Candidate[];
  /** A place fell past the last level kept: the next forced cut scans the lines after it again. */
  overflow: boolean;
}

/** Batches ahead the places to cut at are kept by default: with the default sizes, a batch reaches 4 ahead. */
const LOOKAHEAD_BATCHES = 8;

/**
 * What a batcher holds between writes: the text not yet in a batch, where the scan of its lines stands, and the
 * places to cut at found so far. One object, so that each step below is a function of it that a test can call.
 */
interface Batcher {
  readonly batchSize: number;
  readonly maxBatchSize: number;
  readonly strict: boolean;
  readonly lookaheadBatches: number;
  buffer: string;
  /** Document offset of `buffer[0]`. */
  base: number;
  /** Line number of `buffer[0]`. */
  baseLine: number;
  /** Buffer index of the first line not yet scanned. */
  scan: number;
  /** Buffer index up to which the unfinished line at `scan` is known to hold no line feed. */
  searched: number;
  /** What the lines scanned so far leave open. */
  state: ScanState;
  /** How the next batch continues the one being filled, decided by the last forced cut. */
  pending: BatchContinuation | undefined;
  /** The best places to cut at seen since `batchSize` (level 0), should the bound be reached without a safe cut. */
  chain: CandidateChain;
  /** What the last cut inside a line found unmarked (`UnmarkedPlaces`). */
  readonly unmarked: UnmarkedPlaces;
  /** Byte length of the text before `buffer`, for error messages. */
  bytesBefore: number;
}

/**
 * Buffer indices between which a cut inside a line found no whitespace run marked (`markedSpaceRunEnd`): a run
 * that ends past `from` and at least `HASH_REACH` before `to` was hashed whole and is not marked. The next
 * cut inside the same line scans from `batchSize` past the last one, over three quarters of the same places with
 * the default sizes: a line of words without a marked place (a word list) was hashed a few words a word, four
 * times over. Empty (`to` at 0) when nothing is known.
 */
interface UnmarkedPlaces {
  from: number;
  to: number;
}

/** Creates a batcher: `write(text)` returns the batches that are complete. */
export function createMarkdownBatcher(options: BatcherOptions) {
  const b = newBatcher(options);
  return {
    /** Adds decoded text; returns the batches that are complete. */
    write(text: string): MarkdownBatch[] {
      if (text.length === 0) return [];
      b.buffer += text;
      return scanLines(b, false);
    },
    /** Returns the last batches. */
    end(): MarkdownBatch[] {
      const out = scanLines(b, true);
      if (b.buffer.length > 0) out.push(take(b, b.buffer.length, undefined));
      return out;
    },
  };
}

/** A batcher before its first write. */
function newBatcher(options: BatcherOptions): Batcher {
  const { batchSize, strict = false, lookaheadBatches = LOOKAHEAD_BATCHES } = options;
  return {
    batchSize,
    maxBatchSize: Math.max(options.maxBatchSize, batchSize),
    strict,
    lookaheadBatches,
    buffer: '',
    base: 0,
    baseLine: 1,
    scan: 0,
    searched: 0,
    state: initialState(),
    pending: undefined,
    chain: { levels: listOfObjects(), overflow: false },
    unmarked: { from: 0, to: 0 },
    bytesBefore: 0,
  };
}

/** The batch of the buffer's first `end` characters; `next` says how the batch after it continues it. */
function take(b: Batcher, end: number, next: BatchContinuation | undefined): MarkdownBatch {
  const text = b.buffer.slice(0, end);
  const batch: MarkdownBatch = {
    text,
    offset: b.base,
    line: b.baseLine,
    ...(b.pending !== undefined ? { continues: b.pending } : {}),
    ...(next !== undefined ? { continued: true } : {}),
    ...(b.strict ? { strict: true } : {}),
  };
  b.pending = next;
  b.base += end;
  b.baseLine += countLineEndings(text);
  b.bytesBefore += Buffer.byteLength(text);
  b.buffer = b.buffer.slice(end);
  b.scan = Math.max(0, b.scan - end);
  b.searched = Math.max(0, b.searched - end);
  b.chain = { levels: listOfObjects(), overflow: false };
  b.unmarked.from -= end;
  b.unmarked.to = Math.max(0, b.unmarked.to - end);
  return batch;
}

/** Cuts at the best candidate, or inside the line at `lineStart` when there is none. */
function forceCut(b: Batcher, lineStart: number): MarkdownBatch {
  const { levels, overflow } = b.chain;
  const best = levels[0];
  if (best === undefined) return cutInsideLine(b, lineStart);
  const { at, continues, state: before } = best;
  if (overflow || b.lookaheadBatches === 0) {
    b.state = before;
    const batch = take(b, at, continues);
    // The lines after the cut are scanned again, from the state the cut was made in.
    b.scan = 0;
    b.searched = 0;
    return batch;
  }
  // The scan goes on where it was, in the state it was in: the levels after the first are what scanning the
  // lines after the cut again would keep, and no line there allows a safe cut (the scan would have cut there).
  const batch = take(b, at, continues);
  b.chain = { levels: levelsAfter(levels, at), overflow: false };
  return batch;
}

/**
 * The levels after the first, their places moved back by `at`. Each candidate is made as `consider` makes one (a
 * spread copy gets a map of its own, see `copyState`), into a list of objects from the start (`listOfObjects`:
 * `map` gave a holey list of small integers, and `consider` was deoptimized on it).
 */
function levelsAfter(levels: readonly Candidate[], at: number): Candidate[] {
  const out = listOfObjects<Candidate>();
  for (let k = 1; k < levels.length; k++) {
    const c = levels[k] as Candidate;
    out.push({ at: c.at - at, rank: c.rank, marked: c.marked, continues: c.continues, state: c.state });
  }
  return out;
}

/** Cuts the long line at `lineStart` after a whitespace run past `batchSize`, else between grapheme clusters. */
function cutInsideLine(b: Batcher, lineStart: number): MarkdownBatch {
  const { buffer, maxBatchSize } = b;
  if (b.strict) {
    const byteOffset = b.bytesBefore + Buffer.byteLength(buffer.slice(0, lineStart));
    throw new ChunkError(
      'ERR_BUFFER_OVERFLOW',
      `A line longer than maxBatchSize (${maxBatchSize}) starts at byte offset ${byteOffset}; raise maxBatchSize, or leave strict off to have long lines cut`,
      { byteOffset, offset: b.base + lineStart, line: b.baseLine + countLineEndings(buffer, 0, lineStart) },
    );
  }
  const from = Math.max(b.batchSize, lineStart + 1);
  const found = markedSpaceRunEnd(b, from, maxBatchSize);
  const at = found === -1 ? clusterBoundary(buffer, from, maxBatchSize) : found;
  // A letter with no line break in front: what follows continues a paragraph, whatever it starts with.
  const continues: BatchContinuation = insideConstruct(b.state, 'inline') ?? { cut: 'inline', prelude: 'x' };
  // The rest of the line is scanned again as the first line of the next batch, in the same state.
  const batch = take(b, at, continues);
  b.scan = 0;
  return batch;
}

/**
 * Where the first whitespace run in `[from, bound)` that is marked (see `isMarked`) ends, else where the first one
 * does; -1 when none ends before `bound`. Runs the last scan found unmarked (`Batcher.unmarked`) are not hashed
 * again; a scan that finds none marked says so for the next (with `lookaheadBatches` 0, every scan hashes anew).
 */
function markedSpaceRunEnd(b: Batcher, from: number, bound: number): number {
  const { buffer, unmarked } = b;
  const knownFrom = unmarked.from;
  const knownTo = unmarked.to - HASH_REACH;
  let at = -1;
  for (let i = from; i < bound; i++) {
    if (!isSpaceCode(buffer.charCodeAt(i))) continue;
    let end = i + 1;
    while (end < bound && isSpaceCode(buffer.charCodeAt(end))) end++;
    // After the run, unless a combining mark holds its last space and the next character together.
    if (end < bound && buffer.charCodeAt(end) >= FIRST_COMBINING_MARK) end = boundaryAtOrAfter(buffer, end, graphemes());
    if (end >= bound) break;
    if (at === -1) at = end;
    if ((end <= knownFrom || end > knownTo) && isMarked(buffer, end, bound)) return end;
    i = end - 1;
  }
  if (b.lookaheadBatches > 0) {
    unmarked.from = from;
    unmarked.to = bound;
  }
  return at;
}

/** The first grapheme-cluster boundary at or after `from` (a code point boundary if a cluster outruns the bound). */
function clusterBoundary(buffer: string, from: number, bound: number): number {
  const at = boundaryAtOrAfter(buffer, from, graphemes());
  if (at < bound) return at;
  return isLowSurrogate(buffer.charCodeAt(from)) ? from + 1 : from;
}

/** Scans complete lines; returns batches cut along the way. */
function scanLines(b: Batcher, final: boolean): MarkdownBatch[] {
  const out: MarkdownBatch[] = [];
  for (;;) {
    const { buffer, maxBatchSize } = b;
    const nl = lineFeedFrom(b, Math.max(b.scan, b.searched));
    if (nl === -1 && !final) {
      b.searched = Math.min(buffer.length, maxBatchSize + 1);
      // An unfinished line that already passes the bound is cut before or inside, once the text the choice reads is here.
      if (buffer.length < maxBatchSize + LOOKAHEAD) break;
      considerLine(b, b.scan, buffer.length);
      out.push(forceCut(b, b.scan));
      continue;
    }
    const lineEnd = nl === -1 ? buffer.length : nl + 1;
    if (lineEnd === b.scan) break;
    const lineStart = b.scan;
    const blank = isBlankLine(buffer, lineStart, lineEnd);
    if (!blank && b.state.previousBlank && b.state.blankAllowsCut && lineStart >= b.batchSize && startsFreshBlock(buffer, lineStart)) {
      out.push(take(b, lineStart, undefined));
      // The line is scanned again as the first line of the new buffer.
      continue;
    }
    if (lineEnd > maxBatchSize) {
      // This line would carry the batch past its bound.
      if (!final && buffer.length < maxBatchSize + LOOKAHEAD) break;
      considerLine(b, lineStart, lineEnd);
      out.push(forceCut(b, lineStart));
      continue;
    }
    considerLine(b, lineStart, lineEnd);
    advance(b.state, buffer, b.base, lineStart, lineEnd, blank);
    b.scan = lineEnd;
    b.searched = lineEnd;
    if (nl === -1) break;
  }
  return out;
}

/** Records the start of the line `[start, end)` as a place to cut at, when it is one and past `batchSize`. */
function considerLine(b: Batcher, start: number, end: number): void {
  if (start === 0 || start < b.batchSize) return;
  const candidate = classify(b.state, b.buffer, start, end);
  if (candidate !== null) consider(b, start, end, candidate);
}

/**
 * Keeps `candidate` at `at` (its line ending at `end`) at the first level of the chain where it ranks better
 * than the best so far: a lower rank, or the same rank and marked when the best is not (the earliest wins among
 * equals). The levels after it are emptied: their places must be `batchSize` past it.
 */
function consider(b: Batcher, at: number, end: number, candidate: CutPlace): void {
  const { chain } = b;
  const { levels } = chain;
  const mark = { known: false, marked: false };
  for (let k = 0; k <= levels.length; k++) {
    if (k > 0 && at < (levels[k - 1] as Candidate).at + b.batchSize) return;
    if (k > b.lookaheadBatches) {
      chain.overflow = true;
      return;
    }
    const best = levels[k];
    if (best !== undefined && best.rank < candidate.rank) continue;
    if (best !== undefined && best.rank === candidate.rank && best.marked) continue;
    if (!mark.known) {
      mark.marked = isMarked(b.buffer, at, end);
      mark.known = true;
    }
    if (best !== undefined && best.rank === candidate.rank && !mark.marked) continue;
    levels.length = k;
    levels.push({ at, rank: candidate.rank, marked: mark.marked, continues: candidate.continues, state: copyState(b.state) });
    chain.overflow = false;
    return;
  }
}

/** Index of the next line feed at or after `from`, looking no further than just past the bound. */
function lineFeedFrom(b: Batcher, from: number): number {
  const { buffer } = b;
  const bound = b.maxBatchSize + 1;
  if (buffer.length <= bound) return buffer.indexOf('\n', from);
  if (from >= bound) return -1;
  const at = buffer.slice(from, bound).indexOf('\n');
  return at === -1 ? -1 : from + at;
}

/** U+0300, the first combining mark: a character from here on may join the one before it into one cluster. */
const FIRST_COMBINING_MARK = 0x300;

/** The grapheme segmenter, taken on first use (most documents never need one here). */
function graphemes(): Intl.Segmenter {
  return segmenterFor('en', 'grapheme');
}

function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}

function isBlankLine(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c !== SPACE && c !== TAB && c !== LF && c !== CR) return false;
  }
  return true;
}

/** True when the line at `start` begins a block that cannot continue what came before a blank line. */
function startsFreshBlock(text: string, start: number): boolean {
  const c = text.charCodeAt(start);
  if (c === SPACE || c === TAB) return false; // indented: list continuation or indented code
  if (c === DASH || c === PLUS || c === STAR || isDigit(c)) {
    return !isListMarker(text, start);
  }
  return true;
}


/**
 * What the scan knows at a line start: the multi-line constructs a blank line does not end (front matter, fenced
 * code and math, HTML blocks of kinds 1–5; kinds 6–7 end at a blank line but are tracked so that a fence-like line
 * inside one is not taken for a fence), the table and list the text is in, and the kind of the last line.
 */
interface ScanState {
  first: boolean;
  frontmatter: boolean;
  /**
   * The open fence: its character and length (what closes it), its opening line, and whether it opened on a list
   * item's marker line (then a closing line may be indented any amount).
   */
  fence: { char: number; length: number; open: string; item: boolean } | null;
  /** The open HTML block of condition 1–5 (`htmlEnds` says where it ends), and its opening line. */
  htmlEnd: number | null;
  htmlOpen: string;
  /** An HTML block of kind 6–7 runs until a blank line. */
  htmlUntilBlank: boolean;
  /** The header and delimiter rows of the table the last line belongs to. */
  table: { header: string; delimiter: string } | null;
  /** The last non-blank lines belong to a top-level list. */
  inList: boolean;
  /** The last line was a block quote line. */
  inQuote: boolean;
  /**
   * Document offsets of the last line without its line ending when it was plain paragraph text (a setext
   * underline or a table's delimiter row may follow), else -1.
   */
  paragraphStart: number;
  paragraphEnd: number;
  /** The last line opened with `[` (a link reference definition, perhaps). */
  bracketLine: boolean;
  /** The last non-blank line was indented code. */
  indentedCode: boolean;
  previousBlank: boolean;
  blankAllowsCut: boolean;
}

function initialState(): ScanState {
  return {
    first: true,
    frontmatter: false,
    fence: null,
    htmlEnd: null,
    htmlOpen: '',
    htmlUntilBlank: false,
    table: null,
    inList: false,
    inQuote: false,
    paragraphStart: -1,
    paragraphEnd: -1,
    bracketLine: false,
    indentedCode: false,
    previousBlank: false,
    blankAllowsCut: false,
  };
}

/**
 * Every field of the scan state, and the object fields of a batcher, changed once when the module loads
 * (`settleFields`): a document's first fence, HTML block or front matter, and the second batcher made, threw the
 * compiled `scanLines` away, each in the middle of a pass over many small documents.
 */
settleFields(initialState(), {
  first: false,
  frontmatter: true,
  fence: { char: BACKTICK, length: 3, open: '```', item: false },
  htmlEnd: 1,
  htmlOpen: '<div>',
  htmlUntilBlank: true,
  table: { header: '', delimiter: '' },
  inList: true,
  inQuote: true,
  paragraphStart: 0,
  paragraphEnd: 0,
  bracketLine: true,
  indentedCode: true,
  previousBlank: true,
  blankAllowsCut: true,
});
settleFields(newBatcher({ batchSize: 1, maxBatchSize: 1 }), { state: null, pending: null, chain: null, unmarked: null });

/**
 * A copy of `s`, made field by field as `initialState` makes a state. A spread copy (`{ ...s }`) gets a map of its
 * own, outside V8's transition tree: once a forced cut put such a copy back as the scan's state, every function
 * that reads the state saw two maps and was deoptimized and compiled again (`scanLines` five times, `considerLine`
 * six, over 2 MB of one long paragraph).
 */
function copyState(s: ScanState): ScanState {
  return {
    first: s.first,
    frontmatter: s.frontmatter,
    fence: s.fence,
    htmlEnd: s.htmlEnd,
    htmlOpen: s.htmlOpen,
    htmlUntilBlank: s.htmlUntilBlank,
    table: s.table,
    inList: s.inList,
    inQuote: s.inQuote,
    paragraphStart: s.paragraphStart,
    paragraphEnd: s.paragraphEnd,
    bracketLine: s.bracketLine,
    indentedCode: s.indentedCode,
    previousBlank: s.previousBlank,
    blankAllowsCut: s.blankAllowsCut,
  };
}

/** Where the line `[start, end)` ends without its line ending. */
function contentEnd(text: string, start: number, end: number): number {
  let e = end;
  if (e > start && text.charCodeAt(e - 1) === LF) e--;
  if (e > start && text.charCodeAt(e - 1) === CR) e--;
  return e;
}

/** The line `[start, end)` without its line ending. */
function lineText(text: string, start: number, end: number): string {
  return text.slice(start, contentEnd(text, start, end));
}

/** The first characters of a line, enough for every test below. */
function linePrefix(text: string, start: number, end: number): string {
  return lineText(text, start, Math.min(end, start + LOOKAHEAD));
}

/**
 * How good a place the start of the line `[start, end)` is to cut a batch at, when no blank line allows a safe
 * cut, and how the next batch would continue; null where no cut may go (between a paragraph and its setext
 * underline, between a table's header and delimiter rows).
 */
function classify(s: ScanState, text: string, start: number, end: number): CutPlace | null {
  const inside = insideConstruct(s, 'line');
  if (inside !== undefined) return { rank: INSIDE, continues: inside };
  const line = linePrefix(text, start, end);
  if (s.paragraphStart !== -1 && underlinesParagraph(line)) return null;
  // At column 0 a heading or a thematic break closes every open container: what follows parses the same alone
  // (`---` only after a blank line, where no paragraph above can turn it into a setext underline).
  // A blank line's prefix may be empty: read past its end, `charCodeAt` gives NaN, and that deoptimized `scanLines`
  // (which inlines this) on the first blank line past `batchSize`.
  const c = line.length === 0 ? NO_CHARACTER : line.charCodeAt(0);
  if ((c === HASH && atxOpenLength(line, 0) > 0) || ((c === STAR || c === UNDERSCORE || (c === DASH && s.previousBlank)) && isThematicBreak(line, 0))) {
    return EXACT_CUT;
  }
  if (s.table !== null && !s.previousBlank) {
    const { header, delimiter } = s.table;
    return { rank: ROW, continues: { cut: 'row', prelude: `${header}\n${delimiter}\n`, frame: `${header}\n${delimiter}` } };
  }
  if (s.inList && isListMarker(line, afterIndent(line, 0))) return ITEM_CUT;
  // After a blank line outside a list or indented code, the line starts a block of its own: nothing continues.
  if (s.previousBlank && !s.inList && !s.indentedCode) return FRESH_LINE_CUT;
  return lineEndCut(s);
}

/** No character code: what `classify` reads as the first character of an empty line. */
const NO_CHARACTER = -1;

/** What `classify` says of a line: how good a place its start is to cut at, and how the next batch continues. */
interface CutPlace {
  readonly rank: number;
  readonly continues: BatchContinuation | undefined;
}

/**
 * The places `classify` finds that depend on the state alone, shared (nothing changes a continuation once made):
 * it classifies every line past `batchSize`, and a heading per line made an object or two for each.
 */
const EXACT_CUT: CutPlace = { rank: EXACT, continues: undefined };
const ITEM_CUT: CutPlace = { rank: ITEM, continues: { cut: 'item', prelude: '' } };
const FRESH_LINE_CUT: CutPlace = { rank: LINE_END, continues: undefined };
/** A cut at a line end, behind the stand-in parsed before the next batch. */
const behind = (prelude: string): CutPlace => ({ rank: LINE_END, continues: { cut: 'line', prelude } });
const LIST_AFTER_BLANK_CUT = behind('- x\n\n');
const LIST_LINE_CUT = behind('- x\n');
const BARE_LINE_CUT = behind('');
const QUOTE_LINE_CUT = behind('> x\n');
const PARAGRAPH_LINE_CUT = behind('x\n');

/** The cut at a line end, behind a stand-in that keeps the list, quote or paragraph open. */
function lineEndCut(s: ScanState): CutPlace {
  if (s.inList) return s.previousBlank ? LIST_AFTER_BLANK_CUT : LIST_LINE_CUT;
  if (s.previousBlank || s.indentedCode) return BARE_LINE_CUT;
  if (s.inQuote) return QUOTE_LINE_CUT;
  // After a definition (or any line opening with a bracket) a stand-in would turn what follows into paragraph text.
  return s.paragraphStart !== -1 && !s.bracketLine ? PARAGRAPH_LINE_CUT : BARE_LINE_CUT;
}

/**
 * How a batch cut inside front matter, a fence, a math or an HTML block continues it: behind a prelude that opens
 * the construct again (a fence's opening line, which also frames every part); undefined outside them.
 */
function insideConstruct(s: ScanState, cut: 'line' | 'inline'): BatchContinuation | undefined {
  if (s.frontmatter) return { cut, prelude: '---\n' };
  if (s.fence !== null) {
    const open = s.fence.open;
    return { cut, prelude: `${open}\n`, ...(s.fence.item ? {} : { frame: open }) };
  }
  if (s.htmlEnd !== null || s.htmlUntilBlank) return { cut, prelude: `${s.htmlOpen}\n` };
  return undefined;
}

/** Updates the state with one line of `text`, whose first character is at document offset `base`. */
function advance(s: ScanState, text: string, base: number, start: number, end: number, blank: boolean): void {
  if (blank) {
    s.first = false;
    s.htmlUntilBlank = false;
    s.table = null;
    s.paragraphStart = -1;
    s.inQuote = false;
    s.blankAllowsCut = !(s.frontmatter || s.fence !== null || s.htmlEnd !== null);
    s.previousBlank = true;
    return;
  }
  const wasBlank = s.previousBlank;
  s.previousBlank = false;
  const wasInConstruct = s.frontmatter || s.fence !== null || s.htmlEnd !== null || s.htmlUntilBlank;
  trackConstructs(s, text, start, end);
  if (wasInConstruct) return;
  const c = text.charCodeAt(start);
  const indented = c === SPACE || c === TAB;
  if (s.frontmatter || s.fence !== null || s.htmlEnd !== null || s.htmlUntilBlank) {
    // A construct opened at column 0 ends the list, quote and table before it.
    if (!indented && !(s.fence?.item ?? false)) {
      s.inList = false;
      s.inQuote = false;
      s.table = null;
    }
    s.paragraphStart = -1;
    return;
  }
  const first = text.charCodeAt(afterIndent(text, start));
  // Indented code: four columns of indentation where no paragraph or list can take the line.
  if ((first === SPACE || first === TAB) && !s.inList && (wasBlank || s.indentedCode || s.paragraphStart === -1)) {
    s.indentedCode = true;
    s.paragraphStart = -1;
    s.table = null;
    return;
  }
  s.indentedCode = false;
  // Most lines start with a letter: only lines that may be markup are looked at closely (and sliced).
  const line = SPECIAL_FIRST.has(first) ? linePrefix(text, start, end) : '';
  const at = afterIndent(line, 0);
  const marker = first === DASH || first === PLUS || first === STAR || isDigit(first);
  const isBreak = (first === STAR || first === UNDERSCORE || first === DASH) && isThematicBreak(line, at);
  const isItem = marker && !isBreak && isListMarker(line, at);
  const isHeading = first === HASH && atxOpenLength(line, at) > 0;
  const isQuote = first === GREATER;
  if (isItem) s.inList = true;
  else if (!indented && (wasBlank || isHeading || isBreak || isQuote)) s.inList = false;
  s.inQuote = isQuote;
  if (s.table !== null && (isHeading || isQuote || isItem || isBreak)) s.table = null;
  if (s.table === null && s.paragraphStart !== -1 && mayBeDelimiterRow(first) && isDelimiterRow(line)) {
    s.table = { header: text.slice(s.paragraphStart - base, s.paragraphEnd - base), delimiter: line };
  }
  const plain = s.table === null && !isHeading && !isQuote && !isBreak;
  s.bracketLine = first === LEFT_BRACKET;
  s.paragraphStart = plain ? base + start : -1;
  s.paragraphEnd = plain ? base + contentEnd(text, start, end) : -1;
}

/** First characters (after up to three spaces) of the lines that may be markup the scan tracks. */
const SPECIAL_FIRST = new Set([HASH, STAR, UNDERSCORE, DASH, PLUS, GREATER, PIPE, COLON, EQUALS, ...Array.from({ length: 10 }, (_, d) => DIGIT_0 + d)]);

/** Opens and closes front matter, fences and HTML blocks as `line` requires. */
function trackConstructs(s: ScanState, text: string, start: number, end: number): void {
  const isFirst = s.first;
  s.first = false;
  const c0 = text.charCodeAt(start);
  if (s.frontmatter) {
    if (isFrontMatterFence(text, start, end)) s.frontmatter = false;
    return;
  }
  if (isFirst && c0 === DASH && isFrontMatterFence(text, start, end)) {
    s.frontmatter = true;
    return;
  }
  if (s.fence !== null) {
    if (end - start < 1024 && closesOpenFence(s.fence, text, start, end)) s.fence = null;
    return;
  }
  if (s.htmlEnd !== null) {
    if (htmlEnds(s.htmlEnd, text.slice(start, end), false)) s.htmlEnd = null;
    return;
  }
  // Only lines that begin (after up to 3 spaces) with one of ` ~ $ < can open a tracked construct, or a list
  // item whose first line is a fence.
  const c = text.charCodeAt(afterIndent(text, start));
  if (c === DASH || c === PLUS || c === STAR || isDigit(c) || c === SPACE || c === TAB) {
    openItemFence(s, lineText(text, start, Math.min(end, start + 4096)));
    return;
  }
  if (c !== BACKTICK && c !== TILDE && c !== DOLLAR && c !== LESS) return;
  const line = lineText(text, start, Math.min(end, start + 4096));
  if (c === LESS) {
    openHtml(s, line);
    return;
  }
  if (s.htmlUntilBlank) return;
  const fence = fenceOpen(line, afterIndent(line, 0));
  if (fence !== null) s.fence = { char: fence.marker.charCodeAt(0), length: fence.marker.length, open: line, item: false };
}

/** True when the line `[start, end)` closes `fence`: at most three spaces in (any blanks for a list item's fence), then its run. */
function closesOpenFence(fence: NonNullable<ScanState['fence']>, text: string, start: number, end: number): boolean {
  const to = contentEnd(text, start, end);
  const from = fence.item ? blanksEnd(text, start, to) : afterIndent(text, start);
  return closesFence(text, from, to, fence.char, fence.length);
}

/** True when the line `[start, end)` is a front matter fence: `---`, then only blanks. */
function isFrontMatterFence(text: string, start: number, end: number): boolean {
  return fenceLineEnd(text, start) === contentEnd(text, start, end);
}

/**
 * A fence opened on a list item's marker line (`- ```js`) is closed by a fence line indented to the item's
 * content, at any depth: without tracking it, that closing line would look like an opening fence.
 */
function openItemFence(s: ScanState, line: string): void {
  // Most lines that may be a list item hold no fence: two searches skip the reading of markers.
  if (s.htmlUntilBlank || (!line.includes('```') && !line.includes('~~~'))) return;
  const fence = itemFenceOpen(line);
  if (fence !== null) s.fence = { char: fence.marker.charCodeAt(0), length: fence.marker.length, open: line, item: true };
}

/**
 * Opens the HTML block `line` starts, if any (CommonMark's conditions, as the block scanner reads them): one of
 * conditions 1–5 open until its end marker (unless the line holds it), one of 6–7 until a blank line. A complete
 * tag alone on its line (7) cannot interrupt a paragraph.
 */
function openHtml(s: ScanState, line: string): void {
  const at = afterIndent(line, 0);
  const condition = htmlStartCondition(line.slice(at));
  if (condition === 0 || (condition === 7 && s.paragraphStart !== -1)) return;
  if (condition >= 6) s.htmlUntilBlank = true;
  else if (!htmlEnds(condition, line.slice(at), true)) s.htmlEnd = condition;
  else return;
  s.htmlOpen = line;
}

/** True when `line` may turn the paragraph line above it into a setext heading or a table's header row. */
function underlinesParagraph(line: string): boolean {
  const at = afterIndent(line, 0);
  const c = line.charCodeAt(at);
  return ((c === EQUALS || c === DASH) && isSetextUnderline(line, at)) || (mayBeDelimiterRow(c) && isDelimiterRow(line));
}

/** True when `line` is a GFM table's delimiter row (`delimiterCells`); a CR may end it, as a line of the batcher's may. */
function isDelimiterRow(line: string): boolean {
  return delimiterCells(line, afterIndent(line, 0), line.endsWith('\r') ? line.length - 1 : line.length) > 0;
}
