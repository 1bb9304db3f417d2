/**
 * Parents: the heading sections a chunk belongs to, for a retriever that embeds small chunks and hands the model
 * their section (LangChain's ParentDocumentRetriever, LlamaIndex's auto-merging retriever).
 *
 * Each section started by a heading at one of `parents.levels` is a parent; one larger than `parents.maxSize` is
 * cut into parent windows, each a run of whole chunks, so a window ends where a chunk ends (at the semantic
 * levels the chunks were cut at) and every chunk lies inside its parent. A parent's text is an exact slice of the
 * document: the stage keeps the document text from the first chunk of the window being filled, rebuilt from the
 * blocks' gaps and texts, and nothing before it. A window is given out as soon as the next chunk does not belong
 * to it, with the chunks it holds, each carrying its `parentId`: memory holds one window of chunks and its text.
 *
 * A parent's id is `${documentId}#p-${digest}`, the digest taken over its text and the chunking settings, so ids
 * never collide across documents, change when the settings change, and stay when an edit falls elsewhere; a
 * second parent of the same text in a document gets `-2`, as chunks do (`chunk-id.ts`).
 */
import type { ChunkConfig } from '../config.js';
import type { Core } from '../core.js';
import { overheadOf, sizeUpTo, type Sizer } from '../protocols.js';
import type { Block, Chunk, ParentRecord } from '../types.js';
import { textHash } from '../unicode/text-hash.js';
import { createChunkIdSequence } from './chunk-id.js';
import { contentDefinedLast, placeValue } from './content-cuts.js';

/** Chunks of the windows before that a window's end is compared with (a window's worth, about). */
const RECENT_CHUNKS = 64;

/** How good a place the start of `chunk` is to start a parent window: before a heading (shallower is better), else anywhere. */
function startStrength(chunk: Chunk): number {
  const kind = chunk.metadata.kinds[0];
  if (kind !== 'heading') return 1;
  return 8 - (chunk.heading.levels.at(-1) ?? 6);
}

/** The normalized `parents` option. */
export interface ParentsConfig {
  /** Heading depths whose sections are parents (a subset of `splitLevels`). */
  readonly levels: readonly number[];
  /** Largest parent, in the unit: a longer section is cut into windows of whole chunks. */
  readonly maxSize: number;
}

/** The document text from some offset on, rebuilt from blocks, for the slices of parents. */
interface TextWindow {
  base: number;
  text: string;
}

/** The settings a parent id is scoped by: what changes the chunks or the parents. */
function settingsKey(config: ChunkConfig, parents: ParentsConfig): string {
  const { unit, encoding, graphemes, maxSize, targetSize, minSize, overlap, splitLevels, preserveTables, preserveCode, contextualize, strategy } = config;
  return JSON.stringify({ unit, encoding, graphemes, maxSize, targetSize, minSize, overlap, splitLevels, preserveTables, preserveCode, contextualize, strategy, parents });
}

/** A chunk whose `parentId` is set once, before it is given out. */
type Parented = Omit<Chunk, 'parentId'> & { parentId?: string };

/** Section starts kept behind the chunks before those behind are dropped (sections are known by where their heading starts). */
const SECTIONS_KEPT = 256;

/** What the parent stage holds: its settings, the text from the window being filled on, and the chunks waiting for their parent. */
interface ParentState {
  readonly config: ChunkConfig;
  readonly parents: ParentsConfig;
  readonly sizer: Sizer;
  readonly emit: (parent: ParentRecord) => void;
  /** The settings a parent id is scoped by (`settingsKey`). */
  readonly key: string;
  /** Digests and repeats counted as for chunk ids, in a sequence of the parents' own. */
  readonly ids: ReturnType<typeof createChunkIdSequence>;
  readonly overhead: number;
  readonly text: TextWindow;
  /** Starts of the sections at `parents.levels` seen so far, the dropped ones left out. */
  sections: number[];
  /** The first section start past the last chunk written. */
  nextSection: number;
  /** The chunks of the window being filled. */
  pending: Parented[];
  /** The last chunks given out in this section, which compete for a window's end (`RECENT_CHUNKS`). */
  recent: Chunk[];
  /** The section of the pending chunks. */
  section: number;
  /** The next parent's index. */
  index: number;
}

/**
 * Creates the parent stage: it sees every block (`block`) before the chunker does, and every chunk the chunker
 * gives (`write`); it gives the chunks back, each with its `parentId`, once their parent is complete, and hands
 * each parent to `emit` first.
 */
