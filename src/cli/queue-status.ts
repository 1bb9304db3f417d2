/**
 * `chunkstream status [--redis URL] [--queue NAME] [--json]`: job counts by state, whether the queue is finished,
 * and each failed file with its error code.
 */
import { isChunkError } from '../errors.js';
import type { QueueStatusOptions } from '../integrations/queue/options.js';
import type { QueueStatus } from '../integrations/queue/status.js';
import { CONNECTION_FLAGS, connectionValues, flagHelp, loadQueueModule, noPositionals, numberOrRaw, parseFlags, usageError, type QueueFlag, type QueueIo } from './queue-args.js';

const STATUS_FLAGS: readonly QueueFlag[] = [
  ...CONNECTION_FLAGS,
  { name: 'failed-limit', type: 'string', arg: 'N', help: 'Most failed jobs listed, newest first (default: 1000)' },
  { name: 'json', type: 'boolean', help: 'Print the status as one JSON document' },
];

const HELP = [
  'Usage: chunkstream status [--redis URL] [--queue NAME] [--json]',
  '',
  'Shows how many chunking jobs are waiting, active, delayed (waiting for a retry), completed and failed, and lists the',
  'failed files with their error codes. The queue is done when nothing is waiting, active or delayed.',
  '',
  'Options:',
  ...flagHelp(STATUS_FLAGS),
  '',
  'Exit codes: 0 status shown, 1 Redis could not be reached, 2 bad usage.',
  '',
].join('\n');

/** The status as text: one line of counts, then one line per failed file. */
export function formatStatus(status: QueueStatus, label: string): string {
  const c = status.counts;
  const lines = [
    `queue ${status.queue} at ${label}`,
    `waiting ${c.waiting}, active ${c.active}, delayed ${c.delayed}, completed ${c.completed}, failed ${c.failed}${status.done ? ' (done)' : ''}`,
  ];
  if (status.failed.length > 0) {
    lines.push(c.failed > status.failed.length ? `failed files (newest ${status.failed.length}):` : 'failed files:');
    for (const f of status.failed) {
      const attempts = `${f.attemptsMade} attempt${f.attemptsMade === 1 ? '' : 's'}`;
      lines.push(`  ${f.source}: ${f.code === undefined ? '' : `${f.code} `}${f.message} (job ${f.id}, ${attempts})`);
    }
  }
  return lines.join('\n') + '\n';
}

/** Parses the arguments of `status`. Returns `'help'`; throws `ERR_INVALID_OPTION` on bad usage. */
export function parseStatusArgs(argv: readonly string[]): { options: QueueStatusOptions; json: boolean } | 'help' {
  const { values, positionals } = parseFlags(argv, STATUS_FLAGS);
  if (values.help) return 'help';
  noPositionals('status', positionals);
  const options: Record<string, unknown> = { ...connectionValues(values) };
  if (values['failed-limit'] !== undefined) options.failedLimit = numberOrRaw(values['failed-limit']);
  return { options: options as QueueStatusOptions, json: values.json === true };
}

/** Runs `chunkstream status`; resolves with the exit code. */
export async function runStatus(argv: string[], io: QueueIo): Promise<number> {
  let args: ReturnType<typeof parseStatusArgs>;
  let label: string;
  try {
    args = parseStatusArgs(argv);
    if (args === 'help') {
      io.stdout.write(HELP);
      return 0;
    }
    const { normalizeStatusOptions } = await import('../integrations/queue/options.js');
    label = normalizeStatusOptions(args.options).label;
  } catch (error) {
    return usageError(io, 'status', error);
  }
  try {
    const { getQueueStatus } = await loadQueueModule();
    const status = await getQueueStatus(args.options);
    io.stdout.write(args.json ? JSON.stringify(status, null, 2) + '\n' : formatStatus(status, label));
    return 0;
  } catch (error) {
    if (!isChunkError(error)) throw error;
    io.stderr.write(`chunkstream status: ${error.code} ${error.message}\n`);
    return 1;
  }
}
