/**
 * `chunkstream inspect <file> [chunking options] [--html report.html] [--summary] [--compare A B]`: chunks one
 * document and shows where the boundaries fall, as a self-contained HTML report or in the terminal; with
 * `--compare`, two settings of the same document side by side.
 */
import { open, readFile, writeFile } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import { parseArgs } from 'node:util';
import { chunkBlocks, chunkFile, chunkPdfDocument } from '../api/chunk.js';
import { invalidOption, normalizeOptions, type ChunkConfig, type ChunkOptions } from '../config.js';
import { ChunkError, isChunkError } from '../errors.js';
import { parseMarkdown } from '../parsers/markdown/parse.js';
import { parsePdf } from '../parsers/pdf/reader.js';
import { createUtf8Decoder } from '../parsers/utf8-decoder.js';
import { renderComparison, renderReport } from '../report/html.js';
import { pageMarks, type PageMark } from '../report/layout.js';
import { headingMarks, type HeadingMark } from '../report/outline.js';
import type { ReportSettings } from '../report/settings.js';
import { renderTerminal, renderTerminalComparison } from '../report/terminal.js';
import type { ChunkingResult } from '../types.js';

/** Where `runInspect` writes, and whether standard output is a terminal. */
export interface InspectIo {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
  readonly isTTY: boolean;
  /** Environment for `NO_COLOR`; default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** Chunking flags: flag name → `ChunkOptions` key. */
const NUMERIC = { 'max-size': 'maxSize', 'target-size': 'targetSize', 'min-size': 'minSize', overlap: 'overlap', 'fixed-size': 'fixedSize' } as const;
const TEXT = { strategy: 'strategy', unit: 'unit', encoding: 'encoding', locale: 'locale' } as const;
const FLAGS = { graphemes: 'graphemes', 'preserve-code': 'preserveCode', contextualize: 'contextualize' } as const;

const HELP = `Usage: chunkstream inspect <file> [options]

Shows a document with its chunk boundaries: in the terminal, or as one self-contained HTML page with --html.

Output:
  --html FILE            Write an HTML report to FILE (opens from disk, no network)
  --title TEXT           Title of the report (default: the file name)
  --color, --no-color    Force terminal colours on or off (default: on for a terminal unless NO_COLOR is set)
  --summary              Terminal: print the settings, statistics and size histogram only
  --compare A B          Chunk the document with two settings and show them side by side; each is a quoted
                         string of chunking options over the ones given outside it, e.g.
                         --compare "--max-size 256" "--max-size 512 --overlap 64"

Chunking (same meaning as for chunkstream):
  --strategy NAME        semantic, fixed, window, markers or turns (default: semantic)
  --unit UNIT            tokens, chars or words (default: tokens)
  --encoding NAME        cl100k_base or o200k_base (default: cl100k_base)
  --max-size N           Hard limit on a chunk's size (default: 512)
  --target-size N        Size the packer aims for (default: 75% of max-size)
  --min-size N           Smaller chunks are fused with a neighbour (default: 25% of target-size)
  --overlap N            Units of the previous chunk repeated at the start of the next (default: 0)
  --split-levels LIST    Heading depths that start a new section, comma-separated (default: 1,2)
  --locale TAG           Locale for sentence and word segmentation (default: en)
  --graphemes            Count grapheme clusters (unit chars)
  --no-preserve-tables   Let tables be cut like other text
  --preserve-code        Never split a fenced code block
  --contextualize        Count the heading breadcrumb in the size
  --fixed-size N         Fixed strategy: characters per chunk
  --password TEXT        Password of an encrypted PDF

Exit codes: 0 done, 1 the file could not be chunked, 2 bad usage.
`;

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
  readonly password: string | undefined;
}

/** `--max-size 512` → 512; anything else stays a string so the option validator names it. */
function numberOrRaw(value: string): number | string {
  return /^-?\d+$/.test(value.trim()) ? Number(value) : value;
}

/** True when the file is a PDF: by extension, else by its first bytes. */
async function isPdf(path: string): Promise<boolean> {
  if (extname(path).toLowerCase() === '.pdf') return true;
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    throw readError(path, error);
  }
  try {
    const head = Buffer.alloc(5);
    const { bytesRead } = await handle.read(head, 0, 5, 0);
    return head.subarray(0, bytesRead).toString('latin1') === '%PDF-';
  } finally {
    await handle.close();
  }
}

/** A document read once, to be chunked with one setting or several. */
interface Source {
  readonly text: string;
  readonly pages?: readonly PageMark[];
  readonly headings?: readonly HeadingMark[];
  chunk(options: ChunkOptions): Promise<ChunkingResult>;
}

function readError(path: string, error: unknown): ChunkError {
  return new ChunkError('ERR_READ', `Cannot read ${path}: ${(error as Error).message}`, { source: path, cause: error });
}

