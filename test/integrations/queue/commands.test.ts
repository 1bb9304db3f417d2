
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outDirPath } from '../../../src/files/output.js';
import { parseEnqueueArgs } from '../../../src/cli/enqueue.js';
import { getQueueStatus } from '../../../src/integrations/queue/index.js';
import { ensureBuilt, runCli } from '../../cli/support.js';
import { RUN_REDIS_TESTS, startRedis, type RedisServer } from '../../support/redis-server.js';
import { started, startWorker, until, type WorkerSettings } from './worker-processes.js';

let dir: string;

beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'chunkstream-commands-'));
});

afterAll(() => {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

describe('queue commands: usage', () => {
  it('pass the main command\'s input and chunking flags on, and keep their own', () => {
    const args = parseEnqueueArgs(['--redis', 'redis://h:1', '--max-size', '300', '--inline-below=100', 'a.md', '--unit', 'chars', '--markers', '/\\n==/m', '--queue', 'docs']);
    expect(args).toEqual({
      inputs: ['a.md'],
      quiet: false,
      rootsGiven: false,
      options: { redis: 'redis://h:1', queue: 'docs', chunkOptions: { maxSize: 300, unit: 'chars', markers: [/\n==/m] }, parseOptions: {}, inlineBelow: 100 },
    });
    expect(parseEnqueueArgs(['--help'])).toBe('help');
  });

  it('print their help', async () => {
    for (const command of ['enqueue', 'worker', 'status']) {
      const run = await runCli([command, '--help']);
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(new RegExp(`^Usage: chunkstream ${command} `));
      expect(run.stdout).toContain('--redis URL');
    }
  });

  const cases: [string[], string][] = [
    [['enqueue', '--out', 'x.jsonl', 'a.md'], "chunkstream enqueue: ERR_INVALID_OPTION Unknown option '--out'"],
    [['enqueue', '--jobs', '2', 'a.md'], "chunkstream enqueue: ERR_INVALID_OPTION Unknown option '--jobs'"],
    [['enqueue', '--max-size=-3', 'a.md'], 'chunkstream enqueue: ERR_INVALID_OPTION Invalid option maxSize'],
    [['enqueue', '--redis', 'http://x', 'a.md'], 'chunkstream enqueue: ERR_INVALID_OPTION Invalid option redis: must be a redis:// or rediss:// URL, got "http://x"'],
    [['enqueue', '--attempts', 'many', 'a.md'], 'chunkstream enqueue: ERR_INVALID_OPTION Invalid option attempts: must be an integer between 1 and 100, got "many"'],
    [['enqueue'], 'chunkstream enqueue: ERR_INVALID_OPTION Invalid option inputs: at least one file'],
    [['worker'], 'chunkstream worker: ERR_INVALID_OPTION Invalid option outDir: must be a non-empty path, got undefined'],
    [['worker', '--out-dir', 'o', 'extra.md'], 'chunkstream worker: ERR_INVALID_OPTION Invalid option arguments: worker takes no file arguments, got ["extra.md"]'],
    [['worker', '--out-dir', 'o', '--lock-duration', '10'], 'chunkstream worker: ERR_INVALID_OPTION Invalid option lockDuration: must be an integer between 100 and 86400000, got 10'],
    [['worker', '--out-dir', 'o', '--max-size', '10'], "chunkstream worker: ERR_INVALID_OPTION Unknown option '--max-size'"],
    [['worker', '--out-dir', 'o', '--input-root', ''], 'chunkstream worker: ERR_INVALID_OPTION Invalid option inputRoots: must hold non-empty folder paths without NUL bytes, got ""'],
    [['status', '--queue', 'a:b'], 'chunkstream status: ERR_INVALID_OPTION Invalid option queue: must not contain ":", got "a:b"'],
    [['status', '--failed-limit=-1'], 'chunkstream status: ERR_INVALID_OPTION Invalid option failedLimit: must be an integer between 0 and 1000000, got -1'],
  ];
  for (const [args, message] of cases) {
    it(`rejects ${args.join(' ') || '(nothing)'} with exit 2`, async () => {
      const run = await runCli(args);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(message);
    });
  }
});

describe.skipIf(!RUN_REDIS_TESTS)('queue commands on a real Redis', () => {
  let redis: RedisServer;
  let queues = 0;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis?.stop();
  });

  /** A file big enough that a job on it is still running when a signal arrives. */
  function bigFile(name: string): string {
    const path = join(dir, name);
    writeFileSync(path, '# Big\n\n' + 'A sentence of words that go on and on. '.repeat(30).concat('\n\n').repeat(6000));
    return path;
  }

  function scenario(queue: string, outDir: string): WorkerSettings {
    return { redis: redis.url, queue, outDir, inputRoots: [dir], lockMs: 5000, stalledMs: 5000 };
  }

  it('enqueue prints the job count; status shows counts and failed files with their codes', async () => {
    const queue = `c${++queues}`;
    const good = join(dir, 'good.md');
    const broken = join(dir, 'broken.pdf');
    writeFileSync(good, '# Good\n\nSome text.\n');
    writeFileSync(broken, '%PDF-1.7\nnot really a PDF\n');
    const enqueue = await runCli(['enqueue', '--redis', redis.url, '--queue', queue, good, broken, join(dir, 'nope.md')]);
    expect(enqueue.code).toBe(1);
    expect(enqueue.stdout).toBe('2\n');
    expect(enqueue.stderr).toContain(`${join(dir, 'nope.md')}: ERR_READ`);
    expect(enqueue.stderr).toContain('chunkstream enqueue: 2 job(s) added');
    // No --input-root: a worker with the default settings would refuse both files, and enqueue says how to fix it.
    expect(enqueue.stderr).toContain(`chunkstream enqueue: warning: 2 job(s) name their file by path (${good}, ${broken}); a worker reads files only under its --input-root folders and refuses them without one (ERR_INPUT_OUTSIDE_ROOTS).\nchunkstream enqueue: start the workers with --input-root ${dir} (enqueue takes the same flag`);

    const waiting = await runCli(['status', '--redis', redis.url, '--queue', queue]);
    expect(waiting.code).toBe(0);
    expect(waiting.stdout).toBe(`queue ${queue} at ${redis.url}\nwaiting 2, active 0, delayed 0, completed 0, failed 0\n`);

    const out = join(dir, `out-${queue}`);
    const worker = await runCli(['worker', '--redis', redis.url, '--queue', queue, '--out-dir', out, '--input-root', dir, '--exit-when-drained', '--stats-json', join(dir, 'w.json')]);
    expect(worker.code).toBe(0);
    expect(worker.stderr).toContain(`reading files under ${realpathSync(dir)}, writing to ${out}`);
    // The test's Redis keeps nothing on disk: the worker says what that costs, and nothing about its inputs.
    expect(worker.stderr.match(/warning: .*/g)).toEqual(['warning: Redis writes no append-only file (appendonly no): a restart loses every job waiting or running, and workers then find the queue empty. Set appendonly yes (appendfsync everysec, or always to lose nothing to a crash)']);
    expect(worker.stdout).toMatch(/^completed \S+ .*good\.md: 1 chunks, \d+ ms$/m);
    expect(worker.stdout).toMatch(/^failed \S+ .*broken\.pdf: ERR_PDF_INVALID /m);
    const figures = JSON.parse(readFileSync(join(dir, 'w.json'), 'utf8'));
    expect(figures).toMatchObject({ completed: 1, failed: 1, retried: 0, handedBack: 0, chunks: 1 });
    expect(figures.peakRssBytes).toBeGreaterThan(0);
    expect(existsSync(join(out, outDirPath('', good)))).toBe(true);

    const done = await runCli(['status', '--redis', redis.url, '--queue', queue]);
    expect(done.stdout).toMatch(new RegExp(`^waiting 0, active 0, delayed 0, completed 1, failed 1 \\(done\\)\\nfailed files:\\n  ${broken}: ERR_PDF_INVALID .* \\(job \\S+, 1 attempt\\)\\n$`, 'm'));
    const json = JSON.parse((await runCli(['status', '--redis', redis.url, '--queue', queue, '--json'])).stdout);
    expect(json).toMatchObject({ queue, done: true, counts: { completed: 1, failed: 1 }, failed: [{ source: broken, code: 'ERR_PDF_INVALID', attemptsMade: 1 }] });
  });

  it('enqueue carries standard input inside its job; the worker writes stdin.jsonl as chunkstream - prints it', async () => {
    const queue = `c${++queues}`;
    const text = '# From a pipe\n\nSome text that came on standard input.\n\n## More\n\nAnd more of it.\n';
    const enqueue = await runCli(['enqueue', '--redis', redis.url, '--queue', queue, '-'], { stdin: text });
    expect(enqueue.code).toBe(0);
    expect(enqueue.stderr).toContain('1 job(s) added (1 inline)');
    const out = join(dir, `out-${queue}`);
    expect(enqueue.stderr).not.toContain('warning');
    const worker = await runCli(['worker', '--quiet', '--redis', redis.url, '--queue', queue, '--out-dir', out, '--exit-when-drained']);
    expect(worker.code).toBe(0);
    expect(worker.stderr).toContain('reading inline documents only');
    expect(worker.stderr).toContain('chunkstream worker: warning: no input roots: this worker reads inline documents only, and a job that names a file fails with ERR_INPUT_OUTSIDE_ROOTS');
    expect(readFileSync(join(out, 'stdin.jsonl'), 'utf8')).toBe((await runCli(['-q', '-'], { stdin: text })).stdout);
  });

  it('enqueue checks files against the --input-root folders it is given; a worker refuses a root that is not a folder', async () => {
    const queue = `c${++queues}`;
    const inside = join(dir, 'inside');
    mkdirSync(inside, { recursive: true });
    const file = join(inside, 'a.md');
    writeFileSync(file, '# A\n\nText.\n');
    const same = await runCli(['enqueue', '--redis', redis.url, '--queue', queue, '--input-root', inside, file]);
    expect(same.code).toBe(0);
    expect(same.stderr).not.toContain('warning');
    const elsewhere = await runCli(['enqueue', '--redis', redis.url, '--queue', queue, '--input-root', join(dir, 'elsewhere'), '--input-root', '/srv', file]);
    expect(elsewhere.stderr).toContain(`chunkstream enqueue: warning: 1 job(s) name a file outside --input-root ${join(dir, 'elsewhere')}, /srv, which workers with these roots refuse (ERR_INPUT_OUTSIDE_ROOTS): ${file}\n`);
    const worker = await runCli(['worker', '--redis', redis.url, '--queue', queue, '--out-dir', join(dir, 'o'), '--input-root', join(dir, 'elsewhere')]);
    expect(worker.code).toBe(2);
    expect(worker.stderr).toContain(`chunkstream worker: ERR_INVALID_OPTION Invalid option inputRoots: ${join(dir, 'elsewhere')} cannot be resolved`);
  });

  it('enqueue --manifest keeps the jobs outside Redis; status --manifest names those Redis lost (exit 1)', async () => {
    const queue = `c${++queues}`;
    const files = ['m1.md', 'm2.md'].map((name) => join(dir, name));
    for (const f of files) writeFileSync(f, `# ${f}\n\nText.\n`);
    const manifest = join(dir, `${queue}.jsonl`);
    expect((await runCli(['enqueue', '--redis', redis.url, '--queue', queue, '--input-root', dir, '--manifest', manifest, ...files])).code).toBe(0);
    const entries = readFileSync(manifest, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(entries).toEqual(files.map((f) => ({ queue, epoch: expect.stringMatching(/^[0-9a-f]{16}$/), id: expect.any(String), source: f, output: outDirPath('', f), path: f })));
    // What a Redis without persistence looks like after a restart: empty (the tests before this one are done with it).
    const client = new Redis(redis.url);
    await client.flushdb();
    client.disconnect();
    const lost = await runCli(['status', '--redis', redis.url, '--queue', queue, '--manifest', manifest, '--out-dir', join(dir, 'nowhere')]);
    expect(lost.code).toBe(1);
    expect(lost.stdout).toContain(
      `vanished 2 job(s) of the manifest: Redis no longer holds them (the queue's record is gone too: Redis restarted without persistence, or its keys were flushed or evicted):\n  ${files[0]} (job ${entries[0].id}, ${entries[0].output}: no output)\n`,
    );
  });

  it('status says when Redis cannot be reached (exit 1)', async () => {
    const run = await runCli(['status', '--redis', 'redis://127.0.0.1:1']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('chunkstream status: ERR_QUEUE_UNAVAILABLE Cannot reach Redis at redis://127.0.0.1:1');
  });

  it('a worker stopped by Ctrl-C finishes the job in progress and exits 0', async () => {
    const queue = `c${++queues}`;
    const file = bigFile('once.md');
    expect((await runCli(['enqueue', '--redis', redis.url, '--queue', queue, file])).code).toBe(0);
    const w = startWorker('once', scenario(queue, join(dir, `out-${queue}`)), 1);
    await until(() => w.lines.some((l) => l.startsWith('active ')), 20_000, 'the job to start', [w]);
    w.child.kill('SIGINT');
    expect(await w.exited).toEqual({ code: 0, signal: null });
    expect(w.lines.some((l) => l.startsWith('completed '))).toBe(true);
    expect(w.stderr).toContain('stopping, finishing the jobs in progress');
    expect((await getQueueStatus({ redis: redis.url, queue })).counts).toMatchObject({ completed: 1, waiting: 0, active: 0 });
  });

  it('a worker stopped by Ctrl-C twice hands the job back to the queue and exits 130', async () => {
    const queue = `c${++queues}`;
    const file = bigFile('twice.md');
    expect((await runCli(['enqueue', '--redis', redis.url, '--queue', queue, file])).code).toBe(0);
    const out = join(dir, `out-${queue}`);
    const w = startWorker('twice', scenario(queue, out), 1);
    await until(() => w.lines.some((l) => l.startsWith('active ')), 20_000, 'the job to start', [w]);
    w.child.kill('SIGINT');
    await until(() => w.stderr.includes('stopping'), 5000, 'the first interrupt', [w]);
    w.child.kill('SIGINT');
    expect(await w.exited).toEqual({ code: 130, signal: null });
    expect(w.stderr).toContain('1 handed back');
    expect((await getQueueStatus({ redis: redis.url, queue })).counts).toMatchObject({ waiting: 1, active: 0, completed: 0, failed: 0 });
    expect(existsSync(join(out, outDirPath('', file)))).toBe(false);
  });
});
