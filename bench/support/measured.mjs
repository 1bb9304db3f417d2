/**
 * What every measured process (`*-child.mjs`) shares: the build it measures, its own peak memory, a stopwatch of
 * wall and CPU time, and the one JSON line it reports to the runner. Plain JavaScript, so that `node` runs it
 * without a TypeScript loader.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/** Every file under `dir` (walked recursively, sorted) whose name ends with one of `extensions`; none when `dir` is missing. */
export function filesUnder(dir, extensions) {
  if (!existsSync(dir)) return [];
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...filesUnder(p, extensions));
    else if (extensions.some((e) => name.endsWith(e))) out.push(p);
  }
  return out;
}

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

/** Clock ticks of `/proc/<pid>/stat` times: 100 a second on Linux. */
const TICK_MS = 10;

/** The process ids of the living children of `pid`, read from `/proc`; none elsewhere than Linux. */
function children(pid) {
  try {
    const tasks = readdirSync(`/proc/${pid}/task`);
    return tasks.flatMap((t) => readFileSync(`/proc/${pid}/task/${t}/children`, 'latin1').trim().split(/\s+/).filter(Boolean));
  } catch {
    return [];
  }
}

/** The living descendants of this process: chunkstream reads a PDF in a sandbox process of its own. */
function descendants() {
  const out = [];
  const todo = children(process.pid);
  while (todo.length > 0) {
    const pid = todo.pop();
    out.push(pid);
    todo.push(...children(pid));
  }
  return out;
}

/** The fields of `/proc/<pid>/stat` after the command name, or null when the process is gone. */
function statFields(pid) {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'latin1').split(') ')[1].split(' ');
  } catch {
    return null;
  }
}

/**
 * CPU milliseconds of this process and of every process under it: its own (all threads), its children that have
 * exited and been waited for (`cutime`, `cstime`), and its living descendants. Differences of two readings are the
 * CPU a pass cost wherever it ran; on another system than Linux, this process's only.
 */
export function treeCpuMs() {
  const own = process.cpuUsage();
  let ms = (own.user + own.system) / 1000;
  const self = statFields('self');
  if (self !== null) ms += (Number(self[13]) + Number(self[14])) * TICK_MS;
  for (const pid of descendants()) {
    const fields = statFields(pid);
    if (fields !== null) ms += (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  }
  return ms;
}

/**
 * Resident size in bytes of this process and of each living descendant at its own peak so far (`VmHWM`): a
 * sandbox killed at its memory budget still counts with what it reached before the last reading.
 */
export function treeRssBytes() {
  let bytes = process.memoryUsage.rss();
  for (const pid of descendants()) {
    try {
      const match = /^VmHWM:\s+(\d+)\s+kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      if (match !== null) bytes += Number(match[1]) * 1024;
    } catch {
      // Gone since it was listed.
    }
  }
  return bytes;
}

/**
 * Samples {@link treeRssBytes} every `ms` milliseconds (and whenever `sample()` is called) and keeps the highest:
 * the peak memory of a measurement whose work runs in child processes. A reading lists the process tree from
 * `/proc` (about a third of a millisecond with one child): sample seldom where CPU time is measured.
 */
export function treeRssSampler(ms = 5) {
  let peak = 0;
  const sample = () => {
    peak = Math.max(peak, treeRssBytes());
  };
  const timer = setInterval(sample, ms);
  timer.unref();
  return {
    sample,
    /** The highest reading, a last one taken now. */
    peak() {
      sample();
      return peak;
    },
    stop() {
      clearInterval(timer);
    },
  };
}
