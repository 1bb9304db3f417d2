/**
 * Sliding window at 512 tokens with 64 overlap over the Markdown corpus, beside LangChain.js TokenTextSplitter
 * (chunkSize 512, chunkOverlap 64) and chonkie's TokenChunker, all on cl100k_base from js-tiktoken's local ranks
 * (no network). Prints MB/s, ratios and chunk counts from one run.
 *
 *   npx tsx bench/strategies.ts [corpus dir]        (ROUNDS=1 for a quick look)
 *   PROFILE=out.cpuprofile npx tsx bench/strategies.ts   (CPU profile of the window strategy alone)
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Tiktoken } from 'js-tiktoken/lite';
import cl100k from 'js-tiktoken/ranks/cl100k_base';
import { TokenTextSplitter } from '@langchain/textsplitters';
import { TokenChunker } from '@chonkiejs/core';
import { Readable, Writable } from 'node:stream';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { pipeline } from 'node:stream/promises';
import { slidingWindow } from '../src/chunking/strategies/window.js';
import { slidingWindowStream } from '../src/stream/strategies.js';
import type { Sizer } from '../src/protocols.js';
import { createTokenSizer } from '../src/chunking/sizers/tokens.js';

const SIZE = 512;
const WARMUP_FILES = 5;
/** Rounds of the comparison; each contender keeps its best. `ROUNDS=1` for a quick look. */
const ROUNDS = Number(process.env.ROUNDS ?? 3);
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

/** The library's own token sizer, as `chunk({ unit: 'tokens' })` uses it. */
const tokenSizer = (): Sizer => createTokenSizer('cl100k_base');


interface Result {
  name: string;
  seconds: number;
  chunks: number;
  maxTokens: number;
  note: string;
}

type Run = (text: string) => Promise<string[]> | string[];

/** One timed pass of a fresh `run` over the corpus, after an untimed pass over a few files (JIT warm-up). */
async function timeOnce(run: Run): Promise<{ seconds: number; outputs: string[][] }> {
  for (const f of files.slice(0, WARMUP_FILES)) await run(f.text);
  const t0 = performance.now();
  const outputs: string[][] = [];
  for (const f of files) outputs.push(await run(f.text));
  return { seconds: (performance.now() - t0) / 1000, outputs };
}

/** Interleaved rounds, best time per contender: other load on the machine hits every contender alike. */
async function timeAll(contenders: { name: string; note: string; make: () => Run }[]): Promise<Result[]> {
  const best = contenders.map(() => ({ seconds: Infinity, outputs: [] as string[][] }));
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i, c] of contenders.entries()) {
      const r = await timeOnce(c.make());
      if (r.seconds < best[i]!.seconds) best[i] = r;
    }
  }
  return contenders.map((c, i) => {
    const { seconds, outputs } = best[i]!;
    let maxTokens = 0;
    let chunks = 0;
    for (const texts of outputs) {
      chunks += texts.length;
      for (const t of texts) maxTokens = Math.max(maxTokens, enc.encode(t, [], []).length);
    }
    return { name: c.name, note: c.note, seconds, chunks, maxTokens };
  });
}

/** One chunker, and so one sizer and its cache, per run over the corpus, as a real run would have. */
const ours = (sizer: () => Sizer) => {
  let chunker = slidingWindow({ size: SIZE, overlap: OVERLAP, sizer: sizer() });
  let calls = 0;
  return (text: string) => {
    // A fresh cache for the timed run: the first pass over the warm-up files would fill it.
    if (calls++ === WARMUP_FILES) chunker = slidingWindow({ size: SIZE, overlap: OVERLAP, sizer: sizer() });
    return chunker({ id: 'b', text }).map((c) => c.text);
  };
};

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

if (process.env.PROFILE) {
  const { Session } = await import('node:inspector/promises');
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  const run = ours(tokenSizer);
  for (let k = 0; k < 3; k++) for (const f of files) run(f.text);
  const { profile } = await session.post('Profiler.stop');
  (await import('node:fs')).writeFileSync(process.env.PROFILE, JSON.stringify(profile));
  process.exit(0);
}

