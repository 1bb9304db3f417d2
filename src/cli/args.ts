/**
 * Command-line arguments → a validated run configuration. Parsing uses Node's own `util.parseArgs` in strict mode;
 * chunking and parsing options are checked by the library's `normalizeOptions`/`normalizeParseOptions`, so a bad
 * value gets the same coded `ERR_INVALID_OPTION` error a library user would see.
 */
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import { FORMATS, invalidOption, normalizeOptions, normalizeParseOptions, type ChunkOptions } from '../config.js';
import type { FileFormat } from '../files/inputs.js';
import type { FileParseOptions } from '../files/process-file.js';
import { CLI_PARSE_KEYS, HELP_GROUPS, OPTION_TABLE, type FlagSpec, type OptionKey, type OptionScope } from '../options.js';
import { FORMAT_TABLE, isDocumentFormat } from '../parsers/formats.js';
import { flagError, withNegativeValues } from './flags.js';


/** Everything a chunking run needs, validated. */
export interface RunConfig {
  readonly inputs: readonly string[];
  /** Forced input format; undefined means from the extension or the first bytes. */
  readonly format: FileFormat | undefined;
  readonly out: string | undefined;
  readonly outDir: string | undefined;
  /** Options for `chunk()`: plain data and RegExps, both of which survive the structured clone to a worker. */
  readonly chunkOptions: ChunkOptions;
  readonly parseOptions: FileParseOptions;
  readonly stats: boolean;
  readonly statsJson: string | undefined;
  readonly quiet: boolean;
  readonly jobs: number;
  readonly unordered: boolean;
  readonly failFast: boolean;
}

/** What the command line asks for. */
export type CliCommand = { readonly kind: 'help' } | { readonly kind: 'version' } | { readonly kind: 'run'; readonly config: RunConfig };

type OptionKind = 'string' | 'boolean';

/** One flag of the `chunkstream` command: its row of the option table, flattened. */
export interface CliOption extends FlagSpec {
  /** Key in `chunkstream.json`, and in `ChunkOptions`, `FileParseOptions` or the run configuration. */
  readonly key: OptionKey;
  readonly scope: OptionScope;
}

const DEFAULT_JOBS = availableParallelism();

/** Every option of the `chunkstream` command, in help order: the rows of the option table that have a flag. */
export const OPTIONS: readonly CliOption[] = OPTION_TABLE.flatMap((o) => (o.flag ? [{ ...o.flag, key: o.key, scope: o.scope }] : []));

const PARSE_KEYS = new Set(CLI_PARSE_KEYS);
/**
 * Keys of `chunkstream.json` that are run settings rather than chunking options. `format` is a parse option the
 * command line decides per input (see `expandInputs`), so it travels with the run, not with every file's options.
 */
const RUN_KEYS = new Set<string>([...OPTION_TABLE.filter((o) => o.scope === 'run').map((o) => o.key), 'format']);

/** The `parseArgs` settings of `flags`. */
export function parseArgsOptions(flags: readonly FlagSpec[]): Record<string, { type: OptionKind; short?: string; multiple?: boolean }> {
  const options: Record<string, { type: OptionKind; short?: string; multiple?: boolean }> = {};
  for (const f of flags) {
    options[f.name] = { type: f.value === 'switch' || f.value === 'negated' ? 'boolean' : 'string' };
    if (f.short) options[f.name]!.short = f.short;
    if (f.value === 'markers') options[f.name]!.multiple = true;
  }
  return options;
}

/** One help line per flag: short form, long form and placeholder in a column, then the help and the default. */
export function helpLines(flags: readonly FlagSpec[]): string[] {
  return flags.map((o) => {
    const flag = `${o.short ? `-${o.short}, ` : '    '}--${o.name}${o.arg ? ` ${o.arg}` : ''}`;
    const def = o.default === undefined ? '' : ` (default: ${o.default})`;
    return `  ${flag.padEnd(28)} ${o.help}${def}`;
  });
}

/** One help line per format, from the format table: its extensions and the input flags that apply to it. */
function formatLines(): string[] {
  const flagOf = new Map(OPTIONS.map((o) => [o.key as string, `--${o.name}`]));
  return Object.values(FORMAT_TABLE).map((entry) => {
    const flags = entry.parseOptions.flatMap((key) => flagOf.get(key) ?? []);
    return `  ${entry.name.padEnd(12)} ${entry.extensions.join(' ')}${flags.length > 0 ? `; ${flags.join(' ')}` : ''}`;
  });
}

