/** A whole transcript, synchronously: the `parseMarkdown` and `parseText` of conversations. */
import { readTurns, type TurnBlock } from './turns.js';

/**
 * Reads a transcript (JSON lines `{ "speaker": …, "text": … }`, or `Speaker: text` lines) into one block per turn,
 * in order: `text` is the exact source slice of the turn, `speaker` and `utterance` say who said what, `turn`
 * counts from 0. Chunk the blocks with `chunkBlocks(blocks, { strategy: 'turns' })`. Throws
 * `ERR_TRANSCRIPT_INVALID` naming the line of a record that is not a JSON object with string `speaker` and `text`,
 * or of a first line without a `Speaker:` prefix.
 */
export function parseTranscript(text: string): TurnBlock[] {
  return [...readTurns(text)];
}
