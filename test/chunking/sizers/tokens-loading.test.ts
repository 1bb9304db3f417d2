import { expect, it } from 'vitest';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { createTokenSizer, loadedEncodings, readRanksFile } from '../../../src/chunking/sizers/tokens.js';

// Its own file, so that no other test has loaded an encoding in this process yet.
it('loads an encoding on first use only, once, and never one that is not used', () => {
  expect(loadedEncodings()).toEqual([]);
  const o200k = createTokenSizer('o200k_base');
  const cl100k = createTokenSizer('cl100k_base');
  expect(loadedEncodings()).toEqual([]);
  expect(cl100k.size('hello world')).toBe(2);
  expect(createTokenSizer('cl100k_base').size('hello world')).toBe(2);
  expect(loadedEncodings()).toEqual(['cl100k_base']);
  expect(o200k.size('hello world')).toBe(2);
  expect(loadedEncodings()).toEqual(['cl100k_base', 'o200k_base']);
});

it('reads the bundled ranks files as JSON, to the same object requiring them gives', () => {
  const require = createRequire(import.meta.url);
  for (const encoding of ['cl100k_base', 'o200k_base']) {
    const path = require.resolve(`js-tiktoken/ranks/${encoding}`);
    const parsed = readRanksFile(path);
    expect(parsed).not.toBeNull();
    expect(parsed).toEqual(require(path));
  }
  // A file of another shape (this one) is not taken for ranks.
  expect(readRanksFile(fileURLToPath(import.meta.url))).toBeNull();
});
