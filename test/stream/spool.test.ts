/**
 * A PDF streamed into `parse()` is spooled to a temporary file, which the sandbox reads: the stream holds none of
 * it, gives the blocks `parsePdf` gives the same bytes, and leaves no file behind whether it ends, fails or is
 * destroyed.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Spool } from '../../src/stream/spool.js';
import { parsePdf } from '../../src/parsers/pdf/reader.js';
import { parse } from '../../src/stream/parse.js';
import type { Block } from '../../src/types.js';
import { randomBytesPdf } from '../support/pdf-hostile.js';
import { longPdf } from '../support/pdf-samples.js';

let temporary: string;
let systemTemporary: string | undefined;

beforeEach(() => {
  systemTemporary = process.env.TMPDIR;
  temporary = mkdtempSync(join(tmpdir(), 'chunkstream-spool-test-'));
  // os.tmpdir() reads TMPDIR on every call: the spools of this file go here, where they can be counted.
  process.env.TMPDIR = temporary;
});

afterEach(() => {
  if (systemTemporary === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = systemTemporary;
  rmSync(temporary, { recursive: true, force: true });
});

/** The spooled inputs now in the temporary folder. */
function spooled(): string[] {
  return readdirSync(temporary).map((dir) => join(temporary, dir, 'input')).filter((file) => existsSync(file));
}

/** Waits until the temporary folder is empty, or a second has passed; gives what is left. */
async function leftAfterCleanup(): Promise<string[]> {
  for (let waited = 0; waited < 1000 && readdirSync(temporary).length > 0; waited += 10) await new Promise((r) => setTimeout(r, 10));
  return readdirSync(temporary);
}

describe('Spool', () => {
  it('writes what it is given, in order, and removes it', async () => {
    const spool = new Spool();
    await spool.write(Buffer.from('%PDF-'));
    await spool.write(new Uint8Array(70_000).fill(65));
    const path = await spool.finish();
    expect(path.startsWith(temporary)).toBe(true);
    const bytes = readFileSync(path);
    expect(bytes.length).toBe(70_005);
    expect(bytes.subarray(0, 6).toString('latin1')).toBe('%PDF-A');
    await spool.remove();
    await spool.remove();
    expect(readdirSync(temporary)).toEqual([]);
  });

  it('fails with ERR_WRITE when the temporary folder cannot be written', async () => {
    process.env.TMPDIR = join(temporary, 'missing', 'folder');
    await expect(new Spool().write(Buffer.from('x'))).rejects.toMatchObject({ name: 'ChunkError', code: 'ERR_WRITE' });
  });
});

describe('a streamed PDF', () => {
  const bytes = longPdf(2);

  it('is read from a spooled file, gives the blocks parsePdf gives, and leaves nothing behind', async () => {
    const seen: number[] = [];
    const blocks: Block[] = [];
    const sink = new Writable({
      objectMode: true,
      write: (block: Block, _e, cb) => {
        // While the blocks come, the whole input is on disk, not in the stream.
        if (blocks.length === 0) seen.push(...spooled().map((file) => statSync(file).size));
        blocks.push(block);
        cb();
      },
    });
    // Small writes, as a file stream gives them.
    const pieces = Array.from({ length: Math.ceil(bytes.length / 4096) }, (_, i) => bytes.subarray(i * 4096, (i + 1) * 4096));
    await pipeline(Readable.from(pieces), parse({ format: 'auto' }), sink);
    expect(seen).toEqual([bytes.length]);
    expect(blocks).toEqual((await parsePdf(bytes)).blocks);
    expect(await leftAfterCleanup()).toEqual([]);
  });

  it('that cannot be read fails with ERR_PDF_INVALID and leaves nothing behind', async () => {
    const junk = randomBytesPdf(50_000);
    await expect(pipeline(Readable.from([junk]), parse({ format: 'pdf' }), new Writable({ objectMode: true, write: (_b, _e, cb) => cb() }))).rejects.toMatchObject({
      code: 'ERR_PDF_INVALID',
    });
    expect(await leftAfterCleanup()).toEqual([]);
  });

  it('leaves nothing behind when the stream is destroyed while the input arrives', async () => {
    const stream = parse({ format: 'pdf' });
    stream.on('error', () => {});
    await new Promise<void>((resolve) => stream.write(bytes.subarray(0, 10_000), () => resolve()));
    expect(spooled()).toHaveLength(1);
    stream.destroy();
    expect(await leftAfterCleanup()).toEqual([]);
  });

  it('leaves nothing behind when the process exits while the input arrives', () => {
    const script = [
      `import { parse } from ${JSON.stringify(new URL('../../src/stream/parse.ts', import.meta.url).href)};`,
      "const stream = parse({ format: 'pdf' });",
      "stream.on('error', () => {});",
      "stream.write(Buffer.from('%PDF-1.4\\n' + 'x'.repeat(20000)), () => process.exit(0));",
    ].join('\n');
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      env: { ...process.env, TMPDIR: temporary },
      encoding: 'utf8',
    });
    expect(run.status, run.stderr).toBe(0);
    // tsx keeps a cache of its own there.
    expect(readdirSync(temporary).filter((name) => name.startsWith('chunkstream-'))).toEqual([]);
  });

  it('over maxPdfBytes fails with ERR_PDF_TOO_LARGE and leaves nothing behind', async () => {
    const pieces = [bytes.subarray(0, 4096), bytes.subarray(4096)];
    await expect(pipeline(Readable.from(pieces), parse({ format: 'pdf', maxPdfBytes: 5000 }), new Writable({ objectMode: true, write: (_b, _e, cb) => cb() }))).rejects.toMatchObject({
      code: 'ERR_PDF_TOO_LARGE',
    });
    expect(await leftAfterCleanup()).toEqual([]);
  });
});
