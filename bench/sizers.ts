/**
 * Throughput of token counting and of the TextSplitter on the corpus Markdown, each row in its own plain Node
 * process (`support/sizers-child.mjs`), so that "cold" means an empty pre-token cache:
 *
 * - plain `encode(text).length` of js-tiktoken, the reference;
 * - the token sizer cold (first pass over the unique corpus, empty cache) and warm (the corpus repeated to ~10 MB);
 * - the TextSplitter at 512 tokens (target 384) on the ~10 MB;
 * - LangChain's RecursiveCharacterTextSplitter with a js-tiktoken length function, 512 tokens, as a peer (on the
 *   unique corpus only: it is slow).
 *
 *   npx tsx bench/sizers.ts              # ~10 MB
 *   npx tsx bench/sizers.ts --quick      # ~1 MB
 */
import { join } from 'node:path';
import { numberFlag } from './support/args.js';
import { markdownTable } from './support/results.js';
import { CORPUS, startBench } from './support/runner.js';

const MB = 1024 * 1024;

/** What `sizers-child.mjs` reports. */
interface Timed {
  files: number;
  uniqueChars: number;
  copies: number;
  chars: number;
  seconds: number;
  result: string;
}

const bench = startBench(
  { script: 'bench/sizers.ts', summary: "Token counting (the library's sizer cold and warm, against js-tiktoken encode) and the TextSplitter against LangChain's recursive splitter, on the corpus Markdown." },
  { 'target-mb': { type: 'string', value: 'MB', description: 'size of the repeated corpus (default 10; 1 with --quick)' } },
);
const target = numberFlag('target-mb', bench.values['target-mb'], bench.quick ? 1 : 10);
const large = `~${target} MB`;

const ROWS = [
  ['sizer-cold', 'token sizer, cold (empty cache), unique corpus'],
  ['sizer-warm', `token sizer, warm, ${large}`],
  ['encode-unique', 'js-tiktoken encode().length, unique corpus'],
  ['encode-large', `js-tiktoken encode().length, ${large}`],
  ['splitter', `TextSplitter 512 tokens (target 384), ${large}`],
  ['langchain', 'LangChain recursive splitter 512 tokens (peer), unique corpus'],
] as const;

async function main(): Promise<string> {
  if (!bench.has('every row', join(CORPUS, 'md'))) return '';
  const timed = new Map<string, Timed>();
  const failed = new Map<string, string>();
  for (const [row, name] of ROWS) {
    bench.log(name);
    const outcome = await bench.measure<Timed>('sizers-child.mjs', [row, String(target)]);
    if (outcome.ok) timed.set(row, outcome.report);
    else failed.set(row, outcome.error);
  }
  const rate = (t: Timed): number => t.chars / MB / t.seconds;
  const reference = timed.get('encode-large');
  const cells = ROWS.map(([row, name]) => {
    const t = timed.get(row);
    if (t === undefined) return [name, `failed: ${failed.get(row)}`, '', '', '', ''];
    return [name, (t.chars / MB).toFixed(2), t.seconds.toFixed(2), rate(t).toFixed(2), reference ? `${(rate(t) / rate(reference)).toFixed(2)}×` : '', t.result];
  });
  const any = [...timed.values()][0];
  const ours = timed.get('splitter');
  const theirs = timed.get('langchain');
  return [
    any ? `Corpus: ${any.files} Markdown files, ${(any.uniqueChars / MB).toFixed(2)} MB of UTF-16 units; ${large} = ${any.copies} copies. Each row in its own process.` : '',
    '',
    markdownTable(['what', 'MB', 's', 'MB/s', 'vs encode', 'result'], cells, ['l', 'r', 'r', 'r', 'r', 'l']),
    ...(ours && theirs ? ['', `- TextSplitter vs LangChain recursive splitter: ${(rate(ours) / rate(theirs)).toFixed(1)}× the throughput`] : []),
  ].join('\n');
}

bench.finish(await main());
