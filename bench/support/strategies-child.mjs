/**
 * One measurement of `bench/strategies.ts`, in its own plain Node process against the built `dist/`:
 *
 *   node bench/support/strategies-child.mjs compare <contender> <rounds> <corpus dir>
 *   node --expose-gc bench/support/strategies-child.mjs stream <tokens|units> <MB> <corpus dir>
 *   node bench/support/strategies-child.mjs profile <out.cpuprofile> <corpus dir>
 *
 * `compare`: a sliding window of 512 tokens with 64 of overlap over every `.md` and `.txt` file of the corpus
 * folder, `rounds` timed passes, the fastest kept. Contenders: `window-tokens` (chunkstream's slidingWindow with
 * the library token sizer), `window-encode` (the same with a plain `encode().length` sizer), `langchain`
 * (TokenTextSplitter) and `chonkie` (TokenChunker), all on cl100k_base from js-tiktoken's local ranks (no
 * network). `stream`: megabytes of the corpus text, repeated, through slidingWindowStream in 64 KB writes, with the
 * live heap sampled after a full collection. `profile`: a CPU profile of the window strategy alone. Prints one
 * JSON line.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Tiktoken } from 'js-tiktoken/lite';
import cl100k from 'js-tiktoken/ranks/cl100k_base';
import { distModule, filesUnder, report } from './measured.mjs';

const SIZE = 512;
const OVERLAP = 64;
const WARMUP_FILES = 5;

const [mode, ...args] = process.argv.slice(2);
const root = args.at(-1);
const { createTokenSizer, slidingWindow, slidingWindowStream } = await distModule();

const files = filesUnder(root, ['.md', '.txt']).map((path) => ({ path, text: readFileSync(path, 'utf8') }));
const bytes = files.reduce((n, f) => n + Buffer.byteLength(f.text), 0);
const enc = new Tiktoken(cl100k);
const count = (text) => enc.encode(text, [], []).length;

/** One `encode` per call: the plain js-tiktoken count. */
const encodeSizer = { size: count };

/** The library's own token sizer, as `chunk({ unit: 'tokens' })` uses it. */
const tokenSizer = () => createTokenSizer('cl100k_base');

/**
 * chunkstream's window over one text at a time. After the warm-up files it starts again with a new chunker, as a
 * new job would; the token sizer's pre-token cache lives for the process, so it stays warm, as it does in a job.
 */
const ours = (sizer) => () => {
  let chunker = slidingWindow({ size: SIZE, overlap: OVERLAP, sizer: sizer() });
  let calls = 0;
  return (text) => {
    if (calls++ === WARMUP_FILES) chunker = slidingWindow({ size: SIZE, overlap: OVERLAP, sizer: sizer() });
    return chunker({ id: 'b', text }).map((c) => c.text);
  };
};

/** A function from the contender's name to a factory of runs (text → chunk texts). */
async function contender(name) {
  switch (name) {
    case 'window-tokens':
      return ours(tokenSizer);
    case 'window-encode':
      return ours(() => encodeSizer);
    case 'langchain': {
      const { TokenTextSplitter } = await import('@langchain/textsplitters');
      const splitter = new TokenTextSplitter({ chunkSize: SIZE, chunkOverlap: OVERLAP, disallowedSpecial: [] });
      // Without a tokenizer it would fetch its encoding from the network (and hang offline): hand it the local one.
      splitter.tokenizer = enc;
      return () => (t) => splitter.splitText(t);
    }
    case 'chonkie': {
      const { TokenChunker } = await import('@chonkiejs/core');
      const tokenizer = { encode: (t) => enc.encode(t, [], []), decode: (ids) => enc.decode(ids), countTokens: count, decodeBatch: (b) => b.map((ids) => enc.decode(ids)) };
      const chunker = await TokenChunker.create({ tokenizer, chunkSize: SIZE, chunkOverlap: OVERLAP });
      return () => async (t) => (await chunker.chunk(t)).map((c) => c.text);
    }
    default:
      throw new Error(`unknown contender ${name}`);
  }
}

/** One timed pass of a fresh run over the corpus, after an untimed pass over a few files (JIT warm-up). */
async function timeOnce(run) {
  for (const f of files.slice(0, WARMUP_FILES)) await run(f.text);
  const t0 = performance.now();
  const outputs = [];
  for (const f of files) outputs.push(await run(f.text));
  return { seconds: (performance.now() - t0) / 1000, outputs };
}

async function compare(name, rounds) {
  const make = await contender(name);
  let best;
  for (let round = 0; round < rounds; round++) {
    const r = await timeOnce(make());
    if (best === undefined || r.seconds < best.seconds) best = r;
  }
  let maxTokens = 0;
  let chunks = 0;
  for (const texts of best.outputs) {
    chunks += texts.length;
    for (const t of texts) maxTokens = Math.max(maxTokens, count(t));
  }
  const figures = { files: files.length, bytes, seconds: best.seconds, chunks, maxTokens };
  if (name !== 'window-tokens') return figures;
  // The token sizer must give encode()'s counts, or the comparison would not be fair.
  let agree = 0;
  let total = 0;
  for (const f of files) {
    for (const c of slidingWindow({ size: SIZE, overlap: OVERLAP, sizer: tokenSizer() })({ id: 'c', text: f.text })) {
      total++;
      if (c.size === count(c.text)) agree++;
    }
  }
  return { ...figures, agree, total };
}

/** Streams `megabytes` of the corpus text, repeated, through slidingWindowStream; the live heap after collections. */
async function stream(sizerName, megabytes) {
  const sizer = sizerName === 'tokens' ? tokenSizer() : { size: (t) => t.length };
  const seed = files.map((f) => f.text).join('\n\n');
  const total = megabytes * 1e6;
  async function* input() {
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
  globalThis.gc();
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
          globalThis.gc();
          peak = Math.max(peak, process.memoryUsage().heapUsed);
        }
        done();
      },
    }),
  );
  return { megabytes, seconds: (performance.now() - t0) / 1000, chunks, heapBeforeMb: before / 1e6, peakHeapMb: peak / 1e6 };
}

async function profile(out) {
  const { Session } = await import('node:inspector/promises');
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  const run = ours(tokenSizer)();
  for (let k = 0; k < 3; k++) for (const f of files) run(f.text);
  const { profile: result } = await session.post('Profiler.stop');
  writeFileSync(out, JSON.stringify(result));
  return { written: out };
}

if (mode === 'compare') report(await compare(args[0], Number(args[1])));
else if (mode === 'stream') report(await stream(args[0], Number(args[1])));
else if (mode === 'profile') report(await profile(args[0]));
else throw new Error(`unknown mode ${mode}`);
