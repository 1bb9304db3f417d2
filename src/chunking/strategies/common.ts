/** What the strategy chunkers share: option checks and surrogate tests. */
import { invalidOption } from '../../config.js';
import { toSizer, type Sizer, type SizerLike } from '../../protocols.js';
import type { ChunkOwner } from '../chunk-factory.js';
import type { Source } from '../../types.js';

/** Where a source's chunks belong: `documentId` is the source's `id`, `origin` is copied. */
export function ownerOf(source: Source): ChunkOwner {
  return { documentId: source.id, origin: source.origin };
}

/** Checks a source before a chunker reads it, so a wrong argument fails with a coded error instead of a crash. */
export function checkSource(source: Source): void {
  if (typeof source !== 'object' || source === null || typeof source.text !== 'string' || typeof source.id !== 'string') {
    throw invalidOption('source', 'must be an object { id: string, origin?: string, text: string }', source);
  }
}

/** A checked `Sizer`, or `undefined` when none was given. */
export function optionalSizer(option: string, sizer: SizerLike | undefined): Sizer | undefined {
  if (sizer === undefined) return undefined;
  if (typeof sizer !== 'function' && (typeof sizer !== 'object' || sizer === null || typeof sizer.size !== 'function')) {
    throw invalidOption(option, 'must be a function (text) => number or an object with a size(text) method', sizer);
  }
  return toSizer(sizer);
}

/** A number option that must be finite and above (or at least) a bound. */
export function numberAbove(option: string, value: unknown, min: number, inclusive: boolean, why = ''): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || (inclusive ? value < min : value <= min)) {
    throw invalidOption(option, `must be a number ${inclusive ? '>=' : '>'} ${min}${why}`, value);
  }
  return value;
}

/** An integer option with a lower bound. */
export function integerAtLeast(option: string, value: unknown, min: number, why = ''): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
    throw invalidOption(option, `must be an integer >= ${min}${why}`, value);
  }
  return value;
}

/** True for a UTF-16 high (leading) surrogate. */
export function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** True for a UTF-16 low (trailing) surrogate. */
export function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

