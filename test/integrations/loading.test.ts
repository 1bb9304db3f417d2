/**
 * The frameworks are optional peers: `import 'chunkstream'` must not load them, and the subpath entries must.
 * Each import runs in a fresh Node process on the built package (by its own name, through package.json's
 * exports) with a module hook that records every URL resolved.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, ROOT } from '../cli/support.js';

let dir: string;

beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'chunkstream-loading-'));
  writeFileSync(
    join(dir, 'hooks.mjs'),
    `import { appendFileSync } from 'node:fs';
let log;
export function initialize(data) { log = data.log; }
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  appendFileSync(log, result.url + '\\n');
  return result;
}
`,
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The URLs resolved while a fresh process imports `specifier` from inside the package. */
function modulesLoadedBy(specifier: string): string[] {
  const log = join(dir, `${specifier.replace(/\W/g, '_')}.log`);
  writeFileSync(log, '');
  const register = `import { register } from 'node:module'; register(${JSON.stringify(pathToFileURL(join(dir, 'hooks.mjs')).href)}, { data: { log: ${JSON.stringify(log)} } });`;
  execFileSync(process.execPath, ['--import', `data:text/javascript,${encodeURIComponent(register)}`, '--input-type=module', '-e', `await import(${JSON.stringify(specifier)});`], { cwd: ROOT });
  return readFileSync(log, 'utf8').split('\n').filter(Boolean);
}

const framework = (url: string) => /node_modules\/@(langchain|llamaindex)\//.test(url);

describe('optional framework peers', () => {
  it("import 'chunkstream' loads neither LangChain nor LlamaIndex", () => {
    const loaded = modulesLoadedBy('chunkstream');
    expect(loaded.some((u) => u.endsWith('/dist/index.js'))).toBe(true);
    expect(loaded.filter(framework)).toEqual([]);
  });

  it("'chunkstream/langchain' and 'chunkstream/llamaindex' load their framework (so the check above can fail)", () => {
    const langchain = modulesLoadedBy('chunkstream/langchain');
    expect(langchain.some((u) => u.includes('node_modules/@langchain/core/'))).toBe(true);
    expect(langchain.some((u) => u.includes('node_modules/@llamaindex/'))).toBe(false);
    const llamaindex = modulesLoadedBy('chunkstream/llamaindex');
    expect(llamaindex.some((u) => u.includes('node_modules/@llamaindex/core/'))).toBe(true);
    expect(llamaindex.some((u) => u.includes('node_modules/@langchain/'))).toBe(false);
  });
});
