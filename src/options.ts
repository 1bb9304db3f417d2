/**
 * The table of every option: its key in `ChunkOptions`/`ParseOptions` (or the command line's run configuration),
 * which normalizer takes it, and, where it has one, its command-line flag with the help line and default. The key
 * lists of `normalizeOptions` and `normalizeParseOptions`, `splitOptions`, the `chunkstream` command's flags and
 * help, and `inspect`'s chunking flags and help all read it: a new option is a field in `config.ts` (with its rule
 * in the normalizer) and a row here. This is the bottom layer: of chunkstream it imports types only.
 */
import { availableParallelism } from 'node:os';
import type { ChunkOptions, ParseOptions } from './config.js';

/**
 * Who takes an option: `parse` (`normalizeParseOptions`), `chunk` (`normalizeOptions`), `both` (the two: the abort
 * signal), or `run`, a setting of the command line's own (where output goes, how many threads).
 */
export type OptionScope = 'parse' | 'chunk' | 'both' | 'run';

/** The command line's run settings, keys of `chunkstream.json` beside the library options. */
export type RunKey = 'config' | 'out' | 'outDir' | 'stats' | 'statsJson' | 'quiet' | 'jobs' | 'unordered' | 'failFast' | 'help' | 'version';

/** Every key an option row may have. */
export type OptionKey = keyof ChunkOptions | keyof ParseOptions | RunKey;

/**
 * How a flag's text becomes the option's value: `text` as typed; `integer` a number when it is one (anything else
 * stays text, so the validator names what was typed); `integers` a comma-separated list of them; `markers`
 * repeatable, with `\n` escapes or a `/regex/flags` literal; `switch` true when given; `negated` (`--no-…`) false
 * when given.
 */
export type FlagValue = 'text' | 'integer' | 'integers' | 'markers' | 'switch' | 'negated';

/** Sections of the help text, in the order they are printed. */
export const HELP_GROUPS = ['Input', 'Output', 'Chunking', 'Run'] as const;
/** A section of the help text. */
export type HelpGroup = (typeof HELP_GROUPS)[number];

/** A command-line flag: its parser settings, help line and default, so the help never drifts from the parser. */
export interface FlagSpec {
  /** Long name, without the dashes. */
  readonly name: string;
  readonly value: FlagValue;
  readonly short?: string;
  /** Placeholder of the value in the help (`N`, `FILE`); none for a switch. */
  readonly arg?: string;
  readonly help: string;
  /** The default as the help prints it. */
  readonly default?: string;
  readonly group: HelpGroup;
}

/** One option. */
export interface OptionRow {
  readonly key: OptionKey;
  readonly scope: OptionScope;
  /** Its flag on the `chunkstream` command line, if it has one. */
  readonly flag?: FlagSpec;
}

