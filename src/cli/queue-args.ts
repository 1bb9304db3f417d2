/**
 * What the queue subcommands (`enqueue`, `worker`, `status`) share: the Redis and queue flags, number parsing, the
 * usage error format, and loading `chunkstream/queue`, whose `bullmq` may not be installed (it is an optional peer
 * dependency, so a plain `chunkstream FILE` never needs it).
 */
import { parseArgs } from 'node:util';
import { invalidOption } from '../config.js';
import { ChunkError } from '../errors.js';
import { flagError, withNegativeValues } from './flags.js';

/** A flag of a queue subcommand, in one table with its help line. */
export interface QueueFlag {
  readonly name: string;
  readonly type: 'string' | 'boolean';
  readonly arg?: string;
  readonly help: string;
  /** May be given more than once; its value is then the list of every one given. */
  readonly multiple?: boolean;
}

/** Where the queue is: every queue subcommand takes these. */
export const CONNECTION_FLAGS: readonly QueueFlag[] = [
  { name: 'redis', type: 'string', arg: 'URL', help: 'Redis server: redis://[user:password@]host[:port][/db] or rediss:// (default: redis://127.0.0.1:6379)' },
  { name: 'queue', type: 'string', arg: 'NAME', help: 'Queue name (default: chunkstream)' },
  { name: 'prefix', type: 'string', arg: 'TEXT', help: "BullMQ's key prefix in Redis (default: bull)" },
];

/** Streams a subcommand writes to. */
export interface QueueIo {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
}

/** Help lines for a table of flags. */
export function flagHelp(flags: readonly QueueFlag[]): string[] {
  return flags.map((f) => `  ${`--${f.name}${f.arg ? ` ${f.arg}` : ''}`.padEnd(26)} ${f.help}`);
}

/** A parsed flag: its value, the list of values of a repeatable one, or undefined when not given. */
export type FlagValue = string | boolean | string[] | undefined;

/** The input roots flag of `worker` and `enqueue`. */
export const INPUT_ROOT_FLAG: QueueFlag = {
  name: 'input-root',
  type: 'string',
  arg: 'DIR',
  multiple: true,
  help: 'Folder whose files jobs may name (repeatable; links out of it are refused). Without one, a worker reads inline documents only',
};

/** Parses argv strictly against `flags` (plus `--help`); throws `ERR_INVALID_OPTION` on bad usage. */
export function parseFlags(argv: readonly string[], flags: readonly QueueFlag[]): { values: Record<string, FlagValue>; positionals: string[] } {
  const options: Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean }> = { help: { type: 'boolean', short: 'h' } };
  for (const f of flags) options[f.name] = { type: f.type, ...(f.multiple ? { multiple: true } : {}) };
  try {
    const parsed = parseArgs({ args: withNegativeValues(argv, options), options, allowPositionals: true, strict: true });
    return { values: parsed.values as Record<string, FlagValue>, positionals: parsed.positionals };
  } catch (error) {
    throw flagError(error, options);
  }
}

/** `--concurrency 4` → 4; anything else stays as typed so the validator names it. */
export function numberOrRaw(value: FlagValue): number | FlagValue {
  return typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value;
}

/** The queue options of `--redis`, `--queue`, `--prefix`, with only the flags given. */
export function connectionValues(values: Record<string, FlagValue>): { redis?: string; queue?: string; prefix?: string } {
  const out: { redis?: string; queue?: string; prefix?: string } = {};
  for (const key of ['redis', 'queue', 'prefix'] as const) {
    const value = values[key];
    if (value !== undefined) out[key] = value as string;
  }
  return out;
}

/** Rejects positional arguments for a subcommand that takes none. */
export function noPositionals(command: string, positionals: readonly string[]): void {
  if (positionals.length > 0) throw invalidOption('arguments', `${command} takes no file arguments`, positionals);
}

/** The usage error, as the main command prints it. */
export function usageError(io: QueueIo, command: string, error: unknown): number {
  const e = error as { code?: string; message?: string };
  io.stderr.write(`chunkstream ${command}: ${e.code ?? 'ERR_INVALID_OPTION'} ${e.message ?? String(error)}\nRun "chunkstream ${command} --help" for usage.\n`);
  return 2;
}

/** True when `error` says the `bullmq` package could not be found. */
function isMissingBullmq(error: unknown): boolean {
  const e = error as { code?: string; message?: string };
  return (e?.code === 'ERR_MODULE_NOT_FOUND' || e?.code === 'MODULE_NOT_FOUND') && /['"]bullmq['"]/.test(e.message ?? '');
}

/**
 * Loads `chunkstream/queue`; throws `ERR_MISSING_DEPENDENCY` with the install line when `bullmq`, or the `ioredis`
 * that BullMQ 6 connects with, is not installed.
 */
export async function loadQueueModule(): Promise<typeof import('../integrations/queue/index.js')> {
  let queueModule: typeof import('../integrations/queue/index.js');
  try {
    queueModule = await import('../integrations/queue/index.js');
  } catch (error) {
    if (!isMissingBullmq(error)) throw error;
    throw new ChunkError('ERR_MISSING_DEPENDENCY', 'The queue commands need the bullmq and ioredis packages, optional peer dependencies of chunkstream: npm install bullmq ioredis', { cause: error });
  }
  (await import('../integrations/queue/connection.js')).requireIoredis();
  return queueModule;
}
