/**
 * Preloaded into a measured command (`node --import bench/support/thread-cpu.mjs dist/cli/main.js …`): the CPU time
 * of each of the process's threads, read from `/proc/self/task` (Linux), written as JSON to the file named by
 * `CHUNKSTREAM_THREAD_CPU` as the process exits. Node has no per-thread CPU figure before version 23.
 *
 * Threads are told apart by when they started: the main thread; those already there when this module loads, V8's
 * helpers (optimizing compilation, concurrent and parallel GC), which Node starts with the process; and those
 * started later, the worker threads and libuv's file-system threads. The threads are read every 20 ms, so that a
 * worker thread ended before the exit is counted up to its last reading.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';

const OUT = process.env.CHUNKSTREAM_THREAD_CPU;
/** Clock ticks of `/proc` times: 100 a second on Linux. */
const TICK_MS = 10;

function threadIds() {
  try {
    return readdirSync('/proc/self/task');
  } catch {
    return [];
  }
}

if (isMainThread && OUT) {
  const atStart = new Set(threadIds());
  const cpu = new Map();
  const read = () => {
    for (const tid of threadIds()) {
      try {
        const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
        // Fields after the command name, which may hold spaces: utime and stime are the 12th and 13th.
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        cpu.set(tid, (Number(fields[11]) + Number(fields[12])) * TICK_MS);
      } catch {
        // The thread ended between the listing and the read: its last reading stands.
      }
    }
  };
  setInterval(read, 20).unref();
  process.once('exit', () => {
    read();
    const main = String(process.pid);
    const sum = (keep) => [...cpu].filter(([tid]) => keep(tid)).reduce((n, [, ms]) => n + ms, 0);
    const later = [...cpu].filter(([tid]) => !atStart.has(tid)).map(([, ms]) => ms).sort((a, b) => b - a);
    writeFileSync(OUT, JSON.stringify({ mainMs: sum((t) => t === main), v8HelpersMs: sum((t) => t !== main && atStart.has(t)), laterMs: later, totalMs: sum(() => true) }));
  });
}
