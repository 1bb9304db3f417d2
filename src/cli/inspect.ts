/**
 * `chunkstream inspect <file> [chunking options] [--html report.html] [--summary] [--compare A B]`: chunks one
 * document and shows where the boundaries fall, as a self-contained HTML report or in the terminal; with
 * `--compare`, two settings of the same document side by side.
 */
import { writeFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { chunkReadDocument } from '../api/chunk.js';
import { invalidOption, normalizeOptions, normalizeParseOptions, type ChunkConfig, type ChunkOptions, type DocumentFormat, type ParseOptions } from '../config.js';
import { ChunkError, isChunkError, systemErrorReason } from '../errors.js';
import type { FlagSpec } from '../options.js';
import { detectFileFormat } from '../parsers/detect.js';
import { formatEntry, type ReadDocument } from '../parsers/formats.js';
import { renderComparison, renderReport } from '../report/html.js';
import { pageMarks, type PageMark } from '../report/layout.js';
import { headingMarks, type HeadingMark } from '../report/outline.js';
import type { ReportSettings } from '../report/settings.js';
import { renderTerminal, renderTerminalComparison } from '../report/terminal.js';
import type { Block, ChunkingResult } from '../types.js';
import { helpLines, OPTIONS, optionsFromFlags, parseArgsOptions, withMarkers } from './args.js';
import { flagError, withNegativeValues, type FlagOptions } from './flags.js';

/** Where `runInspect` writes, and whether standard output is a terminal. */
export interface InspectIo {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
  readonly isTTY: boolean;
  /** Environment for `NO_COLOR`; default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** `inspect`'s own flags. `--compare` is taken out of the arguments before they are parsed (see `takeCompare`). */
const OWN_FLAGS: readonly FlagSpec[] = [
  { group: 'Output', name: 'html', value: 'text', arg: 'FILE', help: 'Write an HTML report to FILE (opens from disk, no network)' },
  { group: 'Output', name: 'title', value: 'text', arg: 'TEXT', help: 'Title of the report', default: 'the file name' },
  { group: 'Output', name: 'color', value: 'switch', help: 'Force terminal colours on', default: 'on for a terminal unless NO_COLOR is set' },
  { group: 'Output', name: 'no-color', value: 'switch', help: 'Force terminal colours off' },
  { group: 'Output', name: 'summary', value: 'switch', help: 'Terminal: print the settings, statistics and size histogram only' },
  { group: 'Run', name: 'help', short: 'h', value: 'switch', help: 'Show this help' },
];

/** The main command's flags for reading a PDF: `--password`, and `--timeout` for a long one on a slow machine. */
const READ_FLAGS = OPTIONS.filter((o) => o.key === 'password' || o.key === 'maxPdfSeconds');

/**
 * The chunking flags `inspect` takes, inside `--compare` settings too: those of the main command, but `--parents`,
 * which adds lines to the main command's output and changes no boundary `inspect` shows.
 */
const CHUNK_FLAGS = OPTIONS.filter((o) => o.scope === 'chunk' && o.key !== 'parents');

/** Help lines of `--compare`, which takes two values. */
const COMPARE_HELP = [
  `  ${'    --compare A B'.padEnd(28)} Chunk the document with two settings and show them side by side; each is a quoted`,
  `  ${''.padEnd(28)} string of chunking options over the ones given outside it, e.g.`,
  `  ${''.padEnd(28)} --compare "--max-size 256" "--max-size 512 --overlap 64"`,
];

/** The usage text: `inspect`'s own flags, then the main command's chunking flags, from the same table. */
function helpText(): string {
  return [
    'Usage: chunkstream inspect <file> [options]',
    '',
    'Shows a document with its chunk boundaries: in the terminal, or as one self-contained HTML page with --html.',
    '',
    'Output:',
    ...helpLines(OWN_FLAGS.filter((f) => f.group === 'Output')),
    ...COMPARE_HELP,
    '',
    'Input:',
    ...helpLines(READ_FLAGS),
    '',
    'Chunking (same meaning as for chunkstream):',
    ...helpLines(CHUNK_FLAGS),
    '',
    'Run:',
    ...helpLines(OWN_FLAGS.filter((f) => f.group === 'Run')),
    '',
    'Exit codes: 0 done, 1 the file could not be chunked, 2 bad usage.',
    '',
  ].join('\n');
}

/** One setting of `--compare`: the argument as written and the options it gives over the command line's. */
export interface CompareSetting {
  readonly label: string;
  readonly chunkOptions: ChunkOptions;
}

/** What the command line asks `inspect` to do. */
export interface InspectArgs {
  readonly file: string;
  readonly html: string | undefined;
  readonly title: string | undefined;
  readonly color: boolean | undefined;
  /** `--summary`: the terminal view prints the statistics only. */
  readonly summary: boolean;
  readonly chunkOptions: ChunkOptions;
  /** `--compare A B`: the two settings to show side by side. */
  readonly compare: readonly CompareSetting[] | undefined;
  /** How the file is read (`--password`, `--timeout`). */
  readonly parseOptions: ParseOptions;
}

/** A document read once, to be chunked with one setting or several. */
interface Source {
  readonly text: string;
  readonly pages?: readonly PageMark[];
  readonly headings?: readonly HeadingMark[];
  chunk(options: ChunkOptions): Promise<ChunkingResult>;
}

function readError(path: string, error: unknown): ChunkError {
  return new ChunkError('ERR_READ', systemErrorReason(error), { source: path, cause: error });
}

/**
 * Reads and parses the file once, in the format `chunkFile` reads it in (extension, then first bytes). A PDF's
 * blocks tell where each page starts, and every document's heading blocks where each heading starts, which the
 * page markers and the outline need; the chunks are those of `chunkFile`, which runs the same parse and the same
 * chunker. A transcript goes through `chunkFile` as it is.
 */
async function readSource(args: InspectArgs): Promise<Source> {
  let format: DocumentFormat;
  let document: ReadDocument;
  try {
    format = await detectFileFormat(args.file);
    document = await formatEntry(format).readDocument(args.file, normalizeParseOptions(args.parseOptions));
  } catch (error) {
    throw isChunkError(error) ? error : readError(args.file, error);
  }
  // Read once, chunked with one setting or several.
  const read: ReadDocument = { ...document, blocks: [...document.blocks] };
  const blocks = read.blocks as Block[];
  return {
    text: read.text,
    ...(read.pages !== undefined ? { pages: pageMarks(blocks) } : {}),
    headings: headingMarks(blocks),
    chunk: async (options) => chunkReadDocument(read, format, options),
  };
}

/** The settings a report prints, from a normalized configuration. */
function reportSettings(config: ChunkConfig): ReportSettings {
  return {
    strategy: config.strategy,
    unit: config.unit,
    encoding: config.encoding,
    targetSize: config.targetSize,
    minSize: config.minSize,
    maxSize: config.maxSize,
    overlap: config.overlap,
    splitLevels: config.splitLevels,
  };
}

/** `ChunkOptions` from parsed chunking flags. */
function chunkOptionsFrom(v: Record<string, string | boolean | string[] | undefined>): Record<string, unknown> {
  return withMarkers(optionsFromFlags(v, CHUNK_FLAGS));
}

/** `parseArgs`, with its errors as `ERR_INVALID_OPTION`. */
function parseFlags(args: readonly string[], options: NonNullable<Parameters<typeof parseArgs>[0]>['options'], allowPositionals: boolean): ReturnType<typeof parseArgs> {
  try {
    return parseArgs({ args: withNegativeValues(args, options as FlagOptions), allowPositionals, strict: true, options });
  } catch (error) {
    throw flagError(error, options as FlagOptions);
  }
}

/**
 * Takes `--compare A B` out of the arguments: the two values after it are settings strings, which `parseArgs`
 * would refuse (they begin with a dash) and could not tell from the command's own flags.
 */
function takeCompare(argv: readonly string[]): { rest: string[]; settings: string[] | undefined } {
  const at = argv.indexOf('--compare');
  if (at < 0) return { rest: [...argv], settings: undefined };
  const settings = argv.slice(at + 1, at + 3);
  if (settings.length < 2) throw invalidOption('compare', 'takes two settings, each a quoted string of chunking options', settings);
  const rest = [...argv.slice(0, at), ...argv.slice(at + 3)];
  if (rest.includes('--compare')) throw invalidOption('compare', 'may be given once, with two settings', argv.slice(at));
  return { rest, settings };
}

/** One `--compare` setting: chunking flags only, layered over the command line's. */
function compareSetting(setting: string, base: Record<string, unknown>): CompareSetting {
  const label = setting.trim().replace(/\s+/g, ' ');
  const tokens = label === '' ? [] : label.split(' ');
  const parsed = parseFlags(tokens, parseArgsOptions(CHUNK_FLAGS), true);
  if (parsed.positionals.length > 0) throw invalidOption('compare', 'settings hold chunking options only', setting);
  return { label, chunkOptions: { ...base, ...chunkOptionsFrom(parsed.values as Record<string, string | boolean | string[] | undefined>) } as ChunkOptions };
}

/** Parses the arguments after `inspect`. Returns `'help'` for `--help`; throws `ERR_INVALID_OPTION` on bad usage. */
export function parseInspectArgs(argv: readonly string[]): InspectArgs | 'help' {
  const { rest, settings } = takeCompare(argv);
  const parsed = parseFlags(rest, parseArgsOptions([...OWN_FLAGS, ...READ_FLAGS, ...CHUNK_FLAGS]), true);
  const v = parsed.values as Record<string, string | boolean | string[] | undefined>;
  if (v.help) return 'help';
  if (parsed.positionals.length !== 1) {
    throw invalidOption('file', 'inspect takes exactly one file', parsed.positionals);
  }
  if (v.html === '') throw invalidOption('html', 'must name a file', v.html);
  const options = chunkOptionsFrom(v);
  const file = parsed.positionals[0] as string;
  options.documentId = basename(file);
  options.origin = file;
  return {
    file,
    html: typeof v.html === 'string' ? v.html : undefined,
    title: typeof v.title === 'string' ? v.title : undefined,
    color: v['no-color'] === true ? false : v.color === true ? true : undefined,
    summary: v.summary === true,
    chunkOptions: options as ChunkOptions,
    compare: settings?.map((setting) => compareSetting(setting, options)),
    parseOptions: optionsFromFlags(v, READ_FLAGS) as ParseOptions,
  };
}

/** A closed pipe (`inspect … | head`) ends the output quietly instead of crashing the process. */
function quietOnClosedPipe(stream: InspectIo['stdout']): void {
  const emitter = stream as { on?: (event: 'error', listener: (error: NodeJS.ErrnoException) => void) => unknown };
  if (typeof emitter.on !== 'function') return;
  emitter.on('error', (error) => {
    if (error.code !== 'EPIPE') process.stderr.write(`chunkstream inspect: ERR_WRITE ${error.message}\n`);
  });
}

/** Chunks the source with each setting and writes the comparison: an HTML page, or figures side by side. */
async function runComparison(args: InspectArgs, source: Source, io: InspectIo, color: boolean): Promise<void> {
  const runs = [];
  for (const setting of args.compare ?? []) {
    const config = normalizeOptions(setting.chunkOptions);
    const result = await source.chunk(setting.chunkOptions);
    runs.push({ label: setting.label, chunks: result.chunks, statistics: result.statistics, settings: reportSettings(config) });
  }
  const page = { title: args.title ?? basename(args.file), pages: source.pages, headings: source.headings };
  if (args.html === undefined) {
    io.stdout.write(renderTerminalComparison(runs, source.text, { color, title: page.title, pages: source.pages }));
    return;
  }
  const html = renderComparison(runs, source.text, page);
  await writeFile(args.html, html);
  io.stderr.write(`${args.html}: ${runs.map((r) => `${r.chunks.length} chunks`).join(' vs ')}, ${(Buffer.byteLength(html) / 1024).toFixed(0)} KB\n`);
}

/**
 * Runs `chunkstream inspect`. Returns the exit code: 0 done, 1 the document could not be read or chunked, 2 bad
 * usage. Errors are written to `io.stderr` as `code message`.
 */
export async function runInspect(argv: string[], io: InspectIo): Promise<number> {
  let args: InspectArgs | 'help';
  try {
    args = parseInspectArgs(argv);
    if (args !== 'help') {
      normalizeParseOptions(args.parseOptions);
      normalizeOptions(args.chunkOptions);
      for (const setting of args.compare ?? []) normalizeOptions(setting.chunkOptions);
    }
  } catch (error) {
    const e = error as { code?: string; message: string };
    io.stderr.write(`chunkstream inspect: ${e.code ?? 'ERR_INVALID_OPTION'} ${e.message}\nRun "chunkstream inspect --help" for usage.\n`);
    return 2;
  }
  if (args === 'help') {
    io.stdout.write(helpText());
    return 0;
  }
  const config = normalizeOptions(args.chunkOptions);
  quietOnClosedPipe(io.stdout);
  const env = io.env ?? process.env;
  const noColor = env.NO_COLOR !== undefined && env.NO_COLOR !== '';
  const color = args.color ?? (io.isTTY && !noColor);
  try {
    const source = await readSource(args);
    if (args.compare !== undefined) {
      await runComparison(args, source, io, color);
      return 0;
    }
    const result = await source.chunk(args.chunkOptions);
    const title = args.title ?? basename(args.file);
    const view = { ...reportSettings(config), pages: source.pages, title };
    if (args.html !== undefined) {
      const html = renderReport(result.chunks, source.text, result.statistics, { ...view, headings: source.headings });
      await writeFile(args.html, html);
      io.stderr.write(`${args.html}: ${result.chunks.length} chunks, ${(Buffer.byteLength(html) / 1024).toFixed(0)} KB\n`);
    } else {
      io.stdout.write(renderTerminal(result.chunks, source.text, result.statistics, { ...view, color, statistics: args.summary ? 'only' : 'first' }));
    }
    return 0;
  } catch (error) {
    const e = error as { code?: string; message: string };
    io.stderr.write(`${args.file}: ${isChunkError(error) ? e.code : 'ERR_INTERNAL'} ${e.message}\n`);
    return 1;
  }
}
