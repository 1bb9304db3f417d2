/**
 * Settings for property tests: a fixed seed and a bounded number of runs in CI; `FC_RUNS` and `FC_SEED` in the
 * environment run more (or other) cases locally, e.g. `FC_RUNS=2000 npx vitest run test/property`.
 */

/** fast-check parameters: `numRuns` defaults to `runs`, scaled by `FC_RUNS` when set. */
export function fcParams(runs: number): { seed: number; numRuns: number } {
  const seed = Number(process.env.FC_SEED ?? 20261129);
  const numRuns = process.env.FC_RUNS === undefined ? runs : Number(process.env.FC_RUNS);
  return { seed, numRuns };
}