export function createParentStage(config: ChunkConfig, parents: ParentsConfig, sizer: Sizer, emit: (parent: ParentRecord) => void): Core<Chunk, Chunk> & { block(block: Block): void } {
  const state: ParentState = {
    config,
    parents,
    sizer,
    emit,
    key: settingsKey(config, parents),
    ids: createChunkIdSequence(''),
    overhead: overheadOf(sizer),
    text: { base: 0, text: '' },
    sections: [],
    nextSection: 0,
    pending: [],
    recent: [],
    section: -1,
    index: 0,
  };
  return {
    block: (block) => addBlock(state, block),
    write: (chunk) => addChunk(state, chunk),
    end: () => closeParent(state, state.pending.length),
  };
}

/** Keeps a block's text (and the gap before it), and notes where a section at one of the parent levels starts. */
function addBlock(state: ParentState, block: Block): void {
  const { text } = state;
  const gap = block.gapBefore ?? '';
  if (text.text === '') text.base = block.start - gap.length;
  text.text += gap + block.text;
  if (block.kind === 'heading' && state.parents.levels.includes(block.depth)) state.sections.push(block.start);
}

/** Adds a chunk to the window being filled, first giving out the windows it ends (a new section, or no room left). */
function addChunk(state: ParentState, chunk: Chunk): Chunk[] {
  const section = sectionOf(state, chunk);
  const out: Chunk[] = [];
  if (state.pending.length > 0 && section !== state.section) {
    out.push(...closeParent(state, state.pending.length));
    state.recent = [];
  }
  while (state.pending.length > 0 && !fits(state, chunk)) out.push(...closeParent(state, windowLength(state, chunk)));
  state.section = section;
  state.pending.push(chunk);
  releaseText(state, (state.pending[0] as Chunk).start);
  return out;
}

/** The document text of `[start, end)`, which the window holds. */
function sliceText({ text }: ParentState, start: number, end: number): string {
  return text.text.slice(start - text.base, end - text.base);
}

/** A chunk's section: the last section start at or before it (-1 before the first). */
function sectionOf(state: ParentState, chunk: Chunk): number {
  while (state.nextSection < state.sections.length && (state.sections[state.nextSection] as number) <= chunk.start) state.nextSection++;
  const section = state.sections[state.nextSection - 1] ?? -1;
  if (state.nextSection > SECTIONS_KEPT) {
    state.sections = state.sections.slice(state.nextSection - 1);
    state.nextSection = 1;
  }
  return section;
}

/** Gives out the first `count` pending chunks as one parent, the parent first. */
function closeParent(state: ParentState, count: number): Chunk[] {
  const { config } = state;
  const chunks = state.pending.slice(0, count);
  const first = chunks[0];
  const last = chunks.at(-1);
  if (first === undefined || last === undefined) return [];
  const body = sliceText(state, first.start, last.end);
  const id = `${config.documentId}#p-${state.ids.next({ text: `${state.key}\n${body}` }).slice(1)}`;
  state.emit({
    id,
    documentId: config.documentId,
    ...(config.origin !== undefined ? { origin: config.origin } : {}),
    index: state.index++,
    text: body,
    start: first.start,
    end: last.end,
    startLine: first.startLine,
    endLine: last.endLine,
    heading: first.heading,
    size: state.overhead + state.sizer.size(body),
    chunks: chunks.length,
  });
  for (const chunk of chunks) chunk.parentId = id;
  state.pending = state.pending.slice(count);
  state.recent = [...state.recent, ...chunks].slice(-RECENT_CHUNKS);
  return chunks as Chunk[];
}

/**
 * How many pending chunks the window ends with when `next` does not fit it, chosen by content as chunks are
 * (`content-cuts.ts`): a greedy fill would move every later window of a long section after an edit near its top.
 * The chunks of the windows before, in the section, compete too.
 */
function windowLength(state: ParentState, next: Chunk): number {
  const recent = state.recent;
  const all = [...recent, ...state.pending, next];
  const first = recent.length;
  const last = contentDefinedLast(
    { first, last: all.length - 2, earliest: 0, added: (k) => (all[k] as Chunk).size, valueBefore: (k) => placeValue(startStrength(all[k] as Chunk), textHash((all[k] as Chunk).text)) },
    state.parents.maxSize,
  );
  return last + 1 - first;
}

/** Whether the window being filled, with `chunk` added, stays within `parents.maxSize`. */
function fits(state: ParentState, chunk: Chunk): boolean {
  const first = state.pending[0] as Chunk;
  const { maxSize } = state.parents;
  return state.overhead + sizeUpTo(state.sizer, sliceText(state, first.start, chunk.end), maxSize) <= maxSize;
}

/** Drops the text before the first chunk still to come in a parent: a chunk never starts before the one before it. */
function releaseText({ text }: ParentState, from: number): void {
  if (from <= text.base) return;
  text.text = text.text.slice(from - text.base);
  text.base = from;
}
