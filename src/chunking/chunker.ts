/**
 * The semantic chunker as one core: heading tracking → packing (with structure-aware cuts) → optimizing in bounded
 * windows → numbering and statistics. The stream stage and the synchronous API both drive this core, which is why
 * their outputs are identical.
 */
import { invalidOption, type ChunkConfig } from '../config.js';
import { ChunkError } from '../errors.js';
import { toCheckedTextSplitter } from '../checked-splitter.js';
import {
  toOptimizer,
  toSizer,
  withOverhead,
  type ChunkOptimizer,
  type ChunkOptimizerLike,
  type HeadingTracker,
  type Sizer,
  type SizerLike,
  type SpanSplitter,
  type TextSplitterLike,
} from '../protocols.js';
import type { Block, Chunk, ChunkStatistics, ParentRecord } from '../types.js';
import { createChunkBoxes } from './chunk-boxes.js';
import { finishChunk, type ChunkOwner } from './chunk-factory.js';
import { lendDrafts } from './chunk-optimizer.js';
import { createChunkIdSequence } from './chunk-id.js';
import { createChunkMeasure, type ChunkMeasure } from './chunk-measure.js';
import { emptyInPlace, pipeCores, type Core } from '../core.js';
import type { PackedDraft } from './draft.js';
import { createHeadingContexts, DefaultHeadingTracker } from './heading-tracker.js';
import { createDefaultOptimizer, type DraftOptimizer } from './optimizer.js';
import { createPacker } from './packer.js';
import { createSizer } from './sizers/index.js';
import { createStatisticsAccumulator, createWarningTally } from './statistics.js';
import { createDocumentContext, createTitleStage, type DocumentContext } from './document-title.js';
import { createNeighbourStage } from './neighbours.js';
import { createParentStage } from './parents.js';
import { createStrategyCore } from './strategy-core.js';
import { createTextSplitter } from './text-splitter.js';

/** Parts of the chunker a user may replace. Each protocol with one method also takes a plain function. */
export interface ChunkDeps {
  /** Measures sizes; default from `unit` and `encoding`. */
  sizer?: SizerLike;
  /** Cuts text too large for a chunk; default the paragraph → sentence → word → grapheme splitter. */
  textSplitter?: TextSplitterLike;
  /** Keeps the heading stack; default a new `HeadingTracker` per document. */
  headingTracker?: HeadingTracker;
  /** `headingTracker` by its first name; give one or the other. */
  tracker?: HeadingTracker;
  /** Fuses and overlaps chunks; default fusion below `minSize` and `overlap`. */
  optimizer?: ChunkOptimizerLike;
}

/** The resolved parts of a chunker. */
export interface ResolvedDeps {
  readonly sizer: Sizer;
  readonly splitter: SpanSplitter;
  /** What the parts had to make good, for the statistics (an injected splitter's pieces cut again). */
  readonly warnings: () => readonly string[];
  readonly tracker: HeadingTracker;
  readonly measure: ChunkMeasure;
  /** The default optimizer works on drafts; an injected one gets chunks (`ChunkOptimizer`). */
  readonly optimizer: { readonly drafts: DraftOptimizer } | { readonly chunks: ChunkOptimizer };
  /** The document being chunked: its title, which the measure counts with `contextualize: { title: true }`. */
  readonly document: DocumentContext;
}

/** Most chunks an optimizer window holds: a long section is optimized a window at a time, in bounded memory. */
export const OPTIMIZER_WINDOW = 64;

/**
 * Where a full optimizer window ends: before the last draft that is, with the draft before it, at least `minSize`.
 * Fusion touches only drafts below `minSize` (with the one before or after them), so between two that are not it
 * joins nothing, and the window's end changes no chunk: a window that ended anywhere else would keep a small
 * draft from the one before it, and an edit that adds or removes a draft far above (which moves every later
 * window's end) would change chunks far below it. When no two such drafts are next to each other, the last
 * draft is kept back alone, to fuse with the next one.
 */
export function windowEnd(pending: readonly { readonly size: number }[], minSize: number): number {
  for (let j = pending.length - 1; j >= 1; j--) {
    if ((pending[j] as { size: number }).size >= minSize && (pending[j - 1] as { size: number }).size >= minSize) return j;
  }
  return pending.length - 1;
}

/** Fills in the default parts for what the user did not inject. */
export function resolveDeps(config: ChunkConfig, deps: ChunkDeps = {}): ResolvedDeps {
  const sizer = deps.sizer === undefined ? createSizer(config) : toSizer(deps.sizer);
  const builtIn = () => createTextSplitter({ sizer, locale: config.locale });
  // An injected splitter's answers are checked: a wrong one would lose text or break the limit without a word.
  const checked = deps.textSplitter === undefined ? undefined : toCheckedTextSplitter(deps.textSplitter, sizer, lazily(builtIn));
  const document = createDocumentContext();
  const measure = createChunkMeasure(config, sizer, document);
  return {
    sizer,
    splitter: checked ?? builtIn(),
    warnings: () => checked?.warnings() ?? [],
    tracker: headingTrackerOf(deps) ?? new DefaultHeadingTracker(),
    measure,
    optimizer: deps.optimizer === undefined ? { drafts: createDefaultOptimizer(measure) } : { chunks: toOptimizer(deps.optimizer) },
    document,
  };
}

/** `make`, called once, on first use. */
function lazily<T>(make: () => T): () => T {
  const made: { value?: T } = {};
  return () => {
    if (!('value' in made)) made.value = make();
    return made.value as T;
  };
}

