/**
 * Bare pdf.js reading every page's text of the bytes it is sent, for `pdf-isolation-child.mjs`: loaded as a worker
 * thread it answers on `parentPort`, forked as a child process on `process.send`. A child process reports its own
 * CPU time so far with each answer: once it has exited, nothing else can tell it.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isMainThread, parentPort } from 'node:worker_threads';
import { ROOT } from './measured.mjs';

const { getDocument } = await import(pathToFileURL(join(ROOT, 'node_modules/pdfjs-dist/legacy/build/pdf.mjs')).href);

/** Reads every page's text; returns the number of UTF-16 units read. */
async function read(data) {
  const task = getDocument({ data, isEvalSupported: false, disableFontFace: true, useSystemFonts: false, verbosity: 0 });
  const doc = await task.promise;
  let units = 0;
  for (let n = 1; n <= doc.numPages; n++) {
    const page = await doc.getPage(n);
    for (const item of (await page.getTextContent()).items) if ('str' in item) units += item.str.length;
    page.cleanup();
  }
  await task.destroy();
  return units;
}

if (!isMainThread) {
  // A thread's CPU counts in its process's: the measuring side reads it there.
  parentPort.on('message', async (data) => parentPort.postMessage({ units: await read(data), cpuMs: 0 }));
} else if (process.send !== undefined) {
  process.on('message', async (message) => {
    const units = await read(new Uint8Array(message));
    const c = process.cpuUsage();
    process.send({ units, cpuMs: (c.user + c.system) / 1000 });
  });
  process.on('disconnect', () => process.exit(0));
}
