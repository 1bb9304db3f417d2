/** Conversation transcripts: JSONL turns or "Speaker: text" lines. */
import type { ParseConfig } from '../config.js';
import { ChunkError } from '../errors.js';
import type { Block } from '../types.js';

/** Reads a whole transcript into blocks, one per turn. */
export async function* readTranscriptBlocks(_bytes: Uint8Array, _config: ParseConfig): AsyncGenerator<Block> {
  throw new ChunkError('ERR_UNSUPPORTED_FORMAT', 'Transcript input is not available yet');
}
