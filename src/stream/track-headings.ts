/** `trackHeadings()`: the HeadingTracker stage as a Transform. */
import type { Transform } from 'node:stream';
import { createHeadingStage } from '../chunking/heading-tracker.js';
import type { HeadingTracker } from '../protocols.js';
import { toTransform } from './to-transform.js';

/** Options of `trackHeadings()`. */
export interface TrackHeadingsOptions {
  /** The tracker to use; any object with `update`, `getPath`, `getLevels` and `reset` works. */
  tracker?: HeadingTracker;
  signal?: AbortSignal;
}

/** Creates a Transform that attaches `heading: { path, levels, breadcrumb }` to every block. */
export function trackHeadings(options: TrackHeadingsOptions = {}): Transform {
  return toTransform(createHeadingStage(options.tracker), { signal: options.signal });
}
