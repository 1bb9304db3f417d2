/**
 * The library on a real Redis (started here on a free loopback port): enqueue, workers, status, retries, inline
 * documents, handing jobs back. Each test uses its own queue name.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChunkWorker, enqueueFiles, getQueueStatus, type ChunkWorker } from '../../../src/integrations/queue/index.js';
import { outDirPath } from '../../../src/files/output.js';
import { BIN, ensureBuilt, ROOT } from '../../cli/support.js';
import { guidePdf } from '../../support/pdf-samples.js';
import { RUN_REDIS_TESTS, startRedis, type RedisServer } from '../../support/redis-server.js';

let redis: RedisServer;
let dir: string;
let queues = 0;
const workers: ChunkWorker[] = [];

/** A Markdown document of `sections` sections. */
function markdown(title: string, sections: number): string {
  const out = [`# ${title}\n`];
  for (let i = 0; i < sections; i++) out.push(`## Part ${i}\n`, `Paragraph ${i} of ${title}. ${'Words flow on and on. '.repeat(8 + (i % 5))}\n`);
  return out.join('\n');
}

/** Every file under `root`, relative, sorted, with its content. */
function tree(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string): void => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out[relative(root, p)] = readFileSync(p, 'utf8');
    }
  };
  walk(root);
  return out;
}

function worker(queue: string, outDir: string, extra: Record<string, unknown> = {}): ChunkWorker {
  const w = createChunkWorker({ redis: redis.url, queue, outDir, workerId: `test-${workers.length}`, inputRoots: [dir, ROOT], ...extra });
  workers.push(w);
  return w;
}

