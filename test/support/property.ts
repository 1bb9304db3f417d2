/**
 * Settings for property tests: a fixed seed and a bounded number of runs in CI; `FC_RUNS` and `FC_SEED` in the
 * environment run more (or other) cases locally, e.g. `FC_RUNS=2000 npx vitest run test/property`.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** fast-check parameters: `numRuns` defaults to `runs`, scaled by `FC_RUNS` when set. */
export function fcParams(runs: number): { seed: number; numRuns: number } {
  const seed = Number(process.env.FC_SEED ?? 20261129);
  const numRuns = process.env.FC_RUNS === undefined ? runs : Number(process.env.FC_RUNS);
  return { seed, numRuns };
}

/** The shared corpus of real documents, beside the project root. */
export const CORPUS = resolve(import.meta.dirname, '../../../shared/corpus');

/** Every file under `dir` (recursively) whose name ends with one of `extensions`. Empty when the corpus is absent. */
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
