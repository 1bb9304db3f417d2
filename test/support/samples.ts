/** The Markdown documents of the repository itself: `samples/` and `test/fixtures/`, for the default layer. */
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');

/** Paths of every Markdown file in `samples/` and `test/fixtures/`, sorted. */
export function sampleMarkdownFiles(): string[] {
  const out: string[] = [];
  for (const dir of ['samples', 'test/fixtures']) {
    for (const name of readdirSync(join(ROOT, dir)).sort()) if (name.endsWith('.md')) out.push(join(ROOT, dir, name));
  }
  return out;
}
