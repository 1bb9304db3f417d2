/**
 * One chunking measurement, run by `bench/chunk.ts` in its own plain Node process against a built `dist/` (the
 * project's, or the one `CHUNKSTREAM_DIST` names):
 *
 *   node bench/support/chunk-child.mjs <contender> <input>
 *
 * Contenders: `chunkstream` parses inline (`workers: 0`, what `'auto'` does on two cores), `chunkstream-thread` on
 * one parse thread (`workers: 1`); `remark-floor` is bare block-level remark on the same batches; `langchain`,
 * `chonkie`, `llamaindex` are the peers. `input` is `corpus` (every corpus Markdown file, one document each),
 * `nodedocs` (Node's API docs concatenated into one document) or the path of a Markdown file that is streamed from
 * disk through parse() → chunk() (the chunkstream contenders only; the peers take one string). Prints one JSON
 * line. All contenders count tokens with cl100k_base from js-tiktoken's local ranks.
 */
import { createHash } from 'node:crypto';
import { createReadStream, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CORPUS, distModule, filesUnder, NODE_DOCS, peakRssBytes, report as printReport, stopwatch } from './measured.mjs';

const SIZE = 512;
/** More chunking options for chunkstream, as `bench/chunk.ts --options` gave them. */
const EXTRA = JSON.parse(process.env.CHUNKSTREAM_BENCH_OPTIONS ?? '{}');
const CORPUS_MD = join(CORPUS, 'md');

const [contender, input] = process.argv.slice(2);

/** The documents of a named input. */
function documents(name) {
  if (name === 'corpus') return filesUnder(CORPUS_MD, ['.md']).map((f) => readFileSync(f, 'utf8'));
  // Node's API docs as one document, as a job that concatenates its sources would see them.
  if (name === 'nodedocs') return [filesUnder(NODE_DOCS, ['.md']).map((f) => readFileSync(f, 'utf8')).join('\n\n')];
  throw new Error(`unknown input ${name}`);
}

// The peers' length function: js-tiktoken's own encoder (the one their documentation pairs them with). Loaded
// only where it is used: its tables, and even its ranks module (two strings of a megabyte each), would weigh on
// chunkstream's figures, measured for memory in the same process.
let encoder;
async function loadEncoder() {
  const [{ Tiktoken }, { default: ranks }] = await Promise.all([import('js-tiktoken/lite'), import('js-tiktoken/ranks/cl100k_base')]);
  encoder ??= new Tiktoken(ranks);
}
const count = (t) => encoder.encode(t, [], []).length;

/** A function from one document to its chunk texts. */
async function contenderRun() {
  switch (contender) {
    case 'chunkstream': {
      const { chunkText } = await distModule();
      return (text) => chunkText(text, { ...EXTRA, maxSize: SIZE, unit: 'tokens' }).chunks.map((c) => c.text);
    }
    case 'chunkstream-thread': {
      const { chunk, parse } = await distModule();
      return async (text) => {
        const out = [];
        await pipeline(Readable.from([text]), parse({ workers: 1 }), chunk({ ...EXTRA, maxSize: SIZE }), sink((c) => out.push(c.text)));
        return out;
      };
    }
    case 'remark-floor': {
      // The floor: micromark's block parse through remark on chunkstream's own batches, trees dropped, no chunks.
      const { defaultBatches, remarkFloor } = await import('./remark-floor.mjs');
      const floor = remarkFloor(true);
      return (text) => {
        const batches = defaultBatches();
        for (const batch of [...batches.write(text), ...batches.end()]) floor.parse(batch.text);
        return [];
      };
    }
    case 'langchain': {
      await loadEncoder();
      const { RecursiveCharacterTextSplitter } = await import('@langchain/textsplitters');
      const splitter = RecursiveCharacterTextSplitter.fromLanguage('markdown', { chunkSize: SIZE, chunkOverlap: 0, lengthFunction: count });
      return (text) => splitter.splitText(text);
    }
    case 'chonkie': {
      await loadEncoder();
      const { RecursiveChunker } = await import('@chonkiejs/core');
      const tokenizer = { encode: (t) => encoder.encode(t, [], []), decode: (ids) => encoder.decode(ids), countTokens: count, decodeBatch: (b) => b.map((ids) => encoder.decode(ids)) };
      const chunker = await RecursiveChunker.create({ chunkSize: SIZE, tokenizer });
      return async (text) => (await chunker.chunk(text)).map((c) => c.text);
    }
    case 'llamaindex': {
      await loadEncoder();
      const { MarkdownNodeParser, SentenceSplitter } = await import('@llamaindex/core/node-parser');
      const { Document } = await import('@llamaindex/core/schema');
      const markdown = new MarkdownNodeParser();
      const sentences = new SentenceSplitter({ chunkSize: SIZE, chunkOverlap: 0, tokenizer: { encode: (t) => encoder.encode(t, [], []), decode: (ids) => encoder.decode(ids) } });
      return (text) => sentences.getNodesFromDocuments(markdown.getNodesFromDocuments([new Document({ text })])).map((n) => n.getContent(0));
    }
    default:
      throw new Error(`unknown contender ${contender}`);
  }
}

