/**
 * `chunkstream/queue` is the only way in to BullMQ: the core library and the main command must run where bullmq
 * cannot be found. A module resolution hook makes `bullmq` (and `ioredis`) unresolvable in a child process, as on
 * a machine that never installed the optional peer dependency.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ensureBuilt, ROOT } from '../../cli/support.js';

let dir: string;
let hide: string;

beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'chunkstream-entry-'));
  writeFileSync(
    join(dir, 'hooks.mjs'),
    `export async function resolve(specifier, context, next) {
  if (/^(bullmq|ioredis)(\\/|$)/.test(specifier)) {
    const error = new Error("Cannot find package '" + specifier + "' imported from " + context.parentURL);
    error.code = 'ERR_MODULE_NOT_FOUND';
    throw error;
  }
  return next(specifier, context);
}
`,
  );
  hide = join(dir, 'hide-bullmq.mjs');
  writeFileSync(hide, `import { register } from 'node:module';\nregister(new URL('./hooks.mjs', import.meta.url));\n`);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs node with bullmq hidden (or not), from the project root, so `chunkstream` resolves to this package. */
function node(args: string[], hidden = true): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [...(hidden ? ['--import', hide] : []), ...args], { cwd: ROOT, encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('the queue entry point', () => {
  it("is the only one that loads bullmq: import 'chunkstream' works without it", () => {
    const core = node(['--input-type=module', '-e', "const m = await import('chunkstream'); console.log(typeof m.chunkText)"]);
    expect(core.stderr).toBe('');
    expect(core.stdout.trim()).toBe('function');
    // The hook does hide bullmq: the queue entry, which needs it, fails under it.
    const queue = node(['--input-type=module', '-e', "await import('chunkstream/queue')"]);
    expect(queue.status).not.toBe(0);
    expect(queue.stderr).toContain("Cannot find package 'bullmq'");
  });

  it('lets the main command and inspect run without bullmq, and the queue commands say what is missing', () => {
    const run = node([BIN, '-q', '--jobs', '1', 'samples/guide.md']);
    expect(run.status).toBe(0);
    expect(run.stdout.split('\n').length).toBeGreaterThan(2);
    expect(node([BIN, 'inspect', 'samples/guide.md', '--no-color']).status).toBe(0);
    for (const args of [['worker', '--out-dir', join(dir, 'out')], ['status'], ['enqueue', 'samples/guide.md']]) {
      const queue = node([BIN, ...args]);
      expect(queue.status, args.join(' ')).toBe(1);
      expect(queue.stderr).toContain(`chunkstream ${args[0]}: ERR_MISSING_DEPENDENCY The queue commands need the bullmq and ioredis packages`);
    }
    // A usage error is found before bullmq is needed.
    const usage = node([BIN, 'worker', '--concurrency', '0', '--out-dir', 'x']);
    expect(usage.status).toBe(2);
    expect(usage.stderr).toContain('ERR_INVALID_OPTION Invalid option concurrency: must be an integer between 1 and 1024, got 0');
  });

  it('says that ioredis is missing where bullmq 6 is installed without it, instead of failing to reach Redis', () => {
    // BullMQ 6 require()s ioredis from its own folder, past any ESM hook: the project is rebuilt here from links to
    // every installed package but ioredis, and node keeps the links' paths (--preserve-symlinks) when it resolves.
    const project = join(dir, 'no-ioredis');
    mkdirSync(join(project, 'node_modules/chunkstream'), { recursive: true });
    for (const name of readdirSync(join(ROOT, 'node_modules'))) {
      if (name !== 'ioredis') symlinkSync(join(ROOT, 'node_modules', name), join(project, 'node_modules', name));
    }
    for (const name of ['package.json', 'dist']) symlinkSync(join(ROOT, name), join(project, 'node_modules/chunkstream', name));
    const bin = join(project, 'node_modules/chunkstream/dist/cli/main.js');
    const run = (args: string[]) => spawnSync(process.execPath, ['--preserve-symlinks', '--preserve-symlinks-main', ...args], { cwd: project, encoding: 'utf8' });
    const worker = run([bin, 'worker', '--out-dir', join(dir, 'out'), '--redis', 'redis://127.0.0.1:1']);
    expect(worker.status).toBe(1);
    expect(worker.stderr).toContain('chunkstream worker: ERR_MISSING_DEPENDENCY chunkstream/queue connects to Redis through ioredis, an optional peer dependency of bullmq 6: npm install ioredis');
    const library = run(['--input-type=module', '-e', "const { getQueueStatus } = await import('chunkstream/queue'); await getQueueStatus({ redis: 'redis://127.0.0.1:1' }).catch((e) => console.log(e.code))"]);
    expect(library.stdout.trim()).toBe('ERR_MISSING_DEPENDENCY');
  });

  it('is exported as chunkstream/queue, with the names of the queue module (listed in test/index.test.ts)', async () => {
    const names = node(['--input-type=module', '-e', "console.log(JSON.stringify(Object.keys(await import('chunkstream/queue')).sort()))"], false);
    expect(names.stderr).toBe('');
    expect(JSON.parse(names.stdout)).toEqual(Object.keys(await import('../../../src/integrations/queue/index.js')).sort());
  });
});
