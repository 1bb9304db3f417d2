import { existsSync, readFileSync } from 'node:fs';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { parsePdf, type PdfDocument, type PdfInfo } from '../../../src/parsers/pdf/reader.js';
import { parse } from '../../../src/stream/parse.js';
import { isChunkError } from '../../../src/errors.js';
import type { Block, HeadingBlock } from '../../../src/types.js';
import { corpusPath, describeCorpus, itWithCorpusFile } from '../../support/corpus.js';
import { buildPdf, textAt } from '../../support/pdf-builder.js';
import { corpusPdf, letters, pageLetters } from '../../support/pdf-corpus.js';
import { GUIDE_HEADER, GUIDE_HEADINGS, GUIDE_OUTLINE, guideElements, guidePdf, guidePdfWithOutline, longPdf } from '../../support/pdf-samples.js';

const ENCRYPTED = new URL('../../fixtures/encrypted-aes256.pdf', import.meta.url).pathname;

/** Normalized for comparing headings: lower case, letters and digits only. */
const norm = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
const headings = (doc: PdfDocument) => doc.blocks.filter((b): b is HeadingBlock => b.kind === 'heading');

async function streamPdf(bytes: Uint8Array, options = {}, pieceSize = 65536): Promise<{ blocks: Block[]; info: PdfInfo | undefined; infoBeforeEnd: boolean }> {
  const blocks: Block[] = [];
  let info: PdfInfo | undefined;
  let ended = false;
  let infoBeforeEnd = false;
  const pieces: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += pieceSize) pieces.push(bytes.subarray(i, i + pieceSize));
  const stage = parse(options);
  stage.on('info', (i: PdfInfo) => ((info = i), (infoBeforeEnd = !ended)));
  stage.on('end', () => (ended = true));
  await pipeline(Readable.from(pieces, { objectMode: true }), stage, new Writable({ objectMode: true, write: (b, _e, cb) => (blocks.push(b), cb()) }));
  return { blocks, info, infoBeforeEnd };
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}

/** Blocks whose first and last characters are not on the pages the block names, checked against bare pdf.js. */
async function misplacedBlocks(source: string | Uint8Array, doc: PdfDocument): Promise<string[]> {
  const pages = await pageLetters(source);
  const wrong: string[] = [];
  for (const b of doc.blocks) {
    const l = letters(b.text);
    if (l.length === 0) continue;
    const first = b.page as number;
    const last = b.pageEnd ?? first;
    // Twelve letters from each end. A line at a page break may be shorter than that, and the labels of a figure
    // are read in another order than the text layer's, so the first and last words stand in.
    const words = b.text.split(/\s+/).map(letters).filter((w) => w.length > 0);
    const headOk = (pages[first - 1] ?? '').includes(l.slice(0, 12)) || (pages[first - 1] ?? '').includes(words[0] ?? '');
    const tailOk = (pages[last - 1] ?? '').includes(l.slice(-12)) || (pages[last - 1] ?? '').includes(words[words.length - 1] ?? '');
    if (!headOk || !tailOk) wrong.push(`p${first}-${last}: ${b.text.slice(0, 50)}`);
  }
  return wrong;
}

