import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { chunkFile } from '../../src/api/chunk.js';
import { runInspect, type InspectIo } from '../../src/cli/inspect.js';
import { guidePdf } from '../support/pdf-samples.js';

const GUIDE = join(import.meta.dirname, '../../samples/guide.md');
const dir = mkdtempSync(join(tmpdir(), 'inspect-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function io(isTTY = false, env: Record<string, string> = {}): InspectIo & { out: () => string; err: () => string } {
  let out = '';
  let err = '';
  return {
    stdout: { write: (s: string) => (out += s) },
    stderr: { write: (s: string) => (err += s) },
    isTTY,
    env,
    out: () => out,
    err: () => err,
  };
}

describe('runInspect', () => {
  it('writes an HTML report with one band per chunk of the same run', async () => {
    const file = join(dir, 'guide.html');
    const t = io();
    expect(await runInspect([GUIDE, '--unit', 'chars', '--max-size', '300', '--html', file], t)).toBe(0);
    const { chunks } = await chunkFile(GUIDE, { unit: 'chars', maxSize: 300 });
    const html = readFileSync(file, 'utf8');
    expect(html.match(/<div class="band /g)).toHaveLength(chunks.length);
    expect(html).toContain('max 300');
    expect(t.err()).toContain(`${chunks.length} chunks`);
    expect(t.out()).toBe('');
  });

  it('prints the terminal view: plain when not a TTY or with NO_COLOR, coloured on a TTY, forced by flags', async () => {
    const plain = io(false);
    expect(await runInspect([GUIDE, '--max-size', '200'], plain)).toBe(0);
    expect(plain.out()).not.toContain('\x1b[');
    expect(plain.out()).toMatch(/^──── #0 /m);
    expect(plain.out()).toContain('\nStatistics\n');

    const tty = io(true);
    await runInspect([GUIDE, '--max-size', '200'], tty);
    expect(tty.out()).toContain('\x1b[');

    const noColor = io(true, { NO_COLOR: '1' });
    await runInspect([GUIDE, '--max-size', '200'], noColor);
    expect(noColor.out()).not.toContain('\x1b[');

    const forced = io(false);
    await runInspect([GUIDE, '--max-size', '200', '--color'], forced);
    expect(forced.out()).toContain('\x1b[');
  });

  it('rejects a bad option with exit 2 and a coded message naming it', async () => {
    const t = io();
    expect(await runInspect([GUIDE, '--max-size', 'big'], t)).toBe(2);
    expect(t.err()).toMatch(/ERR_INVALID_OPTION Invalid option maxSize: must be an integer/);
    const u = io();
    expect(await runInspect([GUIDE, '--frobnicate'], u)).toBe(2);
    expect(u.err()).toMatch(/ERR_INVALID_OPTION .*frobnicate/);
    const none = io();
    expect(await runInspect([], none)).toBe(2);
    expect(none.err()).toMatch(/ERR_INVALID_OPTION Invalid option file: inspect takes exactly one file/);
  });

  it('fails a missing file with exit 1 and ERR_READ', async () => {
    const t = io();
    expect(await runInspect([join(dir, 'absent.md')], t)).toBe(1);
    expect(t.err()).toMatch(/absent\.md: ERR_READ /);
  });

  it('prints usage for --help', async () => {
    const t = io();
    expect(await runInspect(['--help'], t)).toBe(0);
    expect(t.out()).toMatch(/^Usage: chunkstream inspect <file>/);
  });

  it('marks every page of a PDF where it starts', async () => {
    const pdf = join(dir, 'guide.pdf');
    writeFileSync(pdf, guidePdf());
    const file = join(dir, 'multi.html');
    expect(await runInspect([pdf, '--html', file], io())).toBe(0);
    const html = readFileSync(file, 'utf8');
    const pages = [...html.matchAll(/<span class="page(?: approx)?" data-page="(\d+)"/g)].map((m) => Number(m[1]));
    expect(pages).toEqual([1, 2, 3, 4]);
  });
});
