/**
 * `chunkstream status [--redis URL] [--queue NAME] [--json]`: job counts by state, whether the queue is finished,
 * and each failed file with its error code.
 */
import { readFile } from 'node:fs/promises';
import { invalidOption } from '../config.js';
import { ChunkError, isChunkError } from '../errors.js';
import type { QueueStatusOptions } from '../integrations/queue/options.js';
import type { QueueStatus } from '../integrations/queue/status.js';
import { CONNECTION_FLAGS, connectionValues, flagHelp, loadQueueModule, noPositionals, numberOrRaw, parseFlags, usageError, type QueueFlag, type QueueIo } from './queue-args.js';

const STATUS_FLAGS: readonly QueueFlag[] = [
  ...CONNECTION_FLAGS,
  { name: 'failed-limit', type: 'string', arg: 'N', help: 'Most failed jobs listed, newest first (default: 1000)' },
  { name: 'manifest', type: 'string', arg: 'FILE', help: 'A manifest written by enqueue --manifest: list its jobs that Redis no longer holds' },
  { name: 'out-dir', type: 'string', arg: 'DIR', help: "With --manifest: the workers' output folder, to tell vanished jobs whose output is in place" },
  { name: 'json', type: 'boolean', help: 'Print the status as one JSON document' },
];

const HELP = [
  'Usage: chunkstream status [--redis URL] [--queue NAME] [--manifest FILE [--out-dir DIR]] [--json]',
  '',
  'Shows how many chunking jobs are waiting, active, delayed (waiting for a retry), completed and failed, and lists the',
  'failed files with their error codes. The queue is done when nothing is waiting, active or delayed. With the',
  'manifest of enqueue --manifest, also the jobs Redis no longer holds (it restarted without persistence, or its',
  'keys were flushed or evicted): their files are to be enqueued again, but for those whose output is in place.',
  '',
  'Options:',
  ...flagHelp(STATUS_FLAGS),
  '',
  'Exit codes: 0 status shown, 1 Redis could not be reached or jobs of the manifest vanished, 2 bad usage.',
  '',
].join('\n');

/** The status as text: one line of counts, then one line per failed file. */
export function formatStatus(status: QueueStatus, label: string): string {
  const c = status.counts;
  const lines = [
    `queue ${status.queue} at ${label}`,
    `waiting ${c.waiting}, active ${c.active}, delayed ${c.delayed}, completed ${c.completed}, failed ${c.failed}${status.done ? ' (done)' : ''}`,
  ];
  if (status.vanished.length > 0) {
    lines.push(`vanished ${status.vanished.length} job(s) of the manifest: Redis no longer holds them (${status.record === undefined ? 'the queue\'s record is gone too: Redis restarted without persistence, or its keys were flushed or evicted' : 'removed, or lost'}):`);
    for (const v of status.vanished) lines.push(`  ${v.source} (job ${v.id}, ${v.output}${v.outputInPlace === undefined ? '' : v.outputInPlace ? ': output in place' : ': no output'})`);
  }
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
export function parseStatusArgs(argv: readonly string[]): { options: QueueStatusOptions; json: boolean; manifest: string | undefined } | 'help' {
  const { values, positionals } = parseFlags(argv, STATUS_FLAGS);
  if (values.help) return 'help';
  noPositionals('status', positionals);
  const options: Record<string, unknown> = { ...connectionValues(values) };
  if (values['failed-limit'] !== undefined) options.failedLimit = numberOrRaw(values['failed-limit']);
  if (values['out-dir'] !== undefined) options.outDir = values['out-dir'];
  const manifest = values.manifest as string | undefined;
  if (options.outDir !== undefined && manifest === undefined) throw invalidOption('out-dir', 'needs --manifest', options.outDir);
  return { options: options as QueueStatusOptions, json: values.json === true, manifest };
}

/** A manifest's text; `ERR_READ` naming it when it cannot be read. */
async function readManifest(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    throw new ChunkError('ERR_READ', `Cannot read the manifest ${path}: ${(error as Error).message}`, { cause: error });
  }
}

/** Runs `chunkstream status`; resolves with the exit code. */
export async function runStatus(argv: string[], io: QueueIo): Promise<number> {
  let args: ReturnType<typeof parseStatusArgs>;
  let label: string;
  let queueName: string;
  try {
    args = parseStatusArgs(argv);
    if (args === 'help') {
      io.stdout.write(HELP);
      return 0;
    }
    const { normalizeStatusOptions } = await import('../integrations/queue/options.js');
    ({ label, queue: queueName } = normalizeStatusOptions(args.options));
  } catch (error) {
    return usageError(io, 'status', error);
  }
  try {
    const { getQueueStatus, parseManifest } = await loadQueueModule();
    const jobs = args.manifest === undefined ? undefined : parseManifest(await readManifest(args.manifest), queueName);
    const status = await getQueueStatus({ ...args.options, ...(jobs === undefined ? {} : { jobs }) });
    io.stdout.write(args.json ? JSON.stringify(status, null, 2) + '\n' : formatStatus(status, label));
    return status.vanished.length > 0 ? 1 : 0;
  } catch (error) {
    if (!isChunkError(error)) throw error;
    io.stderr.write(`chunkstream status: ${error.code} ${error.message}\n`);
    return 1;
  }
}