/** The other commands, as the help lists them. */
const SUBCOMMAND_HELP: readonly (readonly [string, string])[] = [
  ['chunkstream inspect <file> [options]', "shows where one document's chunk boundaries fall"],
  ['chunkstream diff OLD.jsonl NEW.jsonl', 'lists the chunk ids added, removed and kept'],
  ['chunkstream enqueue --redis URL <inputs...>', 'adds one job per input to a BullMQ queue'],
  ['chunkstream worker --redis URL --out-dir DIR', "chunks the queue's jobs (one per core, any machine)"],
  ['chunkstream status --redis URL', 'what the queue holds: waiting, running, done, failed'],
];

/** The usage text, generated from `OPTIONS`. */
export function helpText(): string {
  const lines = [
    'Usage: chunkstream [options] <inputs...>',
    '',
    'Chunks Markdown, PDF, HTML, Word, plain text and transcripts for retrieval and writes one JSON line per chunk',
    '(every chunk field plus "source"). Inputs are files, folders (walked recursively), glob patterns ("docs/**/*.md")',
    'and - for standard input; files of other types are skipped with a note.',
    '',
    'Other commands (each with its own --help):',
    ...SUBCOMMAND_HELP.map(([usage, does]) => `  ${usage.padEnd(46)} ${does}`),
  ];
  for (const group of HELP_GROUPS) lines.push('', `${group}:`, ...helpLines(OPTIONS.filter((x) => x.group === group)));
  lines.push('', 'Formats (--format NAME: extensions; the input options each reads):', ...formatLines());
  lines.push(
    '',
    'Exit codes: 0 every input done; 1 an input failed, every input was skipped, or the run was stopped (--fail-fast);',
    '2 bad usage; 130 interrupted (Ctrl-C: the run stops and removes its temporary files; a second Ctrl-C quits at once).',
    '',
  );
  return lines.join('\n');
}

/** Turns `--max-size 512` into a number, and leaves anything else as typed so the validator can name it. */
function numberOrRaw(value: string): number | string {
  return /^-?\d+$/.test(value.trim()) ? Number(value) : value;
}

/** `\n`, `\t` and `\\` escapes in a marker, or a `/regex/flags` literal. */
function markerFromText(text: string): string | RegExp {
  const regex = /^\/(.+)\/([a-z]*)$/s.exec(text);
  if (regex) {
    try {
      return new RegExp(regex[1] as string, regex[2]);
    } catch {
      throw invalidOption('markers', 'must be a string or a valid /regex/flags', text);
    }
  }
  return text.replace(/\\(n|t|r|\\)/g, (_m, c: string) => ({ n: '\n', t: '\t', r: '\r', '\\': '\\' })[c] as string);
}

/**
 * The options `flags` give in parsed `values`, by their keys: numbers as numbers, lists split, markers as typed
 * (`withMarkers` reads them), a negated switch as false. Flags not given are left out.
 */
export function optionsFromFlags(values: Record<string, string | boolean | string[] | undefined>, flags: readonly CliOption[]): Record<string, unknown> {
  const options: Record<string, unknown> = {};
  for (const o of flags) {
    const value = values[o.name];
    if (value === undefined) continue;
    if (o.value === 'negated') {
      if (value === true) options[o.key] = false;
    } else if (o.value === 'integers') {
      options[o.key] = String(value).split(',').map((s) => numberOrRaw(s));
    } else if (o.value === 'integer' && typeof value === 'string') {
      options[o.key] = numberOrRaw(value);
    } else {
      options[o.key] = value;
    }
  }
  return options;
}

/** `options` with its `markers` read from text: `\n` escapes and `/regex/flags` literals become what they say. */
export function withMarkers(options: Record<string, unknown>): Record<string, unknown> {
  if (!Array.isArray(options.markers)) return options;
  return { ...options, markers: options.markers.map((m) => (typeof m === 'string' ? markerFromText(m) : m)) };
}

/** kebab-case → camelCase, so `chunkstream.json` may use either spelling. */
function camel(key: string): string {
  return key.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());
}

