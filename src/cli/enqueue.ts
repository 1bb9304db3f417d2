/**
 * `chunkstream enqueue [--redis URL] [--queue NAME] [options] <inputs...>`: one job per input file. Inputs and the
 * input and chunking flags are the main command's own, parsed by its own parser (`parseCliArgs`), so a job chunks
 * exactly as `chunkstream FILE` would; the job count goes to stdout, notes to stderr.
 */
import { appendFile } from 'node:fs/promises';
import { dirname, sep } from 'node:path';
import { parseArgs } from 'node:util';
import { ChunkError, isChunkError } from '../errors.js';
import { DEFAULT_QUEUE_NAME } from '../integrations/queue/options.js';
import { OPTIONS, parseArgsOptions, parseCliArgs } from './args.js';
import type { EnqueueResult } from '../integrations/queue/enqueue.js';
import { CONNECTION_FLAGS, connectionValues, flagHelp, INPUT_ROOT_FLAG, loadQueueModule, numberOrRaw, usageError, type FlagValue, type QueueFlag, type QueueIo } from './queue-args.js';
import { skipNotes } from './run.js';
import { flagError, withNegativeValues } from './flags.js';

/** Flags of `enqueue` itself; the rest go to the main command's parser. */
const ENQUEUE_FLAGS: readonly QueueFlag[] = [
  ...CONNECTION_FLAGS,
  { name: 'inline-below', type: 'string', arg: 'BYTES', help: 'Carry files smaller than this inside their job instead of by path (default: 0, always by path)' },
  { name: 'attempts', type: 'string', arg: 'N', help: 'Tries per job for errors a retry may fix, such as an unreadable file (default: 3)' },
  { name: 'backoff', type: 'string', arg: 'MS', help: 'First wait before a retry, doubling at each try (default: 1000)' },
  { ...INPUT_ROOT_FLAG, help: "The workers' input roots (repeatable): warn about files outside them (default: none, so every file named by path)" },
  { name: 'manifest', type: 'string', arg: 'FILE', help: 'Append one JSON line per job added (id, input, output): status --manifest FILE names the jobs Redis lost' },
  { name: 'quiet', type: 'boolean', help: 'No notes about skipped inputs' },
];

/**
 * The main command's flags that `enqueue` passes on: its input and chunking flags. The output and run flags
 * describe a local run's output or threads, which a queued job does not have.
 */
const PASSED = OPTIONS.filter((o) => o.group === 'Input' || o.group === 'Chunking');

const HELP = [
  'Usage: chunkstream enqueue [--redis URL] [--queue NAME] [options] <inputs...>',
  '',
  'Adds one job per input file to a BullMQ queue, for `chunkstream worker` processes to chunk. Inputs are those of',
  'chunkstream itself: files, folders (walked recursively), glob patterns and - (standard input, carried inline).',
  'A job names its file by absolute path, so workers must see the same files at the same paths (a shared volume)',
  'and be started with --input-root folders that hold them; a warning lists files a worker would refuse. A job\'s',
  'output file is named as `chunkstream --out-dir` names it from the current folder. Prints the job count.',
  '',
  'Queue:',
  ...flagHelp(ENQUEUE_FLAGS),
  '',
  'Input and chunking options are those of chunkstream (see chunkstream --help), from --format to --overlap-turns,',
  'and --config FILE.',
  '',
  'Exit codes: 0 every input queued, 1 an input was missing or Redis could not be reached, 2 bad usage.',
  '',
].join('\n');

/** What `enqueue` was asked. */
export interface EnqueueArgs {
  readonly inputs: readonly string[];
  readonly options: Record<string, unknown>;
  readonly quiet: boolean;
  /** `--manifest FILE`: where the jobs added are appended. */
  readonly manifest: string | undefined;
  /** True when `--input-root` was given: the warning then names the roots rather than their absence. */
  readonly rootsGiven: boolean;
}

/**
 * Splits argv between `enqueue`'s own flags and the main command's, then validates the latter with the main
 * command's parser. Returns `'help'` for `--help`; throws `ERR_INVALID_OPTION` on bad usage.
 */
export function parseEnqueueArgs(argv: readonly string[]): EnqueueArgs | 'help' {
  const options: Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean }> = { help: { type: 'boolean', short: 'h' }, ...parseArgsOptions(PASSED) };
  for (const f of ENQUEUE_FLAGS) options[f.name] = { type: f.type, ...(f.multiple ? { multiple: true } : {}) };
  let tokens;
  try {
    tokens = parseArgs({ args: withNegativeValues(argv, options), options, allowPositionals: true, strict: true, tokens: true }).tokens;
  } catch (error) {
    throw flagError(error, options);
  }
  const own = new Set(ENQUEUE_FLAGS.map((f) => f.name));
  const values: Record<string, FlagValue> = {};
  const roots: string[] = [];
  const dropped = new Set<number>();
  for (const token of tokens) {
    if (token.kind !== 'option') continue;
    if (token.name === 'help') return 'help';
    if (!own.has(token.name)) continue;
    if (token.name === INPUT_ROOT_FLAG.name) roots.push(token.value as string);
    else values[token.name] = token.value ?? true;
    dropped.add(token.index);
    // Own flags have no short forms, so a value not given inline is always the next argument.
    if (token.value !== undefined && !token.inlineValue) dropped.add(token.index + 1);
  }
  const rest = argv.filter((_, i) => !dropped.has(i));
  const command = parseCliArgs(rest);
  if (command.kind !== 'run') return 'help';
  const { config } = command;
  return {
    inputs: config.inputs,
    quiet: values.quiet === true,
    manifest: typeof values.manifest === 'string' ? values.manifest : undefined,
    rootsGiven: roots.length > 0,
    options: {
      ...(roots.length > 0 ? { inputRoots: roots } : {}),
      ...connectionValues(values),
      ...(config.format === undefined ? {} : { format: config.format }),
      chunkOptions: config.chunkOptions,
      parseOptions: config.parseOptions,
      ...(values['inline-below'] === undefined ? {} : { inlineBelow: numberOrRaw(values['inline-below']) }),
      ...(values.attempts === undefined ? {} : { attempts: numberOrRaw(values.attempts) }),
      ...(values.backoff === undefined ? {} : { backoff: numberOrRaw(values.backoff) }),
    },
  };
}

