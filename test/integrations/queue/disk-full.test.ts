/**
 * A full output folder. The processor runs in a child process whose output folder is a 64 KiB tmpfs, mounted in a
 * mount namespace of its own (`unshare`: as root, or as a user mapped to root where user namespaces are allowed),
 * so nothing outside the child sees the mount. Where neither can mount, the kernel's full device stands in: the
 * job's temporary file is made a link to /dev/full, whose writes fail with ENOSPC. The test says which it used.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { UnrecoverableError } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChunkProcessor, type ChunkJobLike } from '../../../src/integrations/queue/processor.js';
import { ensureBuilt, ROOT } from '../../cli/support.js';

let dir: string;

beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'chunkstream-full-'));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** About 200 KB of Markdown: its JSON lines cannot fit in 64 KiB. */
const BIG = `# Big\n\n${'A sentence that fills the disk, one chunk after another. '.repeat(40).concat('\n\n').repeat(90)}`;
const SMALL = '# Small\n\nFits.\n';

/** The job of an inline document, as the queue would hand it over (the child builds the same). */
function job(id: string, text: string): ChunkJobLike {
  return { id, attemptsStarted: 1, data: { version: 1, source: `${id}.md`, output: `${id}.md.jsonl`, format: 'markdown', chunkOptions: {}, parseOptions: {}, content: Buffer.from(text).toString('base64') } };
}

/** What the child reports. */
interface Outcome {
  fsBytes: number;
  big: { name: string; message: string } | 'completed';
  afterBig: string[];
  small: number | string;
  afterSmall: string[];
}

/** The child: the built processor, a big job and then a small one, into the folder given. */
function childScript(): string {
  const processor = pathToFileURL(join(ROOT, 'dist/integrations/queue/processor.js')).href;
  return `
import { readdirSync, readFileSync, statfsSync } from 'node:fs';
import { createChunkProcessor } from ${JSON.stringify(processor)};
const [out, bigFile, smallFile] = process.argv.slice(2);
const [big, small] = [bigFile, smallFile].map((f) => readFileSync(f, 'utf8'));
const run = createChunkProcessor({ outDir: out, workerId: 'full' });
const job = (id, text) => ({ id, attemptsStarted: 1, data: { version: 1, source: id + '.md', output: id + '.md.jsonl', format: 'markdown', chunkOptions: {}, parseOptions: {}, content: Buffer.from(text).toString('base64') } });
const s = statfsSync(out);
const outcome = { fsBytes: s.blocks * s.bsize };
try { await run(job('big', big)); outcome.big = 'completed'; } catch (e) { outcome.big = { name: e.name, message: e.message }; }
outcome.afterBig = readdirSync(out);
try { outcome.small = (await run(job('small', small))).chunks; } catch (e) { outcome.small = e.message; }
outcome.afterSmall = readdirSync(out);
console.log(JSON.stringify(outcome));
`;
}

/** Runs the child on a fresh 64 KiB tmpfs at `out`; undefined when no mount namespace could be had here. */
function onTmpfs(out: string): Outcome | undefined {
  mkdirSync(out);
  const script = join(dir, 'child.mjs');
  writeFileSync(script, childScript());
  // The documents go by file: one argument may not exceed 128 KiB.
  const [big, small] = [join(dir, 'big.md'), join(dir, 'small.md')];
  writeFileSync(big, BIG);
  writeFileSync(small, SMALL);
  const mountAndRun = 'mount -t tmpfs -o size=64k tmpfs "$1" && exec "$2" "$3" "$1" "$4" "$5"';
  const namespaces = process.getuid?.() === 0 ? [['--mount'], ['--user', '--map-root-user', '--mount']] : [['--user', '--map-root-user', '--mount']];
  for (const flags of namespaces) {
    const r = spawnSync('unshare', [...flags, '--propagation', 'private', 'sh', '-c', mountAndRun, 'sh', out, process.execPath, script, big, small], { encoding: 'utf8' });
    if (r.status === 0) return JSON.parse(r.stdout) as Outcome;
    if (r.error !== undefined || !/mount|unshare|permission|not permitted/i.test(r.stderr)) throw new Error(`the child failed: ${r.error ?? r.stderr}`);
  }
  return undefined;
}

describe('a full output folder', () => {
  it('fails the job with ERR_WRITE saying the file system is full, for a retry, and leaves no partial file', async () => {
    const out = join(dir, 'out');
    const outcome = onTmpfs(out);
    if (outcome !== undefined) {
      console.log('disk full: a 64 KiB tmpfs in a mount namespace of its own');
      expect(outcome.fsBytes).toBe(64 * 1024);
      expect(outcome.big).toEqual({ name: 'Error', message: `ERR_WRITE Cannot write ${join(out, 'big.md.jsonl')}: its file system is full (ENOSPC); nothing was left in place` });
      expect(outcome.afterBig).toEqual([]);
      // The space the failed job took is free again: a small job fits.
      expect(outcome.small).toBe(1);
      expect(outcome.afterSmall).toEqual(['small.md.jsonl']);
      return;
    }
    console.log('disk full: no mount namespace here, so the temporary file is a link to /dev/full (writes fail with ENOSPC)');
    mkdirSync(out, { recursive: true });
    symlinkSync('/dev/full', join(out, '.big.md.jsonl.big.1.tmp'));
    const run = createChunkProcessor({ outDir: out, workerId: 'full' });
    const error = await run(job('big', BIG)).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(UnrecoverableError);
    expect(error?.message).toBe(`ERR_WRITE Cannot write ${join(out, 'big.md.jsonl')}: its file system is full (ENOSPC); nothing was left in place`);
    expect(readdirSync(out)).toEqual([]);
    expect(existsSync(join(out, 'big.md.jsonl'))).toBe(false);
  });
});
