/**
 * The code a Markdown parse worker thread runs: one batch in, its blocks out. Block texts are left empty: the
 * calling thread still holds the batch and slices them back, which saves cloning every block's text across
 * threads. Errors come back as data, since a thrown `ChunkError` would lose its code in the structured clone.
 */
import { threadId } from 'node:worker_threads';
import type { MarkdownBatch } from './batcher.js';
import { isChunkError } from '../../errors.js';
import type { Block } from '../../types.js';
import { parseBatch } from './parse.js';

/** What a worker sends back for one batch. */
export type MarkdownWorkerReply =
  | { readonly ok: true; readonly blocks: Block[]; readonly threadId: number }
  | { readonly ok: false; readonly code: string; readonly message: string };

/** Parses one batch (the task function of the pool). */
export default function parseBatchInWorker(batch: MarkdownBatch): MarkdownWorkerReply {
  try {
    const blocks = parseBatch(batch);
    for (const block of blocks) (block as { text: string }).text = '';
    return { ok: true, blocks, threadId };
  } catch (error) {
    return {
      ok: false,
      code: isChunkError(error) ? error.code : 'ERR_INTERNAL',
      message: error instanceof Error ? error.message : String(error),
    };
  }
}
