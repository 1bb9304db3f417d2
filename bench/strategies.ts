/**
 * Sliding window at 512 tokens with 64 overlap over the Markdown corpus, beside LangChain.js TokenTextSplitter
 * (chunkSize 512, chunkOverlap 64) and chonkie's TokenChunker, all on cl100k_base from js-tiktoken's local ranks
 * (no network). Prints MB/s, ratios and chunk counts from one run.
 *
 *   npx tsx bench/strategies.ts [corpus dir]
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Tiktoken } from 'js-tiktoken/lite';
import cl100k from 'js-tiktoken/ranks/cl100k_base';
import { TokenTextSplitter } from '@langchain/textsplitters';
import { TokenChunker } from '@chonkiejs/core';
import { slidingWindow } from '../src/core/strategies/window.js';
import type { Sizer } from '../src/protocols.js';

const SIZE = 512;
const OVERLAP = 64;
const root = resolve(process.argv[2] ?? join(import.meta.dirname, '../../shared/corpus/md'));

function walk(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...walk(p));
    else if (name.endsWith('.md') || name.endsWith('.txt')) out.push(p);
  }
  return out;
}

const files = walk(root).map((path) => ({ path, text: readFileSync(path, 'utf8') }));
const bytes = files.reduce((n, f) => n + Buffer.byteLength(f.text), 0);
const enc = new Tiktoken(cl100k);

/** One `encode` per call: the plain js-tiktoken count. */
const encodeSizer: Sizer = { size: (text) => enc.encode(text, [], []).length };

/**
 * Counts per pre-token of the encoding's own pattern, cached: the same counts as `encode` (BPE never merges
 * across pre-tokens), without encoding a repeated pre-token twice.
 */
function createCachedSizer(): Sizer {
  const pattern = new RegExp(cl100k.pat_str, 'gu');
  const cache = new Map<string, number>();
  return {
    size(text) {
      let n = 0;
      for (const m of text.matchAll(pattern)) {
        const piece = m[0];
        let c = cache.get(piece);
        if (c === undefined) {
          c = enc.encode(piece, [], []).length;
          if (cache.size > 200_000) cache.clear();
          cache.set(piece, c);
        }
        n += c;
      }
      return n;
    },
  };
}

/**
 * The same counts again, but a cache miss runs the byte-pair merge on js-tiktoken's own rank table instead of a
 * whole `encode` call (which builds two regular expressions and two sets per call, ~12 µs). Counting only: no
 * ids are ever needed to cut windows.
 */
function createCountingSizer(): Sizer {
  const ranks = (enc as unknown as { rankMap: Map<string, number> }).rankMap;
  const utf8 = new TextEncoder();
  const pattern = new RegExp(cl100k.pat_str, 'gu');
  const cache = new Map<string, number>();
  const count = (piece: string): number => {
    const bytes = utf8.encode(piece);
    if (bytes.length < 2 || ranks.has(bytes.join(','))) return 1;
    const cuts: number[] = [];
    for (let i = 0; i <= bytes.length; i++) cuts.push(i);
    const rankAt = (i: number): number =>
      i + 2 < cuts.length ? (ranks.get(bytes.slice(cuts[i], cuts[i + 2]).join(',')) ?? Infinity) : Infinity;
    const pairRanks = cuts.map((_, i) => rankAt(i));
    for (;;) {
      let best = Infinity;
      let at = -1;
      for (let i = 0; i < pairRanks.length - 2; i++) if ((pairRanks[i] as number) < best) [best, at] = [pairRanks[i] as number, i];
      if (at < 0) break;
      cuts.splice(at + 1, 1);
      pairRanks.splice(at + 1, 1);
      pairRanks[at] = rankAt(at);
      if (at > 0) pairRanks[at - 1] = rankAt(at - 1);
    }
    return cuts.length - 1;
  };
  return {
    size(text) {
      let n = 0;
      for (const m of text.matchAll(pattern)) {
        const piece = m[0];
        let c = cache.get(piece);
        if (c === undefined) {
          c = count(piece);
          if (cache.size > 200_000) cache.clear();
          cache.set(piece, c);
        }
        n += c;
      }
      return n;
    },
  };
}