/** Reads `--config FILE`: a JSON object of options. */
function readConfigFile(path: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw invalidOption('config', 'must name a readable JSON file', path + ` (${(error as Error).message})`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw invalidOption('config', 'must hold valid JSON', `${path}: ${(error as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalidOption('config', 'must hold a JSON object', value);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[camel(k)] = v;
  return out;
}

/** Parses the arguments of a chunking run. Throws `ChunkError('ERR_INVALID_OPTION')` on bad usage. */
export function parseCliArgs(argv: readonly string[]): CliCommand {
  let parsed: ReturnType<typeof parseArgs>;
  const options = parseArgsOptions(OPTIONS);
  try {
    parsed = parseArgs({ args: withNegativeValues(argv, options), options, allowPositionals: true, strict: true });
  } catch (error) {
    throw flagError(error, options);
  }
  const v = parsed.values as Record<string, string | boolean | string[] | undefined>;
  if (v.help) return { kind: 'help' };
  if (v.version) return { kind: 'version' };

  // Precedence: library defaults < config file < flags.
  const fromFile = typeof v.config === 'string' ? readConfigFile(v.config) : {};
  const given = OPTIONS.filter((o) => o.key !== 'config' && o.key !== 'help' && o.key !== 'version');
  // The file's markers are read from text too, unless the flags replace them.
  const merged = withMarkers({ ...fromFile, ...optionsFromFlags(v, given) });

  const chunkOptions: Record<string, unknown> = {};
  const parseOptions: Record<string, unknown> = {};
  const run: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(merged)) {
    if (RUN_KEYS.has(key)) run[key] = value;
    else if (PARSE_KEYS.has(key)) parseOptions[key] = value;
    else chunkOptions[key] = value;
  }
  // The CLI sets these per file; accepting them would give every file the same ids.
  for (const key of ['documentId', 'origin', 'signal']) {
    if (key in chunkOptions) throw invalidOption(key, 'is set per file by the command line and cannot be given', chunkOptions[key]);
  }
  // Validate now, with the library's own rules and messages; the normalized copies are rebuilt per file.
  normalizeOptions(chunkOptions as ChunkOptions);
  normalizeParseOptions(parseOptions as FileParseOptions);

  const format = run.format;
  if (format !== undefined && !isDocumentFormat(format)) {
    throw invalidOption('format', `must be one of ${FORMATS.map((f) => `'${f}'`).join(', ')}`, format);
  }
  const jobs = run.jobs === undefined ? DEFAULT_JOBS : typeof run.jobs === 'string' ? numberOrRaw(run.jobs) : run.jobs;
  if (typeof jobs !== 'number' || !Number.isInteger(jobs) || jobs < 1 || jobs > 256) {
    throw invalidOption('jobs', 'must be an integer between 1 and 256', jobs);
  }
  for (const key of ['out', 'outDir', 'statsJson'] as const) {
    if (run[key] !== undefined && (typeof run[key] !== 'string' || run[key] === '')) throw invalidOption(key, 'must be a non-empty path', run[key]);
  }
  for (const key of ['stats', 'quiet', 'unordered', 'failFast'] as const) {
    if (run[key] !== undefined && typeof run[key] !== 'boolean') throw invalidOption(key, 'must be a boolean', run[key]);
  }
  if (run.out !== undefined && run.outDir !== undefined) {
    throw invalidOption('out', 'cannot be combined with --out-dir', run.out);
  }
  if (parsed.positionals.length === 0) {
    throw invalidOption('inputs', 'at least one file, folder, glob pattern or - (standard input) is required', []);
  }
  if (parsed.positionals.filter((p) => p === '-').length > 1) {
    throw invalidOption('inputs', 'standard input (-) can be given only once', parsed.positionals);
  }
  return {
    kind: 'run',
    config: Object.freeze({
      inputs: Object.freeze([...parsed.positionals]),
      format: format as FileFormat | undefined,
      out: run.out as string | undefined,
      outDir: run.outDir as string | undefined,
      chunkOptions: chunkOptions as ChunkOptions,
      parseOptions: parseOptions as FileParseOptions,
      stats: (run.stats as boolean | undefined) ?? false,
      statsJson: run.statsJson as string | undefined,
      quiet: (run.quiet as boolean | undefined) ?? false,
      jobs,
      unordered: (run.unordered as boolean | undefined) ?? false,
      failFast: (run.failFast as boolean | undefined) ?? false,
    }),
  };
}
