/**
 * One part of the cold path, measured in a fresh process by `bench/cold.ts` against a built `dist/` (the project's,
 * or `CHUNKSTREAM_DIST`):
 *
 *   node bench/support/cold-child.mjs <part>
 *
 * Parts: `import` (importing the library), `ranks` (the first token count: the rank table), `remark` (the first
 * block whose inline content matters: the remark family), `first-call` (the first `chunkText` of a small document
 * once the above are loaded, less the same call warm: compiling the code on the way), `per-chunk` and `per-block`
 * (warm `chunkText` on a document of a chunk every 4 bytes, of a block every 3: microseconds each). Prints one JSON
 * line: `cpuMs` (or `us`) and what it was counted over.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { distModule, report, ROOT } from './measured.mjs';

const part = process.argv[2];
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
/** CPU milliseconds of `f()`. */
const timed = async (f) => {
  const before = cpuMs();
  await f();
  return cpuMs() - before;
};
const SMALL = readFileSync(join(ROOT, 'samples/guide.md'), 'utf8');
const INLINE = '# A *b*\n\nAn ![image](i.png).\n';

switch (part) {
  case 'import':
    report({ cpuMs: await timed(() => distModule()) });
    break;
  case 'ranks': {
    const { countTokens } = await distModule();
    report({ cpuMs: await timed(() => countTokens('a')) });
    break;
  }
  case 'remark': {
    const { chunkText, countTokens } = await distModule();
    countTokens('a');
    chunkText('# Plain\n\nNo inline content.\n');
    report({ cpuMs: await timed(() => chunkText(INLINE)) });
    break;
  }
  case 'first-call': {
    const { chunkText, countTokens } = await distModule();
    countTokens('a');
    chunkText(INLINE);
    const first = await timed(() => chunkText(SMALL));
    for (let i = 0; i < 20; i++) chunkText(SMALL);
    const warm = await timed(() => chunkText(SMALL));
    report({ cpuMs: first - warm, firstMs: first, warmMs: warm, bytes: Buffer.byteLength(SMALL) });
    break;
  }
  case 'per-chunk':
  case 'per-block': {
    const { chunkText } = await distModule();
    // A setext heading alone is a chunk; one-letter paragraphs are blocks packed many to a chunk.
    const text = part === 'per-chunk' ? 'a\n=\n'.repeat(65_536) : 'a\n\n'.repeat(87_382);
    const count = (t) => {
      const chunks = chunkText(t).chunks.length;
      return part === 'per-chunk' ? chunks : t.length / 3;
    };
    count(text);
    let best = Number.POSITIVE_INFINITY;
    let n = 0;
    for (let i = 0; i < 3; i++) {
      const ms = await timed(() => {
        n = count(text);
      });
      best = Math.min(best, ms);
    }
    report({ us: (best * 1000) / n, count: n });
    break;
  }
  default:
    throw new Error(`unknown part ${part}`);
}
