/**
 * V8 tuning of the command line's own process, set before the library loads (the library sets none: its users own
 * their process). Imported first by `main.ts`; V8's flags are the process's, so the worker threads have it too.
 *
 * `--interrupt-budget` four times V8's default: a function is optimized by TurboFan once it has run four times as
 * much. Chunking runs a few hundred hot functions, and each thread compiled them all on V8's helper threads, over
 * and over as new shapes of blocks deoptimized them: on Node's API docs ×4 (263 files, 14 MB) the helpers used
 * 1.5-1.8 s of CPU beside the main thread's 2.9 with `--jobs 1`, and 2.3-2.4 s with `--jobs 2`, where they share
 * the two cores with the chunking threads. With four times the budget they use 0.8-1.0 and 1.3-1.5 s, and the main
 * thread the same time as before (the functions that matter still reach TurboFan; the lukewarm ones stay in the
 * baseline compiler's code): 10-14% less CPU in all (bench/main-job.ts shows each thread's). Eight times the
 * budget made the main thread slower. A budget given on the command line (`node --interrupt-budget=N`, or in
 * `NODE_OPTIONS`) is left as it is.
 */
import { setFlagsFromString } from 'node:v8';

const given = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)].some((arg) => arg.startsWith('--interrupt-budget'));
if (!given) setFlagsFromString('--interrupt-budget=270336');
