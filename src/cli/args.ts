/**
 * Command-line arguments → a validated run configuration. Parsing uses Node's own `util.parseArgs` in strict mode;
 * chunking and parsing options are checked by the library's `normalizeOptions`/`normalizeParseOptions`, so a bad
 * value gets the same coded `ERR_INVALID_OPTION` error a library user would see.
 */
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import { invalidOption, normalizeOptions, normalizeParseOptions, type ChunkOptions } from '../config.js';
import { ChunkError } from '../errors.js';

/** A format the command line can force on every input. */
export type CliFormat = 'markdown' | 'pdf' | 'transcript' | 'text';

/** Parse options a CLI run passes to `parse()`; plain data, so it can cross to a worker thread. */
export interface CliParseOptions {
  password?: string;
  fatal?: boolean;
  maxPdfBytes?: number;
  maxPdfSeconds?: number;
  maxPdfMemoryMb?: number;
}

/** Everything a chunking run needs, validated. */
export interface RunConfig {
  readonly inputs: readonly string[];
  /** Forced input format; undefined means from the extension or the first bytes. */
  readonly format: CliFormat | undefined;
  readonly out: string | undefined;
  readonly outDir: string | undefined;
  /** Options for `chunk()`: plain data and RegExps, both of which survive the structured clone to a worker. */
  readonly chunkOptions: ChunkOptions;
  readonly parseOptions: CliParseOptions;
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

/** One command-line option: its parser settings, help line and default, in one table so help never drifts. */
interface OptionSpec {
  readonly name: string;
  readonly type: OptionKind;
  readonly short?: string;
  readonly multiple?: boolean;
  readonly arg?: string;
  readonly help: string;
  readonly default?: string;
  /** Key in `chunkstream.json` and in `ChunkOptions`/`CliParseOptions`. */
  readonly key?: string;
  readonly group: 'Input' | 'Output' | 'Chunking' | 'Run';
}

const DEFAULT_JOBS = availableParallelism();

/** Every option of the `chunkstream` command, in help order. */
export const OPTIONS: readonly OptionSpec[] = [
  { group: 'Input', name: 'format', type: 'string', arg: 'FMT', help: 'Force the format of every input: markdown, pdf, transcript or text', default: 'from the extension, then the first bytes (%PDF-)' },
  { group: 'Input', name: 'password', type: 'string', arg: 'TEXT', help: 'Password of encrypted PDFs', key: 'password' },
  { group: 'Input', name: 'fatal', type: 'boolean', help: 'Fail a file on invalid UTF-8 instead of replacing it with U+FFFD', default: 'false', key: 'fatal' },
  { group: 'Input', name: 'max-pdf-bytes', type: 'string', arg: 'N', help: 'Largest PDF read from standard input', default: '268435456', key: 'maxPdfBytes' },
  { group: 'Input', name: 'timeout', type: 'string', arg: 'SECONDS', help: 'Seconds one PDF file may take to read; past them the file fails with ERR_PDF_LIMIT', default: '25', key: 'maxPdfSeconds' },
  { group: 'Output', name: 'out', short: 'o', type: 'string', arg: 'FILE', help: 'Write all chunks to FILE (renamed into place only when the whole run succeeds)', default: 'standard output' },
  { group: 'Output', name: 'out-dir', type: 'string', arg: 'DIR', help: 'Write one INPUT.jsonl per input under DIR (each renamed into place when its input succeeds)' },
  { group: 'Output', name: 'stats', type: 'boolean', help: 'Print a table of figures per file and in total on stderr after the run', default: 'false' },
  { group: 'Output', name: 'stats-json', type: 'string', arg: 'FILE', help: 'Write the same figures as JSON to FILE' },
  { group: 'Output', name: 'quiet', short: 'q', type: 'boolean', help: 'No progress bar and no notes about skipped files', default: 'false' },
  { group: 'Chunking', name: 'config', short: 'c', type: 'string', arg: 'FILE', help: 'Read options from a JSON file (camelCase or kebab-case keys); flags given here win' },
  { group: 'Chunking', name: 'strategy', type: 'string', arg: 'NAME', help: 'semantic, fixed, window, markers or turns', default: 'semantic', key: 'strategy' },
  { group: 'Chunking', name: 'unit', type: 'string', arg: 'UNIT', help: 'Unit of every size: tokens, chars or words', default: 'tokens', key: 'unit' },
  { group: 'Chunking', name: 'encoding', type: 'string', arg: 'NAME', help: 'Token encoding: cl100k_base or o200k_base', default: 'cl100k_base', key: 'encoding' },
  { group: 'Chunking', name: 'graphemes', type: 'boolean', help: 'Count grapheme clusters instead of UTF-16 units (unit chars)', default: 'false', key: 'graphemes' },
  { group: 'Chunking', name: 'max-size', type: 'string', arg: 'N', help: 'Hard limit on a chunk\'s size', default: '512', key: 'maxSize' },
  { group: 'Chunking', name: 'target-size', type: 'string', arg: 'N', help: 'Size the packer aims for', default: '75% of max-size', key: 'targetSize' },
  { group: 'Chunking', name: 'min-size', type: 'string', arg: 'N', help: 'Smaller chunks are fused with a neighbour when the result fits', default: '25% of target-size', key: 'minSize' },
  { group: 'Chunking', name: 'overlap', type: 'string', arg: 'N', help: 'Units of the previous chunk repeated at the start of the next', default: '0', key: 'overlap' },
  { group: 'Chunking', name: 'split-levels', type: 'string', arg: 'LIST', help: 'Heading depths that start a new section, comma-separated', default: '1,2', key: 'splitLevels' },
  { group: 'Chunking', name: 'locale', type: 'string', arg: 'TAG', help: 'Locale for sentence and word segmentation', default: 'en', key: 'locale' },
  { group: 'Chunking', name: 'no-preserve-tables', type: 'boolean', help: 'Let tables be cut like other text', default: 'tables kept whole when they fit', key: 'preserveTables' },
  { group: 'Chunking', name: 'preserve-code', type: 'boolean', help: 'Never split a fenced code block (a larger one stands alone, flagged oversized)', default: 'false', key: 'preserveCode' },
  { group: 'Chunking', name: 'contextualize', type: 'boolean', help: 'Count the heading breadcrumb in the size and set embedText', default: 'false', key: 'contextualize' },
  { group: 'Chunking', name: 'fixed-size', type: 'string', arg: 'N', help: 'Fixed strategy: characters per chunk', key: 'fixedSize' },
  { group: 'Chunking', name: 'markers', type: 'string', multiple: true, arg: 'TEXT', help: 'Markers strategy: where to cut, repeatable; \\n escapes, /regex/flags', default: '\\n\\n', key: 'markers' },
  { group: 'Chunking', name: 'turns-per-chunk', type: 'string', arg: 'N', help: 'Turns strategy: turns per window', default: '6', key: 'turnsPerChunk' },
  { group: 'Chunking', name: 'overlap-turns', type: 'string', arg: 'N', help: 'Turns strategy: turns repeated between windows', default: '1', key: 'overlapTurns' },
  { group: 'Run', name: 'jobs', short: 'j', type: 'string', arg: 'N', help: 'Worker threads processing files in parallel', default: `${DEFAULT_JOBS} (the number of cores)` },
  { group: 'Run', name: 'unordered', type: 'boolean', help: 'Write each file\'s chunks as they come instead of in input order', default: 'false' },
  { group: 'Run', name: 'fail-fast', type: 'boolean', help: 'Stop at the first file that fails', default: 'false' },
  { group: 'Run', name: 'help', short: 'h', type: 'boolean', help: 'Show this help' },
  { group: 'Run', name: 'version', short: 'v', type: 'boolean', help: 'Show the version' },
];

const NUMERIC_KEYS = new Set(['maxSize', 'targetSize', 'minSize', 'overlap', 'fixedSize', 'turnsPerChunk', 'overlapTurns', 'maxPdfBytes', 'maxPdfSeconds']);
const PARSE_KEYS = new Set(['password', 'fatal', 'maxPdfBytes', 'maxPdfSeconds', 'maxPdfMemoryMb']);
/** Keys of `chunkstream.json` that are run settings rather than chunking options. */
const RUN_KEYS = new Set(['format', 'out', 'outDir', 'stats', 'statsJson', 'quiet', 'jobs', 'unordered', 'failFast']);

/** The usage text, generated from `OPTIONS`. */
export function helpText(): string {
  const lines = [
    'Usage: chunkstream [options] <inputs...>',
    '',
    'Chunks Markdown and PDF files for retrieval and writes one JSON line per chunk (every chunk field plus "source").',
    'Inputs are files, folders (walked recursively), glob patterns ("docs/**/*.md") and - for standard input.',
    'Subcommand: chunkstream inspect <file> [options] shows one document\'s chunk boundaries (see inspect --help).',
    'Subcommand: chunkstream diff OLD.jsonl NEW.jsonl lists the chunk ids added, removed and kept (see diff --help).',
  ];
  for (const group of ['Input', 'Output', 'Chunking', 'Run'] as const) {
    lines.push('', `${group}:`);
    for (const o of OPTIONS.filter((x) => x.group === group)) {
      const flag = `${o.short ? `-${o.short}, ` : '    '}--${o.name}${o.arg ? ` ${o.arg}` : ''}`;
      const def = o.default === undefined ? '' : ` (default: ${o.default})`;
      lines.push(`  ${flag.padEnd(28)} ${o.help}${def}`);
    }
  }
  lines.push('', 'Exit codes: 0 all files done, 1 a file failed or the run was stopped, 2 bad usage.', '');
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
  const options: Record<string, { type: OptionKind; short?: string; multiple?: boolean }> = {};
  for (const o of OPTIONS) {
    options[o.name] = { type: o.type };
    if (o.short) options[o.name]!.short = o.short;
    if (o.multiple) options[o.name]!.multiple = true;
  }
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: [...argv], options, allowPositionals: true, strict: true });
  } catch (error) {
    const e = error as Error & { code?: string };
    throw new ChunkError('ERR_INVALID_OPTION', e.message.split('. To specify')[0] as string, { cause: error });
  }
  const v = parsed.values as Record<string, string | boolean | string[] | undefined>;
  if (v.help) return { kind: 'help' };
  if (v.version) return { kind: 'version' };

  // Precedence: library defaults < config file < flags.
  const merged: Record<string, unknown> = typeof v.config === 'string' ? readConfigFile(v.config) : {};
  for (const o of OPTIONS) {
    const value = v[o.name];
    if (value === undefined) continue;
    const key = o.key ?? camel(o.name);
    if (o.name === 'no-preserve-tables') {
      if (value === true) merged.preserveTables = false;
    } else if (o.name === 'split-levels') {
      merged.splitLevels = String(value).split(',').map((s) => numberOrRaw(s));
    } else if (o.name === 'markers') {
      merged.markers = value as string[];
    } else if (NUMERIC_KEYS.has(key) && typeof value === 'string') {
      merged[key] = numberOrRaw(value);
    } else if (key !== 'config' && key !== 'help' && key !== 'version') {
      merged[key] = value;
    }
  }
  if (Array.isArray(merged.markers)) {
    merged.markers = merged.markers.map((m) => (typeof m === 'string' ? markerFromText(m) : m));
  }

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
  normalizeParseOptions(parseOptions as CliParseOptions);

  const format = run.format;
  if (format !== undefined && !['markdown', 'pdf', 'transcript', 'text'].includes(format as string)) {
    throw invalidOption('format', "must be one of 'markdown', 'pdf', 'transcript', 'text'", format);
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
      format: format as CliFormat | undefined,
      out: run.out as string | undefined,
      outDir: run.outDir as string | undefined,
      chunkOptions: chunkOptions as ChunkOptions,
      parseOptions: parseOptions as CliParseOptions,
      stats: (run.stats as boolean | undefined) ?? false,
      statsJson: run.statsJson as string | undefined,
      quiet: (run.quiet as boolean | undefined) ?? false,
      jobs,
      unordered: (run.unordered as boolean | undefined) ?? false,
      failFast: (run.failFast as boolean | undefined) ?? false,
    }),
  };
}