/** The injected heading tracker, under either name, checked for the four methods of its protocol. */
function headingTrackerOf(deps: ChunkDeps): HeadingTracker | undefined {
  if (deps.headingTracker !== undefined && deps.tracker !== undefined && deps.headingTracker !== deps.tracker) {
    throw invalidOption('headingTracker', 'and tracker name the same part: give one of them', deps.tracker);
  }
  const tracker = deps.headingTracker ?? deps.tracker;
  if (tracker === undefined) return undefined;
  const methods = ['update', 'getPath', 'getLevels', 'reset'] as const;
  if (tracker === null || typeof tracker !== 'object' || methods.some((m) => typeof tracker[m] !== 'function')) {
    throw new ChunkError('ERR_PROTOCOL', `headingTracker must be an object with ${methods.join(', ')} methods`);
  }
  return tracker;
}

/** What a chunk core hands on besides its chunks. */
export interface ChunkCoreHooks {
  /** Each parent, before the chunks it holds (with the option `parents`). */
  parent?(parent: ParentRecord): void;
}

/** The chunk core plus its running statistics. */
export interface ChunkCore extends Core<Block, Chunk> {
  statistics(): ChunkStatistics;
  /** The document's title, once settled (before the first chunk comes out). */
  title(): string | undefined;
}

/**
 * Creates the chunk core: blocks in (from `parse()`), numbered chunks out. The semantic strategy is built here;
 * the others (`fixed`, `window`, `markers`, `turns`) run their own cores over the same blocks. Blocks pass the
 * title stage first (every chunk carries the document's title); chunks are linked to their neighbours last.
 */
export function createChunkCore(config: ChunkConfig, deps: ResolvedDeps, hooks: ChunkCoreHooks = {}): ChunkCore {
  const owner: ChunkOwner = { documentId: config.documentId, origin: config.origin, document: deps.document };
  // The simpler strategies measure whole chunks only: the special tokens are counted in each of their sizes.
  const inner = config.strategy === 'semantic' ? createSemanticCore(config, deps, owner) : createStrategyCore(config, withOverhead(deps.sizer), owner);
  const parents = config.parents === undefined ? undefined : createParentStage(config, config.parents, deps.sizer, (p) => hooks.parent?.(p));
  const chunked = pipeCores(createTitleStage(deps.document), inner);
  const core = pipeCores(parents === undefined ? chunked : pipeCores(chunked, parents), createNeighbourStage());
  const warnings = createWarningTally();
  const boxes = createChunkBoxes();
  return {
    write(block) {
      warnings.note(block.warnings);
      boxes.add(block);
      parents?.block(block);
      return boxes.placeAll(core.write(block));
    },
    end: () => boxes.placeAll(core.end()),
    title: () => deps.document.title,
    statistics() {
      const statistics = inner.statistics();
      const noted = [...warnings.list(), ...deps.warnings()];
      return noted.length === 0 ? statistics : { ...statistics, warnings: [...statistics.warnings, ...noted] };
    },
  };
}

/**
 * The semantic chunker's core: heading tracking, packing, optimizing in bounded windows of one section, numbering.
 * Drafts travel from the packer through the optimizer and become chunks once, when they are numbered.
 */
function createSemanticCore(config: ChunkConfig, deps: ResolvedDeps, owner: ChunkOwner): Core<Block, Chunk> & { statistics(): ChunkStatistics } {
  const stats = createStatisticsAccumulator(config);
  const packer = createPacker(config, deps, createHeadingContexts(deps.tracker));
  const ids = createChunkIdSequence(config.documentId);
  let index = 0;

  const numbered = (chunk: Chunk): Chunk => {
    stats.add(chunk);
    index++;
    return chunk;
  };
  // A draft's metadata is whole (`buildDraft`, `mergeMetadata`) and the draft is dropped once finished: the chunk takes it.
  const finish = (draft: PackedDraft): Chunk => numbered(finishChunk(draft, owner, index, ids.next(draft), true));
  const optimize = (drafts: PackedDraft[]): Chunk[] => {
    if (drafts.length === 0) return [];
    const optimizer = deps.optimizer;
    if ('drafts' in optimizer) return optimizer.drafts.optimize(drafts, config).map(finish);
    // An injected optimizer sees finished chunks, lent with their drafts (a `ChunkOptimizer` optimizes those as the
    // default would); what it returns is numbered in turn.
    const chunks = drafts.map((d, i) => finishChunk(d, owner, index + i, ids.peek(d)));
    lendDrafts(chunks, drafts, owner, deps.measure);
    return optimizer.chunks.optimize(chunks, config).map((c) => numbered({ ...c, id: ids.next(c), index }));
  };

  // The drafts of one section waiting for the optimizer, at most a window of them.
  const held = { drafts: [] as PackedDraft[], section: -1 };
  const window: Core<PackedDraft, Chunk> = {
    write(draft) {
      let out: Chunk[] = [];
      if (draft.section !== held.section) {
        out = optimize(held.drafts);
        // Emptied in place: what `optimize` returns is a new list (a heading per line ends a section every chunk).
        emptyInPlace(held.drafts);
        held.section = draft.section;
      }
      held.drafts.push(draft);
      if (held.drafts.length >= OPTIMIZER_WINDOW) {
        const end = windowEnd(held.drafts, config.minSize);
        out = [...out, ...optimize(held.drafts.slice(0, end))];
        held.drafts = held.drafts.slice(end);
      }
      return out;
    },
    end() {
      const out = optimize(held.drafts);
      held.drafts = [];
      return out;
    },
  };
  const core = pipeCores(packer, window);
  return { ...core, statistics: () => stats.result() };
}
