/**
 * The packer: blocks (with their heading context) in, chunk drafts out, section by section.
 *
 * - A heading at a split level closes the current section; nothing is packed across it.
 * - Consecutive blocks of a section are packed into a chunk up to the target size; a block too large for any
 *   chunk is cut into pieces along its structure (see `pieces.ts`).
 * - A heading never ends a chunk when content follows it in its section: it is carried into the next chunk.
 * - Each chunk is measured once, exactly, as the embedder will see it, before it leaves (see `emit`).
 *
 * Memory holds one chunk in the making: drafts leave as soon as they are complete.
 */
import type { ChunkConfig } from '../config.js';
import type { Core } from '../core.js';
import { sizeUpTo, type Sizer, type SpanSplitter } from '../protocols.js';
import type { Block, HeadingContext } from '../types.js';
import type { ChunkMeasure } from './chunk-measure.js';
import { buildDraft, type PackedDraft } from './draft.js';
import { contentDefinedLast, CUT_LOW, placeValue } from './content-cuts.js';
import { textHash } from '../unicode/text-hash.js';
import { longestFitting } from './fit.js';
import { NO_HEADING } from './heading-tracker.js';
import { cutBlock, framedWholePiece, recutPiece, wholePiece, type CutContext, type Piece } from './pieces.js';

/** The parts a packer is built from. */
export interface PackerDeps {
  readonly sizer: Sizer;
  readonly splitter: SpanSplitter;
  readonly measure: ChunkMeasure;
}

const onlyHeadings = (pieces: readonly Piece[]): boolean => pieces.every((p) => p.isHeading);

