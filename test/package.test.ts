/**
 * The package as a user installs it: `npm pack`, unpacked into fresh projects (their other dependencies linked to
 * the repository's, not downloaded). What a user meets there is held here:
 *
 * - the tarball ships the licence, the README and the docs, and no source map points at a file it lacks; the PDF
 *   sandbox finds the build's copy of pdf.js's worker there and takes it for the installed pdfjs-dist's;
 * - a strict NodeNext TypeScript project, with the libraries' types checked too (`skipLibCheck` off), type-checks
 *   every example of README.md and docs/*.md (see `support/doc-snippets.ts`), then runs each one;
 * - a CommonJS project `require()`s the main entry and every subpath (Node 20.19's require of ES modules), typed
 *   from a `.cts` file, and chunks a string and a PDF through them.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chunkFile, chunkText } from '../src/api/chunk.js';
import { createTokenSizer } from '../src/chunking/sizers/index.js';
import { ROOT } from './cli/support.js';
import { allSnippets, type DocSnippet } from './support/doc-snippets.js';
import { copyInto, makeProject, packChunkstream, strictTsconfig, typeCheck, type Packed } from './support/packed-project.js';
import { RUN_REDIS_TESTS, startRedis, type RedisServer } from './support/redis-server.js';

const snippets = allSnippets(ROOT);
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { exports: Record<string, unknown>; license: string };
const subpaths = Object.keys(manifest.exports).filter((p) => p !== './package.json');

/** What the runner reports for one example. */
interface SnippetResult {
  id: string;
  ok: boolean;
  error?: string;
  stdout: string;
  stderr: string;
  report: { embedded: string[]; calls: { method: string; ids?: string[]; metadata?: { text: string; start: number; end: number }[] }[] };
}

/** What each `needs=` word asks of the machine, and whether this run has it. */
const capabilities: Readonly<Record<string, boolean>> = { redis: RUN_REDIS_TESTS };

const state: { packed?: Packed; diagnostics: string; results: Map<string, SnippetResult>; redis?: RedisServer; cjs?: string } = { diagnostics: '', results: new Map() };

/** The module of an example: what it is given, then its code as written. */
function moduleOf(snippet: DocSnippet): string {
  const given = snippet.given.length === 0 ? '' : `import { ${snippet.given.join(', ')} } from './snippet-given.js';\n`;
  return `// ${snippet.page}:${snippet.line}\n${given}${snippet.code}\n`;
}

