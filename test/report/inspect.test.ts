import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { chunkFile } from '../../src/api/chunk.js';
import { parseCliArgs } from '../../src/cli/args.js';
import { parseInspectArgs, runInspect, type InspectIo } from '../../src/cli/inspect.js';
import { parseMarkdown } from '../../src/parsers/markdown/parse.js';
import { guidePdf, prose } from '../support/pdf-samples.js';

const GUIDE = join(import.meta.dirname, '../../samples/guide.md');
const MAIN = join(import.meta.dirname, '../../dist/cli/main.js');
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
    expect(plain.out()).toMatch(/^guide\.md · \d+ chunks · semantic · tokens \(cl100k_base\) · target 150 · min 37 · max 200 · overlap 0 · split levels 1, 2, 3\n/);
    expect(plain.out()).toMatch(/^──── #0 guide\.md#[0-9a-f]{16} /m);
    // The statistics come first, before the first chunk.
    expect(plain.out().indexOf('\nStatistics\n')).toBeLessThan(plain.out().indexOf('──── #0 guide.md#'));

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

  it('prints only the settings, statistics and histogram with --summary', async () => {
    const t = io();
    expect(await runInspect([GUIDE, '--max-size', '200', '--summary'], t)).toBe(0);
    expect(t.out()).toContain('\nStatistics\n');
    expect(t.out()).toContain('\nSizes (tokens)\n');
    expect(t.out()).not.toContain('────');
  });

  it('links the outline of a Markdown report to each heading block where it starts', async () => {
    const file = join(dir, 'outline.html');
    expect(await runInspect([GUIDE, '--max-size', '120', '--html', file], io())).toBe(0);
    const html = readFileSync(file, 'utf8');
    const text = readFileSync(GUIDE, 'utf8');
    const headings = parseMarkdown(text).filter((b) => b.kind === 'heading');
    const titles = [...html.matchAll(/data-h="(\d+)" title="H\d ([^"]*)"/g)].map((m) => m[2]);
    expect(titles).toEqual(headings.map((h) => (h as { title: string }).title));
    // Each anchor comes right before the heading's first character.
    headings.forEach((h, n) => {
      const at = html.indexOf(`<span class="h" id="h${n}"></span>`);
      const next = html.slice(at + `<span class="h" id="h${n}"></span>`.length, at + 200).replace(/<[^>]*>/g, '');
      expect(next.startsWith(text.slice(h.start, h.start + 12).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;'))).toBe(true);
    });
  });

  it('compares two settings: an HTML page with a view of each, or their figures side by side', async () => {
    const file = join(dir, 'compare.html');
    const t = io();
    expect(await runInspect([GUIDE, '--unit', 'chars', '--compare', '--max-size 300', '--max-size 900 --overlap 40', '--html', file], t)).toBe(0);
    const small = await chunkFile(GUIDE, { unit: 'chars', maxSize: 300 });
    const large = await chunkFile(GUIDE, { unit: 'chars', maxSize: 900, overlap: 40 });
    expect(t.err()).toContain(`${small.chunks.length} chunks vs ${large.chunks.length} chunks`);
    const html = readFileSync(file, 'utf8');
    expect(html.match(/<div class="band [^"]*" id="c\d+"/g)).toHaveLength(small.chunks.length);
    expect(html.match(/<div class="band [^"]*" id="v1-c\d+"/g)).toHaveLength(large.chunks.length);
    expect(html).toContain('<code>--max-size 900 --overlap 40</code> · ');
    expect(html).toMatch(/semantic · chars · target 675 · min 168 · max 900 · overlap 40 \(\d+(\.\d)?% of indexed text repeated\)/);

    const term = io();
    expect(await runInspect([GUIDE, '--unit', 'chars', '--compare', '--max-size 300', '--max-size 900 --overlap 40'], term)).toBe(0);
    expect(term.out()).toMatch(new RegExp(`^ {2}chunks +${small.chunks.length} +${large.chunks.length}$`, 'm'));
    expect(term.out()).toContain('  A  --max-size 300: semantic · chars');
  });

  it('rejects a --compare without two settings, or with anything but chunking options in one, with exit 2', async () => {
    const one = io();
    expect(await runInspect([GUIDE, '--compare', '--max-size 300'], one)).toBe(2);
    expect(one.err()).toMatch(/ERR_INVALID_OPTION Invalid option compare: takes two settings/);
    const output = io();
    expect(await runInspect([GUIDE, '--compare', '--max-size 300', '--html x.html'], output)).toBe(2);
    expect(output.err()).toMatch(/ERR_INVALID_OPTION .*'--html'/);
    const bad = io();
    expect(await runInspect([GUIDE, '--compare', '--max-size 300', '--max-size big'], bad)).toBe(2);
    expect(bad.err()).toMatch(/ERR_INVALID_OPTION Invalid option maxSize: must be an integer/);
    const stray = io();
    expect(await runInspect([GUIDE, '--compare', '--max-size 300', 'other.md'], stray)).toBe(2);
    expect(stray.err()).toMatch(/ERR_INVALID_OPTION Invalid option compare: settings hold chunking options only/);
  });

  it('ends quietly when the reader of its output goes away (inspect … | head)', async () => {
    const big = join(dir, 'big.md');
    writeFileSync(big, Array.from({ length: 400 }, (_, i) => `## Part ${i}\n\n${prose(120, i + 1)}\n`).join('\n'));
    const child = spawn(process.execPath, [MAIN, 'inspect', big, '--max-size', '64'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    // Read the first piece of output, then close the pipe, as head does.
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    child.stdout.destroy();
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(err).toBe('');
    expect(code).toBe(0);
  });

  it('rejects a bad option with exit 2 and a coded message naming it', async () => {
    const t = io();
    expect(await runInspect([GUIDE, '--max-size', 'big'], t)).toBe(2);
    expect(t.err()).toMatch(/ERR_INVALID_OPTION Invalid option maxSize: must be an integer/);
    const u = io();
    expect(await runInspect([GUIDE, '--frobnicate'], u)).toBe(2);
    expect(u.err()).toMatch(/ERR_INVALID_OPTION .*frobnicate/);
    // A reading option is bad usage too, found before the file is opened (this one does not exist).
    const timeout = io();
    expect(await runInspect(['/nonexistent/report.pdf', '--timeout', '0'], timeout)).toBe(2);
    expect(timeout.err()).toMatch(/ERR_INVALID_OPTION Invalid option maxPdfSeconds/);
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

  it("takes the main command's chunking flags, markers and turns included, and reads them the same way", () => {
    const argv = ['--strategy', 'markers', '--markers', '\\n## ', '--markers', '/\\n\\n/', '--turns-per-chunk', '3', '--overlap-turns', '0', '--split-levels', '1,3', '--no-preserve-tables'];
    const args = parseInspectArgs([GUIDE, ...argv]);
    if (args === 'help') throw new Error('not a run');
    const main = parseCliArgs([...argv, GUIDE]);
    if (main.kind !== 'run') throw new Error('not a run');
    expect(args.chunkOptions).toEqual({ ...main.config.chunkOptions, documentId: 'guide.md', origin: GUIDE });
    const compared = parseInspectArgs([GUIDE, '--compare', '--turns-per-chunk 2', '--markers \\n\\n']);
    if (compared === 'help') throw new Error('not a run');
    expect(compared.compare?.map((c) => [c.chunkOptions.turnsPerChunk, c.chunkOptions.markers])).toEqual([[2, undefined], [undefined, ['\n\n']]]);
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

  it('reads a file in the format chunkFile reads it in: a PDF header after junk bytes, plain text by its extension', async () => {
    const scan = join(dir, 'scan');
    writeFileSync(scan, Buffer.concat([Buffer.from('junk before the header\n'), guidePdf()]));
    const file = join(dir, 'scan.html');
    expect(await runInspect([scan, '--html', file], io())).toBe(0);
    expect(readFileSync(file, 'utf8')).toMatch(/<span class="page(?: approx)?" data-page="1"/);

    const notes = join(dir, 'notes.txt');
    // As Markdown, the first line would be a heading and the indented one code.
    writeFileSync(notes, 'Not a heading\n=============\n\n    not code either\n\nA last paragraph of notes.\n');
    const t = io();
    expect(await runInspect([notes, '--unit', 'chars', '--max-size', '30', '--min-size', '0', '--target-size', '30'], t)).toBe(0);
    const { chunks, format } = await chunkFile(notes, { unit: 'chars', maxSize: 30, minSize: 0, targetSize: 30 });
    expect(format).toBe('text');
    expect(t.out()).toContain(`· ${chunks.length} chunks ·`);
    for (const c of chunks) expect(t.out()).toContain(c.text);
  });
});
