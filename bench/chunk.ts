/**
 * Chunking throughput and memory, chunkstream beside its peers, on the same input in the same run.
 *
 *   npx tsx bench/chunk.ts            # corpus Markdown, Node's API docs, and the 70 MB streaming run
 *   BENCH_QUICK=1 npx tsx bench/chunk.ts   # skip the 70 MB run
 *
 * Every measurement runs in its own child process, so that peak RSS (`process.resourceUsage().maxRSS`) belongs to
 * that measurement alone. All contenders count tokens with cl100k_base from the local js-tiktoken ranks.
 */
import { spawnSync } from 'node:child_process';
import { createReadStream, existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(fileURLToPath(import.meta.url), '../..');
const CORPUS = resolve(ROOT, '../shared/corpus/md');
const NODE_DOCS = '/usr/share/doc/nodejs/api';
const SIZE = 512;

/** All Markdown files under `dir`, sorted. */
function markdownFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...markdownFiles(p));
    else if (name.endsWith('.md')) out.push(p);
  }
  return out;
}

/** The documents of one input: a list of Markdown texts. */
function documents(input: string): string[] {
  if (input === 'corpus') return markdownFiles(CORPUS).map((f) => readFileSync(f, 'utf8'));
  // Node's API docs as one document, as a job that concatenates its sources would see them.
  if (input === 'nodedocs') return [markdownFiles(NODE_DOCS).map((f) => readFileSync(f, 'utf8')).join('\n\n')];
  throw new Error(`unknown input ${input}`);
}

interface Measure {
  seconds: number;
  chunks: number;
  bytes: number;
  maxRssMb: number;
  /** Token counts: median, 90th percentile, largest, and how many exceed the limit. */
  p50: number;
  p90: number;
  max: number;
  over: number;
}

/** The figures of one run, with the size distribution summarized in the child (a list of sizes can be huge). */
function summarize(seconds: number, chunks: number, bytes: number, sizes: number[]): Measure {
  const sorted = [...sizes].sort((a, b) => a - b);
  return {
    seconds,
    chunks,
    bytes,
    maxRssMb: process.resourceUsage().maxRSS / 1024,
    p50: percentile(sorted, 0.5),
    p90: percentile(sorted, 0.9),
    max: sorted.at(-1) ?? 0,
    over: sizes.filter((s) => s > SIZE).length,
  };
}

/** Runs one contender over one input, in this (child) process. */
async function child(contender: string, input: string): Promise<Measure> {
  const { Tiktoken } = await import('js-tiktoken/lite');
  const cl100k = (await import('js-tiktoken/ranks/cl100k_base')).default;
  const enc = new Tiktoken(cl100k);
  const count = (t: string) => enc.encode(t, [], []).length;
  if (input === 'big') return bigRun(contender);
  const docs = documents(input);
  const bytes = docs.reduce((n, d) => n + Buffer.byteLength(d), 0);
  let run: (text: string) => Promise<string[]> | string[];
  const sizeOf = count;
  if (contender.startsWith('chunkstream')) {
    const { chunkText } = await import('../src/api.js');
    const workers = contender.endsWith('pool') ? 'auto' : 0;
    run = (text) => chunkText(text, { maxSize: SIZE, unit: 'tokens' }).chunks.map((c) => c.text);
    if (workers !== 0) {
      const { chunk } = await import('../src/stream/chunk.js');
      const { parse } = await import('../src/stream/parse.js');
      const { Readable } = await import('node:stream');
      run = async (text) => {
        const out: string[] = [];
        await pipeline(Readable.from([text]), parse({ workers: 'auto' }), chunk({ maxSize: SIZE }), new Writable({ objectMode: true, write: (c, _e, cb) => (out.push(c.text), cb()) }));
        return out;
      };
    }
  } else if (contender === 'langchain') {
    const { RecursiveCharacterTextSplitter } = await import('@langchain/textsplitters');
    const splitter = RecursiveCharacterTextSplitter.fromLanguage('markdown', { chunkSize: SIZE, chunkOverlap: 0, lengthFunction: count });
    run = (text) => splitter.splitText(text);
  } else if (contender === 'chonkie') {
    const { RecursiveChunker } = await import('@chonkiejs/core');
    const tokenizer = { encode: (t: string) => enc.encode(t, [], []), decode: (ids: number[]) => enc.decode(ids), countTokens: count, decodeBatch: (b: number[][]) => b.map((ids) => enc.decode(ids)) };
    const chunker = await RecursiveChunker.create({ chunkSize: SIZE, tokenizer: tokenizer as never });
    run = async (text) => (await chunker.chunk(text)).map((c) => c.text);
  } else if (contender === 'llamaindex') {
    const { MarkdownNodeParser, SentenceSplitter } = await import('@llamaindex/core/node-parser');
    const { Document } = await import('@llamaindex/core/schema');
    const markdown = new MarkdownNodeParser();
    const sentences = new SentenceSplitter({ chunkSize: SIZE, chunkOverlap: 0, tokenizer: { encode: (t: string) => enc.encode(t, [], []), decode: (ids: number[]) => enc.decode(ids) } as never });
    run = (text) => sentences.getNodesFromDocuments(markdown.getNodesFromDocuments([new Document({ text })])).map((n) => n.getContent(0 as never));
  } else throw new Error(`unknown contender ${contender}`);
  // One warm-up document (module loading, JIT), then the timed run over all.
  await run(docs[0] ?? '');
  const t0 = performance.now();
  const texts: string[] = [];
  for (const d of docs) for (const t of await run(d)) texts.push(t);
  const seconds = (performance.now() - t0) / 1000;
  return summarize(seconds, texts.length, bytes, texts.map(sizeOf));
}

