/**
 * Runs the docs' examples, compiled, one after the other in this one process (a process each would cost a second
 * of start-up apiece), and writes what each did to a JSON file: whether it finished, what it printed, and what it
 * did with the things given to it. Run inside the packed project:
 *
 *     node snippet-runner.mjs <list.json> <results.json>
 *
 * where the list holds `{ id, module }` in order. Output of each example is captured, not shown.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const [listFile, resultsFile] = process.argv.slice(2);
const list = JSON.parse(readFileSync(listFile, 'utf8'));
const given = await import(pathToFileURL(`${process.cwd()}/out/snippet-given.js`).href);
/** Longest an example may take before it is reported as hanging. */
const TIMEOUT_MS = 60_000;

/** Runs `run` with process.stdout and process.stderr writes collected instead of shown. */
async function captured(run) {
  const out = [];
  const err = [];
  const writes = { stdout: process.stdout.write, stderr: process.stderr.write };
  const collect = (into) => (chunk, encoding, callback) => {
    into.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    const done = typeof encoding === 'function' ? encoding : callback;
    if (typeof done === 'function') queueMicrotask(() => done());
    return true;
  };
  process.stdout.write = collect(out);
  process.stderr.write = collect(err);
  try {
    await run();
    return { ok: true, stdout: out.join(''), stderr: err.join('') };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? (error.stack ?? error.message) : String(error), stdout: out.join(''), stderr: err.join('') };
  } finally {
    process.stdout.write = writes.stdout;
    process.stderr.write = writes.stderr;
  }
}

const results = [];
for (const { id, module } of list) {
  given.resetSnippetReport();
  let timer;
  const result = await captured(() =>
    Promise.race([
      import(pathToFileURL(module).href),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`still running after ${TIMEOUT_MS / 1000} s`)), TIMEOUT_MS);
      }),
    ]),
  );
  clearTimeout(timer);
  results.push({ id, ...result, report: given.snippetReport() });
}
writeFileSync(resultsFile, JSON.stringify(results));
// An example may leave a PDF sandbox idling or a stream open: they are not this runner's to wait for.
process.exit(0);
