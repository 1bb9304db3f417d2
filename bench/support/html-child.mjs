/**
 * One HTML measurement, run by `bench/html.ts` in its own plain Node process against the built `dist/`:
 *
 *   node bench/support/html-child.mjs <contender> <file>...
 *
 * `chunkstream` streams each file from disk through `parse({ workers: 0 }) → chunk({ maxSize: 512 })` (HTML or
 * Markdown by its extension); `turndown-langchain` is the usual workaround: each file read into a string, turned
 * into Markdown by turndown, then cut by LangChain.js's recursive Markdown splitter with a js-tiktoken length
 * function. Prints one JSON line: seconds, bytes read, chunks, peak RSS and the outcome.
 */
import { createReadStream, readFileSync, statSync } from 'node:fs';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { distModule, peakRssBytes, report, stopwatch } from './measured.mjs';

const SIZE = 512;
const [contender, ...files] = process.argv.slice(2);

async function chunkstream({ chunk, parse }) {
  let chunks = 0;
  for (const file of files) {
    await pipeline(
      createReadStream(file),
      parse({ format: file.endsWith('.html') ? 'html' : 'markdown', workers: 0 }),
      chunk({ maxSize: SIZE }),
      new Writable({ objectMode: true, write: (_c, _e, cb) => (chunks++, cb()) }),
    );
  }
  return { chunks };
}

async function turndownLangchain() {
  const [{ Tiktoken }, { default: ranks }, { RecursiveCharacterTextSplitter }, { default: TurndownService }] = await Promise.all([
    import('js-tiktoken/lite'),
    import('js-tiktoken/ranks/cl100k_base'),
    import('@langchain/textsplitters'),
    import('turndown'),
  ]);
  const encoder = new Tiktoken(ranks);
  const splitter = RecursiveCharacterTextSplitter.fromLanguage('markdown', { chunkSize: SIZE, chunkOverlap: 0, lengthFunction: (t) => encoder.encode(t, [], []).length });
  const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced' });
  let chunks = 0;
  for (const file of files) chunks += (await splitter.splitText(turndown.turndown(readFileSync(file, 'utf8')))).length;
  return { chunks };
}

// chunkstream's modules are loaded before the clock starts; the workaround's inside it, so its figures include them.
const library = contender === 'chunkstream' ? await distModule() : undefined;
const elapsed = stopwatch();
let outcome = 'ok';
let result = { chunks: 0 };
try {
  result = library === undefined ? await turndownLangchain() : await chunkstream(library);
} catch (error) {
  outcome = `${error.code ?? error.name}: ${String(error.message).slice(0, 80)}`;
}
const time = elapsed();
const bytes = files.reduce((sum, f) => sum + statSync(f).size, 0);
report({ ...time, bytes, peakRssMb: peakRssBytes() / 2 ** 20, outcome, ...result });
