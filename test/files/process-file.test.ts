import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chunkFile, chunkText } from '../../src/api/chunk.js';
import type { ChunkOptions } from '../../src/config.js';
import { processFile, type FileBatch } from '../../src/files/process-file.js';

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'chunkstream-process-file-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Markdown with text outside ASCII (two- and three-byte UTF-8, and pairs of surrogates), in many sections. */
function document(sections: number): string {
  const out = ['# Überblick\n'];
  for (let i = 0; i < sections; i++) out.push(`## Teil ${i} — 日本語 🙂\n`, `Absatz ${i}: ${'Wörter fließen, 文字も流れる。 '.repeat(3 + (i % 7))}\n`);
  return out.join('\n');
}

/** Runs one file through `processFile`, keeping each batch as it came. */
async function batchesOf(text: string, chunkOptions: ChunkOptions, batchBytes: number): Promise<FileBatch[]> {
  const path = join(dir, `doc-${batchBytes}.md`);
  writeFileSync(path, text);
  const batches: FileBatch[] = [];
  const result = await processFile({ path, source: path, format: 'markdown', bytes: Buffer.byteLength(text) }, { chunkOptions, parseOptions: {}, batchBytes }, (b) => {
    batches.push(b);
  });
  expect(result.error).toBeUndefined();
  expect(result.report.chunks).toBe(batches.reduce((n, b) => n + b.chunks, 0));
  return batches;
}

describe('processFile batches', () => {
  it('hands over the JSON lines of chunkText as UTF-8, each batch in a buffer of its own that can be transferred', async () => {
    const text = document(60);
    const options: ChunkOptions = { maxSize: 64 };
    const batches = await batchesOf(text, options, 1024);
    expect(batches.length).toBeGreaterThan(3);
    const path = join(dir, 'doc-1024.md');
    const expected = chunkText(text, { ...options, documentId: path, origin: path }).chunks.map((c) => `${JSON.stringify({ ...c, source: path })}\n`);
    // Transferred as a worker transfers them: a batch that shared its buffer with another would be emptied here.
    const moved = batches.map((b) => structuredClone(b.bytes, { transfer: [b.bytes.buffer as ArrayBuffer] }));
    expect(new Set(batches.map((b) => b.bytes.buffer)).size).toBe(batches.length);
    expect(Buffer.concat(moved).toString('utf8')).toBe(expected.join(''));
    for (const bytes of moved) expect(Buffer.from(bytes).toString('utf8').endsWith('\n')).toBe(true);
    expect(batches.map((b) => b.bytesRead)).toEqual([...batches.map((b) => b.bytesRead)].sort((a, b) => a - b));
  });

  it('keeps a line longer than the batch whole, in one batch', async () => {
    const text = document(8);
    const options: ChunkOptions = { maxSize: 4000, unit: 'chars' };
    const batches = await batchesOf(text, options, 256);
    const lines = Buffer.concat(batches.map((b) => b.bytes)).toString('utf8').split('\n').filter(Boolean);
    expect(lines.length).toBe(chunkText(text, options).chunks.length);
    expect(lines.map((l) => JSON.parse(l).text).join('')).toBe(chunkText(text, options).chunks.map((c) => c.text).join(''));
    expect(batches.every((b) => Buffer.from(b.bytes).toString('utf8').endsWith('\n'))).toBe(true);
  });
});

describe('processFile with parents', () => {
  it('writes each parent as a line of type parent just before the first chunk it holds, and counts chunks only', async () => {
    const text = document(40);
    // Parent windows of 128 tokens over chunks of 48: sections of several parents, across batches of 512 bytes.
    const options: ChunkOptions = { maxSize: 48, parents: { maxSize: 128 } };
    const lines = Buffer.concat((await batchesOf(text, options, 512)).map((b) => b.bytes))
      .toString('utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { type?: string; id: string; parentId?: string; source: string });
    const path = join(dir, 'doc-512.md');
    const { chunks, parents = [] } = chunkText(text, { ...options, documentId: path, origin: path });
    const expected: unknown[] = [];
    let current: string | undefined;
    for (const c of chunks) {
      if (c.parentId !== current) {
        current = c.parentId;
        expected.push({ type: 'parent', ...parents.find((p) => p.id === current), source: path });
      }
      expected.push({ ...c, source: path });
    }
    expect(parents.length).toBeGreaterThan(40);
    expect(lines).toEqual(JSON.parse(JSON.stringify(expected)));
  });
});

describe('processFile errors', () => {
  /** A system error as Node's file-system calls make them. */
  const systemError = (code: string, syscall: string): NodeJS.ErrnoException =>
    Object.assign(new Error(`${code}: failure, ${syscall}`), { code, syscall, errno: -1 });

  it('fails a file whose output cannot be written with ERR_WRITE, and one that cannot be read with ERR_READ', async () => {
    const path = join(dir, 'errors.md');
    writeFileSync(path, document(4));
    const input = { path, source: path, format: 'markdown' as const, bytes: 1 };
    const config = { chunkOptions: { maxSize: 64 }, parseOptions: {}, batchBytes: 256 };
    for (const [code, syscall] of [['ENOSPC', 'write'], ['EDQUOT', 'write'], ['EIO', 'write'], ['EROFS', 'open']]) {
      const result = await processFile(input, config, () => {
        throw systemError(code as string, syscall as string);
      });
      expect(result.error).toEqual({ code: 'ERR_WRITE', message: `${code}: failure` });
    }
    const missing = await processFile({ ...input, path: join(dir, 'absent.md') }, config, () => undefined);
    expect(missing.error?.code).toBe('ERR_READ');
  });
});

describe('processFile warnings', () => {
  it("reports the reader's warnings as chunkFile's statistics do, and none for a clean file", async () => {
    const latin1 = join(dir, 'latin1.txt');
    writeFileSync(latin1, Buffer.from('caf\xe9 cr\xe8me\n\nna\xefve\n', 'latin1'));
    const clean = join(dir, 'clean.txt');
    writeFileSync(clean, 'café\n');
    const config = { chunkOptions: { maxSize: 64 }, parseOptions: {}, batchBytes: 1024 };
    const bad = await processFile({ path: latin1, source: latin1, format: 'text' }, config, () => {});
    expect(bad.error).toBeUndefined();
    expect(bad.report.warnings).toEqual(['invalid UTF-8 replaced with U+FFFD (×3)']);
    expect((await chunkFile(latin1, { maxSize: 64 })).statistics.warnings).toEqual(bad.report.warnings);
    expect((await processFile({ path: clean, source: clean, format: 'text' }, config, () => {})).report).not.toHaveProperty('warnings');
  });
});
