import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { expandInputs } from '../../src/files/inputs.js';
import { guidePdf } from '../support/pdf-samples.js';
import { tempDir } from '../support/temp-dir.js';

let dir: string;
beforeAll(() => {
  dir = tempDir('inputs');
  mkdirSync(join(dir, 'docs/deep'), { recursive: true });
  writeFileSync(join(dir, 'docs/b.md'), '# B\n');
  writeFileSync(join(dir, 'docs/a.txt'), 'plain\n');
  writeFileSync(join(dir, 'docs/deep/c.markdown'), '# C\n');
  writeFileSync(join(dir, 'docs/image.png'), Buffer.from([0x89, 0x50, 0, 0]));
  writeFileSync(join(dir, 'docs/README'), 'text without extension\n');
  writeFileSync(join(dir, 'docs/.hidden.md'), '# hidden\n');
  writeFileSync(join(dir, 'docs/scan.bin'), '%PDF-1.7\n...');
  writeFileSync(join(dir, 'guide.pdf'), guidePdf());
  symlinkSync(join(dir, 'guide.pdf'), join(dir, 'docs/linked.pdf'));
  writeFileSync(join(dir, 'NOTES'), 'a note\n');
  writeFileSync(join(dir, 'blob'), Buffer.from([1, 0, 2]));
});

describe('expandInputs', () => {
  it('walks folders recursively in sorted order, by extension or %PDF-, skipping the rest', async () => {
    const r = await expandInputs([join(dir, 'docs')], undefined);
    expect(r.files.map((f) => [f.source.slice(dir.length + 1), f.format])).toEqual([
      ['docs/a.txt', 'text'],
      ['docs/b.md', 'markdown'],
      ['docs/deep/c.markdown', 'markdown'],
      ['docs/linked.pdf', 'pdf'],
      ['docs/scan.bin', 'pdf'],
    ]);
    expect(r.skipped.map((s) => [s.source.slice(dir.length + 1), s.reason])).toEqual([
      ['docs/README', 'unsupported file type'],
      ['docs/image.png', 'unsupported file type (.png)'],
    ]);
    expect(r.files.every((f) => typeof f.bytes === 'number')).toBe(true);
  });

  it('reads a named file with an unknown extension as Markdown when it looks like text', async () => {
    const r = await expandInputs([join(dir, 'NOTES'), join(dir, 'blob')], undefined);
    expect(r.files.map((f) => f.format)).toEqual(['markdown']);
    expect(r.skipped.map((s) => s.source)).toEqual([join(dir, 'blob')]);
  });

  it('lets --format decide every file', async () => {
    const r = await expandInputs([join(dir, 'docs/b.md'), '-'], 'transcript');
    expect(r.files.map((f) => f.format)).toEqual(['transcript', 'transcript']);
  });

  it('expands globs, keeps duplicates once, and keeps stdin with format auto', async () => {
    const r = await expandInputs([join(dir, 'docs/**/*.{md,markdown}'), join(dir, 'docs/b.md'), '-'], undefined);
    expect(r.files.map((f) => f.source)).toEqual([join(dir, 'docs/b.md'), join(dir, 'docs/deep/c.markdown'), '-']);
    expect(r.files[2]).toEqual({ path: '-', source: '-', format: 'auto', bytes: undefined });
  });

  it('reports a missing path as ERR_READ and an empty pattern as skipped', async () => {
    const r = await expandInputs([join(dir, 'nope.md'), join(dir, 'none/*.md')], undefined);
    expect(r.missing).toEqual([{ source: join(dir, 'nope.md'), code: 'ERR_READ', message: 'no such file or folder' }]);
    expect(r.skipped).toEqual([{ source: join(dir, 'none/*.md'), reason: 'pattern matched no file' }]);
  });

  it('reads a named .jsonl file as a transcript, but leaves .jsonl alone in a folder walk', async () => {
    writeFileSync(join(dir, 'chat.jsonl'), '{"speaker":"a","text":"hi"}\n');
    writeFileSync(join(dir, 'docs/deep/out.jsonl'), '{"id":"x"}\n');
    expect((await expandInputs([join(dir, 'chat.jsonl')], undefined)).files.map((f) => f.format)).toEqual(['transcript']);
    const walked = await expandInputs([join(dir, 'docs/deep')], undefined);
    expect(walked.files.map((f) => f.source)).toEqual([join(dir, 'docs/deep/c.markdown')]);
    expect(walked.skipped.map((s) => s.source)).toEqual([join(dir, 'docs/deep/out.jsonl')]);
  });
});
