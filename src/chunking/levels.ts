/**
 * Levels: the kinds of boundary a text may be cut at, coarse to fine, and the one descent over them. A block kind
 * gives its own levels as data (a table's rows; a list's items, then nested items; a code block's runs of lines
 * between blank lines, then lines: `block-levels.ts`); under them every text has the same ones (paragraph →
 * sentence → word → grapheme cluster: `text-levels.ts`). The descent keeps whole a span that fits the room, and
 * cuts one that does not at the next level down, so that every span is the largest that fits; packing then joins
 * consecutive spans into chunks with one search (`pack.ts`).
 */
import { listOfObjects } from '../core.js';

/** A span of a text at a level, measured, as packing takes it. Offsets are into the text being cut. */
export interface LevelSpan {
  readonly start: number;
  readonly end: number;
  /** Where the whitespace before it begins: the end of the span before it (or where the descent was told to start). */
  readonly gapStart: number;
  /** The level it was cut at, in its family's numbering. */
  readonly level: number;
  /**
   * What it adds to a run it does not open: measured together with the whitespace before it at the text levels
   * (a word after a space), alone at a block's own levels (whose gaps, line ends, are looked up apart).
   */
  readonly size: number;
  /** Cut by the TextSplitter out of a span of a block's own level that did not fit. */
  readonly fallback: boolean;
  /** Packed alone, without the frame: a part of a table row is no row. */
  readonly standsAlone: boolean;
}

/**
 * A level span. Every span is made here, with all its fields in one order: packing reads many of them, and spans of
 * one shape keep its property reads fast.
 */
export function levelSpan(start: number, end: number, gapStart: number, level: number, size: number, fallback = false, standsAlone = false): LevelSpan {
  return { start, end, gapStart, level, size, fallback, standsAlone };
}

/** The spans one descent collects, in order. */
export interface SpanList {
  readonly spans: readonly LevelSpan[];
  /** Where the whitespace before a span that starts at `start` begins. */
  gapStart(start: number): number;
  push(span: LevelSpan): void;
  /** Takes back the last span. */
  pop(): LevelSpan | undefined;
  /** True once the spans between the first and the last measure more than the list's `enough`. */
  readonly done: boolean;
}

/**
 * A span list whose first span follows whitespace from `gapStart` (-1: none, the span's own start). With `enough`,
 * the list is `done` once the spans between its first and its last measure more than `enough` together: the first
 * span packed from them at a budget of at most `enough` is then the one all the spans would give (it ends before
 * the span that takes the sum past `enough`, and the span after that one is there for packing's look at what
 * follows). Only the last span may still change: a run of clusters at a window's edge is taken back and grown.
 */
export function createSpanList(gapStart = -1, enough = Number.POSITIVE_INFINITY): SpanList {
  const spans = listOfObjects<LevelSpan>();
  /** `inner` sums the sizes of `spans[1 .. length - 2]`: what `enough` is compared with. */
  const state = { inner: 0 };
  // Compared only when finite: a size compared with Infinity after small integers deoptimized every function the
  // push was inlined into (the descent's visit, the word loops), and they were compiled again.
  const bounded = Number.isFinite(enough);
  // `done` is a field the list sets, not a getter: an object literal with an accessor gets a hidden class of its
  // own, so with one list per cut every call on a list missed V8's inline caches (a word span cost some 0.5 µs).
  const list = {
    spans,
    done: false,
    gapStart(start: number): number {
      const last = spans[spans.length - 1];
      if (last !== undefined) return last.end;
      return gapStart < 0 ? start : gapStart;
    },
    push(span: LevelSpan): void {
      if (spans.length >= 2) state.inner += (spans[spans.length - 1] as LevelSpan).size;
      spans.push(span);
      if (bounded && state.inner > enough) list.done = true;
    },
    pop(): LevelSpan | undefined {
      const last = spans.pop();
      if (spans.length >= 2) state.inner -= (spans[spans.length - 1] as LevelSpan).size;
      return last;
    },
  };
  return list;
}

/**
 * A family of levels: how a span at one of them is measured, and how one that does not fit is cut a level down.
 * `N` is what the family keeps of a span besides its offsets and level (a block's own levels: the spans under it).
 */
export interface Levels<N> {
  /**
   * Size of `[start, end)` at `level`, following whitespace from `gapStart`, as the span list keeps it (see
   * `LevelSpan.size`). Past `room`, any larger number will do: the span is cut.
   */
  measure(start: number, end: number, gapStart: number, level: number, node: N, room: number): number;
  /** True for a level whose spans are kept whatever they measure (a grapheme cluster cannot be cut). */
  keepsWhole(level: number): boolean;
  /** Cuts `[start, end)`, at `level` and measuring `size` (over the room), a level down: through `descent.visit`. */
  cutBelow(start: number, end: number, level: number, size: number, node: N, descent: Descent<N>): void;
}

/** One descent: what it visits goes into `list`, whole when it fits `room`. */
export interface Descent<N> {
  readonly list: SpanList;
  readonly room: number;
  /**
   * Keeps `[start, end)` at `level` as a span when it fits the room (or its level cannot be cut), and otherwise cuts
   * it a level down. `known` is its size when the level above measured the same range.
   */
  visit(start: number, end: number, level: number, node: N, known?: number): void;
}

/** A descent over `levels` into `list`, keeping whole what fits `room`. */
export function createDescent<N>(levels: Levels<N>, room: number, list: SpanList): Descent<N> {
  const descent: Descent<N> = {
    list,
    room,
    visit(start, end, level, node, known) {
      const gapStart = list.gapStart(start);
      const size = known ?? levels.measure(start, end, gapStart, level, node, room);
      // A sizer that returns NaN fails the comparison, and its text is cut down to what cannot be cut.
      if (size <= room || levels.keepsWhole(level)) list.push(levelSpan(start, end, gapStart, level, size));
      else levels.cutBelow(start, end, level, size, node, descent);
    },
  };
  return descent;
}
