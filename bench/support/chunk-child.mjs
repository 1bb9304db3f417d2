/**
 * One chunking measurement, run by `bench/chunk.ts` in its own plain Node process against the built `dist/`:
 *
 *   node bench/support/chunk-child.mjs <contender> <input>
 *
 * The chunkstream contenders parse inline (`workers: 0`, what `'auto'` does on two cores) or on one parse thread
 * (`workers: 1`). `input` is `corpus` (every corpus Markdown file, one document each), `nodedocs` (Node's API docs
 * concatenated into one document) or the path of a Markdown file that is streamed from disk through parse() → chunk() (the
 * chunkstream contenders only; the peers take one string). Prints one JSON line. All contenders count tokens
 * with cl100k_base from js-tiktoken's local ranks.
 */
import { createReadStream, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { chunk, chunkText, parse } from '../../dist/index.js';
import { peakRssBytes } from '../../dist/cli/peak-rss.js';
import { defaultBatches, remarkFloor } from './remark-floor.mjs';

const ROOT = resolve(import.meta.dirname, '../..');
const CORPUS = resolve(ROOT, '../shared/corpus/md');
const NODE_DOCS = '/usr/share/doc/nodejs/api';
const SIZE = 512;

const [contender, input] = process.argv.slice(2);

/** All Markdown files under `dir`, sorted. */
function markdownFiles(dir) {
  if (!existsSync(dir)) return [];
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...markdownFiles(p));
    else if (name.endsWith('.md')) out.push(p);
  }
  return out;
}

/** The documents of a named input. */
function documents(name) {
  if (name === 'corpus') return markdownFiles(CORPUS).map((f) => readFileSync(f, 'utf8'));
  // Node's API docs as one document, as a job that concatenates its sources would see them.
  if (name === 'nodedocs') return [markdownFiles(NODE_DOCS).map((f) => readFileSync(f, 'utf8')).join('\n\n')];
  throw new Error(`unknown input ${name}`);
}

// The peers' length function: js-tiktoken's own encoder (the one their documentation pairs them with). Loaded
// only where it is used: it holds some 70 MB, and even its ranks module (two strings of a megabyte each) would
// weigh on chunkstream's figures, measured for memory in the same process.
let encoder;
async function loadEncoder() {
  const [{ Tiktoken }, { default: ranks }] = await Promise.all([import('js-tiktoken/lite'), import('js-tiktoken/ranks/cl100k_base')]);
  encoder ??= new Tiktoken(ranks);
}
const count = (t) => encoder.encode(t, [], []).length;

/** A function from one document to its chunk texts. */
async function contenderRun() {
  switch (contender) {
    case 'chunkstream (workers: 0)':
      return (text) => chunkText(text, { maxSize: SIZE, unit: 'tokens' }).chunks.map((c) => c.text);
    case 'chunkstream (workers: 1)':
      return async (text) => {
        const out = [];
        await pipeline(Readable.from([text]), parse({ workers: 1 }), chunk({ maxSize: SIZE }), sink((c) => out.push(c.text)));
        return out;
      };
    case 'remark block-level, parse only': {
      // The floor: micromark's block parse through remark on chunkstream's own batches, trees dropped, no chunks.
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

/** Figures of one run; the size distribution is summarized here, as a list of sizes can be long. */
function report(seconds, cpuSeconds, bytes, sizes, peakRss = peakRssBytes()) {
  const sorted = Float64Array.from(sizes).sort();
  return {
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

/** A file streamed from disk through parse() → chunk(); chunk sizes as chunkstream reports them. */
async function streamFile(path) {
  const workers = contender === 'chunkstream (workers: 1)' ? 1 : 0;
  const sizes = [];
  const t0 = performance.now();
  const cpu = process.cpuUsage();
  await pipeline(createReadStream(path), parse({ format: 'markdown', workers }), chunk({ maxSize: SIZE }), sink((c) => sizes.push(c.size)));
  const used = process.cpuUsage(cpu);
  return report((performance.now() - t0) / 1000, (used.user + used.system) / 1e6, statSync(path).size, sizes);
}

/**
 * Every document of a named input through the contender, twice in the same process: the first pass (after one
 * warm-up document) includes compiling the contender's code, which on an input of a megabyte or two is a large
 * part of the time; the second is the steady state a job over many files runs at. The figures are the second
 * pass's, with the first pass's time beside them.
 */
async function runDocuments(name) {
  const docs = documents(name);
  const bytes = docs.reduce((n, d) => n + Buffer.byteLength(d), 0);
  const run = await contenderRun();
  await run(docs[0] ?? '');
  const pass = async () => {
    const t0 = performance.now();
    const cpu = process.cpuUsage();
    const texts = [];
    for (const d of docs) for (const t of await run(d)) texts.push(t);
    const used = process.cpuUsage(cpu);
    return { texts, seconds: (performance.now() - t0) / 1000, cpuSeconds: (used.user + used.system) / 1e6 };
  };
  const first = await pass();
  const second = await pass();
  // The peak before the sizes are counted: the reference counter below is js-tiktoken's 70 MB encoder.
  const peak = peakRssBytes();
  await loadEncoder();
  return { ...report(second.seconds, second.cpuSeconds, bytes, second.texts.map(count), peak), firstSeconds: first.seconds };
}

const figures = input === 'corpus' || input === 'nodedocs' ? await runDocuments(input) : await streamFile(input);
// Exit once the line is written: stdout to a pipe is asynchronous, and idle pool threads would linger.
process.stdout.write(`${JSON.stringify(figures)}\n`, () => process.exit(0));
