/**
 * A vitest reporter for the corpus layer: one line saying how many `[corpus]` tests ran or were skipped, and
 * why. With `CI` set and a corpus folder present, a skipped corpus test fails the run: a path mistake must not
 * turn the real-document checks off unnoticed.
 *
 * The corpus is looked for here on its own (not through `corpus.ts`), so that a wrong path there is caught.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

const TAG = '[corpus]';

/** The folders a corpus may be in, whether or not the tests look there. */
function corpusOnDisk(): string | null {
  const candidates = [process.env.CHUNKSTREAM_CORPUS, resolve(process.cwd(), '../shared/corpus')];
  for (const dir of candidates) if (dir && existsSync(dir)) return resolve(dir);
  return null;
}

export default class CorpusReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    let ran = 0;
    let skipped = 0;
    for (const module of modules) {
      for (const test of module.children.allTests()) {
        if (!test.fullName.includes(TAG)) continue;
        const state = test.result().state;
        if (state === 'skipped' || state === 'pending') skipped++;
        else ran++;
      }
    }
    if (ran + skipped === 0) return;
    const onDisk = corpusOnDisk();
    if (skipped === 0) {
      console.log(`\ncorpus layer: ${ran} tests ran on ${onDisk ?? 'the corpus'}\n`);
      return;
    }
    if (process.env.CI && onDisk !== null) {
      console.error(`\ncorpus layer: ${skipped} of ${ran + skipped} corpus tests were skipped although a corpus is at ${onDisk}: failing the run\n`);
      process.exitCode = 1;
      return;
    }
    const where = process.env.CHUNKSTREAM_CORPUS ?? '../shared/corpus';
    console.log(
      `\ncorpus layer: ${skipped} tests skipped, ${ran} ran (no corpus at ${where}; set CHUNKSTREAM_CORPUS to a folder of documents to run them)\n`,
    );
  }
}
