/**
 * One row of `bench/sizers.ts`, run in its own plain Node process against the built `dist/` (so that "cold" means
 * an empty pre-token cache):
 *
 *   node bench/support/sizers-child.mjs <row> <target MB>
 *
 * The input is the corpus Markdown (`.md` and `.txt` under ../shared/corpus/md) joined into one string, the
 * "unique" text, and that string repeated to about `target MB` of UTF-16 units, the "large" text. Rows:
 * `sizer-cold` (the token sizer on the unique text, empty cache), `sizer-warm` (on the large text after a pass over
 * the unique one), `encode-unique` and `encode-large` (js-tiktoken's `encode().length`, the reference),
 * `splitter` (the TextSplitter at 512 tokens, target 384, on the large text, its sizer warm) and `langchain`
 * (LangChain's RecursiveCharacterTextSplitter with a js-tiktoken length function, on the unique text: it is slow).
 * Prints one JSON line: `{ files, uniqueChars, copies, chars, seconds, result }`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CORPUS, distModule, filesUnder, report } from './measured.mjs';

const MB = 1024 * 1024;
const [row, targetMb] = process.argv.slice(2);

const files = filesUnder(join(CORPUS, 'md'), ['.md', '.txt']);
const unique = files.map((f) => readFileSync(f, 'utf8')).join('\n\n');
const copies = Math.max(1, Math.round((Number(targetMb) * MB) / unique.length));
const large = Array.from({ length: copies }, () => unique).join('\n\n');

/** The plain js-tiktoken encoder on cl100k_base's local ranks. */
async function encoder() {
  const [{ Tiktoken }, { default: ranks }] = await Promise.all([import('js-tiktoken/lite'), import('js-tiktoken/ranks/cl100k_base')]);
  return new Tiktoken(ranks);
}

/** The library's token sizer with its encoding loaded (loading is not counting) and its cache still empty. */
async function loadedSizer() {
  const { createTokenSizer } = await distModule();
  const sizer = createTokenSizer('cl100k_base');
  sizer.size('');
  return sizer;
}

/** The row's input and the work timed on it, everything else done beforehand. */
async function prepare() {
  switch (row) {
    case 'sizer-cold': {
      const sizer = await loadedSizer();
      return { text: unique, run: (t) => sizer.size(t) };
    }
    case 'sizer-warm': {
      const sizer = await loadedSizer();
      sizer.size(unique);
      return { text: large, run: (t) => sizer.size(t) };
    }
    case 'encode-unique':
    case 'encode-large': {
      const enc = await encoder();
      return { text: row === 'encode-unique' ? unique : large, run: (t) => enc.encode(t, [], []).length };
    }
    case 'splitter': {
      const { createTextSplitter } = await distModule();
      const sizer = await loadedSizer();
      sizer.size(unique);
      const splitter = createTextSplitter({ sizer, locale: 'en' });
      return { text: large, run: (t) => `${splitter.split(t, 512, 384).length} spans` };
    }
    case 'langchain': {
      const enc = await encoder();
      const { RecursiveCharacterTextSplitter } = await import('@langchain/textsplitters');
      const peer = new RecursiveCharacterTextSplitter({ chunkSize: 512, chunkOverlap: 0, lengthFunction: (t) => enc.encode(t, [], []).length });
      return { text: unique, run: async (t) => `${(await peer.splitText(t)).length} chunks` };
    }
    default:
      throw new Error(`unknown row ${row}`);
  }
}

const { text, run } = await prepare();
const start = performance.now();
const result = await run(text);
const seconds = (performance.now() - start) / 1000;
report({ files: files.length, uniqueChars: unique.length, copies, chars: text.length, seconds, result: String(result) });
