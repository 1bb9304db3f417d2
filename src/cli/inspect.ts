/**
 * `chunkstream inspect <file> [chunking options] [--html report.html]`: chunks one document and shows where the
 * boundaries fall, as a self-contained HTML report or in the terminal.
 */
import { open, writeFile } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import { parseArgs } from 'node:util';
import { chunkFile, chunkPdfDocument } from '../api/chunk.js';
import { invalidOption, normalizeOptions, type ChunkOptions } from '../config.js';
import { ChunkError, isChunkError } from '../errors.js';
import { parsePdf } from '../parsers/pdf/reader.js';
import { renderReport } from '../report/html.js';
import { pageMarks, type PageMark } from '../report/layout.js';
import { renderTerminal } from '../report/terminal.js';
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

/** What the command line asks `inspect` to do. */
export interface InspectArgs {
  readonly file: string;
  readonly html: string | undefined;
  readonly title: string | undefined;
  readonly color: boolean | undefined;
  readonly chunkOptions: ChunkOptions;
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
    throw new ChunkError('ERR_READ', `Cannot read ${path}: ${(error as Error).message}`, { source: path, cause: error });
  }
  try {
    const head = Buffer.alloc(5);
    const { bytesRead } = await handle.read(head, 0, 5, 0);
    return head.subarray(0, bytesRead).toString('latin1') === '%PDF-';
  } finally {
    await handle.close();
  }
}

/** What a report is drawn from. */
interface Inspected extends ChunkingResult {
  readonly text: string;
  readonly pages?: readonly PageMark[];
}

/**
 * Chunks the file. A PDF is parsed here rather than through `chunkFile` because only its blocks tell where each
 * page starts, which the page markers need; the chunks are the same, as `chunkFile` runs the same two steps.
 */
async function inspectFile(args: InspectArgs): Promise<Inspected> {
  if (!(await isPdf(args.file))) return chunkFile(args.file, args.chunkOptions);
  const document = await parsePdf(args.file, args.password === undefined ? {} : { password: args.password });
  const { chunks, statistics, text } = chunkPdfDocument(document, args.chunkOptions);
  return { chunks, statistics, text, pages: pageMarks(document.blocks) };
}

/** Parses the arguments after `inspect`. Returns `'help'` for `--help`; throws `ERR_INVALID_OPTION` on bad usage. */
export function parseInspectArgs(argv: readonly string[]): InspectArgs | 'help' {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        html: { type: 'string' },
        title: { type: 'string' },
        color: { type: 'boolean' },
        'no-color': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
        'split-levels': { type: 'string' },
        'no-preserve-tables': { type: 'boolean' },
        password: { type: 'string' },
        ...Object.fromEntries(Object.keys({ ...NUMERIC, ...TEXT }).map((k) => [k, { type: 'string' as const }])),
        ...Object.fromEntries(Object.keys(FLAGS).map((k) => [k, { type: 'boolean' as const }])),
      },
    });
  } catch (error) {
    throw new ChunkError('ERR_INVALID_OPTION', (error as Error).message.split('. To specify')[0] as string, { cause: error });
  }
  const v = parsed.values as Record<string, string | boolean | undefined>;
  if (v.help) return 'help';
  if (parsed.positionals.length !== 1) {
    throw invalidOption('file', 'inspect takes exactly one file', parsed.positionals);
  }
  if (v.html === '') throw invalidOption('html', 'must name a file', v.html);
  const options: Record<string, unknown> = {};
  for (const [flag, key] of Object.entries(NUMERIC)) if (typeof v[flag] === 'string') options[key] = numberOrRaw(v[flag]);
  for (const [flag, key] of Object.entries(TEXT)) if (typeof v[flag] === 'string') options[key] = v[flag];
  for (const [flag, key] of Object.entries(FLAGS)) if (v[flag] === true) options[key] = true;
  if (typeof v['split-levels'] === 'string') options.splitLevels = v['split-levels'].split(',').map(numberOrRaw);
  if (v['no-preserve-tables'] === true) options.preserveTables = false;
  const file = parsed.positionals[0] as string;
  options.documentId = basename(file);
  options.origin = file;
  return {
    file,
    html: typeof v.html === 'string' ? v.html : undefined,
    title: typeof v.title === 'string' ? v.title : undefined,
    color: v['no-color'] === true ? false : v.color === true ? true : undefined,
    chunkOptions: options as ChunkOptions,
    password: typeof v.password === 'string' ? v.password : undefined,
  };
}

/**
 * Runs `chunkstream inspect`. Returns the exit code: 0 done, 1 the document could not be read or chunked, 2 bad
 * usage. Errors are written to `io.stderr` as `code message`.
 */
export async function runInspect(argv: string[], io: InspectIo): Promise<number> {
  let args: InspectArgs | 'help';
  try {
    args = parseInspectArgs(argv);
    if (args !== 'help') normalizeOptions(args.chunkOptions);
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
  try {
    const result = await inspectFile(args);
    const view = { unit: config.unit, targetSize: config.targetSize, maxSize: config.maxSize, pages: result.pages };
    if (args.html !== undefined) {
      const html = renderReport(result.chunks, result.text, result.statistics, { ...view, title: args.title ?? basename(args.file) });
      await writeFile(args.html, html);
      io.stderr.write(`${args.html}: ${result.chunks.length} chunks, ${(Buffer.byteLength(html) / 1024).toFixed(0)} KB\n`);
    } else {
      const env = io.env ?? process.env;
      const noColor = env.NO_COLOR !== undefined && env.NO_COLOR !== '';
      const color = args.color ?? (io.isTTY && !noColor);
      io.stdout.write(renderTerminal(result.chunks, result.text, result.statistics, { ...view, color }));
    }
    return 0;
  } catch (error) {
    const e = error as { code?: string; message: string };
    io.stderr.write(`${args.file}: ${isChunkError(error) ? e.code : 'ERR_INTERNAL'} ${e.message}\n`);
    return 1;
  }
}
