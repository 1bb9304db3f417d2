/**
 * The chunker's parts as classes, under the names its documentation gives them: `HeadingTracker`, `TextSplitter`
 * and `ChunkOptimizer`. Each is a thin shell over the part the chunker runs by default, so a part constructed here
 * and injected behaves as the part left out.
 *
 * Each name is a class and, as a type, the part's protocol: `const t: HeadingTracker = { update, getPath, … }`
 * keeps type-checking, whatever implements the four methods is a `HeadingTracker`, and `new HeadingTracker()`
 * builds the default one.
 */
import { normalizeOptions, type ChunkConfig, type ChunkOptions, type SizeUnit, type TokenizerOption } from '../config.js';
import { toSizer, withOverhead, type ChunkOptimizerProtocol, type HeadingTrackerProtocol, type SizerLike, type SpanSplitter, type TextSplitterProtocol } from '../protocols.js';
import type { Chunk, Span } from '../types.js';
import { createChunkListOptimizer, type ChunkListOptimizer } from '../chunking/chunk-optimizer.js';
import { DefaultHeadingTracker } from '../chunking/heading-tracker.js';
import { createSizer } from '../chunking/sizers/index.js';
import { createTextSplitter } from '../chunking/text-splitter.js';

/** The constructor of `HeadingTracker`. */
export interface HeadingTrackerConstructor {
  new (): HeadingTrackerProtocol;
  readonly prototype: HeadingTrackerProtocol;
}

/**
 * The heading stack the chunker keeps: `update(level, text)` pops every entry at `level` or deeper and pushes the
 * new one, so H1 → H2 gives `getPath()` `["Introduction", "Background"]` and `getLevels()` `[1, 2]`; `reset()`
 * empties it. The same class as `DefaultHeadingTracker`.
 */
export const HeadingTracker: HeadingTrackerConstructor = DefaultHeadingTracker;
/** Whatever keeps a heading stack: the `HeadingTrackerProtocol`. */
export type HeadingTracker = HeadingTrackerProtocol;

/** How a `TextSplitter` measures and segments. */
export interface TextSplitterOptions {
  /** Unit of `maxSize`; default `tokens`, as the chunker's. */
  unit?: SizeUnit;
  /**
   * Tokenizer when `unit` is `tokens`: `cl100k_base` (default), `o200k_base`, or a Hugging Face tokenizer (see
   * `ChunkOptions.tokenizer`); spans then measure at most `maxSize` with its special tokens.
   */
  tokenizer?: TokenizerOption;
  /** `tokenizer` by its former name. */
  encoding?: TokenizerOption;
  /** Count grapheme clusters instead of UTF-16 units when `unit` is `chars`. */
  graphemes?: boolean;
  /** BCP 47 tag for sentence and word segmentation; default `'en'`. */
  locale?: string;
  /** Abbreviations after which no sentence ends; default the locale's list, `false` for none. */
  abbreviations?: readonly string[] | false;
  /** Measures instead of `unit` (a `Sizer` or a function). */
  sizer?: SizerLike;
}

/** The constructor of `TextSplitter`. */
export interface TextSplitterConstructor {
  new (options?: TextSplitterOptions): TextSplitterInstance;
  readonly prototype: TextSplitterInstance;
}

/** What `new TextSplitter()` gives: the protocol's `split`, answering with spans `{ start, end }`. */
export interface TextSplitterInstance extends SpanSplitter {}

/** What each `TextSplitter` measures in, for the chunker to check it against its own unit. */
const splitterUnits = new WeakMap<object, string>();

/** The unit key of a config or of a splitter's options: what must match for sizes to agree. */
function unitKey(o: Pick<ChunkConfig, 'unit' | 'encoding' | 'graphemes'>): string {
  return o.unit === 'tokens' ? `tokens (${o.encoding})` : o.unit === 'chars' && o.graphemes ? 'chars (grapheme clusters)' : o.unit;
}

/**
 * The unit a `TextSplitter` measures in when it differs from `config`'s, or undefined when it agrees, was given its
 * own sizer, or is no `TextSplitter`.
 */
