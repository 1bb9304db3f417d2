/**
 * The table of the simpler strategies: one row each, with its name, what it is for, the options it reads, what
 * it reads (document text, or the turns of a transcript) and how its chunker and its core are made from a
 * normalized config. `createStrategy`, the `chunk({ strategy })` stage, the CLI and `inspect` all read it: a new
 * strategy is a file of its own and a row here (and a row in `src/options.ts` for each option of its own).
 */
import type { ChunkConfig, StrategyName } from '../../config.js';
import type { Core } from '../../core.js';
import type { Chunker, Sizer } from '../../protocols.js';
import type { Block, Chunk } from '../../types.js';
import type { ChunkOwner } from '../chunk-factory.js';
import { createFixedSizeCore, fixedSize } from './fixed.js';
import { byMarkers, createMarkersCore } from './markers.js';
import { createTurnsCore, normalizeTurns } from './turns.js';
import { createSlidingWindowCore, normalizeSlidingWindow, slidingWindow } from './window.js';

/** What every row has. */
interface StrategyBase {
  readonly name: Exclude<StrategyName, 'semantic'>;
  /** One line for help texts. */
  readonly summary: string;
  /** The options it reads besides the sizes and the unit (keys of `ChunkOptions`). */
  readonly options: readonly string[];
}

/** A strategy over document text (rebuilt from the blocks in a stream). */
export interface TextStrategy extends StrategyBase {
  readonly input: 'text';
  /** Its chunker over one whole source. */
  chunker(config: ChunkConfig, sizer: Sizer): Chunker;
  /** Its core over text written in any number of writes, in bounded memory where the strategy allows it. */
  core(config: ChunkConfig, sizer: Sizer, owner: ChunkOwner): Core<string, Chunk>;
}

/** A strategy over the turn blocks of a transcript. */
export interface TurnStrategy extends StrategyBase {
  readonly input: 'turns';
  core(config: ChunkConfig, sizer: Sizer, owner: ChunkOwner): Core<Block, Chunk>;
}

/** A row of the table. */
export type Strategy = TextStrategy | TurnStrategy;

/** The characters per chunk of the fixed strategy: `fixedSize`, or `maxSize` when the unit is characters. */
const fixedLength = (config: ChunkConfig): number => config.fixedSize ?? config.maxSize;

const windowOf = (config: ChunkConfig, sizer: Sizer) => ({ size: config.maxSize, overlap: config.overlap, sizer });
const markersOf = (config: ChunkConfig, sizer: Sizer) => ({ markers: config.markers, minSize: config.minSize, maxSize: config.maxSize, sizer });

/** Every strategy besides the semantic chunker, in help order. */
export const STRATEGIES: readonly Strategy[] = [
  {
    name: 'fixed',
    summary: 'a cut every fixedSize UTF-16 units (maxSize with unit chars), never inside a surrogate pair; a baseline',
    options: ['fixedSize'],
    input: 'text',
    chunker: (config, sizer) => fixedSize(fixedLength(config), { sizer }),
    core: (config, sizer, owner) => createFixedSizeCore(fixedLength(config), owner, sizer),
  },
  {
    name: 'window',
    summary: 'windows of maxSize repeating overlap units of the previous tail; words never cut',
    options: [],
    input: 'text',
    chunker: (config, sizer) => slidingWindow(windowOf(config, sizer)),
    core: (config, sizer, owner) => createSlidingWindowCore(normalizeSlidingWindow(windowOf(config, sizer)), owner),
  },
  {
    name: 'markers',
    summary: 'cut at markers, split spans above maxSize at the next marker or between words, merge those below minSize',
    options: ['markers'],
    input: 'text',
    chunker: (config, sizer) => byMarkers(markersOf(config, sizer)),
    core: (config, sizer, owner) => createMarkersCore(markersOf(config, sizer), owner),
  },
  {
    name: 'turns',
    summary: 'windows of turnsPerChunk conversation turns repeating overlapTurns; a turn over maxSize alone is cut between sentences',
    options: ['turnsPerChunk', 'overlapTurns'],
    input: 'turns',
    core: (config, sizer, owner) =>
      createTurnsCore(normalizeTurns({ turnsPerChunk: config.turnsPerChunk, overlapTurns: config.overlapTurns, sizer, maxTokens: config.maxSize, minTokens: config.minSize }), owner),
  },
];

/** The row of `name`, or undefined for the semantic chunker (which is not in the table). */
export function strategyRow(name: StrategyName): Strategy | undefined {
  return STRATEGIES.find((s) => s.name === name);
}
