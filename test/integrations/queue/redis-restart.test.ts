/**
 * Redis going away under running workers (in this process: no node start-up per worker). With an append-only file,
 * a restart mid-run loses no job and doubles none; without persistence, Redis comes back empty and the workers say
 * the queue was lost (ERR_QUEUE_LOST) instead of calling it done, and the status names the jobs that vanished. A
 * worker says at start which Redis settings can lose jobs.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chunkText } from '../../../src/api/chunk.js';
import { chunkLine } from '../../../src/files/process-file.js';
import { createChunkWorker, enqueueFiles, getQueueStatus, type ChunkWorker, type InlineDocument } from '../../../src/integrations/queue/index.js';
import { parseInfo, settingsWarnings } from '../../../src/integrations/queue/redis-check.js';
import { RUN_REDIS_TESTS, startRedis, type RedisServer } from '../../support/redis-server.js';

let dir: string;
const workers: ChunkWorker[] = [];
const servers: RedisServer[] = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'chunkstream-restart-'));
});

afterAll(async () => {
  for (const w of workers) await w.close().catch(() => {});
  for (const s of servers) await s.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** `n` small documents, each its own job, carried inline (so the test needs no shared files). */
function documents(n: number): InlineDocument[] {
  return Array.from({ length: n }, (_, i) => ({ source: `note-${String(i).padStart(4, '0')}.md`, content: `# Note ${i}\n\nA short note, number ${i}, ${'of a few words '.repeat(1 + (i % 7))}.\n` }));
}

/** What `chunkstream FILE` writes for a document (the processor test holds the two equal). */
function expected(doc: InlineDocument): string {
  const text = doc.content as string;
  return chunkText(text, { documentId: doc.source, origin: doc.source }).chunks.map((c) => chunkLine(c, doc.source)).join('');
}

async function server(options: Parameters<typeof startRedis>[0] = {}): Promise<RedisServer> {
  const s = await startRedis(options);
  servers.push(s);
  return s;
}

function worker(redis: RedisServer, queue: string, outDir: string, name: string): ChunkWorker {
  const w = createChunkWorker({ redis: redis.url, queue, outDir, workerId: name, lockDuration: 5000, stalledInterval: 1000 });
  workers.push(w);
  return w;
}