/** Creates the packer core. */
export function createPacker(config: ChunkConfig, deps: PackerDeps): Core<Block, PackedDraft> {
  const { sizer, measure } = deps;
  const ctx: CutContext = { sizer, measure, splitter: deps.splitter, preserveCode: config.preserveCode, preserveTables: config.preserveTables };
  const chunk = createPendingChunk(measure);
  let section = -1;
  let out: PackedDraft[] = [];
  /** Whitespace at the end of the last block that none of its pieces holds, carried into the next block's gap. */
  let trailing = '';

  const build = (pieces: readonly Piece[]): PackedDraft => buildDraft(pieces, section, measure);
  const over = (draft: PackedDraft): boolean => draft.size > measure.limit && !(draft.oversized ?? false);

  /** Emits the chunk in the making; with `carry`, trailing headings stay behind to open the next chunk. */
  function flush(carry: boolean): void {
    if (chunk.pieces.length === 0) return;
    const kept = carry ? chunk.takeTrailingHeadings() : [];
    if (chunk.pieces.length > 0) emit(chunk.pieces);
    chunk.start(kept);
  }

  /**
   * Builds the drafts for `pieces`, each measured once as the embedder sees it. In the rare case the exact size
   * is over (the estimate adds sizes that do not quite add up), the longest run of pieces that fits goes and the
   * rest moves to the next chunk; the run never ends with headings alone, so when nothing after them fits, the
   * first piece after them is cut smaller instead (`emitWithHeadings`), and a single piece over is cut smaller.
   */
  function emit(pieces: readonly Piece[]): void {
    let rest = pieces;
    while (rest.length > 0) {
      const whole = build(rest);
      if (!over(whole)) {
        out.push(whole);
        return;
      }
      // The run must hold the leading headings and a piece after them.
      let lead = 0;
      while (lead < rest.length - 1 && (rest[lead] as Piece).isHeading) lead++;
      const fits = (last: number): boolean => !over(build(rest.slice(0, last + 1)));
      const last = longestFitting(lead, rest.length - 1, fits);
      if (fits(last)) {
        out.push(build(rest.slice(0, last + 1)));
        rest = rest.slice(last + 1);
      } else if (lead > 0) {
        rest = emitWithHeadings(rest, lead, whole.heading);
      } else {
        // One piece whose framed size is over (non-additive sizer, breadcrumb): cut it smaller.
        const recut = recutPiece(rest[0] as Piece, measure.roomFor(whole.heading), ctx);
        if (recut.length > 1) {
          rest = [...recut, ...rest.slice(1)];
          continue;
        }
        out.push(build(rest.slice(0, 1)));
        rest = rest.slice(1);
      }
    }
  }

  /**
   * Emits the `lead` headings at the front of `rest` with as much of the piece after them as fits, cutting that
   * piece to the room they leave; returns what is left. When the headings fill a chunk on their own, the last of
   * them is cut instead: its first part goes with the headings before it, and the rest of it opens the next chunk
   * with content.
   */
  function emitWithHeadings(rest: readonly Piece[], lead: number, heading: HeadingContext): readonly Piece[] {
    let pieces = rest;
    for (;;) {
      const headings = pieces.slice(0, lead);
      const headingsSize = sizer.size(headings.map((p, i) => (i === 0 ? '' : p.gapBefore) + p.text).join(''));
      const room = measure.roomFor(heading) - headingsSize - measure.gap((pieces[lead] as Piece).gapBefore);
      if (room < 1) {
        const lastHeading = headings.at(-1) as Piece;
        const parts = recutPiece(lastHeading, Math.max(1, Math.floor(lastHeading.size / 2)), ctx);
        if (parts.length >= 2) {
          out.push(build([...headings.slice(0, -1), parts[0] as Piece]));
          return [...parts.slice(1), ...pieces.slice(lead)];
        }
      } else {
        const recut = recutPiece(pieces[lead] as Piece, room, ctx);
        if (recut.length >= 2) {
          pieces = [...headings, ...recut, ...pieces.slice(lead + 1)];
          const draft = build(pieces.slice(0, lead + 1));
          if (over(draft)) continue;
          out.push(draft);
          return pieces.slice(lead + 1);
        }
      }
      // Nothing smaller can be cut: the headings and the piece go as they are.
      out.push(build(pieces.slice(0, lead + 1)));
      return pieces.slice(lead + 1);
    }
  }

  /** Adds one piece that fits a chunk on its own. */
  function add(piece: Piece): void {
    if (chunk.pieces.length === 0) {
      chunk.start([piece]);
      return;
    }
    const last = chunk.pieces.at(-1) as Piece;
    const heading = chunk.heading();
    const grown = chunk.estimateWith(piece);
    const framed = grown + (piece.suffix === '' ? 0 : sizer.size(piece.suffix));
    // A re-opened fence or table header must open a chunk, a closing fence must end one, and an element kept
    // whole over the limit stands alone.
    const mustBreak = piece.prefix !== '' || last.suffix !== '' || piece.oversizedReason !== undefined || last.oversizedReason !== undefined;
    if (!mustBreak && (framed <= measure.packTarget(heading) || (onlyHeadings(chunk.pieces) && framed <= measure.contentRoom(heading)))) {
      chunk.push(piece);
      return;
    }
    const cut = mustBreak ? chunk.pieces.length : contentDefinedKeep(chunk.pieces, piece, CUT_LOW * measure.packTarget(heading), measure);
    if (cut < chunk.pieces.length) {
      const kept = chunk.pieces.slice(cut);
      emit(chunk.pieces.slice(0, cut));
      chunk.start([...kept]);
      add(piece);
      return;
    }
    flush(true);
    if (chunk.pieces.length > 0) {
      // Headings carried over open this chunk when the piece fits with them (an element kept whole takes them
      // regardless); otherwise they must go alone.
      if (piece.oversizedReason !== undefined || (piece.prefix === '' && chunk.estimateWith(piece) <= measure.contentRoom(chunk.heading()))) {
        chunk.push(piece);
        return;
      }
      flush(false);
    }
    chunk.start([piece]);
  }

  /**
   * True when adding `piece` whole would leave headings alone: it will not join the chunk in the making, and it
   * does not fit in a chunk together with the headings that end it. Such a block is cut instead, so that its
   * first part goes with its headings.
   */
  function strandsHeadings(piece: Piece): boolean {
    const current = chunk.pieces;
    if (current.length === 0 || !(current.at(-1) as Piece).isHeading) return false;
    const heading = chunk.heading();
    if (chunk.estimateWith(piece) <= (onlyHeadings(current) ? measure.contentRoom(heading) : measure.packTarget(heading))) return false;
    let k = current.length;
    let headings = 0;
    while (k > 0 && (current[k - 1] as Piece).isHeading) {
      k--;
      headings += (current[k] as Piece).size + (k < current.length - 1 ? measure.gap((current[k + 1] as Piece).gapBefore) : 0);
    }
    return headings + measure.gap(piece.gapBefore) + piece.size > measure.contentRoom((current[k] as Piece).heading);
  }

  /** Cuts a block too large for one chunk; the first piece may fill the room left in the chunk in the making. */
  function cutAndAdd(block: Block, whole: Piece): void {
    const rest = measure.contentRoom(block.heading as HeadingContext);
    const room = () => measure.contentRoom(chunk.heading()) - chunk.estimate - measure.gap(whole.gapBefore);
    let first = rest;
    if (chunk.pieces.length > 0) {
      const last = chunk.pieces.at(-1) as Piece;
      const canJoin = last.suffix === '' && last.oversizedReason === undefined;
      // Start the block in the chunk already begun only when a real part of it fits there (or to stay with a heading).
      if (!canJoin || (!onlyHeadings(chunk.pieces) && room() < Math.max(1, Math.floor(config.targetSize / 4)))) flush(true);
      if (chunk.pieces.length > 0) first = Math.max(1, Math.min(rest, room()));
    }
    const pieces = cutBlock(block, { first, rest }, ctx);
    const lastEnd = pieces.at(-1)?.end ?? block.end;
    // Whitespace that ends the block but no piece (the splitter trims its spans) goes before the next block.
    trailing = lastEnd < block.end ? block.text.slice(lastEnd - block.start) : '';
    pieces.forEach((piece, i) => {
      if (i === 0 && chunk.pieces.length > 0 && piece.prefix === '' && piece.oversizedReason === undefined) {
        chunk.push(piece);
        return;
      }
      add(piece);
    });
  }

  function write(input: Block): PackedDraft[] {
    let block = input.heading === undefined ? { ...input, heading: NO_HEADING } : input;
    if (trailing !== '') {
      block = { ...block, gapBefore: trailing + (block.gapBefore ?? '') };
      trailing = '';
    }
    if (section === -1) section = 0;
    if (block.kind === 'heading' && config.splitLevels.includes(block.depth)) {
      flush(false);
      section++;
    }
    const heading = block.heading as HeadingContext;
    const room = measure.contentRoom(heading);
    // A block past the room is cut, and its size is not kept: the sizer may stop counting there.
    const size = sizeUpTo(sizer, block.text, room);
    // A part of a construct the parser cut carries its frame (a table header, a fence line) when kept whole.
    const whole = block.continuation === undefined ? wholePiece(block, size) : framedWholePiece(block, size, ctx);
    const framed = (whole.prefix === '' && whole.suffix === '') || size > room ? size : sizer.size(whole.prefix + block.text + whole.suffix);
    if (framed <= room && !strandsHeadings(whole)) add(whole);
    else cutAndAdd(block, whole);
    const ready = out;
    out = [];
    return ready;
  }

  return {
    write,
    end() {
      flush(false);
      const ready = out;
      out = [];
      return ready;
    },
  };
}