/** Every option. Rows with a flag are in help order within their group. */
export const OPTION_TABLE: readonly OptionRow[] = [
  { key: 'format', scope: 'parse', flag: { group: 'Input', name: 'format', value: 'text', arg: 'FMT', help: 'Force the format of every input: markdown, pdf, transcript, text, html or docx', default: 'from the extension, then the first bytes (%PDF-)' } },
  { key: 'password', scope: 'parse', flag: { group: 'Input', name: 'password', value: 'text', arg: 'TEXT', help: 'Password of encrypted PDFs' } },
  { key: 'fatal', scope: 'parse', flag: { group: 'Input', name: 'fatal', value: 'switch', help: 'Fail a file on invalid UTF-8 instead of replacing it with U+FFFD', default: 'false' } },
  { key: 'maxPdfBytes', scope: 'parse', flag: { group: 'Input', name: 'max-pdf-bytes', value: 'integer', arg: 'N', help: 'Largest PDF read from standard input', default: '268435456' } },
  { key: 'maxPdfSeconds', scope: 'parse', flag: { group: 'Input', name: 'timeout', value: 'integer', arg: 'SECONDS', help: 'Seconds one PDF file may take to read; past them the file fails with ERR_PDF_LIMIT', default: '25' } },
  { key: 'maxPdfMemoryMb', scope: 'parse', flag: { group: 'Input', name: 'max-pdf-memory-mb', value: 'integer', arg: 'MB', help: 'Memory the reader of one PDF file may use; past it the file fails with ERR_PDF_LIMIT', default: '256' } },
  { key: 'htmlContent', scope: 'parse', flag: { group: 'Input', name: 'html-content', value: 'text', arg: 'MODE', help: "What of an HTML page is read: main (its content, no navigation, banners or footers) or all", default: 'main' } },
  { key: 'maxBufferBytes', scope: 'parse' },
  { key: 'batchSize', scope: 'parse' },
  { key: 'maxBatchSize', scope: 'parse' },
  { key: 'strict', scope: 'parse' },
  { key: 'workers', scope: 'parse' },

  { key: 'out', scope: 'run', flag: { group: 'Output', name: 'out', short: 'o', value: 'text', arg: 'FILE', help: 'Write all chunks to FILE (renamed into place only when the whole run succeeds)', default: 'standard output' } },
  { key: 'outDir', scope: 'run', flag: { group: 'Output', name: 'out-dir', value: 'text', arg: 'DIR', help: 'Write one INPUT.jsonl per input under DIR (each renamed into place when its input succeeds)' } },
  { key: 'stats', scope: 'run', flag: { group: 'Output', name: 'stats', value: 'switch', help: 'Print a table of figures per file and in total on stderr after the run', default: 'false' } },
  { key: 'statsJson', scope: 'run', flag: { group: 'Output', name: 'stats-json', value: 'text', arg: 'FILE', help: 'Write the same figures as JSON to FILE' } },
  { key: 'quiet', scope: 'run', flag: { group: 'Output', name: 'quiet', short: 'q', value: 'switch', help: 'No progress bar and no notes about skipped files', default: 'false' } },

  { key: 'config', scope: 'run', flag: { group: 'Chunking', name: 'config', short: 'c', value: 'text', arg: 'FILE', help: 'Read options from a JSON file (camelCase or kebab-case keys); flags given here win' } },
  { key: 'strategy', scope: 'chunk', flag: { group: 'Chunking', name: 'strategy', value: 'text', arg: 'NAME', help: 'semantic, fixed, window, markers or turns', default: 'semantic' } },
  { key: 'unit', scope: 'chunk', flag: { group: 'Chunking', name: 'unit', value: 'text', arg: 'UNIT', help: 'Unit of every size: tokens, chars or words', default: 'tokens' } },
  { key: 'tokenizer', scope: 'chunk', flag: { group: 'Chunking', name: 'tokenizer', value: 'text', arg: 'NAME|PATH', help: "Count tokens with cl100k_base, o200k_base or a Hugging Face tokenizer.json (the file or its model's folder)", default: 'cl100k_base' } },
  { key: 'encoding', scope: 'chunk', flag: { group: 'Chunking', name: 'encoding', value: 'text', arg: 'NAME', help: 'Another name of --tokenizer' } },
  { key: 'graphemes', scope: 'chunk', flag: { group: 'Chunking', name: 'graphemes', value: 'switch', help: 'Count grapheme clusters instead of UTF-16 units (unit chars)', default: 'false' } },
  { key: 'maxSize', scope: 'chunk', flag: { group: 'Chunking', name: 'max-size', value: 'integer', arg: 'N', help: "Hard limit on a chunk's size", default: '512' } },
  { key: 'targetSize', scope: 'chunk', flag: { group: 'Chunking', name: 'target-size', value: 'integer', arg: 'N', help: 'Size the packer aims for', default: '75% of max-size' } },
  { key: 'minSize', scope: 'chunk', flag: { group: 'Chunking', name: 'min-size', value: 'integer', arg: 'N', help: 'Smaller chunks are fused with a neighbour when the result fits', default: '25% of target-size' } },
  { key: 'overlap', scope: 'chunk', flag: { group: 'Chunking', name: 'overlap', value: 'integer', arg: 'N', help: 'Units of the previous chunk repeated at the start of the next', default: '0' } },
  { key: 'splitLevels', scope: 'chunk', flag: { group: 'Chunking', name: 'split-levels', value: 'integers', arg: 'LIST', help: 'Heading depths that start a new section, comma-separated', default: '1,2,3' } },
  { key: 'locale', scope: 'chunk', flag: { group: 'Chunking', name: 'locale', value: 'text', arg: 'TAG', help: 'Locale for sentence and word segmentation', default: 'en' } },
  { key: 'preserveTables', scope: 'chunk', flag: { group: 'Chunking', name: 'no-preserve-tables', value: 'negated', help: 'Let tables be cut like other text', default: 'tables kept whole when they fit' } },
  { key: 'tableSplit', scope: 'chunk' },
  { key: 'preserveCode', scope: 'chunk', flag: { group: 'Chunking', name: 'preserve-code', value: 'switch', help: 'Never split a fenced code block (a larger one stands alone, flagged oversized)', default: 'false' } },
  { key: 'parents', scope: 'chunk', flag: { group: 'Output', name: 'parents', value: 'switch', help: 'Also write each section as a line {"type":"parent",…} before its chunks, which get its parentId', default: 'false' } },
  { key: 'contextualize', scope: 'chunk', flag: { group: 'Chunking', name: 'contextualize', value: 'switch', help: 'Count the heading breadcrumb in the size and set embedText', default: 'false' } },
  // Set per file by the command line, from the file's path.
  { key: 'documentId', scope: 'chunk' },
  { key: 'origin', scope: 'chunk' },
  { key: 'fixedSize', scope: 'chunk', flag: { group: 'Chunking', name: 'fixed-size', value: 'integer', arg: 'N', help: 'Fixed strategy: characters per chunk' } },
  { key: 'markers', scope: 'chunk', flag: { group: 'Chunking', name: 'markers', value: 'markers', arg: 'TEXT', help: 'Markers strategy: where to cut, repeatable; \\n escapes, /regex/flags', default: '\\n\\n' } },
  { key: 'turnsPerChunk', scope: 'chunk', flag: { group: 'Chunking', name: 'turns-per-chunk', value: 'integer', arg: 'N', help: 'Turns strategy: turns per window', default: '6' } },
  { key: 'overlapTurns', scope: 'chunk', flag: { group: 'Chunking', name: 'overlap-turns', value: 'integer', arg: 'N', help: 'Turns strategy: turns repeated between windows', default: '1' } },

  { key: 'jobs', scope: 'run', flag: { group: 'Run', name: 'jobs', short: 'j', value: 'integer', arg: 'N', help: 'Threads chunking files in parallel, the main thread one of them', default: `${availableParallelism()} (the number of cores)` } },
  { key: 'unordered', scope: 'run', flag: { group: 'Run', name: 'unordered', value: 'switch', help: "Write each file's chunks as they come instead of in input order", default: 'false' } },
  { key: 'failFast', scope: 'run', flag: { group: 'Run', name: 'fail-fast', value: 'switch', help: 'Stop at the first file that fails', default: 'false' } },
  { key: 'help', scope: 'run', flag: { group: 'Run', name: 'help', short: 'h', value: 'switch', help: 'Show this help' } },
  { key: 'version', scope: 'run', flag: { group: 'Run', name: 'version', short: 'v', value: 'switch', help: 'Show the version' } },

  // Only a program can pass one; the command line aborts on a signal of its own.
  { key: 'signal', scope: 'both' },
];

/** The keys `normalizeParseOptions` (`parse`) or `normalizeOptions` (`chunk`) accepts, in table order. */
export function optionKeys(normalizer: 'parse' | 'chunk'): readonly string[] {
  return OPTION_TABLE.filter((o) => o.scope === normalizer || o.scope === 'both').map((o) => o.key);
}

/** The scope of `key`, or undefined when no option has that key. */
export function optionScope(key: string): OptionScope | undefined {
  return OPTION_TABLE.find((o) => o.key === key)?.scope;
}

/**
 * The parse options a command-line run, and a queued job, pass to `parse()` for every file: those with a flag,
 * except `format`, which the command line decides per input (the flag, else the extension, else the first bytes).
 */
export const CLI_PARSE_KEYS: readonly string[] = OPTION_TABLE.filter((o) => o.scope === 'parse' && o.flag !== undefined && o.key !== 'format').map((o) => o.key);
