import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dirOutput, fileOutput, openAtomic, outDirPath } from '../../src/files/output.js';
import type { InputFile } from '../../src/files/inputs.js';
import { tempDir } from '../support/temp-dir.js';

const input = (source: string): InputFile => ({ path: source, source, format: 'markdown', bytes: 1 });

describe('output', () => {
  it('renames an atomic file into place on commit, and leaves nothing on discard', async () => {
    const dir = tempDir('out');
    const kept = await openAtomic(join(dir, 'kept.jsonl'));
    kept.stream.write('a\n');
    expect(readdirSync(dir)).toEqual([`.kept.jsonl.${process.pid}.tmp`]);
    await kept.commit();
    expect(readFileSync(join(dir, 'kept.jsonl'), 'utf8')).toBe('a\n');
    writeFileSync(join(dir, 'old.jsonl'), 'old\n');
    const dropped = await openAtomic(join(dir, 'old.jsonl'));
    dropped.stream.write('new\n');
    await dropped.discard();
    expect(readdirSync(dir).sort()).toEqual(['kept.jsonl', 'old.jsonl']);
    expect(readFileSync(join(dir, 'old.jsonl'), 'utf8')).toBe('old\n');
  });

  it('--out: one file for the run, committed by finish(true) only', async () => {
    const dir = tempDir('out');
    const ok = await fileOutput(join(dir, 'all.jsonl'));
    await ok.open(input('a.md')).write('1\n');
    await ok.open(input('b.md')).write('2\n');
    await ok.finish(true);
    expect(readFileSync(join(dir, 'all.jsonl'), 'utf8')).toBe('1\n2\n');
    const failed = await fileOutput(join(dir, 'failed.jsonl'));
    await failed.open(input('a.md')).write('1\n');
    await failed.finish(false);
    expect(readdirSync(dir)).toEqual(['all.jsonl']);
  });

  it('--out-dir: one file per input, an empty one for an input without chunks, none for a failed input', async () => {
    const dir = tempDir('out');
    const out = dirOutput(dir);
    const a = out.open(input('a.md'));
    await a.write('x\n');
    await a.end(true);
    await out.open(input('empty.md')).end(true);
    const bad = out.open(input('bad.md'));
    await bad.write('y\n');
    await bad.end(false);
    await out.finish(true);
    expect(readdirSync(dir).sort()).toEqual(['a.md.jsonl', 'empty.md.jsonl']);
    expect(readFileSync(join(dir, 'a.md.jsonl'), 'utf8')).toBe('x\n');
  });

  it('names --out-dir files after the input path, so a.md and a.pdf never collide', () => {
    expect(outDirPath('out', 'docs/a.md')).toBe(join('out', 'docs/a.md.jsonl'));
    expect(outDirPath('out', 'docs/a.pdf')).toBe(join('out', 'docs/a.pdf.jsonl'));
    expect(outDirPath('out', '-')).toBe(join('out', 'stdin.jsonl'));
    const outside = resolve('/', 'elsewhere/x.md');
    expect(outDirPath('out', outside)).toBe(join('out', 'elsewhere/x.md.jsonl'));
  });
});
