/**
 * The soak, bounded for CI: every fault of a deployment at once, on worker processes and a Redis with an
 * append-only file. A hundred small documents, larger ones, a typeset PDF, a broken PDF and a named pipe go through
 * two `chunkstream worker` processes; the worker holding the pipe is killed with SIGKILL (its read blocks until
 * someone writes, so it is certainly inside that job), Redis is restarted a quarter of the way through, and the
 * other worker is killed half way. Killed workers are replaced, as a service manager would.
 *
 * Then every input has exactly one output file, byte-identical to what `chunkstream --out-dir` writes for it, the
 * pipe's to what `chunkstream FILE` prints; the broken PDF failed once with its code and left no file; no job
 * completed twice; no temporary file is left; and the enqueue manifest finds no job Redis lost. The long version
 * (10,000 jobs, a kill every few seconds, two Redis restarts) is `bench/queue.ts --soak`.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outDirPath } from '../../../src/files/output.js';
import { getQueueStatus, parseManifest, type QueueStatus } from '../../../src/integrations/queue/index.js';
import { BIN, ensureBuilt, ROOT } from '../../cli/support.js';
import { guidePdf } from '../../support/pdf-samples.js';
import { RUN_REDIS_TESTS, startRedis, type RedisServer } from '../../support/redis-server.js';
import { chunkstreamAlone, events, filesUnder, started, startWorker, until, type WorkerProcess, type WorkerSettings } from './worker-processes.js';

let redis: RedisServer;
let dir: string;

/** Markdown of `sections` sections with lists, code and a table now and then. */
function markdown(title: string, sections: number): string {
  const out = [`# ${title}\n`];
  for (let i = 0; i < sections; i++) {
    out.push(`## Part ${i}\n`, `Paragraph ${i} of ${title}. ${'Words flow on and on, past the edge of a chunk. '.repeat(6 + (i % 9))}\n`);
    if (i % 4 === 0) out.push('- one item\n- another item\n  - nested\n');
    if (i % 7 === 0) out.push('```js\nconsole.log(' + i + ');\n```\n');
    if (i % 11 === 0) out.push('| a | b |\n| --- | --- |\n| 1 | 2 |\n');
  }
  return out.join('\n');
}

/** The inputs: small notes, larger documents, a PDF and a broken one; returns their paths. */
function writeInputs(folder: string): string[] {
  mkdirSync(folder);
  const files: string[] = [];
  for (let i = 0; i < 100; i++) {
    const path = join(folder, `note-${String(i).padStart(3, '0')}.md`);
    writeFileSync(path, `# Note ${i}\n\nA short note, number ${i}, ${'with a few words more '.repeat(i % 13)}.\n`);
    files.push(path);
  }
  for (let i = 0; i < 4; i++) {
    const path = join(folder, `doc-${i}.md`);
    writeFileSync(path, markdown(`Doc ${i}`, 40 + ((i * 97) % 200)));
    files.push(path);
  }
  writeFileSync(join(folder, 'guide.pdf'), guidePdf());
  writeFileSync(join(folder, 'broken.pdf'), Buffer.from(guidePdf()).subarray(0, 900));
  return [...files, join(folder, 'guide.pdf'), join(folder, 'broken.pdf')];
}

/** Jobs completed so far, over every worker's log. */
const completions = (workers: readonly WorkerProcess[]): string[] => workers.flatMap((w) => events(w, 'completed').map(([id]) => id));

