import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { chunkFiles, type ChunkFileOutcome } from '../../src/api/files.js';
import { collect } from '../../src/sinks/collect.js';
import { tempDir } from '../support/temp-dir.js';

let dir: string;
beforeAll(() => {
  dir = tempDir('files');
  writeFileSync(join(dir, 'a.md'), '# A\n\nAlpha text.\n\n## A2\n\nMore alpha text.\n');
  writeFileSync(join(dir, 'b.md'), '# B\n\nBeta text.\n');
  writeFileSync(join(dir, 'bad.md'), Buffer.from([0x23, 0x20, 0xff, 0x0a]));
});

describe('chunkFiles', () => {
  it('yields one outcome per path, in order, going on past failures', async () => {
    const paths = [join(dir, 'a.md'), join(dir, 'missing.md'), join(dir, 'bad.md'), join(dir, 'b.md')];
    const out: ChunkFileOutcome[] = await collect(chunkFiles(paths, { fatal: true }));
    expect(out.map((r) => r.path)).toEqual(paths);
    const [a, missing, bad, b] = out;
    expect('chunks' in a! && a.chunks.length).toBeGreaterThan(0);
    expect('error' in missing! && missing.error.code).toBe('ERR_READ');
    expect('error' in bad! && bad.error.code).toBe('ERR_INVALID_UTF8');
    expect('chunks' in b! && b.statistics.chunks).toBe('chunks' in b! ? b.chunks.length : -1);
  });

  it('sets documentId and origin to each path, so ids are unique across files', async () => {
    const out = await collect(chunkFiles([join(dir, 'a.md'), join(dir, 'b.md')]));
    const chunks = out.flatMap((r) => ('chunks' in r ? r.chunks : []));
    expect(chunks.every((c) => c.documentId === c.origin && c.id.startsWith(c.origin + '#'))).toBe(true);
    expect(new Set(chunks.map((c) => c.id)).size).toBe(chunks.length);
  });

  it('takes an async iterable of paths', async () => {
    async function* paths() {
      yield join(dir, 'b.md');
    }
    const out = await collect(chunkFiles(paths()));
    expect(out.map((r) => r.path)).toEqual([join(dir, 'b.md')]);
  });

  it('stops with an AbortError when its signal aborts', async () => {
    const controller = new AbortController();
    const seen: string[] = [];
    const run = async () => {
      for await (const r of chunkFiles([join(dir, 'a.md'), join(dir, 'b.md')], { signal: controller.signal })) {
        seen.push(r.path);
        controller.abort();
      }
    };
    await expect(run()).rejects.toMatchObject({ name: 'AbortError' });
    expect(seen).toEqual([join(dir, 'a.md')]);
  });
});
