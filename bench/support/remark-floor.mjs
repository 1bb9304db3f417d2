/**
 * The floor the benches compare chunkstream's parse with: bare remark-parse + remark-gfm, frozen once, on the
 * batches chunkstream cuts. Shared by `parse-child.mjs` and `chunk-child.mjs`.
 */
import { unified } from 'unified';
import remarkParse from 'remark-parse';
import remarkGfm from 'remark-gfm';
import { normalizeParseOptions } from '../../dist/index.js';
import { createMarkdownBatchCore, INLINE_CONSTRUCTS } from '../../dist/parsers/markdown/parse.js';

/** A frozen remark processor: full, or with micromark's inline constructs off (those chunkstream's block parse turns off). */
export function remarkFloor(blockLevel) {
  let processor = unified().use(remarkParse).use(remarkGfm);
  if (blockLevel) {
    processor = processor.use(function () {
      const data = this.data();
      data.micromarkExtensions = [...(data.micromarkExtensions ?? []), { disable: { null: [...INLINE_CONSTRUCTS] } }];
    });
  }
  return processor.freeze();
}

/** A batcher with chunkstream's default batches: `write(bytesOrText)` and `end()` return the batches completed. */
export function defaultBatches() {
  return createMarkdownBatchCore(normalizeParseOptions({ format: 'markdown' }));
}