const results = await timeAll([
  { name: 'chunkstream slidingWindow', note: 'the library token sizer (pre-token counts cached per process)', make: () => ours(tokenSizer) },
  { name: 'chunkstream slidingWindow', note: 'plain encode().length sizer', make: () => ours(() => encodeSizer) },
  { name: 'LangChain TokenTextSplitter', note: 'local js-tiktoken cl100k', make: () => (t) => langchain.splitText(t) },
  { name: 'chonkie TokenChunker', note: 'local js-tiktoken cl100k adapter', make: () => async (t) => (await chonkie.chunk(t)).map((c) => c.text) },
]);

// The token sizer must give encode()'s counts, or the comparison would not be fair.
let agree = 0;
let total = 0;
for (const f of files) {
  for (const c of slidingWindow({ size: SIZE, overlap: OVERLAP, sizer: tokenSizer() })({ id: 'c', text: f.text })) {
    total++;
    if (c.size === enc.encode(c.text, [], []).length) agree++;
  }
}

const mb = bytes / 1e6;
const reference = results.find((r) => r.name.startsWith('LangChain')) as Result;
console.log(`corpus: ${root}\nfiles: ${files.length}, ${mb.toFixed(2)} MB; window ${SIZE} tokens, overlap ${OVERLAP}; cl100k_base everywhere; best of ${ROUNDS} interleaved rounds\n`);
console.log(`chunk sizes from the token sizer equal encode().length for ${agree}/${total} chunks`);
console.log('chunkstream never cuts a word: a whitespace-free run longer than 512 tokens stands alone, flagged oversized (max tokens column)\n');
console.log('| contender | sizer / tokenizer | MB/s | × LangChain | chunks | max tokens |');
console.log('|---|---|---:|---:|---:|---:|');
for (const r of results) {
  const rate = mb / r.seconds;
  console.log(`| ${r.name} | ${r.note} | ${rate.toFixed(2)} | ${(reference.seconds / r.seconds).toFixed(2)} | ${r.chunks} | ${r.maxTokens} |`);
}

/**
 * Bounded memory: stream `megabytes` of generated prose (corpus files repeated, 64 KB writes) through
 * slidingWindowStream and sample the heap while chunks flow out.
 */
async function streamRun(megabytes: number, sizer: Sizer, label: string): Promise<void> {
  const seed = files.map((f) => f.text).join('\n\n');
  const total = megabytes * 1e6;
  async function* input(): AsyncGenerator<string> {
    let sent = 0;
    let at = 0;
    while (sent < total) {
      let piece = seed.slice(at, at + 65_536);
      at += 65_536;
      if (at >= seed.length) at = 0;
      if (piece.length === 0) piece = seed.slice(0, 65_536);
      sent += piece.length;
      yield piece;
    }
  }
  gc();
  const before = process.memoryUsage().heapUsed;
  let peak = before;
  let chunks = 0;
  const t0 = performance.now();
  await pipeline(
    Readable.from(input()),
    slidingWindowStream({ size: SIZE, overlap: OVERLAP, sizer }),
    new Writable({
      objectMode: true,
      write(_chunk, _enc, done) {
        // Live data only: collect first, so that garbage waiting for the collector does not count.
        if (++chunks % 1000 === 0) {
          gc();
          peak = Math.max(peak, process.memoryUsage().heapUsed);
        }
        done();
      },
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  console.log(`| ${label} | ${megabytes} | ${(megabytes / seconds).toFixed(2)} | ${chunks} | ${(before / 1e6).toFixed(1)} | ${(peak / 1e6).toFixed(1)} |`);
}

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

console.log('\nslidingWindowStream over generated text (64 KB writes): live heap stays flat as the input grows\n');
console.log('| sizer | MB streamed | MB/s | chunks | live heap before (MB) | peak live heap while streaming (MB, after GC) |');
console.log('|---|---:|---:|---:|---:|---:|');
await streamRun(8, tokenSizer(), 'cl100k token sizer');
await streamRun(32, tokenSizer(), 'cl100k token sizer');
await streamRun(32, { size: (t) => t.length }, 'UTF-16 units');
await streamRun(128, { size: (t) => t.length }, 'UTF-16 units');
