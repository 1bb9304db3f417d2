/**
 * A worker cut off from Redis for longer than its lock, in this process: its connection goes through a TCP proxy
 * that stops every byte (sockets open, as across a network partition). Another worker takes the job over when the
 * lock lapses and writes its output; when the first one is heard again, its late result is discarded rather than
 * written over the second's.
 *
 * The job names a link inside the input root. The first worker finds a named pipe behind it and reads slowly (the
 * test feeds the pipe); while it is cut off, the link is turned to a plain file, which the second worker reads and
 * chunks to the end. Only then is the first worker's pipe finished, so its result comes late: with no fence it
 * would be renamed over the second's output.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Job } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chunkText } from '../../../src/api/chunk.js';
import { chunkLine } from '../../../src/files/process-file.js';
import { outDirPath } from '../../../src/files/output.js';
import { createChunkWorker, enqueueFiles, getQueueStatus, type ChunkWorker } from '../../../src/integrations/queue/index.js';
import { RUN_REDIS_TESTS, startRedis, type RedisServer } from '../../support/redis-server.js';
import { startTcpProxy, type TcpProxy } from './tcp-proxy.js';

let redis: RedisServer;
let proxy: TcpProxy;
let dir: string;
const workers: ChunkWorker[] = [];

/** Resolves with the first `event` of `w` whose job is `id` (any job when undefined). */
function next(w: ChunkWorker, event: 'active' | 'completed', id?: string): Promise<Job> {
  return new Promise((resolve) => {
    const on = (job: Job): void => {
      if (id !== undefined && job.id !== id) return;
      w.worker.off(event, on);
      resolve(job);
    };
    w.worker.on(event, on);
  });
}

describe.skipIf(!RUN_REDIS_TESTS)('a worker cut off from Redis for longer than its lock', () => {
  beforeAll(async () => {
    redis = await startRedis();
    proxy = await startTcpProxy(redis.port);
    dir = mkdtempSync(join(tmpdir(), 'chunkstream-stall-'));
  });

  afterAll(async () => {
    proxy?.resume();
    for (const w of workers) await w.close().catch(() => {});
    await proxy?.close();
    await redis?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('loses the job to another worker, and its late result is discarded, not written over the other one', async () => {
    const root = join(dir, 'in');
    mkdirSync(root);
    const [fifo, file, link] = [join(root, 'slow.fifo'), join(root, 'later.md'), join(root, 'held.md')];
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    symlinkSync(fifo, link);
    const out = join(dir, 'out');
    const settings = { queue: 'stall', outDir: out, inputRoots: [root], lockDuration: 1000, stalledInterval: 300 };
    const { jobs } = await enqueueFiles([link], { redis: redis.url, queue: 'stall' });
    const id = jobs[0]?.id as string;

    const cut = createChunkWorker({ ...settings, redis: `redis://127.0.0.1:${proxy.port}`, workerId: 'cut-off' });
    workers.push(cut);
    await next(cut, 'active', id);
    // The pipe opens for writing once the worker has opened it for reading: it is inside the job.
    const pipe = await open(fifo, 'w');
    await pipe.write('# Held\n\nWhat the worker that was cut off read, ');
    proxy.pause();
    rmSync(link);
    const second = '# Held\n\nWhat the worker that took the job over read.\n';
    writeFileSync(file, second);
    symlinkSync(file, link);

    const other = createChunkWorker({ ...settings, redis: redis.url, workerId: 'other' });
    workers.push(other);
    const stalled = new Promise<string>((resolve) => other.worker.once('stalled', resolve));
    await next(other, 'completed', id);
    expect(await stalled).toBe(id);
    const target = join(out, outDirPath('', link));
    const expected = chunkText(second, { documentId: link, origin: link }).chunks.map((c) => chunkLine(c, link)).join('');
    expect(readFileSync(target, 'utf8')).toBe(expected);

    // The first worker reads to the end now, chunks, and would rename its file over the other one's.
    await pipe.write('slowly, and too late.\n');
    await pipe.close();
    proxy.resume();
    await cut.close();
    expect(readFileSync(target, 'utf8')).toBe(expected);
    expect(readdirSync(join(target, '..'))).toEqual(['held.md.jsonl']);
    expect(cut.figures()).toMatchObject({ completed: 0, failed: 0 });
    expect(other.figures()).toMatchObject({ completed: 1, failed: 0 });
    const status = await getQueueStatus({ redis: redis.url, queue: 'stall' });
    expect(status.counts).toEqual({ waiting: 0, active: 0, delayed: 0, completed: 1, failed: 0 });
  });
});
