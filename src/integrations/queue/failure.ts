/**
 * How a file's failure travels through the queue. BullMQ keeps one string per failed job (`failedReason`, the
 * error's message), so the code goes in front of the message, as the command line prints it (`CODE message`), and
 * `status` reads it back. Which codes are worth a retry is decided here, once.
 */
import type { ChunkErrorCode } from '../../errors.js';

/**
 * Codes a retry cannot fix: the document itself is wrong (invalid or encrypted PDF, bad UTF-8 with `fatal`, an
 * unreadable transcript) or the job is (a bad option, malformed data, a file outside the worker's input roots).
 * The others, a file that could not be read (a shared volume that came back), a write that failed (a full disk)
 * or an internal failure, are retried as the job's `attempts` allow.
 */
export const FINAL_ERROR_CODES: ReadonlySet<string> = new Set<ChunkErrorCode>([
  'ERR_INVALID_OPTION',
  'ERR_INVALID_INPUT',
  'ERR_INVALID_UTF8',
  'ERR_BUFFER_OVERFLOW',
  'ERR_UNSUPPORTED_FORMAT',
  'ERR_PDF_ENCRYPTED',
  'ERR_PDF_INVALID',
  'ERR_PDF_TOO_LARGE',
  'ERR_TRANSCRIPT_INVALID',
  // The worker's input roots will not have changed by the next try.
  'ERR_INPUT_OUTSIDE_ROOTS',
]);

/** True when a failure with this code would fail again on a retry. */
export function isFinalErrorCode(code: string): boolean {
  return FINAL_ERROR_CODES.has(code);
}

/** A failure as the queue stores it: `CODE message`. */
export function formatFailedReason(code: string, message: string): string {
  return `${code} ${message}`;
}

/** A failed job's reason, split back into its code (undefined for reasons BullMQ wrote itself, e.g. a job that stalled too often). */
export interface FailedReason {
  readonly code: string | undefined;
  readonly message: string;
}

/** Reads `formatFailedReason`'s output; anything else is a message without a code. */
export function parseFailedReason(reason: string | undefined): FailedReason {
  const text = reason ?? '';
  const match = /^(ERR_[A-Z0-9_]+) ([\s\S]*)$/.exec(text);
  return match ? { code: match[1], message: match[2] as string } : { code: undefined, message: text };
}