function sink(onChunk) {
  return new Writable({
    objectMode: true,
    write(c, _encoding, callback) {
      onChunk(c);
      callback();
    },
  });
}

function percentile(sorted, p) {
  return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
}

/** sha-256 of a list of strings or numbers: two builds that cut the same chunks give the same digest. */
function digestOf(values) {
  const hash = createHash('sha256');
  for (const v of values) hash.update(`${v}\u0000`);
  return hash.digest('hex').slice(0, 16);
}

/** Figures of one run; the size distribution is summarized here, as a list of sizes can be long. */
function report(seconds, cpuSeconds, bytes, sizes, digest, peakRss = peakRssBytes()) {
  const sorted = Float64Array.from(sizes).sort();
  return {
    digest,
    seconds,
    cpuSeconds,
    chunks: sizes.length,
    bytes,
    peakRssMb: peakRss / 2 ** 20,
    p50: percentile(sorted, 0.5),
    p90: percentile(sorted, 0.9),
    max: sorted.at(-1) ?? 0,
    over: sizes.filter((s) => s > SIZE).length,
  };
}

/**
 * A file streamed from disk through parse() → chunk(); chunk sizes as chunkstream reports them. The digest covers
 * each chunk's start, end and size (numbers are all the sink keeps, so that the stream's memory stays its own).
 */
async function streamFile(path) {
  if (contender !== 'chunkstream' && contender !== 'chunkstream-thread') throw new Error(`${contender} takes one string: it is not streamed`);
  const { chunk, parse } = await distModule();
  const workers = contender === 'chunkstream-thread' ? 1 : 0;
  const sizes = [];
  const bounds = [];
  const elapsed = stopwatch();
  await pipeline(
    createReadStream(path),
    parse({ format: 'markdown', workers }),
    chunk({ ...EXTRA, maxSize: SIZE }),
    sink((c) => {
      sizes.push(c.size);
      bounds.push(c.start, c.end);
    }),
  );
  const { seconds, cpuSeconds } = elapsed();
  const peak = peakRssBytes();
  return report(seconds, cpuSeconds, statSync(path).size, sizes, digestOf([...bounds, ...sizes]), peak);
}

/** Passes after the first, of which the fastest is the steady state. */
const STEADY_PASSES = 4;

/**
 * Every document of a named input through the contender, several times in the same process: the first pass
 * (after one warm-up document) includes compiling the contender's code, which on an input of a megabyte or two is
 * a large part of the time; the fastest of the passes after it is the steady state a job over many files runs at.
 * On the corpus (1 MB of small files) V8 is still compiling chunkstream's code through the second pass, which
 * ran 1.5–2.5× the time of the fourth, so one pass after the first did not reach it. The figures are the steady
 * pass's, with the first pass's time beside them.
 */
async function runDocuments(name) {
  const docs = documents(name);
  const bytes = docs.reduce((n, d) => n + Buffer.byteLength(d), 0);
  const run = await contenderRun();
  await run(docs[0] ?? '');
  const pass = async () => {
    const elapsed = stopwatch();
    const texts = [];
    for (const d of docs) for (const t of await run(d)) texts.push(t);
    return { texts, ...elapsed() };
  };
  const first = await pass();
  let steady = await pass();
  for (let i = 1; i < STEADY_PASSES; i++) {
    const next = await pass();
    if (next.seconds < steady.seconds) steady = next;
  }
  // The peak before the sizes are counted: the reference counter below is js-tiktoken's encoder, whose tables
  // are larger than chunkstream's.
  const peak = peakRssBytes();
  await loadEncoder();
  return { ...report(steady.seconds, steady.cpuSeconds, bytes, steady.texts.map(count), digestOf(steady.texts), peak), firstSeconds: first.seconds };
}

printReport(input === 'corpus' || input === 'nodedocs' ? await runDocuments(input) : await streamFile(input));
