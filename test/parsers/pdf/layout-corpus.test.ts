/**
 * The PDF layout over real documents no one here wrote (the corpus layer): the table facts pdfplumber's tests assert
 * (`pdf-layout/pdfplumber/EXPECTED.md`), heading precision and recall against Docling's reference Markdown (printed
 * per file), and no heading taken from rotated text.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { parsePdf, type PdfDocument } from '../../../src/parsers/pdf/reader.js';
import { pageDirection } from '../../../src/parsers/pdf/rotation.js';
import { openPdfSession } from '../../../src/parsers/pdf/sandbox.js';
import { corpusFiles, corpusPath, describeCorpus, itWithCorpusFile } from '../../support/corpus.js';
import { markdownHeadings, nicsSelfCheck, pdfHeadings, pdfTables, scoreHeadings } from '../../support/pdf-quality.js';

const PLUMBER = 'pdf-layout/pdfplumber';

describeCorpus('PDF tables against pdfplumber facts', () => {
  for (const name of ['nics-background-checks-2015-11.pdf', 'nics-background-checks-2015-11-rotated.pdf']) {
    itWithCorpusFile(PLUMBER, name)(`${name}: one table block whose numeric columns pass the self-check`, async () => {
      const doc = await parsePdf(corpusPath(PLUMBER, name));
      const tables = pdfTables(doc);
      expect(tables).toHaveLength(1);
      const rows = tables[0] as string[][];
      // Header, 56 states and territories, the totals row.
      expect(rows.map((r) => r[0])).toEqual(expect.arrayContaining(['State / Territory', 'Alabama', 'Wyoming', 'Totals']));
      expect(rows[1]?.[0]).toBe('Alabama');
      expect(rows.at(-2)?.[0]).toBe('Wyoming');
      expect(rows.at(-1)?.[0]).toBe('Totals');
      const check = nicsSelfCheck(rows);
      console.log(`${name}: ${rows.length - 1} rows, ${check.columns} numeric columns checked, failing: ${check.failing.join(', ') || 'none'}`);
      expect(check.failing).toEqual([]);
      expect(check.columns).toBe(24);
      // The totals of Alabama and Wyoming (their last cell; pdfplumber's text-only finder drops the two empty
      // Rentals columns the ruling draws, and so counts that cell as the 23rd).
      expect(rows[1]?.at(-1)).toBe('71,137');
      expect(rows.at(-2)?.at(-1)).toBe('5,017');
    });
  }

  itWithCorpusFile(PLUMBER, 'issue-140-example.pdf')('issue-140-example.pdf: the table\'s last row is the one EXPECTED.md gives', async () => {
    const doc = await parsePdf(corpusPath(PLUMBER, 'issue-140-example.pdf'));
    const table = pdfTables(doc).find((t) => t[0]?.includes('UPC code'));
    expect(table?.at(-1)).toEqual(['', '0085648100300', 'CENTRAL KMA', 'LILYS 55% DARK CHOC BAR', '415', '$ 0.61', '$ 253.15', '0.0000', '']);
  });

  itWithCorpusFile(PLUMBER, 'senate-expenditures.pdf')('senate-expenditures.pdf: the unruled expense rows come out as a table, each row one record', async () => {
    const doc = await parsePdf(corpusPath(PLUMBER, 'senate-expenditures.pdf'));
    const expenses = pdfTables(doc).find((t) => t.some((r) => /^DHAW2019/.test(r[0] ?? '')));
    expect(expenses).toBeDefined();
    const records = (expenses as string[][]).filter((r) => /^DHAW2019\d+$/.test(r[0] ?? ''));
    expect(records.length).toBeGreaterThan(20);
    // A record: document number, date posted, payee, start and end dates, description, amount.
    for (const r of records) expect(r[r.length - 1]).toMatch(/^[\d,]+\.\d\d$/);
  });
});

const references = corpusFiles('pdf-layout/docling/groundtruth', ['.md']).map((md) => [corpusPath('pdf-layout/docling', `${basename(md, '.md')}.pdf`), md] as const);
references.push([corpusPath('pdf/multi_page.pdf'), corpusPath('pdf/groundtruth/multi_page.md')]);

describeCorpus('PDF headings against reference conversions', () => {
  const scores: { file: string; precision: number; recall: number; f1: number; reference: number; found: number }[] = [];
  beforeAll(async () => {
    for (const [pdf, md] of references) {
      let doc: PdfDocument;
      try {
        doc = await parsePdf(pdf);
      } catch {
        continue;
      }
      const score = scoreHeadings(markdownHeadings(readFileSync(md, 'utf8')), pdfHeadings(doc));
      scores.push({ file: basename(pdf), ...score });
    }
    console.table(scores.map((s) => ({ file: s.file, reference: s.reference, found: s.found, precision: s.precision.toFixed(2), recall: s.recall.toFixed(2), F1: s.f1.toFixed(2) })));
  });

  it('finds the headings of the references, F1 0.85 or more on every file', () => {
    // right_to_left_01.pdf's font maps the lam-alef ligature to its two letters in reverse order; the reader spells
    // such words back from their glyphs (ligatures.ts), so it is judged like the others.
    expect(scores.filter((s) => s.f1 < 0.85).map((s) => `${s.file}: F1 ${s.f1.toFixed(2)}`)).toEqual([]);
  });

  itWithCorpusFile('pdf-layout/docling/2305.03393v1-pg9.pdf')('2305.03393v1-pg9.pdf: its numbered section headings, and its results table as a table', async () => {
    const doc = await parsePdf(corpusPath('pdf-layout/docling/2305.03393v1-pg9.pdf'));
    expect(pdfHeadings(doc)).toEqual(['5.1 Hyper Parameter Optimization', '5.2 Quantitative Results']);
    expect(pdfTables(doc).some((t) => t.some((r) => r.includes('OTSL')))).toBe(true);
  });
});

/** The runs of a PDF set at an angle to their page's own direction (four characters or more), by page. */
async function rotatedRuns(file: string): Promise<string[]> {
  const session = await openPdfSession({ path: file }, { password: undefined, limits: { seconds: 120, memoryMb: 512 } });
  const out: string[] = [];
  try {
    for (let n = 1; n <= session.pages; n++) {
      const page = await session.page(n);
      const turn = pageDirection(page.items);
      for (const item of page.items) {
        const off = ((((item.angle ?? 0) - turn) % 360) + 360) % 360;
        if (off > 3 && off < 357 && item.str.trim().length >= 4) out.push(item.str.trim());
      }
    }
  } finally {
    await session.close();
  }
  return out;
}

describeCorpus('PDF headings never from rotated text', () => {
  it.each(corpusFiles('', ['.pdf']).map((f) => [basename(f), f]))('%s: no heading holds text set at an angle', async (_name, file) => {
    let doc: PdfDocument;
    try {
      doc = await parsePdf(file);
    } catch {
      return;
    }
    const rotated = await rotatedRuns(file);
    const titles = pdfHeadings(doc);
    expect(titles.filter((t) => rotated.some((r) => t.includes(r)))).toEqual([]);
    // The rotated text is not lost either: it is read as a block of its own.
    for (const r of rotated) expect(doc.text).toContain(r);
  });
});
