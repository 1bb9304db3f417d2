/**
 * PDF layout quality, per file of the corpus: heading precision, recall and F1 against each reference Markdown
 * (every Docling conversion in `pdf-layout/docling/groundtruth`, and the reference of multi_page.pdf), the table
 * blocks found and how many of the reference's table rows (or pdfplumber's facts) they match, the share of the
 * file's text that lands in table blocks (multi-column prose read as a table shows there), and the pages flagged for
 * OCR (scans, and text in fonts without a usable Unicode mapping).
 *
 *     npx tsx bench/pdf-quality.ts             # writes its section of bench/RESULTS.md
 *     npx tsx bench/pdf-quality.ts --dry-run   # prints it only
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { parsePdf, type PdfDocument } from '../src/parsers/pdf/reader.js';
import { markdownHeadings, nicsSelfCheck, normalizeHeading, pdfHeadings, pdfTables, scoreHeadings, splitPipeRow } from '../test/support/pdf-quality.js';
import { markdownTable, writeResults } from './support/results.js';

const CORPUS = resolve(import.meta.dirname, '../../shared/corpus');

interface FileCase {
  readonly pdf: string;
  /** Reference Markdown, when there is one. */
  readonly reference?: string;
  /** A table fact to check, when the file has one (pdfplumber's EXPECTED.md). */
  readonly fact?: (doc: PdfDocument) => string;
}

const plumber = (name: string) => join(CORPUS, 'pdf-layout/pdfplumber', name);
const docling = (name: string) => ({ pdf: join(CORPUS, 'pdf-layout/docling', `${name}.pdf`), reference: join(CORPUS, 'pdf-layout/docling/groundtruth', `${name}.md`) });

/** The names of the Docling reference conversions (each `<name>.md` beside `<name>.pdf`), sorted. */
function doclingReferences(): string[] {
  const dir = join(CORPUS, 'pdf-layout/docling/groundtruth');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.md'))
    .map((f) => f.slice(0, -3))
    .sort();
}

/** Share of a document's text (letters and digits) that lies in table blocks. */
function tableShare(doc: PdfDocument): number {
  const count = (text: string): number => text.match(/[\p{L}\p{N}]/gu)?.length ?? 0;
  const total = count(doc.text);
  let inTables = 0;
  for (const b of doc.blocks) if (b.kind === 'table') inTables += count(b.text);
  return total === 0 ? 0 : inTables / total;
}

/** pdfplumber's NICS self-check: every numeric column sums to twice its totals row. */
const nics = (doc: PdfDocument): string => {
  const table = pdfTables(doc).find((t) => t[0]?.[0] === 'State / Territory');
  if (table === undefined) return 'no NICS table';
  const check = nicsSelfCheck(table);
  return check.failing.length === 0 ? `self-check passes (${check.columns} columns, ${table.length - 1} rows)` : `self-check fails: ${check.failing.join(', ')}`;
};

const CASES: FileCase[] = [
  { pdf: join(CORPUS, 'pdf/multi_page.pdf'), reference: join(CORPUS, 'pdf/groundtruth/multi_page.md') },
  ...doclingReferences().map(docling),
  { pdf: plumber('nics-background-checks-2015-11.pdf'), fact: nics },
  { pdf: plumber('nics-background-checks-2015-11-rotated.pdf'), fact: nics },
  {
    pdf: plumber('issue-140-example.pdf'),
    fact: (doc) => {
      const last = pdfTables(doc).find((t) => t[0]?.includes('UPC code'))?.at(-1);
      const expected = ['', '0085648100300', 'CENTRAL KMA', 'LILYS 55% DARK CHOC BAR', '415', '$ 0.61', '$ 253.15', '0.0000', ''];
      return JSON.stringify(last) === JSON.stringify(expected) ? 'last row matches EXPECTED.md' : `last row differs: ${JSON.stringify(last)}`;
    },
  },
  { pdf: plumber('senate-expenditures.pdf') },
  { pdf: plumber('la-precinct-bulletin-2014-p1.pdf') },
  { pdf: plumber('scotus-transcript-p1.pdf') },
  { pdf: plumber('pdffill-demo.pdf') },
  ...['tracemonkey.pdf', 'pdkids.pdf', 'GeoTopo-komprimiert.pdf', 'freeculture.pdf'].map((f) => ({ pdf: join(CORPUS, 'pdf', f) })),
];

