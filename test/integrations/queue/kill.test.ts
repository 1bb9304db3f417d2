/**
 * Three worker processes on a real Redis, one killed with SIGKILL while it holds a job: BullMQ's stalled-job
 * recovery must hand that job to the others, every input must end with exactly one output file, byte-identical to
 * what `chunkstream FILE` prints alone, the broken PDF must end as a failed job with its code, and every job must
 * be completed exactly once. The documents are made here and small; the corpus run is in kill-corpus.test.ts.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outDirPath } from '../../../src/files/output.js';
import { BIN, ensureBuilt, ROOT } from '../../cli/support.js';
import { guidePdf, longPdf } from '../../support/pdf-samples.js';
import { RUN_REDIS_TESTS, startRedis, type RedisServer } from '../../support/redis-server.js';
import { chunkstreamAlone, events, filesUnder, runKillScenario, started } from './kill-scenario.js';

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

describe.skipIf(!RUN_REDIS_TESTS)('three workers, one killed with SIGKILL mid-run', () => {
  beforeAll(async () => {
    ensureBuilt();
    redis = await startRedis();
    dir = mkdtempSync(join(tmpdir(), 'chunkstream-kill-'));
  });

  afterAll(async () => {
    for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await redis?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('loses nothing, does nothing twice, and writes what chunkstream FILE writes', async () => {
    const inputs = join(dir, 'in');
    mkdirSync(inputs);
    const files: string[] = [];
    // Sizes vary so that jobs overlap and finish out of order; a few hundred KB at most, to keep the test quick.
    for (let i = 0; i < 10; i++) {
      const path = join(inputs, `doc-${i}.md`);
      writeFileSync(path, markdown(`Doc ${i}`, 20 + ((i * 97) % 400)));
      files.push(path);
    }
    writeFileSync(join(inputs, 'guide.pdf'), guidePdf());
    writeFileSync(join(inputs, 'long.pdf'), longPdf(8));
    writeFileSync(join(inputs, 'broken.pdf'), Buffer.from(guidePdf()).subarray(0, 900));
    files.push(join(inputs, 'guide.pdf'), join(inputs, 'long.pdf'), join(inputs, 'broken.pdf'));
    const fifo = join(dir, 'held.md');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const fifoContent = markdown('Held', 40);
    const chunkFlags = ['--max-size', '256'];
    const outDir = join(dir, 'out');

    const outcome = await runKillScenario({
      redis: redis.url,
      queue: 'kill',
      outDir,
      inputRoots: [dir],
      fifo,
      fifoContent,
      inputs: files,
      chunkFlags,
      // A lock long enough that a worker slowed down by a loaded machine still renews it in time: only the killed
      // worker's job may stall.
      lockMs: 6000,
      stalledMs: 1000,
      deadlineMs: 60_000,
    });
    const { status, victim, others, fifoJob } = outcome;

    // The victim died by SIGKILL holding the pipe job; the survivors stopped cleanly on SIGTERM.
    expect(outcome.victimExit.signal).toBe('SIGKILL');
    expect(outcome.othersExit).toEqual([{ code: 0, signal: null }, { code: 0, signal: null }]);
    expect(events(victim, 'completed').map(([id]) => id)).not.toContain(fifoJob);

    // Nothing lost: every job ended, one of them failed (the broken PDF, with its code, not retried).
    expect(outcome.enqueued).toBe(files.length + 1);
    expect(status.counts).toEqual({ waiting: 0, active: 0, delayed: 0, completed: files.length, failed: 1 });
    expect(status.failed).toEqual([{ id: expect.any(String), source: join(inputs, 'broken.pdf'), code: 'ERR_PDF_INVALID', message: expect.any(String), attemptsMade: 1 }]);

    // Nothing twice: each job completed once, over all three workers' logs (the victim's before it died included).
    const completions = [victim, ...others].flatMap((w) => events(w, 'completed').map(([id]) => id));
    expect(completions.length).toBe(files.length);
    expect(new Set(completions).size).toBe(completions.length);
    expect(completions).toContain(fifoJob);
    // The pipe job came back through the stalled-job check of a surviving worker.
    expect(others.flatMap((w) => events(w, 'stalled').map(([id]) => id))).toContain(fifoJob);

    // Exactly one output file per input that did not fail, and nothing else: no temporary file, none for the broken PDF.
    const expectedNames = [fifo, ...files.filter((f) => !f.endsWith('broken.pdf'))].map((f) => outDirPath('', f)).sort();
    expect(filesUnder(outDir)).toEqual(expectedNames);
    // One `chunkstream --out-dir` run writes each input's lines to its own file, as `chunkstream FILE` prints them;
    // the queue's files must be the same, byte for byte. A Markdown file, a PDF and the pipe are also checked
    // against `chunkstream FILE` run alone.
    const reference = join(dir, 'reference');
    const run = spawnSync(process.execPath, [BIN, '-q', '--jobs', '2', ...chunkFlags, '--out-dir', reference, ...files], { cwd: ROOT });
    expect(run.status).toBe(1);
    const referenceNames = filesUnder(reference);
    expect(referenceNames).toEqual(expectedNames.filter((n) => n !== outDirPath('', fifo)));
    for (const name of referenceNames) expect(readFileSync(join(outDir, name), 'utf8'), name).toBe(readFileSync(join(reference, name), 'utf8'));
    for (const file of [files[3] as string, join(inputs, 'long.pdf')]) {
      expect(readFileSync(join(outDir, outDirPath('', file)), 'utf8'), file).toBe(await chunkstreamAlone(file, chunkFlags));
    }
    expect(readFileSync(join(outDir, outDirPath('', fifo)), 'utf8')).toBe(await chunkstreamAlone(fifo, chunkFlags, fifoContent));
  });
});
