/**
 * `bench/RESULTS.md`: every bench script writes its tables there, one section per script, each headed with the
 * date, the machine, the Node version, the load and the commit of the run that made it. A run replaces its own section and leaves the
 * others; the README points to the file instead of carrying copied figures.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '../..');
const FILE = join(import.meta.dirname, '../RESULTS.md');
const HEADER = '# Benchmark results\n\nWritten by the scripts in `bench/`; each section is replaced by the next run of its script.\n';

/**
 * The commit the measured build was made from, marked when the work tree differs from it (the results file
 * itself aside, which every run changes); empty outside a git checkout.
 */
export function commitLabel(): string {
  const head = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' });
  if (head.status !== 0) return '';
  const status = spawnSync('git', ['status', '--porcelain', '--', '.', ':(exclude)bench/RESULTS.md'], { cwd: ROOT, encoding: 'utf8' });
  return `commit ${head.stdout.trim()}${status.stdout.trim() === '' ? '' : ' + uncommitted changes'}`;
}

/** One line describing where and when the figures were measured, and from which commit. */
export function runContext(): string {
  const cpu = cpus();
  const load = loadavg().map((l) => l.toFixed(2)).join(' ');
  const commit = commitLabel();
  return `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC · ${cpu.length} × ${cpu[0]?.model.trim() ?? 'cpu'} · ${Math.round(totalmem() / 2 ** 30)} GiB · Node ${process.version} · load ${load}${commit ? ` · ${commit}` : ''}`;
}

/**
 * Replaces the section of `script` (e.g. `bench/chunk.ts`) in `bench/RESULTS.md` with `body` (Markdown: tables
 * and notes), headed with the run's context. Also prints the section; with `write: false` it only prints it.
 */
export function writeResults(script: string, body: string, options: { readonly write?: boolean } = {}): void {
  const section = `## ${script}\n\n${runContext()}\n\n${body.trim()}\n`;
  console.log(`\n${section}`);
  if (options.write === false) return;
  const current = existsSync(FILE) ? readFileSync(FILE, 'utf8') : HEADER;
  const sections = current.split(/^(?=## )/m);
  const head = sections[0]?.startsWith('## ') ? HEADER : (sections.shift() ?? HEADER);
  const index = sections.findIndex((s) => s.startsWith(`## ${script}\n`));
  if (index === -1) sections.push(section);
  else sections[index] = section;
  sections.sort((a, b) => a.localeCompare(b));
  writeFileSync(FILE, `${head.trimEnd()}\n\n${sections.map((s) => s.trimEnd()).join('\n\n')}\n`);
}

/**
 * A Markdown table from a header row and rows of cells. A `|` inside a cell (an error message, say) is escaped so
 * that it does not start a new column.
 */
export function markdownTable(header: readonly string[], rows: readonly (readonly (string | number)[])[], align: readonly ('l' | 'r')[] = []): string {
  const rule = header.map((_, i) => (align[i] === 'r' ? '---:' : '---'));
  const cell = (c: string | number): string => String(c).replaceAll('|', '\\|').replaceAll('\n', ' ');
  return [header.map(cell), rule, ...rows.map((r) => r.map(cell))].map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}
