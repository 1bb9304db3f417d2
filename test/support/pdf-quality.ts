/**
 * Measures of PDF layout quality against reference conversions: the headings of a parsed PDF against the headings
 * of a reference Markdown file (precision, recall, F1), and the cells of the table blocks found. Shared by the corpus
 * tests and `bench/pdf-quality.ts`.
 */
import type { PdfDocument } from '../../src/parsers/pdf/reader.js';
import type { HeadingBlock, TableBlock } from '../../src/types.js';

/** Lower case, letters and digits only: how headings are compared (spacing, numbering dots, case do not matter). */
export function normalizeHeading(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');
}

/** The headings of a Markdown document (ATX headings, outside fences). */
export function markdownHeadings(markdown: string): string[] {
  const out: string[] = [];
  let fence: string | null = null;
  for (const line of markdown.split('\n')) {
    const f = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
    if (f !== null) {
      if (fence === null) fence = (f[1] as string)[0] as string;
      else if ((f[1] as string)[0] === fence) fence = null;
      continue;
    }
    if (fence !== null) continue;
    const h = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (h !== null && (h[1] as string).trim() !== '') out.push((h[1] as string).trim());
  }
  return out;
}

/** How well found headings match reference headings. */
export interface HeadingScore {
  readonly reference: number;
  readonly found: number;
  readonly matched: number;
  readonly precision: number;
  readonly recall: number;
  readonly f1: number;
  /** Reference headings not found, and found headings not in the reference. */
  readonly missed: string[];
  readonly extra: string[];
}

/**
 * Matches found headings to reference headings one to one, by their normalized text; a heading matches when one
 * normalized text equals the other or holds it whole with at most a fifth more (a numbering the reference dropped,
 * `5.1 Hyper Parameter Optimization` against `Hyper Parameter Optimization`).
 */
export function scoreHeadings(reference: readonly string[], found: readonly string[]): HeadingScore {
  const refs = reference.map(normalizeHeading);
  const taken = new Set<number>();
  let matched = 0;
  const extra: string[] = [];
  found.forEach((title) => {
    const n = normalizeHeading(title);
    const close = (r: string): boolean => r === n || (r.length > 0 && n.length > 0 && (r.includes(n) || n.includes(r)) && Math.min(r.length, n.length) >= 0.8 * Math.max(r.length, n.length));
    const index = refs.findIndex((r, i) => !taken.has(i) && close(r));
    if (index === -1) extra.push(title);
    else {
      taken.add(index);
      matched++;
    }
  });
  const missed = reference.filter((_, i) => !taken.has(i));
  const precision = found.length === 0 ? (reference.length === 0 ? 1 : 0) : matched / found.length;
  const recall = reference.length === 0 ? 1 : matched / reference.length;
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { reference: reference.length, found: found.length, matched, precision, recall, f1, missed, extra };
}

/** The heading titles of a parsed PDF, in order. */
export function pdfHeadings(doc: PdfDocument): string[] {
  return doc.blocks.filter((b): b is HeadingBlock => b.kind === 'heading').map((h) => h.title);
}

/** The rows of each table block of a parsed PDF, as cell texts (the header row first). */
export function pdfTables(doc: PdfDocument): string[][][] {
  return doc.blocks
    .filter((b): b is TableBlock => b.kind === 'table')
    .map((t) => t.rows.map((r) => splitPipeRow(doc.text.slice(r.start, r.end))));
}

/** The cells of one pipe-table row (`| a | b \| c |` → `['a', 'b | c']`). */
export function splitPipeRow(row: string): string[] {
  const inner = row.trim().replace(/^\|/, '').replace(/\|$/, '');
  const cells: string[] = [];
  let cell = '';
  for (let i = 0; i < inner.length; i++) {
    const c = inner[i] as string;
    if (c === '\\' && i + 1 < inner.length) {
      cell += inner[++i];
      continue;
    }
    if (c === '|') {
      cells.push(cell.trim());
      cell = '';
    } else cell += c;
  }
  cells.push(cell.trim());
  return cells;
}

/** A number as a table prints it (`71,137`, `98 452`, `$ 0.61`, `5%`), or null when the cell is no number. */
export function cellNumber(cell: string): number | null {
  const t = cell.replace(/[\s,$€£%]/g, '');
  if (t === '') return 0;
  return /^-?\d+(?:\.\d+)?$/.test(t) ? Number(t) : null;
}

/**
 * The self-check of the NICS table (pdfplumber's test): for every numeric column, the sum of all rows including the
 * totals row (the last) is exactly twice the totals row. Returns the columns that fail, by header.
 */
export function nicsSelfCheck(rows: readonly (readonly string[])[]): { columns: number; failing: string[] } {
  const [header, ...body] = rows;
  const failing: string[] = [];
  let columns = 0;
  for (let c = 1; c < (header?.length ?? 0); c++) {
    const values = body.map((r) => cellNumber(r[c] ?? ''));
    if (values.some((v) => v === null)) {
      failing.push(header?.[c] ?? String(c));
      continue;
    }
    columns++;
    const total = values[values.length - 1] as number;
    const sum = (values as number[]).reduce((a, b) => a + b, 0);
    if (sum !== 2 * total) failing.push(header?.[c] ?? String(c));
  }
  return { columns, failing };
}
