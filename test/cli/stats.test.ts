import { describe, expect, it } from 'vitest';
import { fileStatistics, formatTable, summarize } from '../../src/cli/stats.js';
import type { FileReport } from '../../src/files/process-file.js';

const report = (source: string, over: Partial<FileReport>): FileReport => ({
  source, documents: 1, chunks: 0, totalSize: 0, minSize: 0, maxSize: 0, oversized: 0, undersized: 0, pages: 0, bytes: 0, timeMs: 5, ...over,
});

describe('run statistics', () => {
  it('sums files into totals, ignoring empty files for min and max', () => {
    const files = [
      fileStatistics(report('a.md', { chunks: 2, totalSize: 30, minSize: 10, maxSize: 20, undersized: 1 })),
      fileStatistics(report('b.pdf', { chunks: 3, totalSize: 90, minSize: 25, maxSize: 40, oversized: 1, pages: 4 })),
      fileStatistics(report('empty.md', {})),
      fileStatistics(report('bad.md', { documents: 0, chunks: 1, totalSize: 7, minSize: 7, maxSize: 7 }), { code: 'ERR_INVALID_UTF8', message: 'bad byte' }),
    ];
    const s = summarize(files, [], 2, 1234.4);
    expect(s.total).toEqual({
      files: 4, failed: 1, documents: 3, chunks: 6, totalSize: 127, averageSize: 21.17, minSize: 7, maxSize: 40,
      oversized: 1, undersized: 1, pages: 4, bytes: 0, timeMs: 1234,
    });
    expect(s.files[0]!.averageSize).toBe(15);
    expect(s.run.jobs).toBe(2);
    expect(s.run.peakRssBytes).toBeGreaterThan(1e6);
  });

  it('prints one row per file and a total row', () => {
    const s = summarize([fileStatistics(report('a.md', { chunks: 2, totalSize: 30, minSize: 10, maxSize: 20 })), fileStatistics(report('bad.md', { documents: 0 }), { code: 'ERR_READ', message: 'gone' })], [], 1, 10);
    const table = formatTable(s).split('\n');
    expect(table[0]).toMatch(/^file\s+docs\s+chunks\s+avg\s+min\s+max\s+over\s+under\s+pages\s+time$/);
    expect(table[2]).toMatch(/^a\.md\s+1\s+2\s+15\.0\s+10\s+20\s+0\s+0\s+0\s+0\.01s$/);
    expect(table[3]).toContain('bad.md (failed: ERR_READ)');
    expect(table[5]).toMatch(/^total \(2 files, 1 failed\)\s+1\s+2\s/);
  });
});
