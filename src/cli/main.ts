#!/usr/bin/env node
/**
 * The `chunkstream` command. The first argument may name a subcommand from `SUBCOMMANDS`; anything else is a
 * chunking run (`chunkstream [options] <inputs...>`, the same as `chunkstream chunk ...`).
 */
// First: V8's flags must be set before the library's functions first run (see v8-tuning.ts).
import './v8-tuning.js';
import { readFileSync } from 'node:fs';
import { isChunkError } from '../errors.js';
import { helpText, parseCliArgs } from './args.js';
import { EXIT, runChunking } from './run.js';

/** A subcommand: its arguments (without its name) in, an exit code out. */
export type Subcommand = (argv: string[]) => Promise<number>;

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

/** `chunkstream chunk [options] <inputs...>`: the default command. */
async function chunkCommand(argv: string[]): Promise<number> {
  let command;
  try {
    command = parseCliArgs(argv);
  } catch (error) {
    if (!isChunkError(error, 'ERR_INVALID_OPTION')) throw error;
    process.stderr.write(`chunkstream: ${error.code} ${error.message}\nRun chunkstream --help for the options.\n`);
    return EXIT.usage;
  }
  if (command.kind === 'help') {
    process.stdout.write(helpText());
    return EXIT.ok;
  }
  if (command.kind === 'version') {
    process.stdout.write(version() + '\n');
    return EXIT.ok;
  }
  const controller = new AbortController();
  let interrupts = 0;
  const onSignal = (): void => {
    // First Ctrl-C: stop cleanly (workers ended, --out not renamed). Second: leave at once.
    if (++interrupts > 1) process.exit(EXIT.interrupted);
    process.stderr.write('\nchunkstream: interrupted, stopping\n');
    controller.abort(new Error('interrupted'));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    return await runChunking(command.config, { stdout: process.stdout, stderr: process.stderr, signal: controller.signal });
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

/** Subcommands by name; a new one is one line here and a module exporting its runner. */
export const SUBCOMMANDS: Readonly<Record<string, Subcommand>> = {
  chunk: chunkCommand,
  // Loaded on demand, so a chunking run never loads the report renderers.
  inspect: async (argv) => {
    const { runInspect } = await import('./inspect.js');
    return runInspect(argv, { stdout: process.stdout, stderr: process.stderr, isTTY: process.stdout.isTTY === true });
  },
  // The queue commands load bullmq (an optional peer dependency), so they too are loaded only when named.
  enqueue: async (argv) => (await import('./enqueue.js')).runEnqueue(argv, { stdout: process.stdout, stderr: process.stderr }),
  worker: async (argv) => (await import('./queue-worker.js')).runWorker(argv, { stdout: process.stdout, stderr: process.stderr }),
  status: async (argv) => (await import('./queue-status.js')).runStatus(argv, { stdout: process.stdout, stderr: process.stderr }),
  diff: async (argv) => (await import('./diff.js')).runDiff(argv, { stdout: process.stdout, stderr: process.stderr }),
};

/** Runs the command line and resolves with the exit code. */
export async function main(argv: string[]): Promise<number> {
  const [first, ...rest] = argv;
  const sub = first === undefined ? undefined : SUBCOMMANDS[first];
  try {
    return sub ? await sub(rest) : await chunkCommand(argv);
  } catch (error) {
    process.stderr.write(`chunkstream: ERR_INTERNAL ${(error as Error)?.stack ?? String(error)}\n`);
    return EXIT.failed;
  }
}

main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
