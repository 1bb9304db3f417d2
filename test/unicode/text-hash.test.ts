/**
 * The hash of a place: what it reads and skips, and the hasher the packer uses, which must give every place the
 * hash `textHash` gives it, whatever order the places are asked in.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createTextHasher, HASH_REACH, HASHED_CHARACTERS, textHash } from '../../src/unicode/text-hash.js';
import { fcParams } from '../support/property.js';

/** Text made of what a hash reads and what it skips, in runs long and short, with characters past ASCII. */
const hashedText = fc
  .array(fc.oneof(fc.constantFrom('a', '1', '.', 'é', '中', '😀', '| ', ' ', '\n', '\x1e', '#', '**'), fc.constantFrom(' '.repeat(HASH_REACH), '|'.repeat(HASH_REACH + 7), 'word '.repeat(HASHED_CHARACTERS))), { maxLength: 400 })
  .map((parts) => parts.join(''));

describe('textHash', () => {
  it('reads the text, not the marks Markdown sets in it', () => {
    expect(textHash('### `fs.open()`')).toBe(textHash('fs.open()'));
    expect(textHash('}')).not.toBe(textHash('});'));
  });

  it('reads a list the same whatever its markers, and a table whatever the width of its delimiter row', () => {
    // Node's Markdown writes `* item`, the HTML reader `- item`.
    expect(textHash('* `options` {Object}\n  * `input`')).toBe(textHash('- options {Object}\n  - input'));
    expect(textHash('+ one\n+ two')).toBe(textHash('- one\n- two'));
    expect(textHash('| Type      | Properties |\n| --------- | ---------- |')).toBe(textHash('| Type | Properties |\n| --- | --- |'));
    expect(textHash('- one')).not.toBe(textHash('- two'));
  });

  it('reads no character at or past HASH_REACH from the place', () => {
    const skipped = ' '.repeat(HASH_REACH - 1);
    expect(textHash(`${skipped}a`)).not.toBe(textHash(`${skipped}b`));
    expect(textHash(`${skipped} a`)).toBe(textHash(`${skipped} b`));
  });
});

describe('createTextHasher', () => {
  it('gives every place the hash textHash gives it, in any order', () => {
    fc.assert(
      fc.property(
        hashedText.chain((text) => fc.tuple(fc.constant(text), fc.array(fc.integer({ min: 0, max: text.length }), { maxLength: 60 }))),
        ([text, places]) => {
          const hasher = createTextHasher(text);
          // Forward over every place (as the packer scans), back over near places and far ones (as a run looks
          // back), and at random: places in runs are hashed from stretches, far ones alone.
          for (let at = 0; at <= text.length; at++) expect(hasher.hashAt(at)).toBe(textHash(text, at));
          for (let at = text.length; at >= 0; at -= 5) expect(hasher.hashAt(at)).toBe(textHash(text, at));
          for (let at = text.length; at >= 0; at -= 97) expect(hasher.hashAt(at)).toBe(textHash(text, at));
          for (const at of places) expect(hasher.hashAt(at)).toBe(textHash(text, at));
        },
      ),
      fcParams(60),
    );
  });
});
