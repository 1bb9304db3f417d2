/**
 * The corpus layer of the suite: tests over real documents that no one here wrote, kept outside the repository.
 *
 * The corpus is found at `CHUNKSTREAM_CORPUS` when that is set, else at `../shared/corpus` beside the project root.
 * Tests that read it are declared with `describeCorpus`, which names them `[corpus] …` and skips them when the
 * folder is absent; the default layer never needs it. `test/support/corpus-reporter.ts` prints one line with the
 * count of corpus tests run or skipped, and fails a CI run whose corpus layer was skipped although the corpus is
 * there.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, it } from 'vitest';

/** Marks a suite as part of the corpus layer; the reporter counts tests by it. */
export const CORPUS_TAG = '[corpus]';

/** Where the corpus is looked for: `CHUNKSTREAM_CORPUS`, else `../shared/corpus` beside the project root. */
export const CORPUS = process.env.CHUNKSTREAM_CORPUS ? resolve(process.env.CHUNKSTREAM_CORPUS) : resolve(import.meta.dirname, '../../../shared/corpus');

/** True when the corpus folder exists. */
export const HAS_CORPUS = existsSync(CORPUS) && statSync(CORPUS).isDirectory();

/**
 * A suite over the corpus: runs when the corpus is found, is reported as skipped otherwise. Its tests must not
 * assert that a given file exists or list the corpus exactly (it may grow): they check what they find.
 */
export function describeCorpus(name: string, body: () => void): void {
  describe.skipIf(!HAS_CORPUS)(`${CORPUS_TAG} ${name}`, body);
}

/** A path inside the corpus. */
export function corpusPath(...parts: string[]): string {
  return join(CORPUS, ...parts);
}

/** Every file under `dir` of the corpus (recursively, sorted) whose name ends with one of `extensions`; empty without it. */
export function corpusFiles(dir: string, extensions: string[]): string[] {
  const root = join(CORPUS, dir);
  if (!existsSync(root)) return [];
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (extensions.some((e) => name.endsWith(e))) out.push(p);
    }
  };
  walk(root);
  return out;
}

/**
 * `it` for a test about one named corpus file (a reference conversion, a known book): skipped when that file is
 * not in the corpus, so that the layer runs on any folder of documents `CHUNKSTREAM_CORPUS` points at.
 */
export function itWithCorpusFile(...parts: string[]): typeof it {
  return it.skipIf(!HAS_CORPUS || !existsSync(corpusPath(...parts)));
}