describe('parsePdf on generated documents', () => {
  let guide: PdfDocument;
  let outlined: PdfDocument;
  beforeAll(async () => {
    guide = await parsePdf(guidePdf());
    outlined = await parsePdf(guidePdfWithOutline());
  });

  it('makes headings from font sizes, deeper for smaller sizes', () => {
    expect(headings(guide).map((h) => ({ title: h.title, depth: h.depth }))).toEqual(GUIDE_HEADINGS);
  });

  it('takes the headings and their depths from the outline when there is one, and no others', () => {
    const expected = GUIDE_OUTLINE.flatMap((e) => [{ title: e.title, depth: 1 }, ...(e.children ?? []).map((c) => ({ title: c.title, depth: 2 }))]);
    expect(headings(outlined).map((h) => ({ title: h.title, depth: h.depth }))).toEqual(expected);
    // The title is larger than any bookmarked heading, but not a bookmark: with an outline, fonts make no heading.
    expect(outlined.blocks.find((b) => b.text === 'A Field Guide to Chunking')?.kind).toBe('paragraph');
  });

  it('reads every paragraph whole and in order, across the columns of a two-column page, hyphenated words joined', () => {
    const paragraphs = guideElements().flatMap((e) => ('paragraph' in e ? [e.paragraph] : []));
    // The typeset pages do hyphenate: the test would say nothing about joining otherwise.
    expect(Buffer.from(guidePdf()).toString('latin1').match(/\p{L}-\) Tj/gu)?.length).toBeGreaterThan(5);
    const texts = guide.blocks.filter((b) => b.kind === 'paragraph').map((b) => b.text);
    expect(texts.filter((t) => paragraphs.includes(t))).toEqual(paragraphs);
    const twoColumns = guide.blocks.filter((b) => b.page === 3 && b.kind === 'paragraph').map((b) => b.text);
    expect(twoColumns).toEqual(paragraphs.slice(6, 9));
  });

  it('drops the running header and the page numbers', () => {
    expect(guide.pages).toBe(4);
    expect(guide.blocks.filter((b) => b.text.includes(GUIDE_HEADER) || /^\d+$/.test(b.text)).map((b) => b.text)).toEqual([]);
    const long = longPdf(30);
    return parsePdf(long).then((doc) => {
      expect(doc.pages).toBeGreaterThan(20);
      expect(doc.blocks.filter((b) => b.text.includes('LONG DOCUMENT') || /^\d+$/.test(b.text)).map((b) => b.text)).toEqual([]);
    });
  });

  it('makes a list of bulleted lines, one item each', () => {
    const list = guide.blocks.find((b) => b.kind === 'list');
    expect(list).toMatchObject({ kind: 'list', page: 1 });
    expect(list?.kind === 'list' && list.items.map((i) => guide.text.slice(i.start, i.end))).toEqual([
      '• Install the package from the registry.',
      '• Run the command on a folder of documents.',
      '• Open the report and look at every boundary.',
    ]);
  });

  it('gives each block the pages its first and last characters come from', async () => {
    expect(await misplacedBlocks(guidePdf(), guide)).toEqual([]);
    expect(await misplacedBlocks(guidePdfWithOutline(), outlined)).toEqual([]);
  });

  it('reports the page count, and no OCR need for a document with text', () => {
    expect(guide).toMatchObject({ pages: 4, needsOcr: false, warnings: [] });
  });
});

