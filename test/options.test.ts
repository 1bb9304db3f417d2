import { describe, expect, it } from 'vitest';
import { splitOptions } from '../src/api/chunk.js';
import { helpText, OPTIONS, parseCliArgs, type CliOption } from '../src/cli/args.js';
import { runInspect } from '../src/cli/inspect.js';
import { normalizeOptions, normalizeParseOptions } from '../src/config.js';
import { CLI_PARSE_KEYS, OPTION_TABLE, optionKeys, optionScope } from '../src/options.js';

const sorted = (keys: Iterable<string>): string[] => [...keys].sort();
const rowsOf = (...scopes: string[]) => OPTION_TABLE.filter((o) => scopes.includes(o.scope)).map((o) => o.key);

/** A value each kind of flag takes, as typed on a command line. */
function argvOf(o: CliOption): string[] {
  if (o.value === 'switch' || o.value === 'negated') return [`--${o.name}`];
  const sample: Record<string, string> = { strategy: 'window', unit: 'chars', encoding: 'o200k_base', tokenizer: 'o200k_base', locale: 'de', format: 'pdf', password: 'pw', maxPdfMemoryMb: '300', htmlContent: 'all' };
  const value = o.value === 'integers' ? '1,3' : (sample[o.key] ?? (o.value === 'integer' ? '7' : 'text'));
  return [`--${o.name}`, value];
}

describe('the option table', () => {
  it('holds every key normalizeOptions accepts, and no other chunking key', () => {
    // A normalized config has one field per option, so its keys are the options the normalizer takes.
    expect(sorted(rowsOf('chunk', 'both'))).toEqual(sorted(Object.keys(normalizeOptions())));
    for (const key of optionKeys('chunk')) expect(() => normalizeOptions({ [key]: undefined })).not.toThrow();
    for (const key of rowsOf('parse', 'run')) {
      expect(() => normalizeOptions({ [key]: undefined } as never)).toThrow(expect.objectContaining({ code: 'ERR_INVALID_OPTION', message: expect.stringMatching(new RegExp(`^Invalid option ${key}: is not a known option`)) }));
    }
  });

  it('holds every key normalizeParseOptions accepts, and no other parse key', () => {
    expect(sorted(rowsOf('parse', 'both'))).toEqual(sorted(Object.keys(normalizeParseOptions())));
    for (const key of optionKeys('parse')) expect(() => normalizeParseOptions({ [key]: undefined })).not.toThrow();
    for (const key of rowsOf('chunk', 'run')) {
      expect(() => normalizeParseOptions({ [key]: undefined } as never)).toThrow(expect.objectContaining({ code: 'ERR_INVALID_OPTION' }));
    }
  });

  it('names each key once, and each flag and short form once', () => {
    const keys = OPTION_TABLE.map((o) => o.key);
    expect(new Set(keys).size).toBe(keys.length);
    const names = OPTIONS.map((o) => o.name);
    expect(new Set(names).size).toBe(names.length);
    const shorts = OPTIONS.flatMap((o) => (o.short ? [o.short] : []));
    expect(new Set(shorts).size).toBe(shorts.length);
  });

  it('spells every flag as its key in kebab-case (a negated one with no-), but --timeout, the per-file PDF limit', () => {
    for (const o of OPTIONS) {
      const kebab = o.key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
      if (o.key === 'maxPdfSeconds') expect(o.name).toBe('timeout');
      else expect(o.name).toBe(o.value === 'negated' ? `no-${kebab}` : kebab);
    }
  });

  it('gives the signal to both normalizers and only to them: a program passes it, the command line has none', () => {
    expect(OPTION_TABLE.filter((o) => o.scope === 'both').map((o) => o.key)).toEqual(['signal']);
    expect(OPTIONS.some((o) => o.key === 'signal')).toBe(false);
  });

  it('passes to every file of a run the parse options that have a flag, but the format', () => {
    expect(CLI_PARSE_KEYS).toEqual(['password', 'fatal', 'maxPdfBytes', 'maxPdfSeconds', 'maxPdfMemoryMb', 'htmlContent']);
  });
});