export function splitterUnitMismatch(splitter: unknown, config: ChunkConfig): string | undefined {
  const unit = typeof splitter === 'object' && splitter !== null ? splitterUnits.get(splitter) : undefined;
  return unit === undefined || unit === unitKey(config) ? undefined : unit;
}

/**
 * The chunker's fallback splitter: `split(text, maxSize, targetSize?)` cuts a text too large for one chunk at
 * paragraphs, then sentences, then words, then grapheme clusters, into spans `{ start, end }` into `text`, each
 * measuring at most `maxSize` and packed up to `targetSize` (default `maxSize`). See `createTextSplitter`.
 *
 * ```ts
 * const splitter = new TextSplitter({ unit: 'chars' });
 * const pieces = splitter.split(text, 700).map(({ start, end }) => text.slice(start, end));
 * ```
 */
export const TextSplitter: TextSplitterConstructor = class TextSplitter implements TextSplitterInstance, TextSplitterProtocol {
  readonly #splitter: SpanSplitter;

  constructor(options: TextSplitterOptions = {}) {
    const { sizer, abbreviations, ...unit } = options;
    const config = normalizeOptions(unit);
    this.#splitter = createTextSplitter({
      sizer: sizer === undefined ? withOverhead(createSizer(config)) : toSizer(sizer),
      locale: config.locale,
      ...(abbreviations !== undefined ? { abbreviations } : {}),
    });
    if (sizer === undefined) splitterUnits.set(this, unitKey(config));
  }

  split(text: string, maxSize: number, targetSize?: number): Span[] {
    return this.#splitter.split(text, maxSize, targetSize);
  }
};
/** Whatever cuts an oversized text into spans: the `TextSplitterProtocol`. */
export type TextSplitter = TextSplitterProtocol;

/** How a `ChunkOptimizer` measures the chunks it fuses. */
export interface ChunkOptimizerOptions {
  /** Measures chunks no chunker lent it (a `Sizer` or a function); default the unit of the config it is given. */
  sizer?: SizerLike;
}

/** What `new ChunkOptimizer()` gives: the protocol's `optimize`, also taking plain options and the document text. */
export type ChunkOptimizerInstance = ChunkOptimizerProtocol & ChunkListOptimizer;

/** The constructor of `ChunkOptimizer`. */
export interface ChunkOptimizerConstructor {
  new (options?: ChunkOptimizerOptions): ChunkOptimizerInstance;
  readonly prototype: ChunkOptimizerInstance;
}

/**
 * The chunker's optimizer over finished chunks: `optimize(chunks, config, text?)` fuses chunks below `minSize`
 * with a neighbour of their section when the result fits, adds `overlap` (each chunk starts back inside the
 * previous one, at a word or list item, so its text stays an exact slice), and drops whitespace-only chunks.
 * `config` takes chunking options (`{ minSize: 100, overlap: 20 }`) or a normalized config.
 *
 * Injected into a chunker (`{ optimizer: new ChunkOptimizer() }`) it gives exactly the chunks of the default.
 * On chunks from elsewhere it reads sections and the whitespace between chunks back from the chunks (see
 * `chunk-optimizer.ts`); pass the document `text` so chunks separated by more than line breaks can be fused.
 */
export const ChunkOptimizer: ChunkOptimizerConstructor = class ChunkOptimizer implements ChunkOptimizerInstance {
  readonly #optimizer: ChunkListOptimizer;

  constructor(options: ChunkOptimizerOptions = {}) {
    this.#optimizer = createChunkListOptimizer(options.sizer === undefined ? undefined : toSizer(options.sizer));
  }

  optimize(chunks: readonly Chunk[], config?: ChunkOptions | ChunkConfig, text?: string): Chunk[] {
    return this.#optimizer.optimize(chunks, config, text);
  }
};
/** Whatever rewrites a window of chunks: the `ChunkOptimizerProtocol`. */
export type ChunkOptimizer = ChunkOptimizerProtocol;
