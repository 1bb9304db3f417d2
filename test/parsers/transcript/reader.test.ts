import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { describe, expect, it } from 'vitest';
import { parseTranscript } from '../../../src/parsers/transcript/parse.js';
import { parse } from '../../../src/stream/parse.js';
import type { Block } from '../../../src/types.js';

async function blocks(input: (string | Buffer)[], options = {}): Promise<Block[]> {
  const out: Block[] = [];
  await pipeline(Readable.from(input, { objectMode: true }), parse({ format: 'transcript', ...options }), async (source: AsyncIterable<Block>) => {
    for await (const b of source) out.push(b);
  });
  return out;
}

describe("parse({ format: 'transcript' })", () => {
  it('emits one paragraph block per turn with speaker, turn and the exact slice', async () => {
    const text = 'Ana: Bonjour 😀\nBen: Salut\n';
    const bytes = Buffer.from(text);
    // Cut inside the emoji's UTF-8 sequence.
    const out = await blocks([bytes.subarray(0, 15), bytes.subarray(15)]);
    expect(out.map((b) => [b.kind, b.speaker, b.turn, b.utterance])).toEqual([
      ['paragraph', 'Ana', 0, 'Bonjour 😀'],
      ['paragraph', 'Ben', 1, 'Salut'],
    ]);
    for (const b of out) expect(text.slice(b.start, b.end)).toBe(b.text);
  });

  it('drops a BOM as parseTranscript does: the same blocks from a string and from the stream', async () => {
    const text = '\ufeffAna: Shall we start?\r\nBen: Yes.\r\n';
    const streamed = await blocks([Buffer.from(text)]);
    expect(streamed.map((b) => [b.speaker, b.utterance, b.start])).toEqual([['Ana', 'Shall we start?', 0], ['Ben', 'Yes.', 22]]);
    expect(parseTranscript(text)).toEqual(streamed);
  });

  it('reads JSONL', async () => {
    const out = await blocks(['{"speaker":"a","text":"x"}\n', '{"speaker":"b","text":"y"}']);
    expect(out.map((b) => [b.speaker, b.utterance, b.startLine])).toEqual([['a', 'x', 1], ['b', 'y', 2]]);
  });

  it('fails with ERR_TRANSCRIPT_INVALID on a bad record', async () => {
    await expect(blocks(['{"speaker":"a"}\n'])).rejects.toMatchObject({ code: 'ERR_TRANSCRIPT_INVALID', line: 1 });
  });

  it('fails with ERR_INVALID_UTF8 on bad bytes when fatal', async () => {
    await expect(blocks([Buffer.from([0x41, 0x3a, 0x20, 0xff])], { fatal: true })).rejects.toMatchObject({ code: 'ERR_INVALID_UTF8' });
  });
});
