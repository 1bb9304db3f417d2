/**
 * Bench input: all corpus Markdown (files and spec texts) concatenated and repeated to a target size, written to
 * `.bench-tmp/` (ignored by git) so that the measured processes can stream it from disk.
 */
import { createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { once } from 'node:events';
import { createMarkdownBatcher } from '../../src/parsers/markdown/batcher.js';
import { CORPUS, NODE_DOCS, ROOT } from './runner.js';

const CORPUS_MD = join(CORPUS, 'md');
const TMP = join(ROOT, '.bench-tmp');

function walk(dir: string, extensions: string[]): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...walk(p, extensions));
    else if (extensions.some((e) => name.endsWith(e))) out.push(p);
  }
  return out;
}

/**
 * True when `text` ends inside a construct the batcher cannot cut through (an unclosed fence or HTML comment):
 * glued to the next file it would make one batch of everything that follows, which measures the batch cap, not
 * the parser. Such files (a few spec edge cases) are left out of the bench input.
 */
function leavesConstructOpen(text: string): boolean {
  const batcher = createMarkdownBatcher({ batchSize: 1000, maxBatchSize: 1 << 30 });
  const batches = [...batcher.write(`${text}\n\n${'para\n\n'.repeat(400)}`), ...batcher.end()];
  return (batches.at(-1)?.text.length ?? 0) > 2000;
}

/** True when {@link baseText} has something to read: the corpus Markdown, or else Node's API docs. */
export function hasBaseText(): boolean {
  return existsSync(CORPUS_MD) || existsSync(NODE_DOCS);
}

/** The base text: every corpus Markdown file (else every file of Node's API docs) that closes what it opens, joined by blank lines. */
export function baseText(): { text: string; files: number; skipped: number; source: string } {
  const fromCorpus = existsSync(CORPUS_MD);
  const files = fromCorpus ? walk(CORPUS_MD, ['.md', '.txt']) : existsSync(NODE_DOCS) ? walk(NODE_DOCS, ['.md']) : [];
  if (files.length === 0) throw new Error(`No Markdown found in ${CORPUS_MD} or ${NODE_DOCS}`);
  const kept: string[] = [];
  let skipped = 0;
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    if (leavesConstructOpen(text)) skipped++;
    else kept.push(text);
  }
  return { text: `${kept.join('\n\n')}\n\n`, files: kept.length, skipped, source: fromCorpus ? CORPUS_MD : NODE_DOCS };
}

/** Writes `base` repeated until the file holds at least `bytes` bytes; returns the path and the exact size. */
export async function writeInput(name: string, base: string, bytes: number): Promise<{ path: string; bytes: number }> {
  mkdirSync(TMP, { recursive: true });
  const path = join(TMP, name);
  const chunk = Buffer.from(base, 'utf8');
  const out = createWriteStream(path);
  let written = 0;
  while (written < bytes) {
    if (!out.write(chunk)) await once(out, 'drain');
    written += chunk.length;
  }
  out.end();
  await once(out, 'finish');
  return { path, bytes: written };
}
