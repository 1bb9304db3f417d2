/**
 * The engine's speed on the command's input, for `bench/main-job.ts`: `chunkText` over the same Markdown the
 * command reads (every `.md` file under a folder, in the command's order, one document each; or one file), with the
 * command's options (`--max-size 512`, each document's id its path), warm: every file is chunked once before the
 * pass that is timed. Chunks are counted, not serialized.
 *
 *   node bench/support/main-job-child.mjs <folder or file>
 *
 * Prints one JSON line: seconds and CPU seconds of the timed pass, bytes, chunks, peak RSS.
 */
import { readFileSync, statSync } from 'node:fs';
import { distModule, filesUnder, peakRssBytes, report, stopwatch } from './measured.mjs';

const [input] = process.argv.slice(2);
const files = statSync(input).isDirectory() ? filesUnder(input, ['.md']) : [input];
const documents = files.map((path) => ({ path, text: readFileSync(path, 'utf8') }));
const { chunkText } = await distModule();

const pass = () => {
  let chunks = 0;
  for (const { path, text } of documents) chunks += chunkText(text, { maxSize: 512, documentId: path, origin: path }).chunks.length;
  return chunks;
};
pass();
const elapsed = stopwatch();
const chunks = pass();
report({ ...elapsed(), chunks, bytes: documents.reduce((n, d) => n + Buffer.byteLength(d.text), 0), peakRssMb: peakRssBytes() / 2 ** 20 });