interface Result {
  name: string;
  seconds: number;
  chunks: number;
  maxTokens: number;
  note: string;
}

async function time(name: string, note: string, run: (text: string) => Promise<string[]> | string[]): Promise<Result> {
  // One untimed pass over a few files warms the JIT for everyone alike.
  for (const f of files.slice(0, 5)) await run(f.text);
  const t0 = performance.now();
  const outputs: string[][] = [];
  for (const f of files) outputs.push(await run(f.text));
  const seconds = (performance.now() - t0) / 1000;
  let maxTokens = 0;
  let chunks = 0;
  for (const texts of outputs) {
    chunks += texts.length;
    for (const t of texts) maxTokens = Math.max(maxTokens, enc.encode(t, [], []).length);
  }
  return { name, seconds, chunks, maxTokens, note };
}

const ours = (sizer: () => Sizer) => (text: string) => slidingWindow({ size: SIZE, overlap: OVERLAP, sizer: sizer() })({ id: 'b', text }).map((c) => c.text);

const langchain = new TokenTextSplitter({ chunkSize: SIZE, chunkOverlap: OVERLAP, disallowedSpecial: [] });
// Without a tokenizer it would fetch its encoding from the network (and hang offline): hand it the local one.
langchain.tokenizer = enc as unknown as typeof langchain.tokenizer;

const chonkieTokenizer = {
  encode: (text: string) => enc.encode(text, [], []),
  decode: (ids: number[]) => enc.decode(ids),
  countTokens: (text: string) => enc.encode(text, [], []).length,
  decodeBatch: (batch: number[][]) => batch.map((ids) => enc.decode(ids)),
};
const chonkie = await TokenChunker.create({
  tokenizer: chonkieTokenizer as unknown as Parameters<typeof TokenChunker.create>[0] extends infer O ? O extends { tokenizer?: infer T } ? Exclude<T, string> : never : never,
  chunkSize: SIZE,
  chunkOverlap: OVERLAP,
});

const results: Result[] = [];
results.push(await time('chunkstream slidingWindow', 'pre-token cache + rank-table count (cache per document)', ours(createCountingSizer)));
results.push(await time('chunkstream slidingWindow', 'pre-token cache + encode() on a miss (cache per document)', ours(createCachedSizer)));
results.push(await time('chunkstream slidingWindow', 'plain encode().length sizer', ours(() => encodeSizer)));
results.push(await time('LangChain TokenTextSplitter', 'local js-tiktoken cl100k', (t) => langchain.splitText(t)));
results.push(await time('chonkie TokenChunker', 'local js-tiktoken cl100k adapter', async (t) => (await chonkie.chunk(t)).map((c) => c.text)));

// The counting sizer must give encode()'s counts, or the comparison would not be fair.
let agree = 0;
let total = 0;
for (const f of files) {
  for (const c of slidingWindow({ size: SIZE, overlap: OVERLAP, sizer: createCountingSizer() })({ id: 'c', text: f.text })) {
    total++;
    if (c.size === enc.encode(c.text, [], []).length) agree++;
  }
}

const mb = bytes / 1e6;
const reference = results.find((r) => r.name.startsWith('LangChain')) as Result;
console.log(`corpus: ${root}\nfiles: ${files.length}, ${mb.toFixed(2)} MB; window ${SIZE} tokens, overlap ${OVERLAP}; cl100k_base everywhere\n`);
console.log(`chunk sizes from the counting sizer equal encode().length for ${agree}/${total} chunks`);
console.log('chunkstream never cuts a word: a whitespace-free run longer than 512 tokens stands alone, flagged oversized (max tokens column)\n');
console.log('| contender | sizer / tokenizer | MB/s | × LangChain | chunks | max tokens |');
console.log('|---|---|---:|---:|---:|---:|');
for (const r of results) {
  const rate = mb / r.seconds;
  console.log(`| ${r.name} | ${r.note} | ${rate.toFixed(2)} | ${(reference.seconds / r.seconds).toFixed(2)} | ${r.chunks} | ${r.maxTokens} |`);
}