/** The deepest folder holding every path (`/` at worst). */
function commonFolder(paths: readonly string[]): string {
  const split = paths.map((p) => dirname(p).split(sep));
  const first = split[0] ?? [];
  let n = first.length;
  for (const parts of split) {
    let k = 0;
    while (k < n && parts[k] === first[k]) k++;
    n = k;
  }
  return first.slice(0, n).join(sep) || sep;
}

/**
 * The warning about jobs that name files a worker would refuse: with `roots` (as given to `--input-root`), those
 * outside them; without, every file named by path, since a worker started without roots refuses them all.
 */
export function outsideNotes(result: EnqueueResult, roots: readonly string[]): string[] {
  const notes = tokenizerNote(result, roots);
  const outside = result.outsideRoots;
  if (outside.length === 0) return notes;
  const shown = outside.slice(0, 3).map((j) => j.path ?? j.source);
  const list = `${shown.join(', ')}${outside.length > shown.length ? `, and ${outside.length - shown.length} more` : ''}`;
  if (roots.length > 0) {
    return [...notes, `chunkstream enqueue: warning: ${outside.length} job(s) name a file outside --input-root ${roots.join(', ')}, which workers with these roots refuse (ERR_INPUT_OUTSIDE_ROOTS): ${list}`];
  }
  const folder = commonFolder(outside.map((j) => j.path ?? j.source));
  return [
    ...notes,
    `chunkstream enqueue: warning: ${outside.length} job(s) name their file by path (${list}); a worker reads files only under its --input-root folders and refuses them without one (ERR_INPUT_OUTSIDE_ROOTS).`,
    `chunkstream enqueue: start the workers with --input-root ${folder} (enqueue takes the same flag to check), or carry small files inside their jobs with --inline-below BYTES.`,
  ];
}

/** The warning about a tokenizer file the workers would refuse. */
function tokenizerNote(result: EnqueueResult, roots: readonly string[]): string[] {
  const file = result.tokenizerOutsideRoots;
  if (file === undefined) return [];
  const refusal = roots.length > 0 ? `it is outside --input-root ${roots.join(', ')}` : 'a worker started without --input-root refuses it';
  return [`chunkstream enqueue: warning: the jobs name the tokenizer ${file}, which each worker reads; ${refusal} (ERR_INPUT_OUTSIDE_ROOTS)`];
}

/** Runs `chunkstream enqueue`; resolves with the exit code. */
export async function runEnqueue(argv: string[], io: QueueIo): Promise<number> {
  let args: EnqueueArgs | 'help';
  try {
    args = parseEnqueueArgs(argv);
    if (args !== 'help') {
      // Options are checked before bullmq is loaded: a typo is a usage error even where bullmq is missing.
      const { normalizeEnqueueOptions } = await import('../integrations/queue/options.js');
      normalizeEnqueueOptions(args.options);
    }
  } catch (error) {
    return usageError(io, 'enqueue', error);
  }
  if (args === 'help') {
    io.stdout.write(HELP);
    return 0;
  }
  try {
    const { enqueueFiles, formatManifest } = await loadQueueModule();
    const result = await enqueueFiles(args.inputs, args.options);
    if (args.manifest !== undefined) {
      const queue = (args.options.queue as string | undefined) ?? DEFAULT_QUEUE_NAME;
      await appendFile(args.manifest, formatManifest(result, queue)).catch((error: Error) => {
        throw new ChunkError('ERR_WRITE', `Cannot write the manifest ${args.manifest}: ${error.message} (the ${result.jobs.length} job(s) were added)`, { cause: error });
      });
    }
    if (!args.quiet) for (const line of skipNotes(result.skipped)) io.stderr.write(`${line}\n`);
    for (const m of result.missing) io.stderr.write(`${m.source}: ${m.code} ${m.message}\n`);
    for (const line of outsideNotes(result, args.rootsGiven ? (args.options.inputRoots as string[]) : [])) io.stderr.write(`${line}\n`);
    const inline = result.jobs.filter((j) => j.inline).length;
    io.stderr.write(`chunkstream enqueue: ${result.jobs.length} job(s) added${inline > 0 ? ` (${inline} inline)` : ''}\n`);
    io.stdout.write(`${result.jobs.length}\n`);
    return result.missing.length > 0 ? 1 : 0;
  } catch (error) {
    if (!isChunkError(error)) throw error;
    io.stderr.write(`chunkstream enqueue: ${error.code} ${error.message}\n`);
    return 1;
  }
}