describe.skipIf(!RUN_REDIS_TESTS)('soak: worker processes killed and Redis restarted mid-run', () => {
  beforeAll(async () => {
    ensureBuilt();
    redis = await startRedis({ appendonly: 'everysec' });
    dir = mkdtempSync(join(tmpdir(), 'chunkstream-soak-'));
  });

  afterAll(async () => {
    for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await redis?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes every output once, as chunkstream --out-dir does, whatever dies', async () => {
    const inputs = join(dir, 'in');
    const files = writeInputs(inputs);
    const fifo = join(inputs, 'held.md');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const fifoContent = markdown('Held', 30);
    const flags = ['--max-size', '256'];
    const manifest = join(dir, 'manifest.jsonl');
    const enqueue = spawnSync(process.execPath, [BIN, 'enqueue', '--redis', redis.url, '--queue', 'soak', '--input-root', inputs, '--manifest', manifest, ...flags, fifo, ...files], { cwd: ROOT, encoding: 'utf8' });
    expect(enqueue.stderr).not.toContain('warning');
    const enqueued = Number(enqueue.stdout.trim());
    expect(enqueued).toBe(files.length + 1);

    // A job may lose its worker more than once here (two kills); by default its second loss would fail it.
    const settings: WorkerSettings = { redis: redis.url, queue: 'soak', outDir: join(dir, 'out'), inputRoots: [inputs], lockMs: 3000, stalledMs: 500, maxStalled: 5 };
    const all: WorkerProcess[] = [];
    const spawnWorker = (name: string, concurrency = 1): WorkerProcess => {
      const w = startWorker(name, settings, concurrency);
      all.push(w);
      return w;
    };
    // The victim starts alone, so the first job, the pipe, is its; it stays inside it, blocked on the read, and takes
    // no other (one job at a time): the other worker does the rest whatever the two processes' speeds.
    const victim = spawnWorker('victim');
    await until(() => events(victim, 'active').some(([, source]) => source === fifo), 30_000, 'the victim to take the pipe job', all);
    const fifoJob = (events(victim, 'active').find(([, source]) => source === fifo) as [string, string])[0];
    const second = spawnWorker('second');
    await until(() => completions([second]).length >= 10, 60_000, 'the second worker to work', all);
    victim.child.kill('SIGKILL');
    expect((await victim.exited).signal).toBe('SIGKILL');
    spawnWorker('third');
    // The faults come while most jobs still wait, and while the pipe job waits for its lock to lapse.
    await until(() => completions(all).length >= enqueued / 4, 60_000, 'a quarter of the jobs', all);
    await redis.restart({ downMs: 300 });
    await until(() => completions(all).length >= enqueued / 2, 60_000, 'half of the jobs', all);
    second.child.kill('SIGKILL');
    await second.exited;
    spawnWorker('fourth');
    // Only a worker that took the pipe job back can open the pipe; this write waits for the stalled-job recovery.
    await writeFile(fifo, fifoContent);

    let status: QueueStatus | undefined;
    const jobs = parseManifest(readFileSync(manifest, 'utf8'), 'soak');
    for (const deadline = Date.now() + 90_000; ; ) {
      status = await getQueueStatus({ redis: redis.url, queue: 'soak', jobs });
      expect(status.vanished).toEqual([]);
      if (status.done && status.counts.completed + status.counts.failed === enqueued) break;
      if (Date.now() > deadline) throw new Error(`queue not done: ${JSON.stringify(status.counts)}\n${all.map((w) => `--- ${w.name}\n${w.lines.join('\n')}\n${w.stderr}`).join('\n')}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    for (const w of all) if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill('SIGTERM');
    await Promise.all(all.map((w) => w.exited));

    // Nothing lost: every job ended; the broken PDF failed once, with its code; the manifest finds nothing vanished.
    expect(status.vanished).toEqual([]);
    expect(status.counts).toEqual({ waiting: 0, active: 0, delayed: 0, completed: enqueued - 1, failed: 1 });
    expect(status.failed).toEqual([expect.objectContaining({ source: join(inputs, 'broken.pdf'), code: 'ERR_PDF_INVALID', attemptsMade: 1 })]);
    // Nothing twice: no job completed twice over every worker's log, the killed ones' included.
    const done = completions(all);
    expect(new Set(done).size).toBe(done.length);
    // The pipe job came back through a surviving worker's stalled-job check.
    expect(all.flatMap((w) => events(w, 'stalled').map(([id]) => id))).toContain(fifoJob);

    // One output per input, and nothing else (no temporary file), with the bytes the command line writes.
    const reference = join(dir, 'reference');
    const run = spawnSync(process.execPath, [BIN, '-q', '--jobs', '1', ...flags, '--out-dir', reference, ...files], { cwd: ROOT });
    expect(run.status).toBe(1);
    const names = filesUnder(reference);
    expect(names).toHaveLength(files.length - 1);
    expect(filesUnder(settings.outDir)).toEqual([...names, outDirPath('', fifo)].sort());
    for (const name of names) expect(readFileSync(join(settings.outDir, name), 'utf8'), name).toBe(readFileSync(join(reference, name), 'utf8'));
    expect(readFileSync(join(settings.outDir, outDirPath('', fifo)), 'utf8')).toBe(await chunkstreamAlone(fifo, flags, fifoContent));
  });
});

