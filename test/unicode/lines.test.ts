/**
 * Line endings counted the way CommonMark counts them, whichever way a range is read: a character at a time for a
 * short range, by searching for a long one.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countLineEndings } from '../../src/unicode/lines.js';
import { fcParams } from '../support/property.js';

/** The rule, read a character at a time: LF, CRLF once, a lone CR; a CR at the range's end looks past it. */
function reference(text: string, from: number, to: number): number {
  let count = 0;
  for (let i = Math.max(0, from); i < Math.min(to, text.length); i++) {
    if (text[i] === '\n' || (text[i] === '\r' && text[i + 1] !== '\n')) count++;
  }
  return count;
}

/** Text of line endings of every kind among runs of letters, short and long enough to be searched. */
const linesText = fc.array(fc.oneof(fc.constantFrom('\n', '\r', '\r\n', 'a', ' é', '\n\n'), fc.constantFrom('x'.repeat(300), 'line\r\n'.repeat(80))), { maxLength: 60 }).map((parts) => parts.join(''));

describe('countLineEndings', () => {
  it('counts LF, CRLF once and a lone CR, in any range, short or long', () => {
    fc.assert(
      fc.property(linesText, fc.nat(), fc.nat(), (text, a, b) => {
        const from = a % (text.length + 2);
        const to = from + (b % (text.length + 2));
        expect(countLineEndings(text, from, to)).toBe(reference(text, from, to));
        expect(countLineEndings(text)).toBe(reference(text, 0, text.length));
      }),
      fcParams(300),
    );
  });

  it('counts a CR that ends the range unless an LF follows it', () => {
    const long = 'a'.repeat(400);
    expect(countLineEndings(`${long}\r\n`, 0, long.length + 1)).toBe(0);
    expect(countLineEndings(`${long}\rb`, 0, long.length + 1)).toBe(1);
    expect(countLineEndings(`${long}\r`, 0, long.length + 1)).toBe(1);
  });
});
