/** Figures of a run, per file and in total: the `--stats` table and the `--stats-json` document. */
import type { SkippedInput } from '../files/inputs.js';
import type { FileError, FileReport, SizeFigures } from '../files/process-file.js';
import { peakRssBytes } from './peak-rss.js';

/** One file's figures, with its average and, when it failed, its error. */
export interface FileStatistics extends FileReport {
  readonly averageSize: number;
  readonly error?: FileError;
}

/** Totals over every file (failed ones count with the chunks they wrote). */
export interface TotalStatistics extends SizeFigures {
  readonly files: number;
  readonly failed: number;
  readonly documents: number;
  readonly averageSize: number;
  readonly pages: number;
  readonly bytes: number;
  /** Wall time of the whole run; file times overlap when files run in parallel. */
  readonly timeMs: number;
}

/** The `--stats-json` document. */
export interface RunStatistics {
  readonly files: readonly FileStatistics[];
  readonly total: TotalStatistics;
  readonly skipped: readonly SkippedInput[];
  readonly run: {
    readonly jobs: number;
    readonly wallMs: number;
    /** CPU time of the whole process, every thread included: with `wallMs`, how much parallelism the run got. */
    readonly cpuMs: number;
    readonly peakRssBytes: number;
  };
}

function average(total: number, count: number): number {
  return count === 0 ? 0 : Math.round((total / count) * 100) / 100;
}

/** Adds the average to a file's figures. */
export function fileStatistics(report: FileReport, error?: FileError): FileStatistics {
  return { ...report, averageSize: average(report.totalSize, report.chunks), ...(error ? { error } : {}) };
}

/** Builds the run's figures from the files in input order. */
export function summarize(files: readonly FileStatistics[], skipped: readonly SkippedInput[], jobs: number, wallMs: number): RunStatistics {
  const withChunks = files.filter((f) => f.chunks > 0);
  const sum = (pick: (f: FileStatistics) => number): number => files.reduce((n, f) => n + pick(f), 0);
  const chunks = sum((f) => f.chunks);
  const totalSize = sum((f) => f.totalSize);
  const usage = process.resourceUsage();
  return {
    files,
    total: {
      files: files.length,
      failed: files.filter((f) => f.error).length,
      documents: sum((f) => f.documents),
      chunks,
      totalSize,
      averageSize: average(totalSize, chunks),
      minSize: withChunks.length === 0 ? 0 : Math.min(...withChunks.map((f) => f.minSize)),
      maxSize: withChunks.length === 0 ? 0 : Math.max(...withChunks.map((f) => f.maxSize)),
      oversized: sum((f) => f.oversized),
      undersized: sum((f) => f.undersized),
      pages: sum((f) => f.pages),
      bytes: sum((f) => f.bytes),
      timeMs: Math.round(wallMs),
    },
    skipped,
    run: {
      jobs,
      wallMs: Math.round(wallMs),
      cpuMs: Math.round((usage.userCPUTime + usage.systemCPUTime) / 1000),
      peakRssBytes: peakRssBytes(),
    },
  };
}

/** The `--stats` table: one row per file, then the total. */
export function formatTable(stats: RunStatistics): string {
  const header = ['file', 'docs', 'chunks', 'avg', 'min', 'max', 'over', 'under', 'pages', 'time'];
  const row = (name: string, f: Omit<TotalStatistics, 'files' | 'failed'>, note = ''): string[] => [
    name + note,
    String(f.documents),
    String(f.chunks),
    f.averageSize.toFixed(1),
    String(f.minSize),
    String(f.maxSize),
    String(f.oversized),
    String(f.undersized),
    String(f.pages),
    `${(f.timeMs / 1000).toFixed(2)}s`,
  ];
  const rows = stats.files.map((f) => row(f.source, { ...f, timeMs: f.timeMs }, f.error ? ` (failed: ${f.error.code})` : ''));
  const total = row(`total (${stats.total.files} files${stats.total.failed ? `, ${stats.total.failed} failed` : ''})`, stats.total);
  const all = [header, ...rows, total];
  const widths = header.map((_h, i) => Math.max(...all.map((r) => (r[i] as string).length)));
  const line = (r: string[]): string => r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] as number) : cell.padStart(widths[i] as number))).join('  ');
  const rule = widths.map((w) => '-'.repeat(w)).join('  ');
  return [line(header), rule, ...rows.map(line), rule, line(total)].join('\n') + '\n';
}
