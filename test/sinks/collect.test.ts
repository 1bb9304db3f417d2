import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { describe, expect, it } from 'vitest';
import { collect } from '../../src/sinks/collect.js';

describe('collect', () => {
  it('gathers a stream, an async iterable or an iterable into an array', async () => {
    expect(await collect(Readable.from([1, 2, 3]))).toEqual([1, 2, 3]);
    expect(await collect((async function* () { yield 'a'; yield 'b'; })())).toEqual(['a', 'b']);
    expect(await collect(new Set([4, 5]))).toEqual([4, 5]);
  });

  it('is the last stage of pipeline(), which resolves with the array', async () => {
    const out = await pipeline(Readable.from([{ n: 1 }, { n: 2 }]), collect);
    expect(out).toEqual([{ n: 1 }, { n: 2 }]);
  });

  it('fails with ERR_BUFFER_OVERFLOW past maxItems', async () => {
    await expect(collect([1, 2, 3], { maxItems: 2 })).rejects.toMatchObject({ code: 'ERR_BUFFER_OVERFLOW', message: 'collect() holds at most maxItems (2) items' });
    expect(await collect([1, 2], { maxItems: 2 })).toEqual([1, 2]);
  });

  it('rejects with an AbortError when its signal aborts', async () => {
    const controller = new AbortController();
    async function* slow() {
      yield 1;
      controller.abort();
      yield 2;
    }
    await expect(collect(slow(), { signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
  });
});
