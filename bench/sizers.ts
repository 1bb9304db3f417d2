/**
 * Throughput of token counting and of the TextSplitter on the corpus Markdown.
 * Run with `npx tsx bench/sizers.ts` (a fresh process, so that "cold" means an empty pre-token cache).
 *
 * - plain `encode(text).length` of js-tiktoken, the reference;
 * - the token sizer cold (first pass over the unique corpus, empty cache) and warm (the corpus repeated to ~10 MB);
 * - the TextSplitter at 512 tokens (target 384) on the ~10 MB;
 * - LangChain's RecursiveCharacterTextSplitter with a js-tiktoken length function, 512 tokens, as a peer (on the
 *   unique corpus only: it is slow).
 */
import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { RecursiveCharacterTextSplitter } from '@langchain/textsplitters';
import { createTokenSizer, getTiktoken } from '../src/chunking/sizers/tokens.js';
import { createTextSplitter } from '../src/chunking/text-splitter.js';
import { corpusFiles } from '../test/support/property.js';

const MB = 1024 * 1024;
const files = corpusFiles('md', ['.md', '.txt']);
if (files.length === 0) {
  console.error(`no corpus Markdown under ${resolve(join(import.meta.dirname, '../../shared/corpus/md'))}`);
  process.exit(1);
}
const unique = files.map((f) => readFileSync(f, 'utf8')).join('\n\n');
const copies = Math.max(1, Math.round((10 * MB) / unique.length));
const large = Array.from({ length: copies }, () => unique).join('\n\n');

interface Row {
  name: string;
  chars: number;
  seconds: number;
  result: string;
}
const rows: Row[] = [];

async function time(name: string, text: string, run: (text: string) => unknown): Promise<void> {
  const start = performance.now();
  const result = await run(text);
  const seconds = (performance.now() - start) / 1000;
  rows.push({ name, chars: text.length, seconds, result: String(result) });
}

const sizer = createTokenSizer('cl100k_base');
// Loading the encoding (about 0.3 s) is not counting: load it before timing.
const encoder = getTiktoken('cl100k_base');

await time('token sizer, cold (empty cache), unique corpus', unique, (t) => sizer.size(t));
await time('token sizer, warm, ~10 MB', large, (t) => sizer.size(t));
await time('js-tiktoken encode().length, unique corpus', unique, (t) => encoder.encode(t, [], []).length);
await time('js-tiktoken encode().length, ~10 MB', large, (t) => encoder.encode(t, [], []).length);
const splitter = createTextSplitter({ sizer, locale: 'en' });
await time('TextSplitter 512 tokens (target 384), ~10 MB', large, (t) => `${splitter.split(t, 512, 384).length} spans`);
const peer = new RecursiveCharacterTextSplitter({
  chunkSize: 512,
  chunkOverlap: 0,
  lengthFunction: (t: string) => encoder.encode(t, [], []).length,
});
await time('LangChain recursive splitter 512 tokens (peer), unique corpus', unique, async (t) => `${(await peer.splitText(t)).length} chunks`);

const rate = (r: Row): number => r.chars / MB / r.seconds;
const byName = (prefix: string): Row => rows.find((r) => r.name.startsWith(prefix))!;
const reference = byName('js-tiktoken encode().length, ~10 MB');

console.log(`corpus: ${files.length} Markdown files, ${(unique.length / MB).toFixed(2)} MB of UTF-16 units; ~10 MB = ${copies} copies`);
// Figures are only comparable within one run: other processes on the machine slow every row alike.
console.log(`node ${process.version}, ${availableParallelism()} cores, load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}\n`);
const header = ['what', 'MB', 's', 'MB/s', 'vs encode', 'result'];
const table = rows.map((r) => [
  r.name,
  (r.chars / MB).toFixed(2),
  r.seconds.toFixed(2),
  rate(r).toFixed(2),
  `${(rate(r) / rate(reference)).toFixed(2)}x`,
  r.result,
]);
const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => row[i]!.length)));
const line = (cells: string[]): string => cells.map((c, i) => (i === 0 || i === 5 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ');
console.log(line(header));
console.log(widths.map((w) => '-'.repeat(w)).join('-|-'));
for (const row of table) console.log(line(row));
const ours = byName('TextSplitter');
const theirs = byName('LangChain');
console.log(`\nTextSplitter vs LangChain recursive splitter: ${(rate(ours) / rate(theirs)).toFixed(1)}x the throughput`);
