import { describe, expect, it } from 'vitest';
import { skipNotes } from '../../src/cli/run.js';

describe('skipNotes', () => {
  it('notes named inputs and small folders file by file, large folders with counts by extension', () => {
    const many = Array.from({ length: 5 }, (_, i) => ({ source: `big/f${i}${i < 3 ? '.html' : ''}`, reason: 'unsupported file type', folder: 'big' }));
    const notes = skipNotes([
      { source: 'x.png', reason: 'unsupported file type (.png)' },
      { source: 'small/a.json', reason: 'unsupported file type (.json)', folder: 'small' },
      ...many,
    ]);
    expect(notes).toEqual([
      'x.png: skipped, unsupported file type (.png)',
      'small/a.json: skipped, unsupported file type (.json)',
      'big: skipped 5 files of unsupported types (.html 3, no extension 2); --stats-json lists them',
    ]);
  });
});
