/**
 * The simpler strategies beside the semantic chunker, each a `Chunker` over document text (one source in, its
 * chunks out) or a core over turn blocks, and the table that names them (`table.ts`).
 */
export { fixedSize, createFixedSizeCore, type FixedSizeOptions } from './fixed.js';
export { slidingWindow, createSlidingWindowCore, normalizeSlidingWindow, type SlidingWindowOptions, type SlidingWindowConfig } from './window.js';
export { byMarkers, createMarkersCore, normalizeMarkers, markerCuts, type MarkersOptions, type MarkersConfig } from './markers.js';
export { createTurnsCore, normalizeTurns, type TurnsOptions, type TurnsConfig } from './turns.js';
export { STRATEGIES, strategyRow, type Strategy, type TextStrategy, type TurnStrategy } from './table.js';