/** The diagnostics of one example's file, with their line numbers moved back to the page. */
function diagnosticsOf(snippet: DocSnippet): string[] {
  const offset = snippet.line - (snippet.given.length === 0 ? 1 : 2);
  return state.diagnostics
    .split('\n')
    .filter((l) => l.startsWith(`src/${snippet.id}.ts(`))
    .map((l) => l.replace(/^src\/[^(]+\((\d+),(\d+)\)/, (_, line: string, col: string) => `${snippet.page}:${Number(line) + offset}:${col}`));
}

beforeAll(async () => {
  const packed = packChunkstream();
  state.packed = packed;
  const runnable = snippets.filter((s) => s.needs.every((n) => capabilities[n] === true));
  const files: Record<string, string> = { 'package.json': '{ "name": "fresh-ts", "private": true, "type": "module" }\n', 'tsconfig.json': strictTsconfig() };
  for (const s of snippets) files[`src/${s.id}.ts`] = moduleOf(s);
  files['list.json'] = JSON.stringify(runnable.map((s) => ({ id: s.id, module: join(packed.dir, 'ts', 'out', `${s.id}.js`) })));
  const ts = makeProject(packed, 'ts', files);
  copyInto(ts, 'test/support/frameworks.ts', 'src/frameworks.ts');
  copyInto(ts, 'test/support/snippet-given.ts', 'src/snippet-given.ts');
  copyInto(ts, 'test/support/snippet-runner.mjs', 'snippet-runner.mjs');
  state.diagnostics = typeCheck(ts);
  if (runnable.some((s) => s.needs.includes('redis'))) state.redis = await startRedis();
  const env = { ...process.env, ...(state.redis ? { REDIS_URL: state.redis.url } : {}) };
  execFileSync(process.execPath, ['snippet-runner.mjs', 'list.json', 'results.json'], { cwd: ts, env, stdio: 'inherit' });
  for (const r of JSON.parse(readFileSync(join(ts, 'results.json'), 'utf8')) as SnippetResult[]) state.results.set(r.id, r);
  state.cjs = makeProject(packed, 'cjs', {
    'package.json': '{ "name": "fresh-cjs", "private": true, "type": "commonjs" }\n',
    // The libraries' own declarations were checked in the project above; here the .cts file's use of them is.
    'tsconfig.json': strictTsconfig({ skipLibCheck: true }),
    'src/check.cts': commonJsCheck(),
  });
}, 300_000);

afterAll(async () => {
  await state.redis?.stop();
  if (state.packed) rmSync(state.packed.dir, { recursive: true, force: true });
});

describe('the packed tarball', () => {
  it('ships the licence the manifest names, the README, the docs and the built code', () => {
    const files = state.packed!.files;
    expect(files).toEqual(expect.arrayContaining(['LICENSE', 'README.md', 'package.json', 'dist/index.js', 'dist/index.d.ts', 'docs/api.md', 'dist/parsers/pdf/vendor/pdf.worker.mjs']));
    expect(readFileSync(join(ROOT, 'LICENSE'), 'utf8')).toMatch(new RegExp(`^${manifest.license} License`));
    expect(files.filter((f) => f.startsWith('src/') || f.startsWith('test/') || f.startsWith('bench/'))).toEqual([]);
  });

  it('has source maps that hold their sources, or point at files it ships', () => {
    const files = new Set(state.packed!.files);
    const maps = [...files].filter((f) => f.endsWith('.js.map'));
    expect(maps.length).toBeGreaterThan(50);
    const project = join(state.packed!.dir, 'ts', 'node_modules', 'chunkstream');
    const missing: string[] = [];
    for (const map of maps) {
      const { sources, sourcesContent } = JSON.parse(readFileSync(join(project, map), 'utf8')) as { sources: string[]; sourcesContent?: (string | null)[] };
      sources.forEach((source, i) => {
        if (typeof sourcesContent?.[i] === 'string') return;
        if (!files.has(posix.normalize(posix.join(posix.dirname(map), source)))) missing.push(`${map} → ${source}`);
      });
    }
    expect(missing).toEqual([]);
  });

  it("gives the PDF sandbox the build's worker, made from the pdfjs-dist the package resolves: no temporary copy", async () => {
    const module = join(state.packed!.dir, 'ts', 'node_modules', 'chunkstream', 'dist', 'parsers', 'pdf', 'pdfjs-worker.js');
    const { workerModuleFile } = (await import(pathToFileURL(module).href)) as typeof import('../src/parsers/pdf/pdfjs-worker.js');
    const temporaryRoot = join(state.packed!.dir, 'worker-temporary');
    mkdirSync(temporaryRoot);
    expect(workerModuleFile({ temporaryRoot })).toMatchObject({ origin: 'prebuilt', path: join(dirname(module), 'vendor', 'pdf.worker.mjs') });
    expect(readdirSync(temporaryRoot)).toEqual([]);
  });

  it('gives every entry types and a condition that require() reaches as well as import', () => {
    for (const path of subpaths) expect(manifest.exports[path], path).toEqual({ types: expect.stringMatching(/\.d\.ts$/), default: expect.stringMatching(/\.js$/) });
  });
});

describe('a strict NodeNext TypeScript project (skipLibCheck off) on the packed package', () => {
  it('finds the examples of README.md and docs/', () => {
    expect(snippets.filter((s) => s.page === 'README.md').length).toBeGreaterThanOrEqual(3);
    expect(new Set(snippets.map((s) => s.page)).size).toBeGreaterThan(5);
  });

  it('type-checks everything but the examples (the given fakes, and every library type they reach)', () => {
    const outside = state.diagnostics.split('\n').filter((l) => l !== '' && !snippets.some((s) => l.startsWith(`src/${s.id}.ts(`)));
    expect(outside).toEqual([]);
  });

  for (const snippet of snippets) {
    const missing = snippet.needs.filter((n) => capabilities[n] !== true);
    const unknown = snippet.needs.filter((n) => !(n in capabilities));
    it(`${snippet.page}:${snippet.line}${snippet.name ? ` (${snippet.name})` : ''} type-checks and runs${missing.length > 0 ? ` [type-checked only: no ${missing.join(', ')}]` : ''}`, () => {
      expect(unknown, 'needs= words the test knows').toEqual([]);
      expect(diagnosticsOf(snippet)).toEqual([]);
      if (missing.length > 0) return;
      const result = state.results.get(snippet.id);
      expect(result, 'the runner reached it').toBeDefined();
      expect(result!.error ?? '', `stdout: ${result!.stdout}\nstderr: ${result!.stderr}`).toBe('');
      expect(result!.ok).toBe(true);
    });
  }
});

describe('what the framework recipes did with the things given to them', () => {
  const tokens = createTokenSizer('cl100k_base');
  const named = (name: string): SnippetResult => {
    const snippet = snippets.find((s) => s.name === name);
    if (snippet === undefined) throw new Error(`no example named ${name}`);
    return state.results.get(snippet.id)!;
  };

  it('Vercel AI SDK: embedMany over every chunk, then over the added ones only', () => {
    const { stdout, report } = named('vercel-ai');
    const guide = readFileSync(join(ROOT, 'samples/guide.md'), 'utf8');
    const options = { maxSize: 512, contextualize: true, documentId: 'guide.md' };
    const before = chunkText(guide, options).chunks;
    const after = chunkText(guide.replace('on a clean machine', 'on a fresh machine'), options).chunks;
    const added = after.filter((c) => !before.some((b) => b.id === c.id));
    expect(added.length).toBeGreaterThanOrEqual(1);
    expect(added.length).toBeLessThan(after.length);
    expect(report.embedded).toEqual([...before, ...added].map((c) => c.embedText ?? c.text));
    expect(Math.max(...report.embedded.map((s) => tokens.size(s)))).toBeLessThanOrEqual(512);
    expect(stdout.trim()).toBe(`${before.length} chunks embedded, then ${added.length} after the edit; ${after.length} rows`);
  });

  it('Mastra: chunkFile, embedMany, createIndex, upsert with chunk ids, query', async () => {
    const { stdout, report } = named('mastra');
    const { chunks, text } = await chunkFile(join(ROOT, 'samples/structures.md'), { maxSize: 256, documentId: 'samples/structures.md' });
    const upsert = report.calls.find((c) => c.method === 'upsert')!;
    expect(report.calls.map((c) => c.method)).toEqual(['createIndex', 'upsert']);
    expect(upsert.ids).toEqual(chunks.map((c) => c.id));
    for (const m of upsert.metadata!) expect(text.slice(m.start, m.end)).toBe(m.text);
    expect(report.embedded.length).toBe(chunks.length);
    expect(Math.max(...report.embedded.map((s) => tokens.size(s)))).toBeLessThanOrEqual(256);
    expect(stdout.trim()).toBe(`${chunks.length} chunks upserted; best match ${chunks[0]!.id}`);
  });
});

describe('what the queue example did', () => {
  it.skipIf(!RUN_REDIS_TESTS)('chunked every job it enqueued, on a Redis of its own', () => {
    const snippet = snippets.find((s) => s.name === 'queue')!;
    const { stdout } = state.results.get(snippet.id)!;
    const jobs = Number(/^(\d+) jobs/.exec(stdout)?.[1]);
    expect(jobs).toBeGreaterThan(3);
    expect(stdout.trim()).toBe(`${jobs} jobs, ${jobs} completed, 0 failed, done: true`);
  });
});

describe('a CommonJS project on the packed package', () => {
  it("require()s the main entry and every subpath, typed from a .cts file, and chunks a string and a PDF", () => {
    const project = state.cjs!;
    expect(typeCheck(project)).toBe('');
    const out = execFileSync(process.execPath, ['out/check.cjs'], { cwd: project, encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual({
      entries: Object.fromEntries(subpaths.map((p) => [p, 'object'])),
      markdownChunks: 2,
      pdfChunks: expect.any(Number),
      pdfPages: expect.any(Number),
    });
    expect(JSON.parse(out).pdfChunks).toBeGreaterThan(0);
  });
});

/** The CommonJS check: `import x = require(…)` compiles to `require()`, so the types and the run are both held. */
function commonJsCheck(): string {
  const names = subpaths.map((p, i) => ({ path: p, local: `entry${i}`, spec: p === '.' ? 'chunkstream' : `chunkstream/${p.slice(2)}` }));
  return [
    ...names.map((n) => `import ${n.local} = require('${n.spec}');`),
    "import chunkstream = require('chunkstream');",
    '',
    'async function main(): Promise<void> {',
    "  const { chunks } = chunkstream.chunkText('# Title\\n\\nA first paragraph.\\n\\n## Part\\n\\nA second one.', { unit: 'chars', maxSize: 40, minSize: 0 });",
    "  const pdf = await chunkstream.chunkFile('samples/handbook.pdf', { maxSize: 256 });",
    '  const entries = {',
    ...names.map((n) => `    '${n.path}': typeof ${n.local},`),
    '  };',
    '  process.stdout.write(JSON.stringify({ entries, markdownChunks: chunks.length, pdfChunks: pdf.chunks.length, pdfPages: pdf.statistics.pages }));',
    '}',
    '',
    'main().then(',
    '  () => process.exit(0),',
    '  (error: unknown) => {',
    '    console.error(error);',
    '    process.exit(1);',
    '  },',
    ');',
    '',
  ].join('\n');
}

// The README's set-up commands are what .ci/run runs; keep the two in step.
describe('the set-up commands', () => {
  it('README.md gives the two, and .ci/run runs the second', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    expect(readme).toContain('npm install --no-audit --no-fund && npm start');
    expect(readme).toContain('npm install --no-audit --no-fund && npm test');
    expect(readFileSync(join(ROOT, '.ci/run'), 'utf8')).toMatch(/^npm install --no-audit --no-fund && npm test$/m);
  });
});
