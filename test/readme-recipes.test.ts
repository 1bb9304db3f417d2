/**
 * The README's recipes run: each block marked `<!-- recipe: NAME -->` is written to a module inside the project
 * (so that `import 'chunkstream'` resolves to the built package through its exports) and run in its own Node
 * process. A JavaScript recipe gets `model` and `store` from `support/recipe-fakes.mjs`, and what it embedded and
 * stored is checked here; a TypeScript recipe runs through tsx and makes its own assertions.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chunkFile, chunkText } from '../src/api/chunk.js';
import { createTokenSizer } from '../src/chunking/sizers/index.js';
import { ensureBuilt, ROOT } from './cli/support.js';

const TMP = join(ROOT, '.recipes-tmp');
const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
const tokens = createTokenSizer('cl100k_base');

/** The code of the block after `<!-- recipe: name -->`, in `lang`. */
function recipe(name: string, lang: 'js' | 'ts' = 'js'): string {
  const match = new RegExp(`<!-- recipe: ${name} -->\\n\`\`\`${lang}\\n([\\s\\S]*?)\\n\`\`\``).exec(readme);
  if (match === null) throw new Error(`README has no recipe ${name}`);
  return match[1] as string;
}

interface Report {
  embedded: string[];
  calls: { method: string; count?: number; ids?: string[]; metadata?: { text: string; start: number; end: number }[]; dimension?: number }[];
}

/** Runs a recipe with the fakes in scope; returns what it printed and the fakes' report. */
function run(name: string): { printed: string; report: Report } {
  const file = join(TMP, `${name}.mjs`);
  writeFileSync(file, `import { model, store } from '../test/support/recipe-fakes.mjs';\n${recipe(name)}\n`);
  const out = execFileSync(process.execPath, [file], { cwd: ROOT, encoding: 'utf8' });
  const line = out.split('\n').find((l) => l.startsWith('RECIPE-REPORT '));
  if (line === undefined) throw new Error(`recipe ${name} printed no report: ${out}`);
  return { printed: out.replace(line, '').trim(), report: JSON.parse(line.slice('RECIPE-REPORT '.length)) as Report };
}

/** Type-checks a TypeScript recipe as strictly as the sources, then runs it (its assertions are Node's `assert`); returns what it printed. */
function runTypeScript(name: string): string {
  const file = join(TMP, `${name}.mts`);
  writeFileSync(file, `${recipe(name, 'ts')}\n`);
  const strict = ['--strict', '--noImplicitOverride', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022', '--types', 'node', '--skipLibCheck'];
  execFileSync(join(ROOT, 'node_modules/.bin/tsc'), ['--ignoreConfig', '--noEmit', ...strict, file], { cwd: ROOT, encoding: 'utf8' });
  return execFileSync(process.execPath, ['--import', 'tsx', file], { cwd: ROOT, encoding: 'utf8' }).trim();
}

beforeAll(() => {
  ensureBuilt();
  mkdirSync(TMP, { recursive: true });
});
afterAll(() => rmSync(TMP, { recursive: true, force: true }));

describe('README recipes', () => {
  it('Vercel AI SDK: embedMany over every chunk, then over the added ones only', () => {
    const { printed, report } = run('vercel-ai');
    const guide = readFileSync(join(ROOT, 'samples/guide.md'), 'utf8');
    const options = { maxSize: 512, contextualize: true, documentId: 'guide.md' };
    const before = chunkText(guide, options).chunks;
    const after = chunkText(guide.replace('on a clean machine', 'on a fresh machine'), options).chunks;
    const added = after.filter((c) => !before.some((b) => b.id === c.id));
    expect(added.length).toBeGreaterThanOrEqual(1);
    expect(added.length).toBeLessThan(after.length);
    expect(report.embedded).toEqual([...before, ...added].map((c) => c.embedText ?? c.text));
    expect(Math.max(...report.embedded.map((s) => tokens.size(s)))).toBeLessThanOrEqual(512);
    expect(printed).toBe(`${before.length} chunks embedded, then ${added.length} after the edit; ${after.length} rows`);
  });

  it('Mastra: chunkFile, embedMany, createIndex, upsert with chunk ids, query', async () => {
    const { printed, report } = run('mastra');
    const { chunks, text } = await chunkFile('samples/structures.md', { maxSize: 256 });
    const upsert = report.calls.find((c) => c.method === 'upsert')!;
    expect(report.calls.map((c) => c.method)).toEqual(['createIndex', 'upsert']);
    expect(upsert.ids).toEqual(chunks.map((c) => c.id));
    for (const m of upsert.metadata!) expect(text.slice(m.start, m.end)).toBe(m.text);
    expect(report.embedded.length).toBe(chunks.length);
    expect(Math.max(...report.embedded.map((s) => tokens.size(s)))).toBeLessThanOrEqual(256);
    expect(printed).toBe(`${chunks.length} chunks upserted; best match ${chunks[0]!.id}`);
  });

  it('the recording splitter: injected into a SemanticChunker, its calls are seen and asserted', () => {
    expect(runTypeScript('recording-splitter')).toMatch(/^[1-9]\d* splitter calls, [1-9]\d* chunks$/);
  });
});
