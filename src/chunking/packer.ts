/**
 * The packer: blocks (with their heading context) in, chunks out, section by section.
 *
 * - A heading at a split level closes the current section; nothing is packed across it.
 * - Consecutive blocks of a section are packed into a chunk up to the target size; a block too large for any
 *   chunk is cut into pieces along its structure (see `pieces.ts`).
 * - A heading never ends a chunk when content follows it in its section: it is carried into the next chunk.
 * - Each chunk is measured once, exactly, as the embedder will see it, before it leaves.
 *
 * Memory holds one chunk in the making: chunks leave as soon as they are complete.
 */
import type { ChunkConfig } from '../config.js';
import type { Sizer, TextSplitter } from '../protocols.js';
import type { Block, BlockKind, Chunk, ChunkMetadata, HeadingContext } from '../types.js';
import { finishChunk } from './chunk-factory.js';
import { setInternals } from './chunk-internals.js';
import type { Core } from '../core.js';
import { createBreadcrumbLine, joinEmbedText } from './embed-text.js';
import { NO_HEADING } from './heading-tracker.js';
import { createMeasure } from './fit.js';
import { cutBlock, framedWholePiece, wholePiece, type CutContext, type Piece } from './pieces.js';

/** The parts a packer is built from. */
export interface PackerDeps {
  readonly sizer: Sizer;
  readonly splitter: TextSplitter;
}

const PROSE: ReadonlySet<BlockKind> = new Set(['paragraph', 'blockquote']);

