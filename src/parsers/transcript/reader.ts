/** Conversation transcripts: JSONL turns or "Speaker: text" lines, one 'paragraph' block per turn. */
import type { ParseConfig } from '../../config.js';
import { readTurns } from './turns.js';
import { createUtf8Decoder } from '../utf8-decoder.js';
import type { Block } from '../../types.js';

/**
 * Reads a whole transcript into blocks, one per turn: `text` is the exact source slice of the turn's record or
 * lines, with `speaker`, `turn` (from 0) and `utterance` set. Invalid UTF-8 becomes U+FFFD, or with `fatal`
 * fails with `ERR_INVALID_UTF8`; a malformed record or line fails with `ERR_TRANSCRIPT_INVALID` naming its line.
 */
export async function* readTranscriptBlocks(bytes: Uint8Array, config: ParseConfig): AsyncGenerator<Block> {
  const decoder = createUtf8Decoder({ fatal: config.fatal });
  const text = decoder.write(bytes) + decoder.end();
  yield* readTurns(text);
}
