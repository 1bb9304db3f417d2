/**
 * Where JSON lines go: standard output, one `--out` file, or one file per input under `--out-dir`. Files are
 * written under a temporary name beside their target and renamed at the end, so a failed or interrupted run never
 * leaves a partial file that looks complete (rename is atomic within one file system).
 */
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, parse as parsePath, relative, resolve } from 'node:path';
import type { Writable } from 'node:stream';
import type { InputFile } from './inputs.js';

/** The output of one input file. */
export interface FileOutput {
  /** Writes complete lines (UTF-8 bytes, or text); resolves once the destination accepts more (backpressure). */
  write(lines: Uint8Array | string): Promise<void>;
  /** The input is done: `ok` false drops what a per-file destination holds. */
  end(ok: boolean): Promise<void>;
}

/** The output of a run. */
export interface RunOutput {
  /** True when lines of different inputs share one destination, so their order matters. */
  readonly shared: boolean;
  open(input: InputFile): FileOutput;
  /** Ends the run: `commit` false (a failure, an interrupt) leaves nothing in place of `--out`. Idempotent. */
  finish(commit: boolean): Promise<void>;
}

/** Writes `text` (or bytes), resolving at once or on `drain`, rejecting if the stream errors meanwhile. */
export function writeText(stream: Writable, text: Uint8Array | string): Promise<void> {
  if (stream.destroyed) return Promise.reject(new Error('output stream closed'));
  if (stream.write(text)) return Promise.resolve();
  return new Promise<void>((resolve, reject) => {
    const onDrain = (): void => {
      stream.off('error', onError);
      resolve();
    };
    const onError = (error: Error): void => {
      stream.off('drain', onDrain);
      reject(error);
    };
    stream.once('drain', onDrain);
    stream.once('error', onError);
  });
}

function endStream(stream: Writable): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (stream.writableFinished) return resolve();
    // A stream torn down by a write error (a full disk) between two writes holds a partial file: never a success.
    if (stream.destroyed) return reject(stream.errored ?? new Error('output stream closed before it was finished'));
    stream.once('error', reject);
    stream.end((error?: Error | null) => (error ? reject(error) : resolve()));
  });
}

/** A file written under a temporary name, renamed into place by `commit()`. */
export interface AtomicFile {
  readonly stream: Writable;
  /** Ends the stream and renames the file into place. */
  commit(): Promise<void>;
  /** Drops the temporary file. */
  discard(): Promise<void>;
}

/** A write stream on `path`, once the file is open. */
function openStream(path: string): Promise<Writable> {
  return new Promise((resolve, reject) => {
    const stream = createWriteStream(path);
    stream.once('open', () => resolve(stream));
    stream.once('error', reject);
  });
}

/**
 * Opens `target` for atomic writing under `temp` (by default `.NAME.PID.tmp`), in the same folder so that the final
 * rename stays on one device; the folder is made when it is missing.
 */
export async function openAtomic(target: string, temp = join(dirname(target), `.${basename(target)}.${process.pid}.tmp`)): Promise<AtomicFile> {
  // The folder usually exists (a tree of outputs fills up): try the open first, and make the folder only when it is missing.
  let stream: Writable;
  try {
    stream = await openStream(temp);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    await mkdir(dirname(target), { recursive: true });
    stream = await openStream(temp);
  }
  let settled = false;
  return {
    stream,
    async commit() {
      if (settled) return;
      settled = true;
      await endStream(stream);
      await rename(temp, target);
    },
    async discard() {
      if (settled) return;
      settled = true;
      stream.destroy();
      await rm(temp, { force: true });
    },
  };
}

/** Standard output: lines go straight through. */
export function stdoutOutput(stdout: Writable = process.stdout): RunOutput {
  const file: FileOutput = { write: (text) => writeText(stdout, text), end: async () => {} };
  return { shared: true, open: () => file, finish: async () => {} };
}

/** One `--out` file for the whole run, renamed into place only by `finish(true)`. */
export async function fileOutput(target: string): Promise<RunOutput> {
  const atomic = await openAtomic(target);
  const file: FileOutput = { write: (text) => writeText(atomic.stream, text), end: async () => {} };
  return {
    shared: true,
    open: () => file,
    finish: (commit) => (commit ? atomic.commit() : atomic.discard()),
  };
}

/**
 * The `--out-dir` file of an input: its path relative to the working folder (or, outside it, its absolute path
 * without the root) with `.jsonl` appended, so `docs/a.md` and `docs/a.pdf` never collide. Standard input is `stdin.jsonl`.
 */
export function outDirPath(dir: string, source: string): string {
  if (source === '-') return join(dir, 'stdin.jsonl');
  const absolute = resolve(source);
  let rel = relative(process.cwd(), absolute);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) rel = absolute.slice(parsePath(absolute).root.length);
  return join(dir, `${rel}.jsonl`);
}

/** One `.jsonl` per input under `dir`, each renamed into place when its input succeeds. */
export function dirOutput(dir: string): RunOutput {
  const open = new Set<AtomicFile>();
  return {
    shared: false,
    open(input) {
      let file: Promise<AtomicFile> | undefined;
      const get = (): Promise<AtomicFile> => {
        file ??= openAtomic(outDirPath(dir, input.source)).then((f) => {
          open.add(f);
          return f;
        });
        return file;
      };
      return {
        async write(lines) {
          await writeText((await get()).stream, lines);
        },
        async end(ok) {
          // An input without chunks still gets its (empty) file: one output per input.
          const f = await get();
          open.delete(f);
          await (ok ? f.commit() : f.discard());
        },
      };
    },
    async finish() {
      for (const f of open) await f.discard();
      open.clear();
    },
  };
}