describe('splitOptions', () => {
  it('sends each option to its normalizer by the table, the signal to both and unknown keys to chunking', () => {
    const signal = new AbortController().signal;
    const { parseOptions, chunkOptions } = splitOptions({ maxSize: 100, fatal: true, workers: 0, format: 'pdf', signal, bogus: 1 } as never);
    expect(parseOptions).toEqual({ fatal: true, workers: 0, format: 'pdf', signal });
    expect(chunkOptions).toEqual({ maxSize: 100, signal, bogus: 1 });
  });

  it('leaves no option behind', () => {
    const all = Object.fromEntries(OPTION_TABLE.filter((o) => o.scope !== 'run').map((o) => [o.key, undefined]));
    const { parseOptions, chunkOptions } = splitOptions(all);
    expect(sorted(new Set([...Object.keys(parseOptions), ...Object.keys(chunkOptions)]))).toEqual(sorted(Object.keys(all)));
    for (const key of Object.keys(parseOptions)) expect(['parse', 'both']).toContain(optionScope(key));
    for (const key of Object.keys(chunkOptions)) expect(['chunk', 'both']).toContain(optionScope(key));
  });
});

describe('the command line', () => {
  it('has a flag for every option but those a program alone passes', () => {
    const flagged = new Set(OPTIONS.map((o) => o.key));
    const unflagged = OPTION_TABLE.filter((o) => !flagged.has(o.key)).map((o) => o.key);
    expect(unflagged).toEqual(['maxBufferBytes', 'batchSize', 'maxBatchSize', 'strict', 'workers', 'tableSplit', 'documentId', 'origin', 'signal']);
  });

  it('routes every flag to its key: chunking options, parse options of every file, or the run', () => {
    for (const o of OPTIONS) {
      if (o.key === 'help' || o.key === 'version' || o.key === 'config') continue;
      const argv = [...argvOf(o), 'x.md'];
      const command = parseCliArgs(argv);
      if (command.kind !== 'run') throw new Error(`${argv.join(' ')} is not a run`);
      const { chunkOptions, parseOptions } = command.config;
      if (o.scope === 'chunk') expect(Object.keys(chunkOptions), o.name).toEqual([o.key]);
      else expect(Object.keys(chunkOptions), o.name).toEqual([]);
      if (CLI_PARSE_KEYS.includes(o.key)) expect(Object.keys(parseOptions), o.name).toEqual([o.key]);
      else expect(Object.keys(parseOptions), o.name).toEqual([]);
      if (o.scope === 'run' || o.key === 'format') {
        const key = o.key as keyof typeof command.config;
        expect(command.config[key], o.name).not.toBeUndefined();
      }
    }
  });

  it('reads each kind of value as the library takes it', () => {
    const command = parseCliArgs(['--max-size', '300', '--split-levels', '1,3', '--markers', '\\n## ', '--markers', '/\\n\\n/', '--no-preserve-tables', '--graphemes', 'x.md']);
    if (command.kind !== 'run') throw new Error('not a run');
    expect(command.config.chunkOptions).toEqual({ maxSize: 300, splitLevels: [1, 3], markers: ['\n## ', /\n\n/], preserveTables: false, graphemes: true });
  });

  it("lists in inspect's help every chunking flag of the main command, with the same help line, but --parents", async () => {
    let help = '';
    expect(await runInspect(['--help'], { stdout: { write: (s: string) => (help += s) }, stderr: { write: () => true }, isTTY: false })).toBe(0);
    const main = helpText().split('\n');
    // --parents adds lines to the main command's output; inspect shows boundaries, which it does not change.
    expect(help).not.toContain('--parents');
    const chunking = OPTIONS.filter((o) => o.scope === 'chunk' && o.key !== 'parents');
    expect(chunking.map((o) => o.name)).toEqual(expect.arrayContaining(['max-size', 'markers', 'turns-per-chunk', 'overlap-turns']));
    for (const o of chunking) {
      const line = main.find((l) => new RegExp(`--${o.name}( |$)`).test(l));
      expect(line, o.name).toBeDefined();
      expect(help.split('\n'), o.name).toContain(line);
    }
  });
});
