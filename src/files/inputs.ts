/**
 * Input expansion: files, folders (walked recursively), glob patterns and `-` become an ordered list of files with
 * a format each. Globbing and walking use tinyglobby (small, no native code, sorted results are ours to make).
 */
import { stat } from 'node:fs/promises';
import { extname, isAbsolute, join, resolve } from 'node:path';
import { glob, isDynamicPattern } from 'tinyglobby';
import { detectInputFormat } from '../parsers/detect.js';
import { isDocumentFormat } from '../parsers/formats.js';
import type { DocumentFormat } from '../config.js';
import { systemErrorReason } from '../errors.js';

/** A format a run can force on every input. */
export type FileFormat = DocumentFormat;

/** One file of a run. */
export interface InputFile {
  /** Path to open, or `-` for standard input. */
  readonly path: string;
  /** The path as shown to the user and written to each chunk's `source`: the input as typed, joined with the walk. */
  readonly source: string;
  /** `auto` only for standard input without `--format`: `parse()` looks at the first bytes. */
  readonly format: FileFormat | 'auto';
  /** Size in bytes, when known (not for standard input). */
  readonly bytes: number | undefined;
}

/** An input that was left out, with the reason printed on stderr. */
export interface SkippedInput {
  readonly source: string;
  readonly reason: string;
  /** The folder input whose walk found the file, if any. */
  readonly folder?: string;
}

/** An input that names nothing readable: counted as a failed file. */
export interface MissingInput {
  readonly source: string;
  readonly code: 'ERR_READ';
  readonly message: string;
}

/** The result of expanding the command line's inputs. */
export interface ExpandedInputs {
  readonly files: InputFile[];
  readonly skipped: SkippedInput[];
  readonly missing: MissingInput[];
}

/**
 * Decides the format of one file: `--format` wins, then the rule of `detectInputFormat` (extension, then first
 * bytes). A file named on the command line with an unknown extension is read as Markdown when its head looks like
 * text; a file found by walking a folder is not, and a walk leaves `.jsonl` (what this command writes) alone.
 */
async function decideFormat(path: string, forced: FileFormat | undefined, named: boolean): Promise<FileFormat | string> {
  if (forced) return forced;
  const format = await detectInputFormat(path, { walked: !named });
  return format ?? `unsupported file type${extname(path) ? ` (${extname(path)})` : ''}`;
}

/** Expands inputs in command-line order; files inside a folder or a glob are sorted, duplicates kept once. */
export async function expandInputs(inputs: readonly string[], forced: FileFormat | undefined): Promise<ExpandedInputs> {
  const files: InputFile[] = [];
  const skipped: SkippedInput[] = [];
  const missing: MissingInput[] = [];
  const seen = new Set<string>();

  const add = async (path: string, folder: string | undefined, size: number | undefined): Promise<void> => {
    const named = folder === undefined;
    const key = resolve(path);
    if (seen.has(key)) return;
    seen.add(key);
    let format: string;
    let bytes = size;
    try {
      bytes ??= (await stat(path)).size;
      format = await decideFormat(path, forced, named);
    } catch (error) {
      missing.push({ source: path, code: 'ERR_READ', message: systemErrorReason(error) });
      return;
    }
    if (isDocumentFormat(format)) files.push({ path, source: path, format, bytes });
    else skipped.push(folder === undefined ? { source: path, reason: format } : { source: path, reason: format, folder });
  };

  for (const input of inputs) {
    if (input === '-') {
      files.push({ path: '-', source: '-', format: forced ?? 'auto', bytes: undefined });
      continue;
    }
    let info: Awaited<ReturnType<typeof stat>> | undefined;
    try {
      info = await stat(input);
    } catch {
      info = undefined;
    }
    if (info?.isDirectory()) {
      const found = (await glob('**/*', { cwd: input, onlyFiles: true, dot: false, followSymbolicLinks: true })).sort();
      for (const rel of found) await add(join(input, rel), input, undefined);
    } else if (info) {
      await add(input, undefined, info.size);
    } else if (isDynamicPattern(input)) {
      // Results keep the pattern's own form: absolute for an absolute pattern, relative to the working folder otherwise.
      const found = (await glob(input, { onlyFiles: true, dot: false, expandDirectories: false, absolute: isAbsolute(input) })).sort();
      if (found.length === 0) skipped.push({ source: input, reason: 'pattern matched no file' });
      // A pattern naming files explicitly (`*.json`) is as good as naming each one.
      for (const path of found) await add(path, undefined, undefined);
    } else {
      missing.push({ source: input, code: 'ERR_READ', message: `no such file or folder` });
    }
  }
  return { files, skipped, missing };
}
