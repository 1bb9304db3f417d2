/**
 * Confined inputs. Whoever can write to the queue chooses the paths a worker opens, so a worker reads a job's file
 * only when it lies under one of the folders it was given (its input roots), and none at all without them.
 *
 * The check is made on the real path (every symbolic link followed), so a link inside a root that points out of it
 * is refused; and it is made again on the file actually opened, so that a link swapped in between the check and
 * the open (a path that changed under the worker) cannot carry the read elsewhere. On Linux the kernel names the
 * opened file (`/proc/self/fd/N`); elsewhere the real path is resolved again after the open and must name the very
 * file that was opened (same device and inode).
 */
import { constants, realpathSync, statSync } from 'node:fs';
import { open, readlink, realpath, stat, type FileHandle } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { ChunkError } from '../../errors.js';

/** Opening flags: read only, and the last step of the path not followed if it became a link since it was resolved. */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NOCTTY ?? 0);

/** True when `path` (a real, absolute path) is `root` or lies under it. */
export function isUnderRoot(path: string, root: string): boolean {
  if (path === root) return true;
  return path.startsWith(root.endsWith(sep) ? root : root + sep);
}

/** True when `path` lies under one of `roots`. */
export function isUnderRoots(path: string, roots: readonly string[]): boolean {
  return roots.some((root) => isUnderRoot(path, root));
}

/**
 * The real paths of the roots a worker is given, checked once at start: each must be an existing folder. Throws
 * `ERR_INVALID_OPTION` naming the root.
 */
export function resolveInputRoots(roots: readonly string[]): readonly string[] {
  return Object.freeze(
    roots.map((root) => {
      let real: string;
      try {
        real = realpathSync(resolve(root));
      } catch (error) {
        throw new ChunkError('ERR_INVALID_OPTION', `Invalid option inputRoots: ${root} cannot be resolved (${(error as Error).message})`, { option: 'inputRoots', cause: error });
      }
      if (!statSync(real).isDirectory()) throw new ChunkError('ERR_INVALID_OPTION', `Invalid option inputRoots: ${root} is not a folder`, { option: 'inputRoots' });
      return real;
    }),
  );
}

/** The roots as messages show them. */
export function describeRoots(roots: readonly string[]): string {
  return roots.length === 0 ? 'none: this worker reads inline documents only' : roots.join(', ');
}

/** The coded error of a path a worker refuses; `what` names the option that gave it, when not the job's input. */
export function outsideRoots(path: string, roots: readonly string[], real?: string, what?: string): ChunkError {
  const resolved = real !== undefined && real !== path ? ` (it resolves to ${real})` : '';
  const why = roots.length === 0 ? 'this worker has no input roots and reads inline documents only' : `it is outside this worker's input roots (${roots.join(', ')})`;
  const given = what === undefined ? path : `the ${what} ${path}`;
  return new ChunkError('ERR_INPUT_OUTSIDE_ROOTS', `Refused to read ${given}${resolved}: ${why}`, { source: path });
}

/** The real path of a file that must be a plain file under `roots`; undefined when there is none to read. */
function confinedFileSync(path: string, given: string, roots: readonly string[], what: string): string | undefined {
  let real: string;
  try {
    real = realpathSync(path);
  } catch {
    // Nothing there: the option's own check says so, without reading anything.
    return undefined;
  }
  if (!isUnderRoots(real, roots)) throw outsideRoots(given, roots, real, what);
  return real;
}

/**
 * Checks the files a job's `tokenizer` option (or `encoding`) makes the worker read, before the option is
 * normalized (which reads them): the Hugging Face `tokenizer.json` named (or the one in the folder named) and the
 * `tokenizer_config.json` beside it must be plain files under `roots` by their real paths. They are read where the
 * options are checked, by path, so this check and that read are not one step: a link swapped in between by
 * someone who can write under a root is not caught (the job's input, opened here, is).
 */
export function checkTokenizerFiles(path: string, roots: readonly string[], what: string): void {
  if (roots.length === 0) throw outsideRoots(path, roots, undefined, what);
  const real = confinedFileSync(path, path, roots, what);
  if (real === undefined) return;
  const json = statSync(real).isDirectory() ? confinedFileSync(join(real, 'tokenizer.json'), path, roots, what) : real;
  if (json === undefined) return;
  // A pipe or a device would block the worker, whose options are read synchronously, or never end.
  if (!statSync(json).isFile()) throw new ChunkError('ERR_INVALID_INPUT', `Refused to read the ${what} ${path}: not a file`, { source: path });
  const config = confinedFileSync(join(dirname(json), 'tokenizer_config.json'), path, roots, what);
  if (config !== undefined && !statSync(config).isFile()) throw new ChunkError('ERR_INVALID_INPUT', `Refused to read ${config}, beside the ${what}: not a file`, { source: config });
}

/** Where the kernel says an open file is, on Linux; undefined elsewhere. */
async function openedPath(handle: FileHandle): Promise<string | undefined> {
  try {
    return await readlink(`/proc/self/fd/${handle.fd}`);
  } catch {
    return undefined;
  }
}

/**
 * Checks that `handle`, opened from `real`, is a file under `roots` now that it is open: the kernel's name for it
 * (Linux), or else the real path resolved again and naming the same file. Throws `ERR_INPUT_OUTSIDE_ROOTS`.
 */
export async function checkOpened(handle: FileHandle, path: string, real: string, roots: readonly string[]): Promise<void> {
  const opened = await openedPath(handle);
  if (opened !== undefined) {
    if (!isUnderRoots(opened, roots)) throw outsideRoots(path, roots, opened);
    return;
  }
  const [held, again, there] = await Promise.all([handle.stat(), realpath(real).catch(() => undefined), stat(real).catch(() => undefined)]);
  if (again !== real || there === undefined || there.dev !== held.dev || there.ino !== held.ino) throw outsideRoots(path, roots, again);
}

/**
 * Opens a job's file for reading when its real path lies under one of `roots` (real paths, from
 * `resolveInputRoots`). Rejects with `ERR_INPUT_OUTSIDE_ROOTS` (naming the path and where it resolves) for a file
 * outside them, or for any file when there are none; with `ERR_INVALID_INPUT` for a folder, a device or a socket;
 * with Node's own error when the file cannot be read (for a retry). The caller closes the handle.
 */
export async function openConfined(path: string, roots: readonly string[]): Promise<FileHandle> {
  if (roots.length === 0) throw outsideRoots(path, roots);
  const real = await realpath(path);
  if (!isUnderRoots(real, roots)) throw outsideRoots(path, roots, real);
  // A named pipe waits here for its writer, as a plain read of it would.
  const handle = await open(real, OPEN_FLAGS);
  try {
    await checkOpened(handle, path, real, roots);
    const kind = await handle.stat();
    // A pipe is read as a stream (the soak test holds a worker inside a job with one); a device could be endless.
    if (!kind.isFile() && !kind.isFIFO()) throw new ChunkError('ERR_INVALID_INPUT', `Refused to read ${path}: not a file`, { source: path });
    return handle;
  } catch (error) {
    await handle.close().catch(() => {});
    throw error;
  }
}
