/**
 * Warnings that count something (invalid UTF-8 sequences replaced), in one written form: a parser puts
 * `what (×n)` on a block, and the statistics add up the counts of the same `what` over a document into one line,
 * `what (×total)`, where another warning is listed with the number of blocks it concerns.
 */

/** The warning of invalid UTF-8 replaced with U+FFFD while decoding. */
export const INVALID_UTF8_REPLACED = 'invalid UTF-8 replaced with U+FFFD';

const COUNTED = /^(.*) \(×(\d+)\)$/;

/** `what (×count)`. */
export function countedWarning(what: string, count: number): string {
  return `${what} (×${count})`;
}

/** The parts of a counted warning, or undefined for a warning that counts nothing. */
export function readCountedWarning(warning: string): { what: string; count: number } | undefined {
  const match = COUNTED.exec(warning);
  return match === null ? undefined : { what: match[1] as string, count: Number(match[2]) };
}
