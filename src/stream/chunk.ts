/** Placeholder until the chunking engine lands: one chunk per block. */
import { Transform } from 'node:stream';
import { normalizeOptions, type ChunkOptions } from '../config.js';
import { finishChunk } from '../core/chunk-factory.js';
import { createHeadingStage } from '../core/heading-tracker.js';
import type { Block } from '../types.js';
import { bindAbort } from './to-transform.js';

/** Placeholder. */
export function chunk(options?: ChunkOptions): Transform {
  const config = normalizeOptions(options);
  const headings = createHeadingStage();
  let index = 0;
  const t = new Transform({
    objectMode: true,
    transform(block: Block, _e, cb) {
      for (const b of headings.write(block)) {
        this.push(finishChunk({ text: b.text, start: b.start, end: b.end, startLine: b.startLine, endLine: b.endLine, size: b.text.length, ...(b.heading ? { heading: b.heading } : {}) }, { documentId: config.documentId, origin: config.origin }, index++));
      }
      cb();
    },
  });
  if (config.signal) bindAbort(t, config.signal);
  return t;
}