/** The body rows of the pipe tables of a Markdown document (header and delimiter rows left out). */
function markdownTableRows(markdown: string): string[][] {
  const rows: string[][] = [];
  let inTable = false;
  for (const line of markdown.split('\n')) {
    if (!/^\s*\|/.test(line)) {
      inTable = false;
      continue;
    }
    if (/^\s*\|[\s:|-]+\|\s*$/.test(line)) continue;
    if (!inTable) {
      inTable = true;
      continue;
    }
    rows.push(splitPipeRow(line));
  }
  return rows;
}

/**
 * Reference table rows found among the rows of the document's tables, cells compared as letters and digits; a row
 * the reference stacks from two lines (`OTSL HTML`, `0.965 0.969`) matches two consecutive rows joined cell by cell.
 */
function rowsMatched(reference: string[][], doc: PdfDocument): number {
  const ours = new Set<string>();
  for (const table of pdfTables(doc)) {
    table.forEach((row, i) => {
      ours.add(row.map(normalizeHeading).join('|'));
      const next = table[i + 1];
      if (next !== undefined) ours.add(row.map((cell, k) => normalizeHeading(`${cell}${next[k] ?? ''}`)).join('|'));
    });
  }
  return reference.filter((r) => ours.has(r.map(normalizeHeading).join('|'))).length;
}

/** Pages a document's warnings name as needing OCR. */
function ocrPages(doc: PdfDocument): number {
  let n = 0;
  for (const w of doc.warnings) {
    const m = /^(\d+) of \d+ pages? ha(?:s|ve) (?:images but no text layer|text in fonts without a usable Unicode mapping)/.exec(w);
    if (m !== null) n += Number(m[1]);
  }
  return n;
}

async function main(): Promise<void> {
  const rows: (string | number)[][] = [];
  const f1s: { file: string; f1: number }[] = [];
  for (const c of CASES) {
    if (!existsSync(c.pdf)) continue;
    let doc: PdfDocument;
    try {
      doc = await parsePdf(c.pdf);
    } catch (error) {
      rows.push([basename(c.pdf), '', '', '', '', '', '', `${(error as { code?: string }).code ?? 'error'}`, '']);
      continue;
    }
    const tables = pdfTables(doc);
    let precision = '';
    let recall = '';
    let f1 = '';
    let matched = '';
    if (c.reference !== undefined && existsSync(c.reference)) {
      const markdown = readFileSync(c.reference, 'utf8');
      const score = scoreHeadings(markdownHeadings(markdown), pdfHeadings(doc));
      [precision, recall, f1] = [score.precision, score.recall, score.f1].map((v) => v.toFixed(2)) as [string, string, string];
      f1s.push({ file: basename(c.pdf), f1: score.f1 });
      const reference = markdownTableRows(markdown);
      matched = reference.length === 0 ? 'no reference table' : `${rowsMatched(reference, doc)} of ${reference.length} reference rows`;
    }
    if (c.fact !== undefined) matched = c.fact(doc);
    const tableRows = tables.map((t) => t.length - 1);
    rows.push([
      basename(c.pdf),
      doc.pages,
      precision,
      recall,
      f1,
      tables.length === 0 ? '0' : `${tables.length} (${tableRows.join(', ')} rows)`,
      `${(100 * tableShare(doc)).toFixed(1)}%`,
      matched,
      ocrPages(doc),
    ]);
    console.log(rows.at(-1)?.join(' | '));
  }
  const below = f1s.filter((f) => f.f1 < 0.85);
  writeResults(
    'bench/pdf-quality.ts',
    '### PDF layout quality\n\n' +
      'Heading precision, recall and F1 against the reference Markdown (headings compared as letters and digits); table blocks found (body rows of each); ' +
      'the share of the text (letters and digits) in table blocks; reference table rows matched exactly, or the table facts of `pdf-layout/pdfplumber/EXPECTED.md`; ' +
      'pages flagged as needing OCR.\n\n' +
      markdownTable(['file', 'pages', 'P', 'R', 'F1', 'tables', 'text in tables', 'rows matched / facts', 'OCR pages'], rows, ['l', 'r', 'r', 'r', 'r', 'l', 'r', 'l', 'r']) +
      `\n\nFiles with a reference under F1 0.85: ${below.length === 0 ? 'none' : below.map((f) => `${f.file} (${f.f1.toFixed(2)})`).join(', ')}.`,
    { write: !process.argv.includes('--dry-run') },
  );
}

await main();