/**
 * Reads and parses the file once. A PDF's blocks tell where each page starts, and every document's heading blocks
 * where each heading starts, which the page markers and the outline need; the chunks are those of `chunkFile`,
 * which runs the same parse and the same chunker. A transcript goes through `chunkFile` as it is.
 */
async function readSource(args: InspectArgs): Promise<Source> {
  if (await isPdf(args.file)) {
    const document = await parsePdf(args.file, args.password === undefined ? {} : { password: args.password });
    return {
      text: document.text,
      pages: pageMarks(document.blocks),
      headings: headingMarks(document.blocks),
      chunk: async (options) => chunkPdfDocument(document, options),
    };
  }
  const ext = extname(args.file).toLowerCase();
  if (ext === '.jsonl' || ext === '.transcript') {
    const first = await chunkFile(args.file, args.chunkOptions);
    return { text: first.text, chunk: async (options) => chunkFile(args.file, options) };
  }
  let bytes: Buffer;
  try {
    bytes = await readFile(args.file);
  } catch (error) {
    throw readError(args.file, error);
  }
  const decoder = createUtf8Decoder();
  const text = decoder.write(bytes) + decoder.end();
  const blocks = parseMarkdown(text);
  return {
    text,
    headings: headingMarks(blocks),
    chunk: async (options) => {
      const result = chunkBlocks(blocks, options);
      return { ...result, statistics: { ...result.statistics, documents: 1 } };
    },
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

/** The chunking flags `inspect` takes, inside `--compare` settings too. */
const CHUNK_FLAGS = {
  'split-levels': { type: 'string' },
  'no-preserve-tables': { type: 'boolean' },
  ...Object.fromEntries(Object.keys({ ...NUMERIC, ...TEXT }).map((k) => [k, { type: 'string' as const }])),
  ...Object.fromEntries(Object.keys(FLAGS).map((k) => [k, { type: 'boolean' as const }])),
} as const satisfies NonNullable<Parameters<typeof parseArgs>[0]>['options'];

/** `ChunkOptions` from parsed chunking flags. */
function chunkOptionsFrom(v: Record<string, string | boolean | undefined>): Record<string, unknown> {
  const options: Record<string, unknown> = {};
  for (const [flag, key] of Object.entries(NUMERIC)) if (typeof v[flag] === 'string') options[key] = numberOrRaw(v[flag]);
  for (const [flag, key] of Object.entries(TEXT)) if (typeof v[flag] === 'string') options[key] = v[flag];
  for (const [flag, key] of Object.entries(FLAGS)) if (v[flag] === true) options[key] = true;
  if (typeof v['split-levels'] === 'string') options.splitLevels = v['split-levels'].split(',').map(numberOrRaw);
  if (v['no-preserve-tables'] === true) options.preserveTables = false;
  return options;
}

/** `parseArgs`, with its errors as `ERR_INVALID_OPTION`. */
function parseFlags(args: readonly string[], options: NonNullable<Parameters<typeof parseArgs>[0]>['options'], allowPositionals: boolean): ReturnType<typeof parseArgs> {
  try {
    return parseArgs({ args: [...args], allowPositionals, strict: true, options });
  } catch (error) {
    throw new ChunkError('ERR_INVALID_OPTION', (error as Error).message.split('. To specify')[0] as string, { cause: error });
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
  const parsed = parseFlags(tokens, CHUNK_FLAGS, true);
  if (parsed.positionals.length > 0) throw invalidOption('compare', 'settings hold chunking options only', setting);
  return { label, chunkOptions: { ...base, ...chunkOptionsFrom(parsed.values as Record<string, string | boolean | undefined>) } as ChunkOptions };
}

/** Parses the arguments after `inspect`. Returns `'help'` for `--help`; throws `ERR_INVALID_OPTION` on bad usage. */
export function parseInspectArgs(argv: readonly string[]): InspectArgs | 'help' {
  const { rest, settings } = takeCompare(argv);
  const parsed = parseFlags(
    rest,
    {
      html: { type: 'string' },
      title: { type: 'string' },
      color: { type: 'boolean' },
      'no-color': { type: 'boolean' },
      summary: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
      password: { type: 'string' },
      ...CHUNK_FLAGS,
    },
    true,
  );
  const v = parsed.values as Record<string, string | boolean | undefined>;
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
    password: typeof v.password === 'string' ? v.password : undefined,
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
      normalizeOptions(args.chunkOptions);
      for (const setting of args.compare ?? []) normalizeOptions(setting.chunkOptions);
    }
  } catch (error) {
    const e = error as { code?: string; message: string };
    io.stderr.write(`chunkstream inspect: ${e.code ?? 'ERR_INVALID_OPTION'} ${e.message}\nRun "chunkstream inspect --help" for usage.\n`);
    return 2;
  }
  if (args === 'help') {
    io.stdout.write(HELP);
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