/** Resolves once the workers have completed `n` jobs between them. */
async function completedAtLeast(ws: readonly ChunkWorker[], n: number): Promise<void> {
  while (ws.reduce((a, w) => a + w.figures().completed, 0) < n) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('Redis settings', () => {
  it('are read from INFO, and only those that lose jobs are warned about', () => {
    const info = (policy: string, aof: number) => `# Server\r\nredis_version:7.0.15\r\n# Memory\r\nmaxmemory_policy:${policy}\r\n# Persistence\r\naof_enabled:${aof}\r\n`;
    expect(parseInfo(info('noeviction', 1))).toEqual({ version: '7.0.15', maxmemoryPolicy: 'noeviction', aofEnabled: true });
    expect(settingsWarnings(parseInfo(info('noeviction', 1)))).toEqual([]);
    expect(settingsWarnings(parseInfo(info('allkeys-lru', 0))).map((w) => w.code)).toEqual(['REDIS_EVICTION', 'REDIS_NO_AOF']);
    expect(settingsWarnings(parseInfo(info('volatile-ttl', 1)))[0]?.message).toMatch(/^Redis evicts keys when its memory is full \(maxmemory-policy volatile-ttl\): an evicted job is a lost job\. Set maxmemory-policy noeviction$/);
    // A server that hides these fields is not warned about what it did not say.
    expect(settingsWarnings(parseInfo('# Server\r\nredis_version:7.2.0\r\n'))).toEqual([]);
  });
});

describe.skipIf(!RUN_REDIS_TESTS)('workers on a Redis that restarts', () => {
  it('warn at start about eviction and a missing append-only file, and not on a server set as the queue needs', async () => {
    const plain = await server({ maxmemoryPolicy: 'allkeys-lru' });
    const careless = worker(plain, 'settings', join(dir, 'settings'), 'w-settings');
    const found = await careless.ready();
    expect(found.redis).toMatchObject({ maxmemoryPolicy: 'allkeys-lru', aofEnabled: false });
    expect(found.warnings.map((w) => w.code)).toEqual(['INLINE_ONLY', 'REDIS_EVICTION', 'REDIS_NO_AOF']);
    await careless.close();
    const safe = await server({ appendonly: 'everysec' });
    const careful = createChunkWorker({ redis: safe.url, queue: 'settings', outDir: join(dir, 'settings'), inputRoots: [dir] });
    workers.push(careful);
    expect((await careful.ready()).warnings).toEqual([]);
    await careful.close();
  });

  it('with an append-only file, lose no job and double none when Redis restarts mid-run', async () => {
    const redis = await server({ appendonly: 'everysec' });
    const docs = documents(160);
    const added = await enqueueFiles(docs, { redis: redis.url, queue: 'aof' });
    const out = join(dir, 'aof');
    const ws = [worker(redis, 'aof', out, 'w-aof-1'), worker(redis, 'aof', out, 'w-aof-2')];
    const completions: string[] = [];
    for (const w of ws) w.worker.on('completed', (job) => completions.push(job.id as string));
    await completedAtLeast(ws, docs.length / 4);
    await redis.restart({ downMs: 300 });
    await Promise.all(ws.map((w) => w.untilQueueDone(100)));
    const status = await getQueueStatus({ redis: redis.url, queue: 'aof', jobs: added.jobs });
    expect(status.counts).toEqual({ waiting: 0, active: 0, delayed: 0, completed: docs.length, failed: 0 });
    expect(status.vanished).toEqual([]);
    expect(status.record).toEqual({ epoch: added.epoch, enqueued: docs.length });
    // No job completed twice (a completion whose reply the restart cut off is not reported again).
    expect(new Set(completions).size).toBe(completions.length);
    expect(readdirSync(out).sort()).toEqual(docs.map((d) => `${d.source}.jsonl`));
    for (const doc of docs) expect(readFileSync(join(out, `${doc.source}.jsonl`), 'utf8'), doc.source).toBe(expected(doc));
  });

  it('without persistence, say the queue was lost rather than done, and name the jobs that vanished', async () => {
    const redis = await server();
    const docs = documents(120);
    const added = await enqueueFiles(docs, { redis: redis.url, queue: 'lost' });
    const out = join(dir, 'lost');
    const w = worker(redis, 'lost', out, 'w-lost');
    await w.ready();
    await completedAtLeast([w], 10);
    await redis.restart();
    await expect(w.untilQueueDone(100)).rejects.toMatchObject({
      code: 'ERR_QUEUE_LOST',
      message: expect.stringMatching(new RegExp(`^Redis lost the jobs of queue lost: its record of ${docs.length} job\\(s\\) enqueued \\(epoch ${added.epoch}\\) is gone\\. `)),
    });
    await w.close();
    const status = await getQueueStatus({ redis: redis.url, queue: 'lost', jobs: added.jobs, outDir: out });
    expect(status).toMatchObject({ done: false, record: undefined, counts: { waiting: 0, active: 0, completed: 0 } });
    // Every job vanished from Redis, those done before the restart too; their outputs tell which need running again.
    expect(status.vanished.map((v) => v.id)).toEqual(added.jobs.map((j) => j.id));
    for (const v of status.vanished) expect(v.outputInPlace, v.source).toBe(existsSync(join(out, v.output)));
    expect(status.vanished.filter((v) => v.outputInPlace).length).toBeGreaterThanOrEqual(10);
    expect(status.vanished.filter((v) => !v.outputInPlace).length).toBeGreaterThan(0);
  });
});
