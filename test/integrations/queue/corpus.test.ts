/**
 * The corpus through the queue: its Markdown folder, two of its PDFs and a broken PDF made here, enqueued and run
 * by a worker, must give the output folder `chunkstream --out-dir` writes for the same inputs, file for file and
 * byte for byte, and fail what fails there, with the same codes. The faults (workers killed, Redis restarted) are
 * the soak's, on generated documents (soak.test.ts); here the documents are real and no one wrote them for us.
 * The largest PDFs are left out: they would double the time and test pdf.js rather than the queue.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createChunkWorker, enqueueFiles, getQueueStatus } from '../../../src/integrations/queue/index.js';
import { BIN, ensureBuilt, ROOT } from '../../cli/support.js';
import { corpusPath, describeCorpus } from '../../support/corpus.js';
import { guidePdf } from '../../support/pdf-samples.js';
import { RUN_REDIS_TESTS, startRedis, type RedisServer } from '../../support/redis-server.js';
import { filesUnder } from './worker-processes.js';

describeCorpus('queue: the corpus through a worker', () => {
  let redis: RedisServer;
  let dir: string;

  beforeAll(async () => {
    if (!RUN_REDIS_TESTS) return;
    ensureBuilt();
    redis = await startRedis();
    dir = mkdtempSync(join(tmpdir(), 'chunkstream-queue-corpus-'));
  });

  afterAll(async () => {
    await redis?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it.skipIf(!RUN_REDIS_TESTS)('writes the files chunkstream --out-dir writes, and fails what fails there with the same codes', async () => {
    const broken = join(dir, 'broken.pdf');
    writeFileSync(broken, Buffer.from(guidePdf()).subarray(0, 900));
    const pdfs = ['multi_page.pdf', 'pdkids.pdf'].map((name) => corpusPath('pdf', name)).filter((p) => existsSync(p));
    const inputs = [corpusPath('md'), ...pdfs, broken];
    const chunkOptions = { maxSize: 512 };

    const added = await enqueueFiles(inputs, { redis: redis.url, queue: 'corpus', chunkOptions, inputRoots: [dir, corpusPath()] });
    expect(added.outsideRoots).toEqual([]);
    const out = join(dir, 'out');
    const worker = createChunkWorker({ redis: redis.url, queue: 'corpus', outDir: out, inputRoots: [dir, corpusPath()] });
    await worker.untilQueueDone(100);
    await worker.close();

    const reference = join(dir, 'reference');
    mkdirSync(reference);
    const stats = join(dir, 'reference-stats.json');
    spawnSync(process.execPath, [BIN, '-q', '--jobs', '2', '--max-size', '512', '--out-dir', reference, '--stats-json', stats, ...inputs], { cwd: ROOT });
    const referenceFailures = (JSON.parse(readFileSync(stats, 'utf8')).files as { source: string; error?: { code: string } }[])
      .filter((f) => f.error !== undefined)
      .map((f) => [f.source, f.error!.code])
      .sort();
    expect(referenceFailures).toContainEqual([broken, 'ERR_PDF_INVALID']);

    const status = await getQueueStatus({ redis: redis.url, queue: 'corpus', jobs: added.jobs });
    expect(status).toMatchObject({ done: true, vanished: [], counts: { failed: referenceFailures.length, completed: added.jobs.length - referenceFailures.length } });
    expect(status.failed.map((f) => [f.source, f.code]).sort()).toEqual(referenceFailures);
    const names = filesUnder(reference);
    expect(names.length).toBeGreaterThan(pdfs.length);
    expect(filesUnder(out)).toEqual(names);
    for (const name of names) expect(readFileSync(join(out, name), 'utf8'), name).toBe(readFileSync(join(reference, name), 'utf8'));
  });
});
