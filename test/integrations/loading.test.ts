/**
 * The frameworks are optional peers: `import 'chunkstream'` must not load them, and the subpath entries must.
 * remark is loaded on first use, which chunking ordinary Markdown may never come to. Each import runs in a fresh
 * Node process on the built package (by its own name, through package.json's exports) with a module hook that
 * records every URL resolved, and a wrapper of CommonJS resolution for what is required.
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
  // The hooks above see imports only; modules loaded with require (of ES modules too) are recorded here.
  writeFileSync(
    join(dir, 'requires.cjs'),
    `const Module = require('node:module');
const { appendFileSync } = require('node:fs');
const { pathToFileURL } = require('node:url');
const resolve = Module._resolveFilename;
Module._resolveFilename = function (...args) {
  const file = resolve.apply(this, args);
  if (file.startsWith('/')) appendFileSync(process.env.CHUNKSTREAM_LOAD_LOG, pathToFileURL(file).href + '\\n');
  return file;
};
`,
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The URLs resolved (imported or required) while a fresh process imports `specifier` from inside the package, then runs `then`. */
function modulesLoadedBy(specifier: string, then = ''): string[] {
  const log = join(dir, `${specifier.replace(/\W/g, '_')}.log`);
  writeFileSync(log, '');
  const register = `import { register } from 'node:module'; register(${JSON.stringify(pathToFileURL(join(dir, 'hooks.mjs')).href)}, { data: { log: ${JSON.stringify(log)} } });`;
  execFileSync(process.execPath, ['--require', join(dir, 'requires.cjs'), '--import', `data:text/javascript,${encodeURIComponent(register)}`, '--input-type=module', '-e', `const m = await import(${JSON.stringify(specifier)}); ${then}`], {
    cwd: ROOT,
    env: { ...process.env, CHUNKSTREAM_LOAD_LOG: log },
  });
  return readFileSync(log, 'utf8').split('\n').filter(Boolean);
}

const framework = (url: string) => /node_modules\/@(langchain|llamaindex)\//.test(url);

describe('optional framework peers', () => {
  it("import 'chunkstream' loads neither LangChain nor LlamaIndex", () => {
    const loaded = modulesLoadedBy('chunkstream');
    expect(loaded.some((u) => u.endsWith('/dist/index.js'))).toBe(true);
    expect(loaded.filter(framework)).toEqual([]);
  });

  it("import 'chunkstream' loads no part of the report, which 'chunkstream/report' does (so the check can fail)", () => {
    const report = (url: string) => url.includes('/dist/report/');
    expect(modulesLoadedBy('chunkstream').filter(report)).toEqual([]);
    expect(modulesLoadedBy('chunkstream/report').filter(report).length).toBeGreaterThan(3);
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

describe('other formats and the parse pool, loaded on first use', () => {
  const otherFormats = (url: string) => /node_modules\/(htmlparser2|domutils|domhandler|entities|mammoth|pdfjs-dist|piscina)\/|\/dist\/parsers\/(pdf\/(?!parse-pdf\.js)|docx\/read)/.test(url);

  it("import 'chunkstream' and chunking Markdown load no HTML tokenizer, Word or PDF reader, nor the parse thread pool", () => {
    const loaded = modulesLoadedBy('chunkstream', "m.chunkText('# Title\\n\\nSome text.\\n');");
    expect(loaded.some((u) => u.endsWith('/dist/index.js'))).toBe(true);
    expect(loaded.filter(otherFormats)).toEqual([]);
  });

  it('parseHtml loads htmlparser2 and parsePdf the PDF reader (so the check above can fail)', () => {
    const loaded = modulesLoadedBy('chunkstream', "m.parseHtml('<p>x</p>'); await m.parsePdf(new Uint8Array(0)).catch(() => {});");
    expect(loaded.some((u) => u.includes('node_modules/htmlparser2/'))).toBe(true);
    expect(loaded.some((u) => u.endsWith('/dist/parsers/pdf/reader.js'))).toBe(true);
  });
});

describe('remark, loaded on first use', () => {
  const remark = (url: string) => /node_modules\/(unified|remark-[a-z]+|micromark[a-z-]*|mdast-util-from-markdown)\/|\/dist\/parsers\/markdown\/vendor\//.test(url);

  it('is not loaded to chunk Markdown whose blocks the line scanner reads and whose inline content does not matter', () => {
    const loaded = modulesLoadedBy('chunkstream', "m.chunkText('# Title\\n\\nSome `code` text.\\n\\n- a\\n- b\\n\\n| a | b |\\n| - | - |\\n| 1 | 2 |\\n\\n```js\\nx\\n```\\n');");
    expect(loaded.some((u) => u.endsWith('/dist/index.js'))).toBe(true);
    expect(loaded.filter(remark)).toEqual([]);
  });

  it('is loaded for a block whose inline content matters (so the check above can fail), from the one bundle the build writes', () => {
    const loaded = modulesLoadedBy('chunkstream', "m.chunkText('# A *b*\\n\\nAn ![image](i.png).\\n');");
    expect(loaded.some((u) => u.endsWith('/dist/parsers/markdown/vendor/remark.cjs'))).toBe(true);
    // Not one by one: the some 200 modules of the family cost five times the bundle's load.
    expect(loaded.filter((u) => /node_modules\/(unified|remark-[a-z]+|micromark[a-z-]*|mdast-util-[a-z-]+)\//.test(u) && !u.includes('mdast-util-to-string'))).toEqual([]);
  });
});
