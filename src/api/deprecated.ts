/**
 * Names kept for one release after the API review of 0.2 (see docs/api.md): each is another name for something
 * the package exports under one name now, and goes in 0.3. Editors strike them through.
 */
import type { ChunkDeps } from '../chunking/chunker.js';
import { DefaultHeadingTracker as HeadingTrackerClass } from '../chunking/heading-tracker.js';
import { createTextSplitter as createBuiltInSplitter } from '../chunking/text-splitter.js';
import { readTurns as readTurnsImpl } from '../parsers/transcript/turns.js';
import type { ChunkOptimizerProtocol as ChunkOptimizerParts, HeadingTrackerProtocol as HeadingTrackerParts, Sizer, TextSplitterProtocol as TextSplitterParts } from '../protocols.js';

/** @deprecated The same class as `HeadingTracker`: use `new HeadingTracker()`. Goes in 0.3. */
export const DefaultHeadingTracker: typeof HeadingTrackerClass = HeadingTrackerClass;

/**
 * @deprecated The built-in splitter is `new TextSplitter({ unit, encoding, locale, abbreviations, sizer })`, which
 * takes the same parts. Goes in 0.3.
 */
export const createTextSplitter: typeof createBuiltInSplitter = createBuiltInSplitter;

/** @deprecated Named like the other parsers now: `parseTranscript(text)`, which returns an array. Goes in 0.3. */
export const readTurns: typeof readTurnsImpl = readTurnsImpl;

/** @deprecated `Sizer`, by its longer name. Goes in 0.3. */
export type SizerProtocol = Sizer;
/** @deprecated `TextSplitter` (the type), by its longer name. Goes in 0.3. */
export type TextSplitterProtocol = TextSplitterParts;
/** @deprecated `HeadingTracker` (the type), by its longer name. Goes in 0.3. */
export type HeadingTrackerProtocol = HeadingTrackerParts;
/** @deprecated `ChunkOptimizer` (the type), by its longer name. Goes in 0.3. */
export type ChunkOptimizerProtocol = ChunkOptimizerParts;
/** @deprecated `ChunkDeps`, the parts given to `chunk()`, `chunkText()` and `new SemanticChunker()` alike. Goes in 0.3. */
export type SemanticChunkerParts = ChunkDeps;
