/**
 * Chunks measured as the embedder sees them, and the room a chunk has: the one measure the packer and the
 * optimizer share.
 */
import type { ChunkConfig } from '../config.js';
import { contextTitleOf, invalidOption } from '../config.js';
import { overheadOf, type Sizer } from '../protocols.js';
import type { HeadingContext } from '../types.js';
import { createBreadcrumbLine, joinEmbedText } from './embed-text.js';
import { budget, type Budget } from './budget.js';
import { createMeasure, type Measure } from './fit.js';
import type { DocumentContext } from './document-title.js';

/** What the embedder sees of a chunk, measured: its size, and its embed text with `contextualize`. */
export interface EmbedMeasure {
  readonly size: number;
  readonly embedText?: string;
}

/** Sizes of chunks as embedded, and the room a chunk has. */
export interface ChunkMeasure extends Measure {
  /**
   * The framed text of a chunk measured as the embedder sees it: with `contextualize`, its breadcrumb line first.
   * With `dropBreadcrumb`, a chunk that is over `maxSize` with its breadcrumb but fits without it goes without it
   * (text that cannot be cut further, one grapheme cluster, leaves it no room). `known` is the sizer's exact measure
   * of `text`, when the caller has it: a chunk without frame or breadcrumb is then not measured again.
   */
  chunk(heading: HeadingContext, prefix: string, text: string, suffix: string, dropBreadcrumb?: boolean, known?: number): EmbedMeasure;
  /** The largest size a chunk may have, as the embedder sees it: `maxSize`. */
  readonly maxSize: number;
  /** The room a chunk starting under `heading` has for its framed text: `maxSize` less the special tokens and the breadcrumb line. */
  room(heading: HeadingContext): number;
  /**
   * What a chunk starting under `heading` is packed to: `desired` the target size, `max` the room less the overlap
   * the optimizer may add in front of it.
   */
  budget(heading: HeadingContext): Budget;
}

/**
 * Creates the chunk measure of a run. With `contextualize: { title: true }`, the breadcrumb line starts with the
 * title of `document`, which the title stage settles before the first block is measured.
 */
export function createChunkMeasure(config: ChunkConfig, sizer: Sizer, document?: DocumentContext): ChunkMeasure {
  const base = createMeasure(sizer);
  // The special tokens of every input (a Hugging Face tokenizer's [CLS] and [SEP]): in each chunk's size, and
  // kept out of the room its text has, so that the packer's sums of spans stay sums of the sizer's.
  const overhead = overheadOf(sizer);
  if (overhead >= config.maxSize) {
    throw invalidOption('maxSize', `must be above the ${overhead} special tokens the tokenizer adds to every input`, config.maxSize);
  }
  const textRoom = config.maxSize - overhead;
  const withTitle = contextTitleOf(config);
  const breadcrumbLine = createBreadcrumbLine(sizer, textRoom, () => (withTitle ? document?.title : undefined));
  const room = (heading: HeadingContext): number => Math.max(1, textRoom - (config.contextualize ? breadcrumbLine(heading).size : 0));
  // Packing asks for the budget of the heading in force at every span: the last one is kept.
  const last = { heading: undefined as HeadingContext | undefined, budget: budget(0) };
  // The framed text measured last and its size: a heading per line makes the same chunk text again and again.
  const measured = { text: '', size: 0 };
  const framedSize = (framed: string): number => {
    if (framed !== measured.text) {
      measured.size = sizer.size(framed);
      measured.text = framed;
    }
    return measured.size;
  };
  // Field by field, not `...base`: a literal that opens with a spread gets a hidden class of its own, and every
  // document's measure had one, so the packing code that reads it (`addRecentSpans`) met a new class per document.
  return {
    size: base.size,
    gap: base.gap,
    chunk(heading, prefix, text, suffix, dropBreadcrumb = false, known) {
      if (!config.contextualize) return { size: overhead + (known !== undefined && prefix === '' && suffix === '' ? known : framedSize(prefix + text + suffix)) };
      const embedText = joinEmbedText(breadcrumbLine(heading).line, prefix, text, suffix);
      const size = overhead + sizer.size(embedText);
      if (dropBreadcrumb && size > config.maxSize) {
        const bare = joinEmbedText('', prefix, text, suffix);
        const bareSize = overhead + sizer.size(bare);
        if (bareSize <= config.maxSize) return { size: bareSize, embedText: bare };
      }
      return { size, embedText };
    },
    maxSize: config.maxSize,
    room,
    budget(heading) {
      if (heading !== last.heading) {
        const max = Math.max(1, room(heading) - config.overlap);
        last.heading = heading;
        last.budget = budget(Math.max(1, Math.min(config.targetSize - overhead, max)), max);
      }
      return last.budget;
    },
  };
}