/** The big run: the corpus repeated to ~70 MB in a file, streamed through parse() and chunk(). */
async function bigRun(contender: string): Promise<Measure> {
  const file = process.env.BENCH_BIG_FILE as string;
  const bytes = statSync(file).size;
  const { parse } = await import('../src/stream/parse.js');
  const { chunk } = await import('../src/stream/chunk.js');
  const workers = contender.endsWith('pool') ? 'auto' : 0;
  let chunks = 0;
  const sizes: number[] = [];
  const t0 = performance.now();
  await pipeline(
    createReadStream(file),
    parse({ format: 'markdown', workers }),
    chunk({ maxSize: SIZE }),
    new Writable({
      objectMode: true,
      write(c: { size: number }, _e, cb) {
        chunks++;
        sizes.push(c.size);
        cb();
      },
    }),
  );
  return summarize((performance.now() - t0) / 1000, chunks, bytes, sizes);
}

function measure(contender: string, input: string, env: Record<string, string> = {}, nodeFlags: string[] = []): Measure | { error: string } {
  const r = spawnSync(process.execPath, [...nodeFlags, '--import', 'tsx', fileURLToPath(import.meta.url), '--child', contender, input], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    encoding: 'utf8',
    maxBuffer: 1 << 28,
    timeout: 30 * 60 * 1000,
  });
  const line = r.stdout.trim().split('\n').at(-1) ?? '';
  if (r.status !== 0 || !line.startsWith('{')) return { error: (r.stderr || r.stdout).trim().split('\n').slice(-3).join(' ') };
  return JSON.parse(line) as Measure;
}

function percentile(sorted: number[], p: number): number {
  return sorted.length === 0 ? 0 : (sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] as number);
}

function report(title: string, rows: [string, Measure | { error: string }][], reference: string): void {
  console.log(`\n### ${title}\n`);
  console.log('| contender | MB | s | MB/s | × ' + reference + ' | peak RSS MB | chunks | tokens p50 / p90 / max | over 512 |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---|---:|');
  const ref = rows.find(([name]) => name === reference)?.[1];
  const refRate = ref && 'seconds' in ref ? ref.bytes / 1e6 / ref.seconds : undefined;
  for (const [name, m] of rows) {
    if ('error' in m) {
      console.log(`| ${name} | failed: ${m.error} |`);
      continue;
    }
    const rate = m.bytes / 1e6 / m.seconds;
    console.log(
      `| ${name} | ${(m.bytes / 1e6).toFixed(2)} | ${m.seconds.toFixed(2)} | ${rate.toFixed(2)} | ${refRate ? (rate / refRate).toFixed(2) : '–'} | ${m.maxRssMb.toFixed(0)} | ${m.chunks} | ${m.p50} / ${m.p90} / ${m.max} | ${m.over} |`,
    );
  }
}

async function main(): Promise<void> {
  console.log(`node ${process.version}, ${availableParallelism()} cores, load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}; ${SIZE} tokens, cl100k_base`);
  const contenders = ['chunkstream (workers: 0)', 'chunkstream (default pool)', 'langchain', 'chonkie', 'llamaindex'];
  for (const input of ['corpus', 'nodedocs']) {
    if (input === 'nodedocs' && !existsSync(NODE_DOCS)) {
      console.log(`\n(${NODE_DOCS} is missing: skipping Node's API docs)`);
      continue;
    }
    report(input === 'corpus' ? 'shared corpus Markdown (../shared/corpus/md), file by file' : "Node's API docs (/usr/share/doc/nodejs/api/*.md) concatenated", contenders.map((c) => [c, measure(c, input)]), 'langchain');
  }
  if (process.env.BENCH_QUICK) return;
  const dir = join(tmpdir(), 'chunkstream-bench');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'big.md');
  // Real documentation, repeated: the corpus has files that end inside an unclosed fence, which would swallow the
  // next copies into one code block and flatter the figures.
  const base = (existsSync(NODE_DOCS) ? documents('nodedocs') : documents('corpus')).join('\n\n');
  const target = 70 * 1024 * 1024;
  const copies = Math.ceil(target / Buffer.byteLength(base));
  writeFileSync(file, Array.from({ length: copies }, () => base).join('\n\n'));
  try {
    report(
      `streamed from a ${(statSync(file).size / 1e6).toFixed(0)} MB file (Node's API docs × ${copies}): parse() → chunk() → sink`,
      [
        ['chunkstream (workers: 0)', measure('chunkstream (workers: 0)', 'big', { BENCH_BIG_FILE: file })],
        ['chunkstream (default pool)', measure('chunkstream (default pool)', 'big', { BENCH_BIG_FILE: file })],
        // The same run in a heap capped at 96 MB: it completes, so what it holds live is bounded; the default
        // figures above are V8 letting its heap grow while garbage accumulates.
        ['chunkstream (workers: 0, --max-old-space-size=96)', measure('chunkstream (workers: 0)', 'big', { BENCH_BIG_FILE: file }, ['--max-old-space-size=96'])],
      ],
      'chunkstream (workers: 0)',
    );
    console.log('\nThe peers take one string: they hold the whole document (and their chunks) in memory, so they are not run on it.');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--child') {
  const m = await child(process.argv[3] as string, process.argv[4] as string);
  // Exit once the line is written: stdout to a pipe is asynchronous.
  process.stdout.write(`${JSON.stringify(m)}\n`, () => process.exit(0));
} else {
  await main();
}