describe.skipIf(!RUN_REDIS_TESTS)('chunkstream/queue on a real Redis', () => {
  beforeAll(async () => {
    ensureBuilt();
    redis = await startRedis();
    dir = mkdtempSync(join(tmpdir(), 'chunkstream-queue-'));
  });

  afterAll(async () => {
    for (const w of workers) await w.close().catch(() => {});
    await redis?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const nextQueue = (): string => `q${++queues}`;

  it('chunks a folder through the queue into the same files as chunkstream --out-dir, and reports the broken PDF', async () => {
    const queue = nextQueue();
    const folder = join(dir, 'docs');
    mkdirSync(join(folder, 'sub'), { recursive: true });
    writeFileSync(join(folder, 'a.md'), markdown('Alpha', 12));
    writeFileSync(join(folder, 'sub/b.md'), markdown('Beta', 3));
    writeFileSync(join(folder, 'c.pdf'), guidePdf());
    writeFileSync(join(folder, 'broken.pdf'), Buffer.from(guidePdf()).subarray(0, 700));
    writeFileSync(join(folder, 'notes.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0]));

    const added = await enqueueFiles([folder, join(dir, 'nope.md')], { redis: redis.url, queue, chunkOptions: { maxSize: 128 } });
    expect(added.jobs.map((j) => relative(folder, j.source))).toEqual(['a.md', 'broken.pdf', 'c.pdf', 'sub/b.md']);
    expect(added.jobs.every((j) => !j.inline)).toBe(true);
    expect(added.skipped.map((s) => relative(folder, s.source))).toEqual(['notes.png']);
    expect(added.missing.map((m) => m.code)).toEqual(['ERR_READ']);
    expect(await getQueueStatus({ redis: redis.url, queue })).toMatchObject({ counts: { waiting: 4, active: 0, completed: 0, failed: 0 }, done: false });

    const out = join(dir, 'out-1');
    const w = worker(queue, out);
    await w.untilQueueDone(100);
    await w.close();
    expect(w.figures()).toMatchObject({ completed: 3, failed: 1, retried: 0, handedBack: 0 });

    const status = await getQueueStatus({ redis: redis.url, queue });
    expect(status.counts).toEqual({ waiting: 0, active: 0, delayed: 0, completed: 3, failed: 1 });
    expect(status.done).toBe(true);
    expect(status.failed).toEqual([{ id: expect.any(String), source: join(folder, 'broken.pdf'), code: 'ERR_PDF_INVALID', message: expect.any(String), attemptsMade: 1 }]);

    // The command line, run from the same folder with the same options, names and fills the same files.
    const cli = join(dir, 'cli-1');
    spawnSync(process.execPath, [BIN, '-q', '--jobs', '1', '--max-size', '128', '--out-dir', cli, folder], { cwd: ROOT });
    const expected = tree(cli);
    expect(Object.keys(expected)).toHaveLength(3);
    expect(tree(out)).toEqual(expected);
  });

  it('retries a file that could not be read, as many times as the job allows, then fails it with ERR_READ', async () => {
    const queue = nextQueue();
    const file = join(dir, 'vanishing.md');
    writeFileSync(file, markdown('Gone', 2));
    await enqueueFiles([file], { redis: redis.url, queue, attempts: 2, backoff: 10 });
    unlinkSync(file);
    const w = worker(queue, join(dir, 'out-2'));
    await w.untilQueueDone(100);
    await w.close();
    expect(w.figures()).toMatchObject({ completed: 0, failed: 1, retried: 1 });
    const status = await getQueueStatus({ redis: redis.url, queue });
    expect(status.failed).toEqual([expect.objectContaining({ source: file, code: 'ERR_READ', attemptsMade: 2 })]);
  });

  it('carries small files and given documents inside their jobs, so workers need not see the files', async () => {
    const queue = nextQueue();
    const file = join(dir, 'small.md');
    writeFileSync(file, markdown('Small', 4));
    const expected = spawnSync(process.execPath, [BIN, '-q', file], { cwd: ROOT, encoding: 'utf8' }).stdout;
    const memo = '# Memo\n\nA short note, handed over as data.\n';
    const added = await enqueueFiles([file, { source: 'memo.md', content: memo }], { redis: redis.url, queue, inlineBelow: 1 << 20 });
    expect(added.jobs.map((j) => [j.output, j.inline])).toEqual([[outDirPath('', file), true], ['memo.md.jsonl', true]]);
    unlinkSync(file);
    const out = join(dir, 'out-3');
    const w = worker(queue, out);
    await w.untilQueueDone(100);
    await w.close();
    expect(readFileSync(join(out, added.jobs[0]!.output), 'utf8')).toBe(expected);
    const lines = readFileSync(join(out, 'memo.md.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.source, l.documentId, l.text])).toEqual([['memo.md', 'memo.md', memo.trim()]]);
  });

  it('hands a job in progress back to the queue when stopped, and another worker finishes it', async () => {
    const queue = nextQueue();
    const big = join(dir, 'big.md');
    writeFileSync(big, markdown('Big', 6000));
    await enqueueFiles([big], { redis: redis.url, queue });
    const out = join(dir, 'out-4');
    const first = worker(queue, out);
    await new Promise<void>((resolve) => first.worker.once('active', () => resolve()));
    await first.close({ handBack: true });
    expect(first.figures()).toMatchObject({ completed: 0, failed: 0, handedBack: 1 });
    expect(await getQueueStatus({ redis: redis.url, queue })).toMatchObject({ counts: { waiting: 1, active: 0, completed: 0, failed: 0 } });
    expect(readdirSync(out, { recursive: true }).filter((n) => String(n).endsWith('.jsonl'))).toEqual([]);

    const second = worker(queue, out);
    await second.untilQueueDone(100);
    await second.close();
    expect(second.figures()).toMatchObject({ completed: 1, failed: 0 });
    expect((await getQueueStatus({ redis: redis.url, queue })).counts).toMatchObject({ completed: 1, failed: 0, waiting: 0, active: 0 });
  });

  it('refuses jobs naming files outside the input roots at once, each with its code, and still runs inline jobs without roots', async () => {
    const queue = nextQueue();
    const root = join(dir, 'roots');
    mkdirSync(root);
    writeFileSync(join(root, 'ok.md'), markdown('Inside', 2));
    symlinkSync('/etc/passwd', join(root, 'passwd.md'));
    // What anyone who can write to the queue may add: job data of their own, with retries to spend.
    const raw = new Queue(queue, { connection: { url: redis.url } });
    const data = (source: string, extra: object) => ({ version: 1, source, output: `${source}.jsonl`, format: 'markdown', chunkOptions: {}, parseOptions: {}, ...extra });
    await raw.addBulk(
      [
        data('passwd', { path: '/etc/passwd' }),
        data('link', { path: join(root, 'passwd.md') }),
        data('dots', { path: `${root}/../../../etc/passwd` }),
        data('ok', { path: join(root, 'ok.md') }),
      ].map((d) => ({ name: 'chunk', data: d, opts: { attempts: 3, backoff: { type: 'fixed', delay: 10 } } })),
    );
    await raw.close();
    const out = join(dir, 'out-roots');
    const confined = worker(queue, out, { inputRoots: [root] });
    expect((await confined.ready()).warnings.map((w) => w.code)).toEqual(['REDIS_NO_AOF']);
    await confined.untilQueueDone(100);
    await confined.close();
    const status = await getQueueStatus({ redis: redis.url, queue });
    expect(status.counts).toMatchObject({ completed: 1, failed: 3, waiting: 0, active: 0, delayed: 0 });
    const realRoot = realpathSync(root);
    expect(status.failed.map((f) => [f.source, f.code, f.attemptsMade, f.message]).sort()).toEqual([
      ['dots', 'ERR_INVALID_INPUT', 1, `Invalid job data: path must not contain '..' steps, got ${JSON.stringify(`${root}/../../../etc/passwd`)}`],
      ['link', 'ERR_INPUT_OUTSIDE_ROOTS', 1, `Refused to read ${join(root, 'passwd.md')} (it resolves to /etc/passwd): it is outside this worker's input roots (${realRoot})`],
      ['passwd', 'ERR_INPUT_OUTSIDE_ROOTS', 1, `Refused to read /etc/passwd: it is outside this worker's input roots (${realRoot})`],
    ]);
    expect(readdirSync(out)).toEqual(['ok.jsonl']);

    // A worker without roots: inline documents only, and it says so when it starts.
    const inlineQueue = nextQueue();
    const added = await enqueueFiles([{ source: 'memo.md', content: '# Memo\n\nCarried in the job.\n' }, join(root, 'ok.md')], { redis: redis.url, queue: inlineQueue });
    expect(added.outsideRoots.map((j) => j.source)).toEqual([join(root, 'ok.md')]);
    const plain = createChunkWorker({ redis: redis.url, queue: inlineQueue, outDir: join(dir, 'out-inline') });
    workers.push(plain);
    expect(await plain.ready()).toMatchObject({ inputRoots: [], warnings: [{ code: 'INLINE_ONLY' }, { code: 'REDIS_NO_AOF' }] });
    await plain.untilQueueDone(100);
    await plain.close();
    expect(plain.figures()).toMatchObject({ completed: 1, failed: 1, retried: 0 });
    expect((await getQueueStatus({ redis: redis.url, queue: inlineQueue })).failed).toEqual([expect.objectContaining({ source: join(root, 'ok.md'), code: 'ERR_INPUT_OUTSIDE_ROOTS', attemptsMade: 1 })]);
  });

  it('says when Redis cannot be reached, with ERR_QUEUE_UNAVAILABLE, instead of waiting for it', async () => {
    const closed = 'redis://127.0.0.1:1';
    await expect(getQueueStatus({ redis: closed })).rejects.toMatchObject({ code: 'ERR_QUEUE_UNAVAILABLE', message: expect.stringContaining('redis://127.0.0.1:1') });
    await expect(enqueueFiles([join(ROOT, 'samples/guide.md')], { redis: closed })).rejects.toMatchObject({ code: 'ERR_QUEUE_UNAVAILABLE' });
  });
});