/**
 * How many of `pieces` to keep in the chunk that `next` does not fit, chosen by content (`content-cuts.ts`): the
 * chunk keeps at least `low` units and ends in no heading. A boundary before a heading is stronger the shallower
 * the heading, then one between blocks, then one inside a block. `pieces.length` keeps them all.
 */
function contentDefinedKeep(pieces: readonly Piece[], next: Piece, low: number, measure: ChunkMeasure): number {
  const at = (k: number): Piece => (k === pieces.length ? next : (pieces[k] as Piece));
  const prefix = pieces[0]?.prefix ? measure.size((pieces[0] as Piece).prefix) : 0;
  const last = contentDefinedLast(
    {
      first: 0,
      last: pieces.length - 1,
      added: (k) => (k === 0 ? prefix : measure.gap(at(k).gapBefore)) + at(k).size,
      valueBefore: (k) => placeValue(cutStrength(at(k)), textHash(at(k).text)),
      mayEndBefore: (k) => !at(k - 1).isHeading,
    },
    low,
  );
  return last + 1;
}

/** How good a place the start of `piece` is for a chunk to start: before a heading, between blocks, inside one. */
function cutStrength(piece: Piece): number {
  if (piece.isHeading) return 8 - (piece.depth ?? 6);
  return piece.isSplit ? 0 : 1;
}

/**
 * The chunk in the making: its pieces, and an estimate of its size (each piece measured once, added with the gaps
 * between them, and the prefix of a piece that opens it).
 */
function createPendingChunk(measure: ChunkMeasure) {
  let pieces: Piece[] = [];
  let estimate = 0;
  return {
    get pieces(): readonly Piece[] {
      return pieces;
    },
    get estimate(): number {
      return estimate;
    },
    /** The heading context of the chunk: its first piece's. */
    heading(): HeadingContext {
      return (pieces[0] as Piece).heading;
    },
    /** Starts the chunk over with `next`. */
    start(next: Piece[]): void {
      pieces = next;
      estimate = next.length > 0 && (next[0] as Piece).prefix !== '' ? measure.size((next[0] as Piece).prefix) : 0;
      next.forEach((p, i) => { estimate += (i === 0 ? 0 : measure.gap(p.gapBefore)) + p.size; });
    },
    /** The estimate with `piece` added. */
    estimateWith(piece: Piece): number {
      return estimate + measure.gap(piece.gapBefore) + piece.size;
    },
    push(piece: Piece): void {
      estimate = this.estimateWith(piece);
      pieces.push(piece);
    },
    /** Removes the headings that end the chunk and returns them. */
    takeTrailingHeadings(): Piece[] {
      let k = pieces.length;
      while (k > 0 && (pieces[k - 1] as Piece).isHeading) k--;
      const kept = pieces.slice(k);
      pieces = pieces.slice(0, k);
      return kept;
    },
  };
}
