import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { describe, expect, it } from 'vitest';
import { toJsonl } from '../../src/sinks/to-jsonl.js';
import { sampleChunks } from './fixtures.js';

async function run(stream: ReturnType<typeof toJsonl>, items: unknown[]): Promise<string> {
  let text = '';
  await pipeline(
    Readable.from(items),
    stream,
    new Writable({
      write(piece: Buffer, _e, cb) {
        text += piece.toString('utf8');
        cb();
      },
    }),
  );
  return text;
}

describe('toJsonl', () => {
  it('writes one JSON object per line, each ending with a newline', async () => {
    const chunks = sampleChunks();
    const text = await run(toJsonl(), chunks);
    expect(text.endsWith('\n')).toBe(true);
    const parsed = text.trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(parsed).toEqual(JSON.parse(JSON.stringify(chunks)));
  });

  it('keeps a newline inside a field on its own line', async () => {
    const text = await run(toJsonl(), [{ text: 'a\nb' }]);
    expect(text).toBe('{"text":"a\\nb"}\n');
  });

  it('maps each item before writing it', async () => {
    const chunks = sampleChunks();
    const text = await run(toJsonl<{ id: string }>({ map: (c) => ({ id: c.id, source: 'x' }) }), chunks);
    expect(text.split('\n')[0]).toBe(`{"id":"${chunks[0]!.id}","source":"x"}`);
  });

  it('writes nothing for no input', async () => {
    expect(await run(toJsonl(), [])).toBe('');
  });

  it('ends with an AbortError when its signal aborts', async () => {
    const controller = new AbortController();
    const stream = toJsonl({ signal: controller.signal });
    controller.abort();
    await expect(run(stream, sampleChunks())).rejects.toMatchObject({ name: 'AbortError' });
  });
});
