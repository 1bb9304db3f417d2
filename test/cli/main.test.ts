import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveFloodPdf } from '../support/pdf-hostile.js';
import { buildPdf, textAt } from '../support/pdf-builder.js';
import { guidePdf } from '../support/pdf-samples.js';
import { ensureBuilt, lines, ROOT, runCli } from './support.js';

let dir: string;

/** A Markdown document of `sections` sections, a few hundred bytes each. */
function markdown(title: string, sections: number): string {
  const out = [`# ${title}\n`];
  for (let i = 0; i < sections; i++) {
    out.push(`## Part ${i}\n`, `Paragraph ${i} of ${title}. ${'Words flow on and on. '.repeat(8 + (i % 5))}\n`);
    if (i % 4 === 0) out.push('- one item\n- another item\n');
    if (i % 7 === 0) out.push('```js\nconsole.log(' + i + ');\n```\n');
  }
  return out.join('\n');
}

beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'chunkstream-cli-'));
  const mixed = join(dir, 'mixed');
  mkdirSync(join(mixed, 'sub'), { recursive: true });
  writeFileSync(join(mixed, 'a.md'), markdown('Alpha', 6));
  writeFileSync(join(mixed, 'sub/b.markdown'), markdown('Beta', 3));
  writeFileSync(join(mixed, 'notes.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]));
  writeFileSync(join(mixed, 'data.json'), '{"not": "markdown"}\n');
  writeFileSync(join(mixed, 'c.pdf'), guidePdf());

  const many = join(dir, 'many');
  mkdirSync(many);
  for (let i = 0; i < 9; i++) writeFileSync(join(many, `doc-${i}.md`), markdown(`Doc ${i}`, 5 + ((i * 37) % 60)));
  // Large enough for many batches, so ordering and backpressure across threads are exercised.
  writeFileSync(join(many, 'doc-big.md'), markdown('Big', 3000));
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('chunkstream command', () => {
  it('chunks a folder of mixed files: Markdown and PDF chunked in path order, unsupported files skipped', async () => {
    const run = await runCli(['-q', '--jobs', '2', join(dir, 'mixed')]);
    expect(run.code).toBe(0);
    const out = lines(run.stdout);
    // Input order: the folder's files sorted by path.
    expect([...new Set(out.map((l) => l.source))]).toEqual([join(dir, 'mixed/a.md'), join(dir, 'mixed/c.pdf'), join(dir, 'mixed/sub/b.markdown')]);
    expect(out.filter((l) => l.source.endsWith('a.md')).length).toBeGreaterThan(1);
    for (const l of out) {
      for (const field of ['id', 'documentId', 'index', 'text', 'start', 'end', 'startLine', 'endLine', 'heading', 'metadata', 'size', 'hash']) {
        expect(l).toHaveProperty(field);
      }
      expect(l.documentId).toBe(l.source);
      expect(l.origin).toBe(l.source);
    }
    const pdf = out.filter((l) => l.source.endsWith('c.pdf'));
    expect(pdf.length).toBeGreaterThan(1);
    expect(pdf.every((l) => typeof l.pageStart === 'number' && l.pageStart >= 1 && l.pageEnd <= 4)).toBe(true);
    expect(Math.max(...pdf.map((l) => l.pageEnd))).toBeGreaterThan(1);
  });

  it('reports a file that cannot be parsed with its code, and goes on', async () => {
    const folder = join(dir, 'broken');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, '1.pdf'), '%PDF-1.7\nthis is not really a PDF\n');
    writeFileSync(join(folder, '2.md'), markdown('After', 4));
    const run = await runCli(['-q', folder]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/1\.pdf: ERR_PDF_INVALID /);
    expect(lines(run.stdout).every((l) => l.source === join(folder, '2.md'))).toBe(true);
    expect(lines(run.stdout).length).toBeGreaterThan(0);
  });

  it('fails a PDF past --timeout with ERR_PDF_LIMIT naming its page, and goes on with the next files', async () => {
    const folder = join(dir, 'hostile');
    mkdirSync(folder, { recursive: true });
    // Two million nested q operators in a few kilobytes: pdf.js alone would not finish it for hours.
    writeFileSync(join(folder, '1-flood.pdf'), saveFloodPdf(4_600, { compress: true }));
    writeFileSync(join(folder, '2-after.md'), markdown('After', 4));
    writeFileSync(join(folder, '3-guide.pdf'), guidePdf());
    // Page 2 alone takes pdf.js well over 30 s; 5 s leaves page 1 and the guide room on a machine other work loads.
    const run = await runCli(['-q', '--jobs', '1', '--timeout', '5', folder]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/1-flood\.pdf: ERR_PDF_LIMIT .*maxPdfSeconds \(5 s\) while reading page 2 of 3/);
    const sources = new Set(lines(run.stdout).map((l) => l.source));
    expect(sources.has(join(folder, '2-after.md'))).toBe(true);
    expect(sources.has(join(folder, '3-guide.pdf'))).toBe(true);
  });

  it('notes skipped files on stderr unless --quiet', async () => {
    const run = await runCli([join(dir, 'mixed')]);
    expect(run.stderr).toContain(`${join(dir, 'mixed/notes.png')}: skipped, unsupported file type (.png)`);
    expect(run.stderr).toContain(`${join(dir, 'mixed/data.json')}: skipped, unsupported file type (.json)`);
    const quiet = await runCli(['--quiet', join(dir, 'mixed')]);
    expect(quiet.stderr).not.toContain('skipped');
  });

  it('reads standard input with -, giving the chunks of the same file read by path', async () => {
    const text = readFileSync(join(dir, 'many/doc-3.md'));
    const fromStdin = await runCli(['-', '--max-size', '128'], { stdin: text });
    const fromFile = await runCli([join(dir, 'many/doc-3.md'), '--max-size', '128']);
    expect(fromStdin.code).toBe(0);
    const a = lines(fromStdin.stdout);
    const b = lines(fromFile.stdout);
    expect(a.length).toBeGreaterThan(1);
    expect(a.every((l) => l.source === '-')).toBe(true);
    expect(a.map((l) => [l.text, l.start, l.end, l.size])).toEqual(b.map((l) => [l.text, l.start, l.end, l.size]));
  });

  it('accepts glob patterns', async () => {
    const run = await runCli(['-q', join(dir, 'many/doc-[12].md')]);
    expect(run.code).toBe(0);
    expect([...new Set(lines(run.stdout).map((l) => l.source))]).toEqual([join(dir, 'many/doc-1.md'), join(dir, 'many/doc-2.md')]);
  });

  it('writes --out through a temporary file: in place after success, equal to stdout', async () => {
    const target = join(dir, 'out-ok/all.jsonl');
    const run = await runCli(['-q', '--out', target, join(dir, 'many')]);
    const stdout = await runCli(['-q', join(dir, 'many')]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('');
    expect(readFileSync(target, 'utf8')).toBe(stdout.stdout);
    expect(readdirSync(join(dir, 'out-ok'))).toEqual(['all.jsonl']);
  });

  it('leaves no half --out file when a file fails mid-run, and keeps the old one', async () => {
    const folder = join(dir, 'fails');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, '1-good.md'), markdown('Good', 20));
    // Valid Markdown for a few hundred KB, then a byte that is not UTF-8: chunks are written before it fails.
    writeFileSync(join(folder, '2-bad.md'), Buffer.concat([Buffer.from(markdown('Bad', 1500)), Buffer.from([0xff, 0xfe]), Buffer.from('\n\ntail\n')]));
    writeFileSync(join(folder, '3-good.md'), markdown('Later', 20));
    const outDir = join(dir, 'out-fail');
    mkdirSync(outDir, { recursive: true });
    const target = join(outDir, 'all.jsonl');
    writeFileSync(target, 'previous run\n');

    const run = await runCli(['--fatal', '--out', target, '--stats-json', join(dir, 'fail-stats.json'), folder]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(new RegExp(`${join(folder, '2-bad.md').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: ERR_INVALID_UTF8 `));
    expect(run.stderr).toContain(`${target} not written`);
    expect(readFileSync(target, 'utf8')).toBe('previous run\n');
    expect(readdirSync(outDir)).toEqual(['all.jsonl']);
    // The run went on: the file after the failure was chunked, and the failed one had produced chunks first.
    const stats = JSON.parse(readFileSync(join(dir, 'fail-stats.json'), 'utf8'));
    const bySource = Object.fromEntries(stats.files.map((f: any) => [f.source, f]));
    expect(bySource[join(folder, '3-good.md')].documents).toBe(1);
    expect(bySource[join(folder, '2-bad.md')].documents).toBe(0);
    expect(bySource[join(folder, '2-bad.md')].error.code).toBe('ERR_INVALID_UTF8');
    expect(bySource[join(folder, '2-bad.md')].chunks).toBeGreaterThan(0);
    expect(stats.total.failed).toBe(1);
  });

  it('stops at the first failure with --fail-fast', async () => {
    const folder = join(dir, 'failfast');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, '1-bad.md'), Buffer.from([0x23, 0x20, 0xff, 0x0a]));
    for (let i = 2; i < 8; i++) writeFileSync(join(folder, `${i}-good.md`), markdown(`Good ${i}`, 10));
    const target = join(folder, 'out.jsonl');
    const run = await runCli(['--fatal', '--fail-fast', '--jobs', '1', '--out', target, folder]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('1-bad.md: ERR_INVALID_UTF8');
    expect(existsSync(target)).toBe(false);
    expect(readdirSync(folder).filter((n) => n.includes('out.jsonl'))).toEqual([]);
  });

  it('starts nothing with --fail-fast when an input is missing', async () => {
    const run = await runCli(['--fail-fast', join(dir, 'nope.md'), join(dir, 'many')]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('nope.md: ERR_READ');
    expect(run.stdout).toBe('');
  });

  it('writes one .jsonl per input with --out-dir, none for a failed input', async () => {
    const outDir = join(dir, 'per-file');
    const run = await runCli(['-q', '--out-dir', outDir, join(dir, 'mixed/a.md'), join(dir, 'mixed/sub/b.markdown'), join(dir, 'missing.md')], { cwd: dir });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('missing.md: ERR_READ');
    const a = lines(readFileSync(join(outDir, 'mixed/a.md.jsonl'), 'utf8'));
    const b = lines(readFileSync(join(outDir, 'mixed/sub/b.markdown.jsonl'), 'utf8'));
    expect(a.every((l) => l.source === join(dir, 'mixed/a.md'))).toBe(true);
    expect(b.length).toBeGreaterThan(0);
    expect(readdirSync(join(outDir, 'mixed')).sort()).toEqual(['a.md.jsonl', 'sub']);
  });

  it('exits 0 on success, 1 when a file fails, 2 on bad usage', async () => {
    expect((await runCli(['-q', join(dir, 'many/doc-0.md')])).code).toBe(0);
    expect((await runCli(['-q', join(dir, 'many/doc-0.md'), join(dir, 'nope.md')])).code).toBe(1);
    for (const args of [[], ['--bogus', 'x.md'], ['--max-size', '0', 'x.md'], ['--jobs', '0', 'x.md'], ['--out', 'a', '--out-dir', 'b', 'x.md'], ['--format', 'rtf', 'x.md'], ['--strategy', 'magic', 'x.md']]) {
      const run = await runCli(args);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr, args.join(' ')).toMatch(/ERR_INVALID_OPTION /);
      expect(run.stdout).toBe('');
    }
  });

  it('names the option, the rule and the value of a bad option', async () => {
    const run = await runCli(['--overlap', '600', '--max-size', '512', 'x.md']);
    expect(run.stderr).toContain('chunkstream: ERR_INVALID_OPTION Invalid option overlap: must be less than maxSize (512), or no chunk could advance, got 600');
  });

  it('gives the same output with --jobs 2 as with --jobs 1, and the same lines with --unordered', async () => {
    const args = ['-q', join(dir, 'many'), join(ROOT, 'samples'), join(dir, 'mixed')];
    const one = await runCli(['--jobs', '1', ...args]);
    const two = await runCli(['--jobs', '2', ...args]);
    const unordered = await runCli(['--jobs', '2', '--unordered', ...args]);
    expect(one.code).toBe(0);
    expect(lines(one.stdout).length).toBeGreaterThan(100);
    expect(two.stdout).toBe(one.stdout);
    expect(unordered.stdout.split('\n').sort()).toEqual(one.stdout.split('\n').sort());
  });

  it('writes --stats-json figures equal to the counts of the JSONL', async () => {
    const statsPath = join(dir, 'stats.json');
    const run = await runCli(['-q', '--stats', '--stats-json', statsPath, '--max-size', '200', join(dir, 'many'), join(dir, 'mixed/a.md')]);
    expect(run.code).toBe(0);
    const out = lines(run.stdout);
    const stats = JSON.parse(readFileSync(statsPath, 'utf8'));
    const sizes = out.map((l) => l.size as number);
    expect(stats.total.chunks).toBe(out.length);
    expect(stats.total.totalSize).toBe(sizes.reduce((a, b) => a + b, 0));
    expect(stats.total.minSize).toBe(Math.min(...sizes));
    expect(stats.total.maxSize).toBe(Math.max(...sizes));
    expect(stats.total.oversized).toBe(out.filter((l) => l.oversized === true).length);
    expect(stats.total.documents).toBe(11);
    expect(stats.files.map((f: any) => f.source)).toEqual([...new Set(out.map((l) => l.source))]);
    for (const f of stats.files) {
      const mine = out.filter((l) => l.source === f.source);
      expect(f.chunks).toBe(mine.length);
      expect(f.totalSize).toBe(mine.reduce((a, l) => a + l.size, 0));
      expect(f.maxSize).toBe(Math.max(...mine.map((l) => l.size)));
    }
    // The table on stderr has one row per file and a total row.
    expect(run.stderr).toContain('total (11 files)');
    expect(run.stderr.split('\n').filter((l) => l.includes('doc-')).length).toBe(10);
  });

  it('reads options from --config, flags winning, and checks them', async () => {
    const config = join(dir, 'chunkstream.json');
    writeFileSync(config, JSON.stringify({ unit: 'chars', 'max-size': 300, overlap: 0 }));
    const run = await runCli(['-q', '--config', config, join(dir, 'many/doc-5.md')]);
    expect(run.code).toBe(0);
    const fromFile = lines(run.stdout);
    expect(fromFile.length).toBeGreaterThan(1);
    expect(fromFile.every((l) => l.size <= 300 || l.oversized)).toBe(true);
    const flagWins = await runCli(['-q', '--config', config, '--max-size', '120', join(dir, 'many/doc-5.md')]);
    expect(lines(flagWins.stdout).every((l) => l.size <= 120 || l.oversized)).toBe(true);

    writeFileSync(config, JSON.stringify({ maxSize: -3 }));
    const bad = await runCli(['--config', config, 'x.md']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('Invalid option maxSize: must be an integer >= 1, got -3');
  });

  it('lists every option with its default in --help, and prints the version', async () => {
    const help = await runCli(['--help']);
    expect(help.code).toBe(0);
    for (const flag of ['--strategy', '--unit', '--encoding', '--max-size', '--target-size', '--min-size', '--overlap', '--split-levels', '--preserve-code', '--contextualize', '--config', '--out', '--out-dir', '--stats', '--stats-json', '--quiet', '--jobs', '--unordered', '--fail-fast', '--format', '--version']) {
      expect(help.stdout).toContain(flag);
    }
    expect(help.stdout).toContain('(default: 512)');
    expect(help.stdout).toContain('(default: semantic)');
    const version = await runCli(['--version']);
    expect(version.stdout.trim()).toBe(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version);
  });

  it('stops cleanly on Ctrl-C: exit 130, --out not put in place, no temporary file left', async () => {
    const outDir = join(dir, 'sigint');
    mkdirSync(outDir);
    const target = join(outDir, 'out.jsonl');
    const run = await runCli(['--out', target, join(dir, 'many/doc-1.md'), '-'], {
      onSpawn(child) {
        // Standard input stays open, so the run is still going when the signal comes.
        child.stdin!.write('# Waiting\n\nSome text.\n\n');
        // The signal goes once the run has opened its temporary --out file: by then the handler is in place. A
        // fixed delay sent it, on a loaded machine, while the modules were still loading (killed, no exit code).
        const poll = setInterval(() => {
          if (readdirSync(outDir).length === 0) return;
          clearInterval(poll);
          child.kill('SIGINT');
        }, 50);
        child.once('exit', () => clearInterval(poll));
      },
    });
    expect(run.code).toBe(130);
    expect(run.stderr).toContain('interrupted');
    expect(readdirSync(outDir)).toEqual([]);
  });

  it('ends its worker threads on Ctrl-C in the middle of a file', async () => {
    const run = await runCli(['--jobs', '2', join(dir, 'many/doc-big.md'), join(dir, 'many')], {
      onSpawn(child) {
        child.stdin!.end();
        child.stdout!.once('data', () => child.kill('SIGINT'));
      },
    });
    expect(run.code).toBe(130);
    expect(run.stderr).toContain('interrupted');
  });

  it('leaves no copy of a PDF in the temporary folder on Ctrl-C while PDFs are read on worker threads', async () => {
    const pdfs = join(dir, 'pdfs');
    mkdirSync(pdfs);
    // Enough pages that each file is still being read when the signal comes.
    const pages = Array.from({ length: 400 }, (_, i) => ({ content: [0, 1, 2, 3].map((l) => textAt(72, 700 - l * 16, `Page ${i} line ${l}: words to read.`)).join('\n') }));
    const bytes = buildPdf(pages);
    for (const name of ['a.pdf', 'b.pdf', 'c.pdf']) writeFileSync(join(pdfs, name), bytes);
    const temporary = mkdtempSync(join(dir, 'tmp-'));
    const copies = () => readdirSync(temporary).filter((name) => name.startsWith('chunkstream-'));
    const run = await runCli(['-q', '--jobs', '2', pdfs], {
      env: { TMPDIR: temporary },
      onSpawn(child) {
        child.stdin!.end();
        const poll = setInterval(() => {
          if (copies().some((name) => existsSync(join(temporary, name, 'input')))) {
            clearInterval(poll);
            child.kill('SIGINT');
          }
        }, 10);
        child.once('exit', () => clearInterval(poll));
      },
    });
    expect(run.code, run.stderr).toBe(130);
    expect(copies()).toEqual([]);
  });

  it('exits 1 when every input named was skipped, and 0 when something beside it was chunked', async () => {
    const png = join(dir, 'mixed/notes.png');
    const alone = await runCli([png]);
    expect(alone.code).toBe(1);
    expect(alone.stderr).toContain(`${png}: skipped, unsupported file type (.png)`);
    expect(alone.stderr).toContain('chunkstream: nothing to chunk: the input was skipped');
    expect(alone.stdout).toBe('');
    const beside = await runCli(['-q', png, join(dir, 'mixed/a.md')]);
    expect(beside.code).toBe(0);
  });

  it('fails binary data named as a document, and names each failing file once, with its code once', async () => {
    const binary = join(dir, 'program.md');
    writeFileSync(binary, Buffer.concat([Buffer.from('\x7fELF', 'latin1'), Buffer.from([2, 1, 1, 0])]));
    const broken = join(dir, 'broken.pdf');
    writeFileSync(broken, '%PDF-1.4\nnot a PDF at all');
    const missing = join(dir, 'absent.md');
    const run = await runCli(['-q', '--jobs', '1', binary, broken, missing]);
    expect(run.code).toBe(1);
    const lines = run.stderr.trim().split('\n');
    expect(lines).toContain(`${binary}: ERR_UNSUPPORTED_FORMAT Binary data, not text: a NUL byte at byte offset 7`);
    expect(lines).toContain(`${broken}: ERR_PDF_INVALID The input is not a readable PDF: not a PDF, or truncated or corrupt`);
    expect(lines.filter((l) => l.startsWith(`${missing}: ERR_READ `))).toHaveLength(1);
    for (const line of lines) {
      const [path] = line.split(': ');
      expect(line.split(path as string).length - 1, line).toBe(1);
      expect(line, line).not.toMatch(/\b(E[A-Z]+|ERR_[A-Z_]+)\b.*\b\1\b/);
    }
    const inspect = await runCli(['inspect', binary]);
    expect(inspect.code).toBe(1);
    expect(inspect.stderr).toContain('ERR_UNSUPPORTED_FORMAT');
  });

  it('stops one file read on the main thread on Ctrl-C in the middle of it', async () => {
    const run = await runCli([join(dir, 'many/doc-big.md')], {
      onSpawn(child) {
        child.stdin!.end();
        child.stdout!.once('data', () => child.kill('SIGINT'));
      },
    });
    expect(run.code).toBe(130);
    expect(run.stderr).toContain('interrupted');
  });

  it('reads .txt as plain text: a line of === and an indented line stay text', async () => {
    writeFileSync(join(dir, 'notes.txt'), 'Not a heading\n=============\n\n    not code either\n');
    const run = await runCli(['-q', '--max-size', '64', join(dir, 'notes.txt')]);
    expect(run.code).toBe(0);
    const [only, ...rest] = lines(run.stdout);
    expect(rest).toEqual([]);
    expect(only.text).toBe('Not a heading\n=============\n\n    not code either');
    expect(only.metadata).toMatchObject({ kinds: ['paragraph'], hasCode: false });
    expect(only.heading.path).toEqual([]);
  });

  it('dispatches the inspect subcommand', async () => {
    const run = await runCli(['inspect', join(dir, 'many/doc-2.md'), '--unit', 'chars', '--max-size', '300']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/doc-2\.md#[0-9a-f]{16}/);
    expect((await runCli(['inspect', '--max-size', 'x', 'a.md'])).code).toBe(2);
  });
});
