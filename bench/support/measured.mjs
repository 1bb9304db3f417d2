/**
 * What every measured process (`*-child.mjs`) shares: the build it measures, its own peak memory, a stopwatch of
 * wall and CPU time, and the one JSON line it reports to the runner. Plain JavaScript, so that `node` runs it
 * without a TypeScript loader.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The project root. */
export const ROOT = resolve(import.meta.dirname, '../..');
/** The shared corpus of real documents, beside the project. */
export const CORPUS = resolve(ROOT, '../shared/corpus');
/** Node's API docs as Debian installs them. */
export const NODE_DOCS = '/usr/share/doc/nodejs/api';

/**
 * The `dist/` directory measured: `CHUNKSTREAM_DIST` when the runner sets it (`bench/chunk.ts --baseline` points
 * it at a build of another commit), else this project's own.
 */
export const DIST = process.env.CHUNKSTREAM_DIST ? resolve(process.env.CHUNKSTREAM_DIST) : join(ROOT, 'dist');

/**
 * A module of the measured build: `index.js` (the public API) by default. Other paths reach inside the build,
 * and must follow it when files move there.
 */
export function distModule(path = 'index.js') {
  return import(pathToFileURL(join(DIST, path)).href);
}

/**
 * Peak RSS of this process in bytes, worker threads included. Read from `/proc/self/status` (`VmHWM`): on Linux
 * `resourceUsage().maxRSS` carries the parent's peak across `exec`. Kept here rather than imported from the build,
 * so that two builds are measured with the same yardstick whatever their layout.
 */
export function peakRssBytes() {
  try {
    const match = /^VmHWM:\s+(\d+)\s+kB$/m.exec(readFileSync('/proc/self/status', 'utf8'));
    if (match !== null) return Number(match[1]) * 1024;
  } catch {
    // Not Linux: what the platform reports.
  }
  return process.resourceUsage().maxRSS * 1024;
}

/** Starts a stopwatch; calling the result gives `{ seconds, cpuSeconds }` since then (CPU of all threads). */
export function stopwatch() {
  const t0 = performance.now();
  const cpu = process.cpuUsage();
  return () => {
    const used = process.cpuUsage(cpu);
    return { seconds: (performance.now() - t0) / 1000, cpuSeconds: (used.user + used.system) / 1e6 };
  };
}

/**
 * Prints the report as the last line of standard output and exits once it is written: standard output to a pipe
 * is asynchronous, and idle pool threads or pdf.js timers would keep the process alive.
 */
export function report(figures) {
  process.stdout.write(`${JSON.stringify(figures)}\n`, () => process.exit(0));
}
