import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { Core, StageCore } from '../../src/core.js';
import { ChunkError } from '../../src/errors.js';
import { toTransform } from '../../src/stream/to-transform.js';

/** A core that makes `perWrite` outputs for every input (`input:k`), counting its writes. */
function fanOut(perWrite: number): Core<string, string> & { writes: number } {
  const core = {
    writes: 0,
    write(item: string): string[] {
      core.writes++;
      return Array.from({ length: perWrite }, (_, k) => `${item}:${k}`);
    },
    end: (): string[] => ['end'],
  };
  return core;
}

async function collect(stream: NodeJS.ReadableStream): Promise<string[]> {
  const out: string[] = [];
  for await (const item of stream) out.push(item as string);
  return out;
}

describe('toTransform', () => {
  it('holds a write whose outputs filled the readable side until they are read, then hands on every output in order', async () => {
    const core = fanOut(40);
    const stream = toTransform(core);
    for (const item of ['a', 'b', 'c']) stream.write(item);
    await nextTurn();
    // 40 outputs fill the readable side (16 objects): the writes after the first wait for a reader.
    expect(core.writes).toBe(1);
    stream.end();
    const out = await collect(stream);
    expect(core.writes).toBe(3);
    expect(out).toEqual([...['a', 'b', 'c'].flatMap((i) => Array.from({ length: 40 }, (_, k) => `${i}:${k}`)), 'end']);
  });

  it('goes on writing while the outputs fit in the readable side', async () => {
    const core = fanOut(2);
    const stream = toTransform(core);
    for (const item of ['a', 'b', 'c']) stream.write(item);
    await nextTurn();
    expect(core.writes).toBe(3);
    stream.end();
    expect(await collect(stream)).toEqual(['a:0', 'a:1', 'b:0', 'b:1', 'c:0', 'c:1', 'end']);
  });

  it('hands on outputs that come later, then takes the next write', async () => {
    const core: StageCore<string, string> = {
      write: (item) =>
        (async function* later() {
          await nextTurn();
          yield `${item}!`;
          yield `${item}?`;
        })(),
      end: () => [],
    };
    const out = await collect(Readable.from(['a', 'b']).pipe(toTransform(core)));
    expect(out).toEqual(['a!', 'a?', 'b!', 'b?']);
  });

  it('ends the stream with a ChunkError when the core throws', async () => {
    const core: Core<string, string> = {
      write: () => {
        throw new Error('broken');
      },
      end: () => [],
    };
    const run = pipeline(Readable.from(['a']), toTransform(core), async (source: AsyncIterable<unknown>) => {
      for await (const _ of source) void _;
    });
    await expect(run).rejects.toBeInstanceOf(ChunkError);
    await expect(run).rejects.toThrow('broken');
  });
});
