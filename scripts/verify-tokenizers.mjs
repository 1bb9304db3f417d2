/**
 * Recounts every chunk chunkstream makes with a Hugging Face tokenizer with the Rust `tokenizers` library (its
 * official Node binding, a development dependency), special tokens included: each chunk's `size` must be the
 * reference's count of what the embedder sees (its embed text), and none may be above `maxSize`. Over every
 * Markdown file of the corpus and every file of Node's API docs, for Qwen3 (from the corpus) and the test tokenizer
 * of each family (`test/fixtures/tokenizers/`), at 512 tokens and at 256 with `contextualize`.
 *
 *     npm run build && node scripts/verify-tokenizers.mjs [--dist dist] [tokenizer.json ...]
 *
 * Prints one line per tokenizer and setting, and exits 1 when any chunk is miscounted or over the limit.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { Tokenizer } from 'tokenizers';

const ROOT = resolve(import.meta.dirname, '..');
const CORPUS = resolve(ROOT, '../shared/corpus');
const NODE_DOCS = '/usr/share/doc/nodejs/api';
const { values, positionals } = parseArgs({ options: { dist: { type: 'string', default: join(ROOT, 'dist') } }, allowPositionals: true });
const { chunkText } = await import(pathToFileURL(join(resolve(values.dist), 'index.js')).href);

function filesUnder(dir, extension) {
  if (!existsSync(dir)) return [];
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...filesUnder(p, extension));
    else if (name.endsWith(extension)) out.push(p);
  }
  return out;
}

const fixtures = ['wordpiece', 'roberta', 'llama', 'mistral', 'unigram'].map((n) => join(ROOT, 'test/fixtures/tokenizers', n, 'tokenizer.json'));
const qwen3 = join(CORPUS, 'tok/hf/qwen3/tokenizer.json');
const tokenizers = positionals.length > 0 ? positionals.map((p) => resolve(p)) : [...(existsSync(qwen3) ? [qwen3] : []), ...fixtures];
const documents = [...filesUnder(join(CORPUS, 'md'), '.md'), ...filesUnder(NODE_DOCS, '.md')];
const SETTINGS = [
  { name: '512 tokens', options: { maxSize: 512 } },
  { name: '256 tokens, contextualize', options: { maxSize: 256, contextualize: true } },
];

let failed = false;
for (const path of tokenizers) {
  const reference = Tokenizer.fromFile(path);
  reference.disableTruncation();
  reference.disablePadding();
  for (const setting of SETTINGS) {
    let chunks = 0;
    let miscounted = 0;
    let over = 0;
    let largest = 0;
    let firstWrong = '';
    const started = performance.now();
    for (const file of documents) {
      const result = chunkText(readFileSync(file, 'utf8'), { ...setting.options, tokenizer: path });
      const seen = result.chunks.map((c) => c.embedText ?? c.prefix + c.text + c.suffix);
      const counts = (await reference.encodeBatch(seen, { addSpecialTokens: true })).map((e) => e.getLength());
      result.chunks.forEach((c, i) => {
        chunks++;
        largest = Math.max(largest, counts[i]);
        if (counts[i] > setting.options.maxSize && !c.oversized) over++;
        if (c.size !== counts[i]) {
          miscounted++;
          firstWrong ||= `${file} chunk ${c.index}: size ${c.size}, reference ${counts[i]}`;
        }
      });
    }
    failed ||= miscounted > 0 || over > 0;
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(`${path.replace(`${ROOT}/`, '').replace(`${CORPUS}/`, 'corpus/')} · ${setting.name}: ${documents.length} documents, ${chunks} chunks, ${miscounted} miscounted, ${over} above maxSize (largest ${largest}), ${seconds} s${firstWrong ? ` · first: ${firstWrong}` : ''}`);
  }
}
process.exit(failed ? 1 : 0);
