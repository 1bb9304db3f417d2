import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { parseCliArgs } from '../../src/cli/args.js';
import { runChunking, skipNotes } from '../../src/cli/run.js';

describe('skipNotes', () => {
  it('notes named inputs and small folders file by file, large folders with counts by extension', () => {
    const many = Array.from({ length: 5 }, (_, i) => ({ source: `big/f${i}${i < 3 ? '.html' : ''}`, reason: 'unsupported file type', folder: 'big' }));
    const notes = skipNotes([
      { source: 'x.png', reason: 'unsupported file type (.png)' },
      { source: 'small/a.json', reason: 'unsupported file type (.json)', folder: 'small' },
      ...many,
    ]);
    expect(notes).toEqual([
      'x.png: skipped, unsupported file type (.png)',
      'small/a.json: skipped, unsupported file type (.json)',
      'big: skipped 5 files of unsupported types (.html 3, no extension 2); --stats-json lists them',
    ]);
  });
});

describe('runChunking', () => {
  it("says a file's warnings on stderr and in --stats-json, not with --quiet", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chunkstream-run-'));
    try {
      const latin1 = join(dir, 'latin1.txt');
      writeFileSync(latin1, Buffer.from('caf\xe9 cr\xe8me\n', 'latin1'));
      const run = async (...flags: string[]): Promise<string> => {
        const command = parseCliArgs([latin1, '--jobs', '1', '--stats-json', join(dir, 'stats.json'), ...flags]);
        if (command.kind !== 'run') throw new Error(command.kind);
        const stderr = new PassThrough();
        let said = '';
        stderr.setEncoding('utf8').on('data', (d: string) => (said += d));
        const code = await runChunking(command.config, { stdout: new PassThrough().resume(), stderr: stderr as never, signal: new AbortController().signal });
        expect(code).toBe(0);
        return said;
      };
      expect(await run()).toBe(`${latin1}: warning: invalid UTF-8 replaced with U+FFFD (×2)\n`);
      expect(JSON.parse(readFileSync(join(dir, 'stats.json'), 'utf8')).files[0].warnings).toEqual(['invalid UTF-8 replaced with U+FFFD (×2)']);
      expect(await run('--quiet')).toBe('');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
