/**
 * One token-counting measurement of `bench/tokenizers.ts`, in its own plain Node process against a built `dist/`:
 *
 *   node bench/support/tokenizers-child.mjs <contender> <input>
 *
 * `contender` is `cl100k` (the built-in counter), `hf:<path>` (chunkstream counting a Hugging Face tokenizer.json
 * itself, the `tokenizer` option) or `encode:<path>` (the same tokenizer loaded by `@huggingface/tokenizers` and
 * injected as `{ size: (t) => tokenizer.encode(t).ids.length }`, what users did before). `input` is `corpus`
 * (every corpus Markdown file, one document each) or `nodedocs` (Node's API docs as one document). Each input is
 * chunked twice with `chunkText` at 512 tokens: the figures are the second pass's, the first pass's time beside
 * them (loading the tokenizer and compiling the code). Prints one JSON line.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CORPUS, distModule, filesUnder, NODE_DOCS, peakRssBytes, report, stopwatch } from './measured.mjs';

const SIZE = 512;
const [contender, input] = process.argv.slice(2);

function documents(name) {
  if (name === 'corpus') return filesUnder(join(CORPUS, 'md'), ['.md']).map((f) => readFileSync(f, 'utf8'));
  if (name === 'nodedocs') return [filesUnder(NODE_DOCS, ['.md']).map((f) => readFileSync(f, 'utf8')).join('\n\n')];
  throw new Error(`unknown input ${name}`);
}

/** chunkText's options and parts for the contender. */
async function setup() {
  if (contender === 'cl100k') return { options: { maxSize: SIZE } };
  const [kind, path] = [contender.slice(0, contender.indexOf(':')), contender.slice(contender.indexOf(':') + 1)];
  if (kind === 'hf') return { options: { maxSize: SIZE, tokenizer: path } };
  if (kind === 'encode') {
    const { Tokenizer } = await import('@huggingface/tokenizers');
    const json = JSON.parse(readFileSync(path, 'utf8'));
    const configPath = join(path, '..', 'tokenizer_config.json');
    let config = {};
    try {
      config = JSON.parse(readFileSync(configPath, 'utf8'));
    } catch {
      // No tokenizer_config.json beside it.
    }
    const tokenizer = new Tokenizer(json, config);
    return { options: { maxSize: SIZE }, deps: { sizer: { size: (t) => tokenizer.encode(t).ids.length } } };
  }
  throw new Error(`unknown contender ${contender}`);
}

const { chunkText } = await distModule();
const docs = documents(input);
const bytes = docs.reduce((n, d) => n + Buffer.byteLength(d), 0);
const loading = stopwatch();
const { options, deps } = await setup();
const pass = () => {
  const elapsed = stopwatch();
  let chunks = 0;
  for (const d of docs) chunks += chunkText(d, options, deps).chunks.length;
  return { chunks, ...elapsed() };
};
const first = pass();
const setupSeconds = loading().seconds - first.seconds;
const second = pass();
report({ seconds: second.seconds, cpuSeconds: second.cpuSeconds, firstSeconds: first.seconds, setupSeconds, bytes, chunks: second.chunks, peakRssMb: peakRssBytes() / 2 ** 20 });
