/**
 * The floor the benches compare chunkstream's parse with: bare remark-parse + remark-gfm, frozen once, on the
 * batches chunkstream cuts. Shared by `parse-child.mjs` and `chunk-child.mjs`, and loaded only by the
 * measurements that use it, so that remark's modules do not weigh on the others' memory.
 */
import { unified } from 'unified';
import remarkParse from 'remark-parse';
import remarkGfm from 'remark-gfm';
import { distModule } from './measured.mjs';

// The batcher and the list of inline constructs are the build's own, so the floor parses what chunkstream parses.
const [{ normalizeParseOptions }, { createMarkdownBatchCore, INLINE_CONSTRUCTS }] = await Promise.all([distModule('config.js'), distModule('parsers/markdown/parse.js')]);

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
