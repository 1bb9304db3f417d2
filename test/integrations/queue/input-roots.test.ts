/**
 * Confined inputs, without Redis: a job is plain data, so whatever a queue could hold is handed to the processor
 * here. A worker reads only under its input roots, by real path; everything else fails for good, with a code that
 * names the path, and writes nothing.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { open, readlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { UnrecoverableError } from 'bullmq';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChunkError } from '../../../src/errors.js';
import { checkOpened, isUnderRoot, openConfined, resolveInputRoots } from '../../../src/integrations/queue/input-roots.js';
import { readJobData, type ChunkJobData } from '../../../src/integrations/queue/job-data.js';
import { enqueueFiles } from '../../../src/integrations/queue/enqueue.js';
import { createChunkProcessor, type ChunkJobLike } from '../../../src/integrations/queue/processor.js';
import { BIN, ensureBuilt, ROOT } from '../../cli/support.js';
import { fcParams } from '../../support/property.js';

let dir: string;
/** The root: notes.md, sub/deep.md, a link to sub, a link out of the root and a link to a file outside. */
let root: string;
/** A folder beside the root, holding secret.md. */
let outside: string;
let outDir: string;

const NOTE = '# Notes\n\nA note inside the root.\n';

beforeAll(() => {
  ensureBuilt();
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'chunkstream-roots-')));
  root = join(dir, 'root');
  outside = join(dir, 'outside');
  outDir = join(dir, 'out');
  mkdirSync(join(root, 'sub'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(root, 'notes.md'), NOTE);
  writeFileSync(join(root, 'sub/deep.md'), '# Deep\n\nFurther down.\n');
  writeFileSync(join(outside, 'secret.md'), '# Secret\n\nNot for the queue.\n');
  symlinkSync(join(root, 'sub'), join(root, 'inside-link'));
  symlinkSync(outside, join(root, 'out-link'));
  symlinkSync(join(outside, 'secret.md'), join(root, 'leak.md'));
  symlinkSync(root, join(dir, 'root-link'));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

function job(data: Partial<ChunkJobData>): ChunkJobLike {
  return { id: '1', attemptsStarted: 1, data: { version: 1, source: 'doc.md', output: 'doc.md.jsonl', format: 'markdown', chunkOptions: {}, parseOptions: {}, ...data } };
}

function rejection(p: Promise<unknown>): Promise<Error> {
  return p.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: Error) => error,
  );
}

/** No output and no temporary file anywhere under the output folder. */
function nothingWritten(): void {
  expect(existsSync(outDir) ? readdirSync(outDir, { recursive: true }) : []).toEqual([]);
}

