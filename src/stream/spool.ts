/**
 * A temporary file that takes a streamed input as it arrives, for a format read with random access once the input
 * has ended (PDF). The stream then holds none of the input: a 32 MB PDF streamed into `parse()` cost this process
 * some 65 MB when held in memory (the writes, their concatenation, the copy sent to the sandbox), and costs it nothing
 * from a file, which the PDF sandbox reads as it reads a path.
 */
import { readdirSync, rmSync } from 'node:fs';
import { mkdtemp, open, rm, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChunkError } from '../errors.js';

/** An input spooled to a file of its own, in a folder of its own under the system's temporary folder. */
export class Spool {
  #file: Promise<{ readonly dir: string; readonly handle: FileHandle }> | null = null;
  #removed = false;

  /** Appends `bytes`; resolves once they are written. Writes must not overlap: each waits for the one before. */
  async write(bytes: Uint8Array): Promise<void> {
    const { handle } = await this.#open();
    try {
      for (let written = 0; written < bytes.length; ) written += (await handle.write(bytes, written)).bytesWritten;
    } catch (error) {
      throw writeError(error);
    }
  }

  /** Closes the file and gives its path (an empty file when nothing was written). */
  async finish(): Promise<string> {
    const { dir, handle } = await this.#open();
    await handle.close();
    return join(dir, FILE_NAME);
  }

  /** Removes the file and its folder. Idempotent; a removal that fails leaves the file for the system to clear. */
  async remove(): Promise<void> {
    if (this.#removed) return;
    this.#removed = true;
    const opened = await this.#file?.catch(() => null);
    if (opened === null || opened === undefined) return;
    await opened.handle.close().catch(() => {});
    await rm(opened.dir, { recursive: true, force: true }).catch(() => {});
    live.delete(opened.dir);
  }

  #open(): Promise<{ readonly dir: string; readonly handle: FileHandle }> {
    if (this.#removed) return Promise.reject(new ChunkError('ERR_INTERNAL', 'The spooled input was already removed'));
    this.#file ??= (async () => {
      let dir: string | undefined;
      try {
        dir = await mkdtemp(join(tmpdir(), SPOOL_PREFIX));
        live.add(dir);
        return { dir, handle: await open(join(dir, FILE_NAME), 'w') };
      } catch (error) {
        if (dir !== undefined) {
          await rm(dir, { recursive: true, force: true }).catch(() => {});
          live.delete(dir);
        }
        throw writeError(error);
      }
    })();
    return this.#file;
  }
}

const FILE_NAME = 'input';

/**
 * The start of every spool folder's name: `chunkstream-`, then the process id, which the worker threads of a
 * process share. A worker thread terminated in the middle of a file (the command line on Ctrl-C) runs no code of its
 * own again, so its spools are left; the main thread removes them by this prefix (`removeProcessSpools`).
 */
const SPOOL_PREFIX = `chunkstream-${process.pid}-`;

/**
 * Removes every spool folder of this process, those of its worker threads included: for a main thread whose
 * threads may have been terminated while they read a PDF. Synchronous, so that it can run as the process exits.
 */
export function removeProcessSpools(): void {
  let names: string[];
  try {
    names = readdirSync(tmpdir());
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(SPOOL_PREFIX)) continue;
    try {
      rmSync(join(tmpdir(), name), { recursive: true, force: true });
    } catch {
      // Left for the system to clear, as a failed removal is anyway.
    }
  }
}

/**
 * Folders of the spools not yet removed. A process that exits while a PDF is read (a CLI ending on an error, a test
 * runner tearing down) never gets to the asynchronous removal: they are removed as it exits.
 */
const live = new Set<string>();
process.once('exit', () => {
  for (const dir of live) {
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch {
      // Left for the system to clear, as a failed removal is anyway.
    }
  }
});

function writeError(error: unknown): ChunkError {
  return new ChunkError('ERR_WRITE', `The input could not be spooled to the temporary folder ${tmpdir()}: ${(error as Error).message}`, { cause: error });
}