/** Creates the packer core. Chunks it emits are numbered provisionally; the optimizer stage numbers them. */
export function createPacker(config: ChunkConfig, deps: PackerDeps): Core<Block, Chunk> {
  const { sizer } = deps;
  const measure = createMeasure(sizer);
  const ctx: CutContext = { sizer, measure, splitter: deps.splitter, preserveCode: config.preserveCode, preserveTables: config.preserveTables };
  const breadcrumbLine = createBreadcrumbLine(sizer, config.maxSize);
  let section = -1;
  let current: Piece[] = [];
  let estimate = 0;
  let out: Chunk[] = [];
  /** Whitespace at the end of the last block that none of its pieces holds, carried into the next block's gap. */
  let trailing = '';

  const gapSize = (gap: string): number => measure.gap(gap);

  /** The room a chunk starting with `heading` has for its framed text. */
  const limitFor = (heading: HeadingContext): number =>
    Math.max(1, config.maxSize - (config.contextualize ? breadcrumbLine(heading).size : 0));
  /** Room for content, keeping space for the overlap the optimizer will add in front. */
  const contentLimit = (heading: HeadingContext): number => Math.max(1, limitFor(heading) - config.overlap);
  const packTarget = (heading: HeadingContext): number => Math.min(config.targetSize, contentLimit(heading));

  const onlyHeadings = (pieces: Piece[]) => pieces.every((p) => p.isHeading);

  /** Estimated size of the current chunk: pieces measured once, added with the gaps between them. */
  function start(pieces: Piece[]): void {
    current = pieces;
    estimate = pieces.length > 0 && (pieces[0] as Piece).prefix !== '' ? sizer.size((pieces[0] as Piece).prefix) : 0;
    pieces.forEach((p, i) => (estimate += (i === 0 ? 0 : gapSize(p.gapBefore)) + p.size));
  }

  /** Emits the current chunk; with `carry`, trailing headings stay behind to open the next chunk. */
  function flush(carry: boolean): void {
    if (current.length === 0) return;
    let keep: Piece[] = [];
    if (carry) {
      let k = current.length;
      while (k > 0 && (current[k - 1] as Piece).isHeading) k--;
      keep = current.slice(k);
      current = current.slice(0, k);
    }
    if (current.length > 0) emit(current);
    start(keep);
  }

  /**
   * Builds the chunk for `pieces`, measuring it once. In the rare case the exact size is over (the estimate adds
   * sizes that do not quite add up), the tail moves to the next chunk; when that would leave headings alone, the
   * first piece after them is cut smaller instead.
   */
  function emit(pieces: Piece[]): void {
    let rest = pieces;
    while (rest.length > 0) {
      let n = rest.length;
      let chunk = build(rest);
      const over = () => chunk.size > config.maxSize && !(chunk.oversized ?? false);
      let headingsCut = false;
      while (over() && n > 1) {
        if (onlyHeadings(rest.slice(0, n - 1))) {
          const headings = rest.slice(0, n - 1);
          const headingsSize = sizer.size(headings.map((p, i) => (i === 0 ? '' : p.gapBefore) + p.text).join(''));
          const room = limitFor(chunk.heading) - headingsSize - gapSize((rest[n - 1] as Piece).gapBefore);
          if (room < 1) {
            // The headings fill a chunk on their own: the last one is cut, and its first part goes with the
            // headings before it, so that the rest of it can open the next chunk with content.
            const last = headings.at(-1) as Piece;
            const parts = recutPiece(last, Math.max(1, Math.floor(last.size / 2)));
            if (parts.length < 2) break;
            out.push(build([...headings.slice(0, -1), parts[0] as Piece]));
            rest = [...parts.slice(1), ...rest.slice(n - 1)];
            headingsCut = true;
            break;
          }
          const recut = recutPiece(rest[n - 1] as Piece, room);
          if (recut.length < 2) break;
          rest = [...rest.slice(0, n - 1), ...recut, ...rest.slice(n)];
        } else n--;
        chunk = build(rest.slice(0, n));
      }
      if (headingsCut) continue;
      if (n === 1 && over()) {
        // One piece whose framed size is over (non-additive sizer, breadcrumb): cut it smaller.
        const recut = recutPiece(rest[0] as Piece, limitFor(chunk.heading));
        if (recut.length > 1) {
          rest = [...recut, ...rest.slice(1)];
          continue;
        }
      }
      out.push(chunk);
      rest = rest.slice(n);
    }
  }

  function recutPiece(piece: Piece, limit: number): Piece[] {
    const frame = piece.prefix === '' && piece.suffix === '' ? 0 : sizer.size(piece.prefix + piece.suffix);
    const block = pieceAsBlock(piece);
    const smaller = Math.max(1, Math.min(piece.size - 1, limit - frame - 1));
    const pieces = cutBlock({ ...block, kind: 'paragraph' } as Block, { first: smaller, rest: smaller }, ctx);
    // The frame (a fence) belongs to the first and last of the new pieces.
    return pieces.map((p, i) => ({
      ...p,
      kind: piece.kind,
      prefix: i === 0 ? piece.prefix : '',
      suffix: i === pieces.length - 1 ? piece.suffix : '',
      // Prose cut smaller is still prose; a row, an item or a line cut by the TextSplitter is a fallback.
      ...(PROSE.has(piece.kind) ? {} : { fallback: 'text-splitter' as const }),
      isSplit: true,
    }));
  }

  function build(pieces: Piece[]): Chunk {
    const first = pieces[0] as Piece;
    const last = pieces.at(-1) as Piece;
    let text = first.text;
    for (let i = 1; i < pieces.length; i++) text += (pieces[i] as Piece).gapBefore + (pieces[i] as Piece).text;
    const heading = first.heading;
    let embedText: string | undefined;
    let size: number;
    if (config.contextualize) {
      embedText = joinEmbedText(breadcrumbLine(heading).line, first.prefix, text, last.suffix);
      size = sizer.size(embedText);
      if (size > config.maxSize) {
        // Text that cannot be cut further (one grapheme cluster) leaves no room for the breadcrumb: drop it.
        const bare = joinEmbedText('', first.prefix, text, last.suffix);
        const bareSize = sizer.size(bare);
        if (bareSize <= config.maxSize) {
          embedText = bare;
          size = bareSize;
        }
      }
    } else {
      size = sizer.size(first.prefix + text + last.suffix);
    }
    const oversizedReason = pieces.find((p) => p.oversizedReason !== undefined)?.oversizedReason;
    const oversized = oversizedReason !== undefined && size > config.maxSize;
    const pageStart = first.page;
    const pageEnd = pieces.reduce<number | undefined>((m, p) => (p.pageEnd === undefined ? m : Math.max(m ?? 0, p.pageEnd)), undefined);
    const chunk = finishChunk(
      {
        text,
        start: first.start,
        end: last.end,
        startLine: first.startLine,
        endLine: last.endLine,
        size,
        heading,
        prefix: first.prefix,
        suffix: last.suffix,
        ...(pageStart !== undefined ? { pageStart, pageEnd: pageEnd ?? pageStart } : {}),
        metadata: metadataOf(pieces, oversized ? oversizedReason : undefined),
        ...(oversized ? { oversized: true } : {}),
        ...(embedText !== undefined ? { embedText } : {}),
      },
      { documentId: config.documentId, origin: config.origin },
      0,
    );
    return setInternals(chunk, {
      section,
      gapBefore: first.gapBefore,
      pieces: pieces.map((p) => ({ start: p.start, end: p.end, heading: p.heading, starts: p.prefix !== '' ? 'none' : PROSE.has(p.kind) ? 'words' : p.kind === 'list' ? 'items' : 'none', opens: p.prefix === '', ...(p.page !== undefined ? { page: p.page } : {}) })),
    });
  }

  /** Adds one piece that fits a chunk on its own. */
  function add(piece: Piece): void {
    if (current.length === 0) {
      start([piece]);
      return;
    }
    const last = current.at(-1) as Piece;
    const heading = (current[0] as Piece).heading;
    const grown = estimate + gapSize(piece.gapBefore) + piece.size;
    const framed = grown + (piece.suffix === '' ? 0 : sizer.size(piece.suffix));
    // A re-opened fence or table header must open a chunk, a closing fence must end one, and an element kept
    // whole over the limit stands alone.
    const mustBreak = piece.prefix !== '' || last.suffix !== '' || piece.oversizedReason !== undefined || last.oversizedReason !== undefined;
    if (!mustBreak && (framed <= packTarget(heading) || (onlyHeadings(current) && framed <= contentLimit(heading)))) {
      current.push(piece);
      estimate = grown;
      return;
    }
    flush(true);
    if (current.length > 0) {
      // Headings carried over open this chunk when the piece fits with them (an element kept whole takes them
      // regardless); otherwise they must go alone.
      const withHeadings = estimate + gapSize(piece.gapBefore) + piece.size;
      if (piece.oversizedReason !== undefined || (piece.prefix === '' && withHeadings <= contentLimit((current[0] as Piece).heading))) {
        current.push(piece);
        estimate = withHeadings;
        return;
      }
      flush(false);
    }
    start([piece]);
  }

  function write(block: Block): Chunk[] {
    if (block.heading === undefined) block = { ...block, heading: NO_HEADING };
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
    const size = sizer.size(block.text);
    // A part of a construct the parser cut carries its frame (a table header, a fence line) when kept whole.
    const whole = block.continuation === undefined ? wholePiece(block, size) : framedWholePiece(block, size, ctx);
    const framed = whole.prefix === '' && whole.suffix === '' ? size : sizer.size(whole.prefix + block.text + whole.suffix);
    if (framed <= contentLimit(heading) && !strandsHeadings(whole)) add(whole);
    else cutAndAdd(block, whole);
    const ready = out;
    out = [];
    return ready;
  }

  /**
   * True when adding `piece` whole would leave headings alone: it will not join the current chunk, and it does
   * not fit in a chunk together with the headings that end the current one. Such a block is cut instead, so that
   * its first part goes with its headings.
   */
  function strandsHeadings(piece: Piece): boolean {
    if (current.length === 0 || !(current.at(-1) as Piece).isHeading) return false;
    const heading = (current[0] as Piece).heading;
    if (estimate + gapSize(piece.gapBefore) + piece.size <= (onlyHeadings(current) ? contentLimit(heading) : packTarget(heading))) return false;
    let k = current.length;
    let headings = 0;
    while (k > 0 && (current[k - 1] as Piece).isHeading) {
      k--;
      headings += (current[k] as Piece).size + (k < current.length - 1 ? gapSize((current[k + 1] as Piece).gapBefore) : 0);
    }
    return headings + gapSize(piece.gapBefore) + piece.size > contentLimit((current[k] as Piece).heading);
  }

  /** Cuts a block too large for one chunk; the first piece may fill the room left in the current chunk. */
  function cutAndAdd(block: Block, whole: Piece): void {
    const rest = contentLimit(block.heading as HeadingContext);
    const room = () => contentLimit((current[0] as Piece).heading) - estimate - gapSize(whole.gapBefore);
    let first = rest;
    if (current.length > 0) {
      const last = current.at(-1) as Piece;
      const canJoin = last.suffix === '' && last.oversizedReason === undefined;
      // Start the block in the chunk already begun only when a real part of it fits there (or to stay with a heading).
      if (!canJoin || (!onlyHeadings(current) && room() < Math.max(1, Math.floor(config.targetSize / 4)))) flush(true);
      if (current.length > 0) first = Math.max(1, Math.min(rest, room()));
    }
    const pieces = cutBlock(block, { first, rest }, ctx);
    const lastEnd = pieces.at(-1)?.end ?? block.end;
    // Whitespace that ends the block but no piece (the splitter trims its spans) goes before the next block.
    trailing = lastEnd < block.end ? block.text.slice(lastEnd - block.start) : '';
    pieces.forEach((piece, i) => {
      if (i === 0 && current.length > 0 && piece.prefix === '' && piece.oversizedReason === undefined) {
        current.push(piece);
        estimate += gapSize(piece.gapBefore) + piece.size;
        return;
      }
      add(piece);
    });
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

/** A piece seen as a paragraph block, so that it can be cut again. */
function pieceAsBlock(piece: Piece): Block {
  return {
    kind: 'paragraph',
    text: piece.text,
    start: piece.start,
    end: piece.end,
    startLine: piece.startLine,
    endLine: piece.endLine,
    heading: piece.heading,
    gapBefore: piece.gapBefore,
    ...(piece.page !== undefined ? { page: piece.page, pageEnd: piece.pageEnd ?? piece.page } : {}),
  };
}

/** The union of what the pieces of a chunk contain. */
function metadataOf(pieces: readonly Piece[], oversizedReason: string | undefined): ChunkMetadata {
  const kinds: BlockKind[] = [];
  const languages: string[] = [];
  const images: string[] = [];
  let fallback = false;
  for (const p of pieces) {
    if (!kinds.includes(p.kind)) kinds.push(p.kind);
    for (const l of p.languages) if (l !== '' && !languages.includes(l)) languages.push(l);
    for (const i of p.images) if (!images.includes(i)) images.push(i);
    fallback ||= p.fallback !== undefined;
  }
  return {
    hasCode: pieces.some((p) => p.hasCode),
    hasTable: pieces.some((p) => p.hasTable),
    hasList: pieces.some((p) => p.hasList),
    hasImage: images.length > 0,
    hasFormula: pieces.some((p) => p.hasFormula),
    isSplit: pieces.some((p) => p.isSplit),
    kinds,
    languages,
    images,
    ...(oversizedReason !== undefined ? { oversizedReason } : {}),
    ...(fallback ? { fallback: 'text-splitter' as const } : {}),
  };
}
