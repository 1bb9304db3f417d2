import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { helpText, OPTIONS, parseCliArgs, type RunConfig } from '../../src/cli/args.js';
import { tempDir } from '../support/temp-dir.js';

function run(argv: string[]): RunConfig {
  const command = parseCliArgs(argv);
  if (command.kind !== 'run') throw new Error(`expected a run, got ${command.kind}`);
  return command.config;
}

function usageError(argv: string[]): { code: string; message: string } {
  try {
    parseCliArgs(argv);
  } catch (error) {
    const e = error as { code: string; message: string };
    return { code: e.code, message: e.message };
  }
  throw new Error('expected an error');
}

describe('parseCliArgs', () => {
  it('maps every chunking flag to its chunk() option', () => {
    const c = run([
      '--strategy', 'fixed', '--unit', 'chars', '--encoding', 'o200k_base', '--max-size', '400', '--target-size', '300',
      '--min-size', '50', '--overlap', '20', '--split-levels', '1,2,3', '--preserve-code', '--contextualize', '--graphemes',
      '--locale', 'de-CH', '--no-preserve-tables', '--fixed-size', '256', '--markers', '\\n\\n', '--markers', '/^#/m',
      '--turns-per-chunk', '4', '--overlap-turns', '2', 'a.md',
    ]);
    expect(c.chunkOptions).toEqual({
      strategy: 'fixed', unit: 'chars', encoding: 'o200k_base', maxSize: 400, targetSize: 300, minSize: 50, overlap: 20,
      splitLevels: [1, 2, 3], preserveCode: true, contextualize: true, graphemes: true, locale: 'de-CH', preserveTables: false,
      fixedSize: 256, markers: ['\n\n', /^#/m], turnsPerChunk: 4, overlapTurns: 2,
    });
    expect(c.inputs).toEqual(['a.md']);
  });

  it('maps --parents to the chunk option parents', () => {
    expect(run(['--parents', 'a.md']).chunkOptions).toEqual({ parents: true });
  });

  it('maps --timeout to the parse option maxPdfSeconds', () => {
    expect(run(['--timeout', '12', 'a.pdf']).parseOptions).toEqual({ maxPdfSeconds: 12 });
  });

  it('has run defaults: jobs = cores, ordered, stdout', () => {
    const c = run(['a.md', '-']);
    expect(c.jobs).toBeGreaterThanOrEqual(1);
    expect(c).toMatchObject({ unordered: false, failFast: false, quiet: false, stats: false, out: undefined, outDir: undefined, format: undefined });
    expect(c.inputs).toEqual(['a.md', '-']);
  });

  it('reads --config with kebab-case or camelCase keys; flags win', () => {
    const dir = tempDir('args');
    const path = join(dir, 'chunkstream.json');
    writeFileSync(path, JSON.stringify({ 'max-size': 300, unit: 'words', jobs: 3, password: 'pw', unordered: true }));
    const c = run(['--config', path, '--unit', 'chars', 'x.md']);
    expect(c.chunkOptions).toEqual({ maxSize: 300, unit: 'chars' });
    expect(c.parseOptions).toEqual({ password: 'pw' });
    expect(c.jobs).toBe(3);
    expect(c.unordered).toBe(true);
  });

  it('returns help and version commands', () => {
    expect(parseCliArgs(['--help'])).toEqual({ kind: 'help' });
    expect(parseCliArgs(['-v'])).toEqual({ kind: 'version' });
  });

  it('lists every option in the help text', () => {
    const help = helpText();
    for (const o of OPTIONS) expect(help).toContain(`--${o.name}`);
  });

  describe('validation', () => {
    const cases: [string, string[], RegExp][] = [
      ['unknown flag', ['--bogus', 'x'], /^Unknown option '--bogus'$/],
      ['missing value', ['x', '--max-size'], /argument missing/],
      ['no input', [], /^Invalid option inputs: at least one file/],
      ['stdin twice', ['-', '-'], /^Invalid option inputs: standard input \(-\) can be given only once/],
      ['maxSize not a number', ['--max-size', 'big', 'x'], /^Invalid option maxSize: must be an integer >= 1, got "big"$/],
      ['targetSize above maxSize', ['--max-size', '100', '--target-size', '200', 'x'], /^Invalid option targetSize: must not exceed maxSize \(100\), got 200$/],
      ['minSize above targetSize', ['--target-size', '100', '--min-size', '200', 'x'], /^Invalid option minSize: must not exceed targetSize/],
      ['overlap too large', ['--max-size', '10', '--overlap', '10', 'x'], /^Invalid option overlap: must be less than maxSize/],
      ['split level out of range', ['--split-levels', '1,9', 'x'], /^Invalid option splitLevels: must be an array of heading depths/],
      ['unit', ['--unit', 'bytes', 'x'], /^Invalid option unit: must be one of 'tokens', 'chars', 'words', got "bytes"$/],
      ['encoding', ['--encoding', 'p50k', 'x'], /^Invalid option encoding: "p50k" is not a name chunkstream knows/],
      ['strategy', ['--strategy', 'magic', 'x'], /^Invalid option strategy: must be one of/],
      ['locale', ['--locale', '!!', 'x'], /^Invalid option locale: must be a BCP 47 language tag/],
      ['markers regex', ['--markers', '/(/', 'x'], /^Invalid option markers: must be a string or a valid \/regex\/flags/],
      ['format', ['--format', 'rtf', 'x'], /^Invalid option format: must be one of 'markdown', 'pdf', 'transcript', 'text', 'html', 'docx', got "rtf"$/],
      ['jobs zero', ['--jobs', '0', 'x'], /^Invalid option jobs: must be an integer between 1 and 256, got 0$/],
      ['jobs text', ['--jobs', 'many', 'x'], /^Invalid option jobs: must be an integer between 1 and 256, got "many"$/],
      ['out with out-dir', ['--out', 'a', '--out-dir', 'b', 'x'], /^Invalid option out: cannot be combined with --out-dir/],
      ['maxPdfBytes', ['--max-pdf-bytes', '0', 'x'], /^Invalid option maxPdfBytes: must be an integer >= 1, got 0$/],
      ['timeout', ['--timeout', '0', 'x'], /^Invalid option maxPdfSeconds: must be a number of seconds above 0 and at most 604800 \(a week\), got 0$/],
      ['config missing', ['--config', '/nonexistent/chunkstream.json', 'x'], /^Invalid option config: must name a readable JSON file/],
    ];
    for (const [name, argv, message] of cases) {
      it(`rejects ${name}`, () => {
        const e = usageError(argv);
        expect(e.code).toBe('ERR_INVALID_OPTION');
        expect(e.message).toMatch(message);
      });
    }

    it('rejects a config file that is not a JSON object, and per-file keys in it', () => {
      const dir = tempDir('args');
      const path = join(dir, 'c.json');
      writeFileSync(path, '[1]');
      expect(usageError(['--config', path, 'x']).message).toMatch(/^Invalid option config: must hold a JSON object/);
      writeFileSync(path, '{ nope');
      expect(usageError(['--config', path, 'x']).message).toMatch(/^Invalid option config: must hold valid JSON/);
      writeFileSync(path, '{"documentId": "same"}');
      expect(usageError(['--config', path, 'x']).message).toMatch(/^Invalid option documentId: is set per file/);
      writeFileSync(path, '{"chunkSize": 3}');
      expect(usageError(['--config', path, 'x']).message).toMatch(/^Invalid option chunkSize: is not a known option/);
      writeFileSync(path, '{"stats": "yes"}');
      expect(usageError(['--config', path, 'x']).message).toMatch(/^Invalid option stats: must be a boolean, got "yes"$/);
    });
  });
});