describe('confined inputs', () => {
  const processor = (inputRoots?: string[]) => createChunkProcessor({ outDir, workerId: 'test:1', ...(inputRoots ? { inputRoots } : {}) });

  it('refuses /etc/passwd with ERR_INPUT_OUTSIDE_ROOTS, naming it, for good, and writes nothing', async () => {
    const error = await rejection(processor([root])(job({ path: '/etc/passwd' })));
    expect(error).toBeInstanceOf(UnrecoverableError);
    expect(error.message).toBe(`ERR_INPUT_OUTSIDE_ROOTS Refused to read /etc/passwd: it is outside this worker's input roots (${root})`);
    nothingWritten();
  });

  it('refuses a link inside a root that leads out of it, naming where it leads', async () => {
    for (const path of [join(root, 'leak.md'), join(root, 'out-link/secret.md')]) {
      const error = await rejection(processor([root])(job({ path })));
      expect(error).toBeInstanceOf(UnrecoverableError);
      expect(error.message).toBe(`ERR_INPUT_OUTSIDE_ROOTS Refused to read ${path} (it resolves to ${join(outside, 'secret.md')}): it is outside this worker's input roots (${root})`);
    }
    nothingWritten();
  });

  it("refuses '..' steps, NUL bytes and relative paths when the job is read, before anything is opened", async () => {
    const cases: [string, string][] = [
      [`${root}${sep}..${sep}outside${sep}secret.md`, "path must not contain '..' steps"],
      [`${root}${sep}notes.md\0.png`, 'path must not contain NUL bytes'],
      ['notes.md', 'path must be an absolute path'],
    ];
    for (const [path, rule] of cases) {
      const error = await rejection(processor([root])(job({ path })));
      expect(error).toBeInstanceOf(UnrecoverableError);
      expect(error.message).toBe(`ERR_INVALID_INPUT Invalid job data: ${rule}, got ${JSON.stringify(path)}`);
    }
    nothingWritten();
  });

  it('reads through links that stay inside the roots, and under a root given through a link, what chunkstream FILE writes', async () => {
    const path = join(root, 'inside-link/deep.md');
    await processor([join(dir, 'root-link')])(job({ path, source: 'deep.md', output: 'deep.md.jsonl' }));
    const expected = spawnSync(process.execPath, [BIN, '-q', '--jobs', '1', 'deep.md'], { cwd: join(root, 'sub'), encoding: 'utf8' }).stdout;
    expect(readFileSync(join(outDir, 'deep.md.jsonl'), 'utf8')).toBe(expected);
    rmSync(outDir, { recursive: true });
  });

  it('without roots, reads inline documents only, and says so when a job names a file', async () => {
    const result = await processor()(job({ content: Buffer.from(NOTE).toString('base64') }));
    expect(result.chunks).toBe(1);
    expect(readFileSync(join(outDir, 'doc.md.jsonl'), 'utf8')).toContain('A note inside the root.');
    rmSync(outDir, { recursive: true });
    const error = await rejection(processor()(job({ path: join(root, 'notes.md') })));
    expect(error).toBeInstanceOf(UnrecoverableError);
    expect(error.message).toBe(`ERR_INPUT_OUTSIDE_ROOTS Refused to read ${join(root, 'notes.md')}: this worker has no input roots and reads inline documents only`);
    nothingWritten();
  });

  it('refuses a folder or a device under a root, and fails a missing file for a retry', async () => {
    const folder = await rejection(processor([root])(job({ path: join(root, 'sub') })));
    expect(folder).toBeInstanceOf(UnrecoverableError);
    expect(folder.message).toBe(`ERR_INVALID_INPUT Refused to read ${join(root, 'sub')}: not a file`);
    const device = await rejection(processor(['/dev'])(job({ path: '/dev/zero' })));
    expect(device.message).toBe('ERR_INVALID_INPUT Refused to read /dev/zero: not a file');
    const missing = await rejection(processor([root])(job({ path: join(root, 'gone.md') })));
    expect(missing).not.toBeInstanceOf(UnrecoverableError);
    expect(missing.message).toMatch(/^ERR_READ ENOENT/);
    nothingWritten();
  });

  it('confines the tokenizer files a job names as it confines its input, and never shows what it refused', async () => {
    const tokenizers = join(root, 'tokenizers');
    cpSync(join(ROOT, 'test/fixtures/tokenizers/wordpiece'), join(tokenizers, 'wordpiece'), { recursive: true });
    symlinkSync('/etc/passwd', join(tokenizers, 'passwd.json'));
    const fifo = join(tokenizers, 'pipe.json');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const inline = (tokenizer: string) => job({ content: Buffer.from(NOTE).toString('base64'), chunkOptions: { unit: 'tokens', tokenizer } });
    const refusals: [string[] | undefined, string, string][] = [
      [[root], '/etc/passwd', `ERR_INPUT_OUTSIDE_ROOTS Refused to read the chunkOptions.tokenizer /etc/passwd: it is outside this worker's input roots (${root})`],
      [[root], join(tokenizers, 'passwd.json'), `ERR_INPUT_OUTSIDE_ROOTS Refused to read the chunkOptions.tokenizer ${join(tokenizers, 'passwd.json')} (it resolves to /etc/passwd): it is outside this worker's input roots (${root})`],
      [undefined, join(tokenizers, 'wordpiece'), `ERR_INPUT_OUTSIDE_ROOTS Refused to read the chunkOptions.tokenizer ${join(tokenizers, 'wordpiece')}: this worker has no input roots and reads inline documents only`],
      [[root], 'wordpiece/tokenizer.json', `ERR_INVALID_INPUT Invalid job data: chunkOptions.tokenizer must be a bundled encoding or an absolute path without '..' steps, got "wordpiece/tokenizer.json"`],
      // A pipe would hold the worker, which reads its options synchronously, for ever.
      [[root], fifo, `ERR_INVALID_INPUT Refused to read the chunkOptions.tokenizer ${fifo}: not a file`],
    ];
    for (const [roots, tokenizer, message] of refusals) {
      const error = await rejection(processor(roots)(inline(tokenizer)));
      expect(error).toBeInstanceOf(UnrecoverableError);
      expect(error.message).toBe(message);
    }
    nothingWritten();
    const result = await processor([root])(inline(join(tokenizers, 'wordpiece')));
    expect(result.chunks).toBe(1);
    rmSync(outDir, { recursive: true });
    // enqueue says which tokenizer file the workers would refuse (nothing to enqueue: Redis is not needed).
    const tokenizer = join(tokenizers, 'wordpiece');
    expect((await enqueueFiles([], { chunkOptions: { unit: 'tokens', tokenizer } })).tokenizerOutsideRoots).toBe(tokenizer);
    expect((await enqueueFiles([], { chunkOptions: { unit: 'tokens', tokenizer }, inputRoots: [root] })).tokenizerOutsideRoots).toBeUndefined();
  });

  it('refuses roots that are not folders when the processor is made', () => {
    expect(() => processor([join(dir, 'nowhere')])).toThrow(expect.objectContaining({ code: 'ERR_INVALID_OPTION', message: expect.stringContaining(`Invalid option inputRoots: ${join(dir, 'nowhere')} cannot be resolved`) }));
    expect(() => processor([join(root, 'notes.md')])).toThrow(expect.objectContaining({ code: 'ERR_INVALID_OPTION', message: `Invalid option inputRoots: ${join(root, 'notes.md')} is not a folder` }));
  });

  it('checks the file it opened, not the path: a file opened elsewhere is refused though its path is inside', async () => {
    // What a link swapped in between the check of the path and the open would give: an open file outside the root.
    const handle = await open(join(outside, 'secret.md'), 'r');
    try {
      const inside = join(root, 'notes.md');
      await expect(checkOpened(handle, inside, inside, [root])).rejects.toMatchObject({ code: 'ERR_INPUT_OUTSIDE_ROOTS', message: expect.stringContaining(`Refused to read ${inside}`) });
    } finally {
      await handle.close();
    }
  });

  it('opens only files under the root, whatever path of names, links, . and .. a job gives', async () => {
    const roots = resolveInputRoots([root]);
    const step = fc.constantFrom('notes.md', 'sub', 'deep.md', 'inside-link', 'out-link', 'leak.md', 'secret.md', 'outside', '..', '.', '');
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 5 }), async (steps) => {
        const path = [root, ...steps].join(sep);
        try {
          readJobData({ ...(job({ path }).data as object) });
        } catch (error) {
          // Refused as data: only for a '..' step.
          expect(steps).toContain('..');
          expect((error as ChunkError).code).toBe('ERR_INVALID_INPUT');
          return;
        }
        let handle;
        try {
          handle = await openConfined(path, roots);
        } catch (error) {
          const code = (error as ChunkError | NodeJS.ErrnoException).code;
          expect(['ERR_INPUT_OUTSIDE_ROOTS', 'ERR_INVALID_INPUT', 'ENOENT', 'ENOTDIR']).toContain(code);
          return;
        }
        try {
          const opened = await readlink(`/proc/self/fd/${handle.fd}`).catch(() => realpathSync(path));
          expect(isUnderRoot(opened, root)).toBe(true);
          expect((await handle.readFile('utf8')).includes('Not for the queue')).toBe(false);
        } finally {
          await handle.close();
        }
      }),
      fcParams(150),
    );
  });
});
