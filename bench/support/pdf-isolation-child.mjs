/**
 * What isolating pdf.js costs a document, run by `bench/pdf.ts` in its own plain Node process:
 *
 *   node bench/support/pdf-isolation-child.mjs <worker|child>-<fresh|warm> <file> <documents>
 *
 * Bare pdf.js (`pdf-isolated-reader.mjs`) reads every page's text of one file in a worker thread or a child
 * process, started for each document (fresh) or kept from the previous one (warm), `documents` times after one
 * untimed document. Prints wall and CPU milliseconds per document, the CPU of every process and thread.
 */
import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { report } from './measured.mjs';

const [how, file, count] = process.argv.slice(2);
const READER = join(import.meta.dirname, 'pdf-isolated-reader.mjs');
const bytes = readFileSync(file);

/** A worker thread or child process that reads the documents it is sent. */
function start() {
  if (how.startsWith('worker')) {
    const w = new Worker(READER, { execArgv: [] });
    return { run: (data) => new Promise((ok) => { w.once('message', ok); w.postMessage(data, [data.buffer]); }), end: () => w.terminate() };
  }
  const c = fork(READER, [], { serialization: 'advanced', execArgv: [] });
  return { run: (data) => new Promise((ok) => { c.once('message', ok); c.send(data); }), end: () => c.kill() };
}

let kept = null;
let lastChildCpu = 0;
/** Reads one document; returns the CPU milliseconds the child process spent on it (0 in a thread: counted below). */
async function doc() {
  const warm = how.endsWith('warm');
  const reader = warm ? (kept ??= start()) : start();
  const reply = await reader.run(new Uint8Array(bytes));
  if (!warm) await reader.end();
  const spent = warm ? reply.cpuMs - lastChildCpu : reply.cpuMs;
  lastChildCpu = reply.cpuMs;
  return spent;
}

await doc();
const own = () => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};
const c0 = own();
const t0 = performance.now();
let childMs = 0;
for (let i = 0; i < Number(count); i++) childMs += await doc();
const wallMs = (performance.now() - t0) / Number(count);
// This process's CPU counts its threads, ended ones too; a child process's comes from its own report.
const cpuMs = (own() - c0 + childMs) / Number(count);
await kept?.end();
report({ wallMs, cpuMs });
