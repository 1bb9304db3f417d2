/**
 * `bench/RESULTS.md`: every bench script writes its tables there, one section per script, each headed with the
 * date, the machine and the Node version of the run that made it. A run replaces its own section and leaves the
 * others; the README points to the file instead of carrying copied figures.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';

const FILE = join(import.meta.dirname, '../RESULTS.md');
const HEADER = '# Benchmark results\n\nWritten by the scripts in `bench/`; each section is replaced by the next run of its script.\n';

/** One line describing where and when the figures were measured. */
export function runContext(): string {
  const cpu = cpus();
  const load = loadavg().map((l) => l.toFixed(2)).join(' ');
  return `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC · ${cpu.length} × ${cpu[0]?.model.trim() ?? 'cpu'} · ${Math.round(totalmem() / 2 ** 30)} GiB · Node ${process.version} · load ${load}`;
}

/**
 * Replaces the section of `script` (e.g. `bench/chunk.ts`) in `bench/RESULTS.md` with `body` (Markdown: tables
 * and notes), headed with the run's context. Also prints the section.
 */
export function writeResults(script: string, body: string): void {
  const section = `## ${script}\n\n${runContext()}\n\n${body.trim()}\n`;
  console.log(`\n${section}`);
  const current = existsSync(FILE) ? readFileSync(FILE, 'utf8') : HEADER;
  const sections = current.split(/^(?=## )/m);
  const head = sections[0]?.startsWith('## ') ? HEADER : (sections.shift() ?? HEADER);
  const index = sections.findIndex((s) => s.startsWith(`## ${script}\n`));
  if (index === -1) sections.push(section);
  else sections[index] = section;
  sections.sort((a, b) => a.localeCompare(b));
  writeFileSync(FILE, `${head.trimEnd()}\n\n${sections.map((s) => s.trimEnd()).join('\n\n')}\n`);
}

/** A Markdown table from a header row and rows of cells. */
export function markdownTable(header: readonly string[], rows: readonly (readonly (string | number)[])[], align: readonly ('l' | 'r')[] = []): string {
  const rule = header.map((_, i) => (align[i] === 'r' ? '---:' : '---'));
  return [header, rule, ...rows.map((r) => r.map(String))].map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}
