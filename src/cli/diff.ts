/**
 * `chunkstream diff OLD.jsonl NEW.jsonl`: which chunks of a new run were added, which of the old run were removed,
 * which were kept, by chunk id, so that a re-index job embeds only the added ones and deletes the removed ones.
 * Only the old run's ids (with their source) are held in memory; the new run is streamed, each added chunk written
 * out as soon as it is read.
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { ChunkError, isChunkError } from '../errors.js';
import { flagError } from './flags.js';

/** Where `runDiff` writes. */
export interface DiffIo {
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: { write(text: string): unknown };
}

const HELP = `Usage: chunkstream diff OLD.jsonl NEW.jsonl [options]

Compares two runs of chunkstream by chunk id. Ids derive from each chunk's embedded content, so a chunk whose
text did not change keeps its id whatever changed elsewhere in its document. Parent lines (--parents) are
compared by their id the same way.

Output (standard output, one JSON line per change, in the order of each file):
  {"change":"added","id":…,"chunk":{…the new line…}}   a chunk to embed
  {"change":"removed","id":…,"source":…}               a chunk to delete from the store
  {"change":"kept","id":…}                             with --kept: a chunk whose embedding can stay
A parent line is listed the same way: added with its line (which has "type":"parent"), removed with
"type":"parent", to store in or delete from the document store rather than the vector store.
and a summary on standard error: N added, N removed, N kept.

Options:
  --ids       Plain lines instead: "+ id" added, "- id" removed ("= id" kept, with --kept)
  --kept      List kept chunks too
  -h, --help  This help

Exit codes: 0 done, 1 a file could not be read or holds a line that is not a chunk, 2 bad usage.
`;

/** The old run's chunk and parent ids, each with its source when the line had one, and whether it was a parent. */
type OldIndex = Map<string, { source?: string; parent: boolean; seen: boolean }>;

/** Runs `chunkstream diff` with its arguments (after `diff`) and resolves with the exit code. */
export async function runDiff(argv: string[], io: DiffIo): Promise<number> {
  let args;
  const options = { ids: { type: 'boolean' }, kept: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } as const;
  try {
    args = parseArgs({ args: argv, allowPositionals: true, strict: true, options });
  } catch (error) {
    const e = flagError(error, options);
    io.stderr.write(`chunkstream diff: ${e.code} ${e.message}\nRun chunkstream diff --help for the options.\n`);
    return 2;
  }
  if (args.values.help) {
    io.stdout.write(HELP);
    return 0;
  }
  if (args.positionals.length !== 2) {
    io.stderr.write(`chunkstream diff: needs two files, OLD.jsonl and NEW.jsonl, got ${args.positionals.length}\nRun chunkstream diff --help for the options.\n`);
    return 2;
  }
  const [oldPath, newPath] = args.positionals as [string, string];
  const out = createWriter(io.stdout);
  const asIds = args.values.ids === true;
  const listKept = args.values.kept === true;
  try {
    const old: OldIndex = new Map();
    for await (const { record } of readChunkLines(oldPath)) {
      old.set(record.id, { ...(typeof record.source === 'string' ? { source: record.source } : {}), parent: record.type === 'parent', seen: false });
    }
    let added = 0;
    let kept = 0;
    for await (const { record, line } of readChunkLines(newPath)) {
      const known = old.get(record.id);
      if (known !== undefined) {
        known.seen = true;
        kept++;
        if (listKept) await out(asIds ? `= ${record.id}\n` : `${JSON.stringify({ change: 'kept', id: record.id })}\n`);
      } else {
        added++;
        await out(asIds ? `+ ${record.id}\n` : `{"change":"added","id":${JSON.stringify(record.id)},"chunk":${line}}\n`);
      }
    }
    let removed = 0;
    for (const [id, { source, parent, seen }] of old) {
      if (seen) continue;
      removed++;
      await out(asIds ? `- ${id}\n` : `${JSON.stringify({ change: 'removed', id, ...(parent ? { type: 'parent' } : {}), ...(source !== undefined ? { source } : {}) })}\n`);
    }
    io.stderr.write(`chunkstream diff: ${added} added, ${removed} removed, ${kept} kept\n`);
    return 0;
  } catch (error) {
    if (!isChunkError(error)) throw error;
    io.stderr.write(`chunkstream diff: ${error.source ?? ''}${error.line !== undefined ? `:${error.line}` : ''}: ${error.code} ${error.message}\n`);
    return 1;
  }
}

/** The lines of a chunkstream JSONL file, each parsed and checked to have a string id; blank lines are skipped. */
async function* readChunkLines(path: string): AsyncGenerator<{ record: { id: string; type?: unknown; source?: unknown }; line: string }> {
  const input = createReadStream(path, { encoding: 'utf8' });
  const opened = new Promise<void>((resolve, reject) => {
    input.once('ready', () => resolve());
    input.once('error', (error) => reject(new ChunkError('ERR_READ', `cannot read: ${error.message}`, { source: path, cause: error })));
  });
  await opened;
  let lineNumber = 0;
  try {
    for await (const line of createInterface({ input, crlfDelay: Infinity })) {
      lineNumber++;
      if (line.trim() === '') continue;
      let record: unknown;
      try {
        record = JSON.parse(line);
      } catch (error) {
        throw new ChunkError('ERR_INVALID_INPUT', `not a JSON line: ${(error as Error).message}`, { source: path, line: lineNumber, cause: error });
      }
      if (typeof record !== 'object' || record === null || typeof (record as { id?: unknown }).id !== 'string') {
        throw new ChunkError('ERR_INVALID_INPUT', 'not a chunk: the line has no string "id"', { source: path, line: lineNumber });
      }
      yield { record: record as { id: string; source?: unknown }, line };
    }
  } catch (error) {
    if (isChunkError(error)) throw error;
    throw new ChunkError('ERR_READ', `cannot read: ${(error as Error).message}`, { source: path, line: lineNumber, cause: error });
  } finally {
    input.destroy();
  }
}

/** A write that waits for `drain` when the stream's buffer is full, so a large diff streams in bounded memory. */
function createWriter(stream: NodeJS.WritableStream): (text: string) => Promise<void> {
  return (text) => (stream.write(text) ? Promise.resolve() : new Promise((resolve) => stream.once('drain', () => resolve())));
}
