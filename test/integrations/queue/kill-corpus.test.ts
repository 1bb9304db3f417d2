/**
 * The kill test over the real corpus: its Markdown and PDF folders (and a broken PDF made here) through three
 * worker processes, one killed with SIGKILL while it holds a job. The queue's output folder must be the one
 * `chunkstream --out-dir` writes for the same inputs, file for file and byte for byte; the files that fail must be
 * those that fail there too, with the same codes, and the broken PDF.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { outDirPath } from '../../../src/files/output.js';
import { BIN, ensureBuilt, ROOT } from '../../cli/support.js';
import { corpusFiles, corpusPath, describeCorpus } from '../../support/corpus.js';
import { guidePdf } from '../../support/pdf-samples.js';
import { RUN_REDIS_TESTS, startRedis, type RedisServer } from '../../support/redis-server.js';
import { chunkstreamAlone, events, filesUnder, runKillScenario, started } from './kill-scenario.js';

describeCorpus('queue: three workers over the corpus, one killed with SIGKILL mid-run', () => {
  let redis: RedisServer;
  let dir: string;

  beforeAll(async () => {
    if (!RUN_REDIS_TESTS) return;
    ensureBuilt();
    redis = await startRedis();
    dir = mkdtempSync(join(tmpdir(), 'chunkstream-kill-corpus-'));
  });

  afterAll(async () => {
    for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await redis?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it.skipIf(!RUN_REDIS_TESTS)('writes the files chunkstream --out-dir writes, fails what fails there, and completes each job once', async () => {
    const broken = join(dir, 'broken.pdf');
    writeFileSync(broken, Buffer.from(guidePdf()).subarray(0, 900));
    const inputs = [corpusPath('md'), corpusPath('pdf'), broken];
    const fifo = join(dir, 'held.md');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const markdownFiles = corpusFiles('md', ['.md']);
    const fifoContent = readFileSync(markdownFiles[0] as string, 'utf8');
    const chunkFlags = ['--max-size', '512'];
    const outDir = join(dir, 'out');

    // A large corpus PDF takes seconds on a busy machine: locks long enough that only the killed worker loses its own.
    const outcome = await runKillScenario({ redis: redis.url, queue: 'corpus', outDir, inputRoots: [dir, corpusPath('md'), corpusPath('pdf')], fifo, fifoContent, inputs, chunkFlags, lockMs: 8000, stalledMs: 1000, deadlineMs: 600_000 });
    const { status, victim, others, fifoJob } = outcome;
    expect(outcome.victimExit.signal).toBe('SIGKILL');
    expect(outcome.othersExit).toEqual([{ code: 0, signal: null }, { code: 0, signal: null }]);

    const reference = join(dir, 'reference');
    mkdirSync(reference);
    const stats = join(dir, 'reference-stats.json');
    spawnSync(process.execPath, [BIN, '-q', '--jobs', '2', ...chunkFlags, '--out-dir', reference, '--stats-json', stats, ...inputs], { cwd: ROOT });
    const referenceFailures = (JSON.parse(readFileSync(stats, 'utf8')).files as { source: string; error?: { code: string } }[])
      .filter((f) => f.error !== undefined)
      .map((f) => [f.source, f.error!.code])
      .sort();
    expect(referenceFailures).toContainEqual([broken, 'ERR_PDF_INVALID']);

    // Nothing lost, nothing twice.
    expect(status.counts).toMatchObject({ waiting: 0, active: 0, delayed: 0, failed: referenceFailures.length });
    expect(status.counts.completed + status.counts.failed).toBe(outcome.enqueued);
    expect(status.failed.map((f) => [f.source, f.code]).sort()).toEqual(referenceFailures);
    const completions = [victim, ...others].flatMap((w) => events(w, 'completed').map(([id]) => id));
    expect(completions.length).toBe(status.counts.completed);
    expect(new Set(completions).size).toBe(completions.length);
    expect(completions).toContain(fifoJob);

    // The same files as the command line's, plus the pipe's, and nothing else; the same bytes in each.
    const names = filesUnder(reference);
    expect(filesUnder(outDir)).toEqual([...names, outDirPath('', fifo)].sort());
    for (const name of names) expect(readFileSync(join(outDir, name), 'utf8'), name).toBe(readFileSync(join(reference, name), 'utf8'));
    expect(readFileSync(join(outDir, outDirPath('', fifo)), 'utf8')).toBe(await chunkstreamAlone(fifo, chunkFlags, fifoContent));
    // And a PDF and a Markdown file of the corpus against `chunkstream FILE` alone.
    for (const file of [corpusFiles('pdf', ['.pdf'])[0], markdownFiles.at(-1)].filter((f): f is string => f !== undefined)) {
      expect(readFileSync(join(outDir, outDirPath('', file)), 'utf8'), file).toBe(await chunkstreamAlone(file, chunkFlags));
    }
  });
});
