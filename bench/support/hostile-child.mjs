/**
 * One hostile-input measurement, run by `bench/hostile.ts` in its own plain Node process against the built `dist/`:
 *
 *   node bench/support/hostile-child.mjs <contender> <file>
 *
 * `chunkstream` streams the file from disk through `parse({ workers: 0 }) → chunk({ maxSize: 512 })`; `langchain`
 * reads it into one string for LangChain.js's recursive Markdown splitter with a js-tiktoken length function.
 * Prints one JSON line: seconds, peak RSS, chunks, and the outcome (`ok`, or the error code and message). A PDF is
 * read in chunkstream's sandbox process: the peak RSS then counts it too, sampled every 5 ms.
 */
import { createReadStream, readFileSync, statSync } from 'node:fs';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { distModule, peakRssBytes, report, stopwatch, treeRssSampler } from './measured.mjs';

const SIZE = 512;
const [contender, file] = process.argv.slice(2);
const format = file.endsWith('.pdf') ? 'pdf' : file.endsWith('.html') ? 'html' : 'markdown';

async function chunkstream({ chunk, parse }) {
  let chunks = 0;
  let warnings = [];
  const stage = chunk({ maxSize: SIZE });
  await pipeline(
    createReadStream(file),
    parse({ format, workers: 0 }),
    stage,
    new Writable({ objectMode: true, write: (_c, _e, cb) => (chunks++, cb()) }),
  );
  warnings = stage.statistics().warnings;
  return { chunks, warnings: warnings.length };
}

async function langchain() {
  const [{ Tiktoken }, { default: ranks }, { RecursiveCharacterTextSplitter }] = await Promise.all([
    import('js-tiktoken/lite'),
    import('js-tiktoken/ranks/cl100k_base'),
    import('@langchain/textsplitters'),
  ]);
  const encoder = new Tiktoken(ranks);
  const splitter = RecursiveCharacterTextSplitter.fromLanguage('markdown', { chunkSize: SIZE, chunkOverlap: 0, lengthFunction: (t) => encoder.encode(t, [], []).length });
  const chunks = await splitter.splitText(readFileSync(file, 'utf8'));
  return { chunks: chunks.length };
}

// chunkstream's modules are loaded before the clock starts; LangChain's are loaded inside it, so its figures include them.
const library = contender === 'langchain' ? undefined : await distModule();
// Only a PDF has a process under this one (the sandbox); Markdown rows keep the cost of their figures as it was.
const tree = format === 'pdf' ? treeRssSampler(5) : undefined;
const elapsed = stopwatch();
let outcome = 'ok';
let result = { chunks: 0 };
try {
  result = library === undefined ? await langchain() : await chunkstream(library);
} catch (error) {
  outcome = `${error.code ?? error.name}: ${String(error.message).slice(0, 80)}`;
}
const time = elapsed();
const treePeak = tree?.peak() ?? 0;
tree?.stop();
report({ ...time, bytes: statSync(file).size, peakRssMb: Math.max(peakRssBytes(), treePeak) / 2 ** 20, outcome, ...result });