describeCorpus('parsePdf on known PDFs', () => {
  const docs: Record<string, PdfDocument> = {};
  beforeAll(async () => {
    for (const name of ['multi_page.pdf', 'pdkids.pdf', 'tracemonkey.pdf', 'freeculture.pdf']) {
      if (existsSync(corpusPdf(name))) docs[name] = await parsePdf(corpusPdf(name));
    }
  });

  itWithCorpusFile('pdf/groundtruth/multi_page.md')('finds the headings of the reference conversion of multi_page.pdf', () => {
    const reference = readFileSync(corpusPath('pdf/groundtruth/multi_page.md'), 'utf8')
      .split('\n')
      .filter((l) => /^#{1,6} /.test(l))
      .map((l) => l.replace(/^#+ /, ''));
    const found = headings(docs['multi_page.pdf']!);
    const table = reference.map((title) => {
      const match = found.find((h) => norm(h.title) === norm(title));
      return { reference: title, heading: match === undefined ? '(missing)' : `#${match.depth} ${match.title} (page ${match.page})` };
    });
    console.table(table);
    expect(reference.length).toBe(11);
    expect(table.filter((row) => row.heading === '(missing)')).toEqual([]);
    // No paragraph became a heading either.
    expect(found.length).toBe(reference.length);
  });

  itWithCorpusFile('pdf/pdkids.pdf')('makes the story titles of pdkids.pdf headings', () => {
    const titles = [
      'The Buried Moon - An English Fairy Tale',
      'The Kind Giver and the Grudging Giver',
      'Gooloo, The Magpie, and The Wahroogah',
      'The Honey-Bee',
      'Hiawatha',
      'Thomas Jefferson',
      'Rainy Day Games',
      'Camp Fun & Frolics',
      'How I Escaped',
      "Life's Mirror",
      'The Adventures of Oliver Twist',
      'The Wailuku',
      'The King of the Kites',
      'The Spirits of the Yellow River',
      'The Half-Chick',
    ];
    const found = new Set(headings(docs['pdkids.pdf']!).map((h) => norm(h.title)));
    expect(titles.filter((t) => !found.has(norm(t)))).toEqual([]);
    // The byline under a title is body text, not part of the heading.
    expect(docs['pdkids.pdf']!.blocks.find((b) => b.text === 'by Edmund Dulac')?.kind).toBe('paragraph');
  });

  itWithCorpusFile('pdf/tracemonkey.pdf')('reads the abstract of the two-column tracemonkey.pdf as one paragraph, in order', () => {
    const blocks = docs['tracemonkey.pdf']!.blocks;
    const at = blocks.findIndex((b) => b.text.startsWith('Dynamic languages such as JavaScript are more difficult'));
    expect(blocks[at - 1]).toMatchObject({ kind: 'heading', title: 'Abstract', page: 1 });
    expect(blocks[at]).toMatchObject({
      kind: 'paragraph',
      page: 1,
      text:
        'Dynamic languages such as JavaScript are more difficult to compile than statically typed ones. Since no concrete ' +
        'type information is available, traditional compilers need to emit generic code that can handle all possible type ' +
        'combinations at runtime. We present an alternative compilation technique for dynamically-typed languages that ' +
        'identifies frequently executed loop traces at run-time and then generates machine code on the fly that is ' +
        'specialized for the actual dynamic types occurring on each path through the loop. Our method provides cheap ' +
        'inter-procedural type specialization, and an elegant and efficient way of incrementally compiling lazily ' +
        'discovered alternative paths through nested loops. We have implemented a dynamic compiler for JavaScript based on ' +
        'our technique and we have measured speedups of 10x and more for certain benchmark programs.',
    });
    // The right column's first paragraph comes after the left column's, not interleaved with it.
    const right = blocks.findIndex((b) => b.text.startsWith('and is used for the application logic'));
    const intro = blocks.findIndex((b) => b.kind === 'heading' && b.title === '1. Introduction');
    expect(at).toBeLessThan(intro);
    expect(intro).toBeLessThan(right);
  });

  itWithCorpusFile('pdf/freeculture.pdf')('leaves no running header or footer of freeculture.pdf in the text', () => {
    const doc = docs['freeculture.pdf']!;
    expect(doc.pages).toBe(352);
    // Pages 9 and 10 are the table of contents, where "CONCLUSION 257" is content, and the index from page 339 on
    // has lines of page numbers only.
    const furniture = doc.blocks.filter(
      (b) =>
        (b.page as number) > 10 &&
        (b.page as number) < 339 &&
        (/(^|\n)\d{1,3} FREE CULTURE($|\n)/.test(b.text) ||
        b.text.includes('free-culture.org/get-it') ||
        /^(INTRODUCTION|PREFACE|CONCLUSION|AFTERWORD|“PIRACY”|“PROPERTY”|PUZZLES|BALANCES) \d+$/.test(b.text) ||
        /^\d{1,3}$/.test(b.text)),
    );
    expect(furniture.map((b) => `p${b.page}: ${b.text.slice(0, 60)}`)).toEqual([]);
    // The outline gives the chapter headings and their levels.
    expect(headings(doc).find((h) => h.title === 'Chapter 1: Creators')).toMatchObject({ depth: 2, page: 35, text: 'CHAPTER ONE: Creators' });
    expect(headings(doc).find((h) => h.title === 'Film')).toMatchObject({ depth: 3, page: 67 });
  });

  it('gives each block the pages its first and last characters come from', async () => {
    for (const [name, doc] of Object.entries(docs)) expect(await misplacedBlocks(corpusPdf(name), doc), name).toEqual([]);
  });

  itWithCorpusFile('pdf/multi_page.pdf')('reports the page count, and no OCR need for a document with text', () => {
    expect(docs['multi_page.pdf']).toMatchObject({ pages: 5, needsOcr: false, warnings: [] });
  });
});

describe('parse() with PDF input', () => {
  it('detects a PDF from its first bytes, streams the blocks of parsePdf and tells the info before ending', async () => {
    const bytes = guidePdfWithOutline();
    const doc = await parsePdf(bytes);
    const streamed = await streamPdf(bytes, {}, 7919);
    expect(streamed.blocks).toEqual(doc.blocks);
    expect(streamed.info).toEqual({ pages: 4, needsOcr: false, warnings: [] });
    expect(streamed.infoBeforeEnd).toBe(true);
  });

  it('fails with ERR_PDF_TOO_LARGE past maxPdfBytes', async () => {
    const bytes = longPdf(10);
    expect(bytes.length).toBeGreaterThan(20_000);
    const error = await failure(streamPdf(bytes, { maxPdfBytes: 20_000 }, 4096));
    expect(isChunkError(error, 'ERR_PDF_TOO_LARGE')).toBe(true);
    expect((error as Error).message).toMatch(/maxPdfBytes \(20000 bytes\)/);
  });
});

describe('bad PDF input', () => {
  it('rejects a truncated PDF with ERR_PDF_INVALID, from bytes and from a stream', async () => {
    const bytes = longPdf(10);
    const truncated = bytes.slice(0, Math.floor(bytes.length * 0.6));
    const error = await failure(parsePdf(truncated));
    expect(isChunkError(error, 'ERR_PDF_INVALID')).toBe(true);
    expect((error as Error).message).toMatch(/not a readable PDF/);
    expect(isChunkError(await failure(streamPdf(truncated)), 'ERR_PDF_INVALID')).toBe(true);
  });

  it('rejects random bytes with ERR_PDF_INVALID, with and without a PDF header', async () => {
    let seed = 7;
    const random = new Uint8Array(20_000).map(() => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed & 0xff));
    expect(isChunkError(await failure(parsePdf(random)), 'ERR_PDF_INVALID')).toBe(true);
    const headed = new Uint8Array([...Buffer.from('%PDF-1.7\n'), ...random]);
    expect(isChunkError(await failure(parsePdf(headed)), 'ERR_PDF_INVALID')).toBe(true);
    expect(isChunkError(await failure(streamPdf(headed)), 'ERR_PDF_INVALID')).toBe(true);
  });

  it('asks for the password of an encrypted PDF, rejects a wrong one and opens it with the right one', async () => {
    const missing = await failure(parsePdf(ENCRYPTED));
    expect(isChunkError(missing, 'ERR_PDF_ENCRYPTED')).toBe(true);
    expect((missing as Error).message).toMatch(/pass its password in the password option/);
    const wrong = await failure(parsePdf(ENCRYPTED, { password: 'nope' }));
    expect(isChunkError(wrong, 'ERR_PDF_ENCRYPTED')).toBe(true);
    expect((wrong as Error).message).toMatch(/password option is wrong/);
    const doc = await parsePdf(ENCRYPTED, { password: 'chunkstream' });
    expect(doc.blocks.map((b) => b.text)).toEqual(['Sealed Report', 'The password of this file is chunkstream. Nothing here is secret.']);
    const streamed = await streamPdf(new Uint8Array(readFileSync(ENCRYPTED)), { password: 'chunkstream' });
    expect(streamed.blocks).toEqual(doc.blocks);
  });

  it('yields no blocks, a warning and needsOcr for an image-only page', async () => {
    const scan = buildPdf([{ content: 'q 400 0 0 500 100 150 cm /Im1 Do Q', image: true }]);
    const doc = await parsePdf(scan);
    expect(doc.blocks).toEqual([]);
    expect(doc.needsOcr).toBe(true);
    expect(doc.warnings).toEqual([expect.stringMatching(/1 of 1 page has images but no text layer \(page 1\).*OCR/)]);
    const streamed = await streamPdf(scan);
    expect(streamed.info?.needsOcr).toBe(true);
    // The verb agrees with the pages that need OCR, not with the page count.
    const mixed = await parsePdf(buildPdf([{ content: 'q 400 0 0 500 100 150 cm /Im1 Do Q', image: true }, { content: textAt(72, 700, 'Text.') }]));
    expect(mixed.warnings).toEqual([expect.stringMatching(/^1 of 2 pages has images but no text layer \(page 1\)/)]);
  });

  it('does not ask for OCR because of a blank page', async () => {
    const doc = await parsePdf(buildPdf([{ content: textAt(72, 700, 'Only page with text.') }, { content: '' }]));
    expect(doc).toMatchObject({ pages: 2, needsOcr: false, warnings: [] });
    expect(doc.blocks.map((b) => b.text)).toEqual(['Only page with text.']);
  });

  it('fails with ERR_READ on a missing file and ERR_INVALID_INPUT on something else', async () => {
    expect(isChunkError(await failure(parsePdf('/nonexistent/file.pdf')), 'ERR_READ')).toBe(true);
    expect(isChunkError(await failure(parsePdf(42 as unknown as string)), 'ERR_INVALID_INPUT')).toBe(true);
  });

  it('leaves the caller\'s bytes intact', async () => {
    const bytes = new Uint8Array(readFileSync(ENCRYPTED));
    const before = Buffer.from(bytes).toString('base64');
    await parsePdf(bytes, { password: 'chunkstream' });
    expect(bytes.byteLength).toBeGreaterThan(0);
    expect(Buffer.from(bytes).toString('base64')).toBe(before);
  });
});
