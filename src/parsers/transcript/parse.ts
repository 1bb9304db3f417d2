/** A whole transcript, synchronously: the `parseMarkdown` and `parseText` of conversations. */
import { checkedTextBlocks } from '../text-input.js';
import { readTurns, type TurnBlock } from './turns.js';
import { createUtf8Decoder } from '../utf8-decoder.js';

/**
 * Reads a transcript (JSON lines `{ "speaker": …, "text": … }`, or `Speaker: text` lines) into one block per turn,
 * in order: `text` is the exact source slice of the turn, `speaker` and `utterance` say who said what, `turn`
 * counts from 0. Chunk the blocks with `chunkBlocks(blocks, { strategy: 'turns' })`. Throws
 * `ERR_TRANSCRIPT_INVALID` naming the line of a record that is not a JSON object with string `speaker` and `text`,
 * or of a first line without a `Speaker:` prefix, and a NUL character with `ERR_UNSUPPORTED_FORMAT`. A leading BOM
 * is dropped and offsets start after it, as in `parse({ format: 'transcript' })`, `parseText` and `parseMarkdown`.
 */
export function parseTranscript(text: string): TurnBlock[] {
  return checkedTextBlocks(text, (input) => [...readTurns(withoutBom(input))]) as TurnBlock[];
}

/** The input as the stream's reader decodes it (`reader.ts`): a leading BOM dropped, offsets starting after it. */
function withoutBom(input: string | Uint8Array): string {
  const decoder = createUtf8Decoder();
  return decoder.write(input) + decoder.end();
}
