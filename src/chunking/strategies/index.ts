/**
 * The simpler strategies beside the semantic chunker, each a `Chunker` (one source in, its chunks out), and
 * `createStrategy`, which builds one from a normalized `ChunkConfig`.
 */
import { invalidOption, type ChunkConfig } from '../../config.js';
import type { Chunker, Sizer } from '../../protocols.js';
import { fixedSize } from './fixed.js';
import { byMarkers } from './markers.js';
import { byTurns } from './turns.js';
import { slidingWindow } from './window.js';

export { fixedSize, createFixedSizeCore, type FixedSizeOptions } from './fixed.js';
export { slidingWindow, createSlidingWindowCore, normalizeSlidingWindow, type SlidingWindowOptions, type SlidingWindowConfig } from './window.js';
export { byMarkers, normalizeMarkers, markerCuts, type MarkersOptions, type MarkersConfig } from './markers.js';
export { byTurns, createTurnsCore, normalizeTurns, type TurnsOptions, type TurnsConfig } from './turns.js';
export { readTurns, type TurnBlock } from '../../parsers/transcript/turns.js';

/**
 * Builds the chunker for `config.strategy` from the config's fields:
 * - `fixed`: `fixedSize` characters, or `maxSize` when `unit` is `chars`;
 * - `window`: windows of `maxSize` with `overlap`;
 * - `markers`: `markers`, with `minSize` and `maxSize`;
 * - `turns`: `turnsPerChunk`, `overlapTurns`, `maxSize` as `maxTokens` and `minSize` as `minTokens`.
 *
 * Sizes are measured with `sizer`, the one the config's `unit` calls for. Throws `ERR_INVALID_OPTION` for the
 * `semantic` strategy (it is not a whole-source chunker) and for `fixed` without `fixedSize` when the unit is
 * not characters.
 */
export function createStrategy(config: ChunkConfig, sizer: Sizer): Chunker {
  switch (config.strategy) {
    case 'fixed': {
      let n = config.fixedSize;
      if (n === undefined) {
        if (config.unit !== 'chars') {
          throw invalidOption('fixedSize', `is required with unit '${config.unit}': the fixed strategy cuts characters, so maxSize only stands in for it when unit is 'chars'`, n);
        }
        n = config.maxSize;
      }
      return fixedSize(n, { sizer });
    }
    case 'window':
      return slidingWindow({ size: config.maxSize, overlap: config.overlap, sizer });
    case 'markers':
      return byMarkers({ markers: config.markers, minSize: config.minSize, maxSize: config.maxSize, sizer });
    case 'turns':
      return byTurns({ turnsPerChunk: config.turnsPerChunk, overlapTurns: config.overlapTurns, sizer, maxTokens: config.maxSize, minTokens: config.minSize });
    default:
      throw invalidOption('strategy', "must be 'fixed', 'window', 'markers' or 'turns' for createStrategy (the semantic strategy runs in chunk())", config.strategy);
  }
}
