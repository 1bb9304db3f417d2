/**
 * PDFs the tests make themselves, with `typeset` and `buildPdf`: what the default layer checks PDF behaviour on,
 * so that it needs nothing outside the repository.
 */
import { buildPdf, typeset, type DocElement, type OutlineSpec } from './pdf-builder.js';

const WORDS = (
  'chunk retrieval document structure paragraph heading stream memory bounded exact slice reader layout column ' +
  'page index embedding token sentence boundary parser table section outline font baseline offset window budget ' +
  'river harbour lantern meadow copper violin orchard granite pepper saddle ' +
  'the of and to in is that for with as on by it from at'
).split(' ');

/** Deterministic prose of `n` words, sentences of about twelve words, from `seed`. */
export function prose(n: number, seed: number): string {
  let state = (seed * 2654435761) >>> 0 || 1;
  const next = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
  for (let i = 0; i < 8; i++) next();
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    let word = WORDS[Math.floor(next() * WORDS.length)] as string;
    if (i === 0 || (out.at(-1) as string).endsWith('.')) word = word[0]!.toUpperCase() + word.slice(1);
    if (i === n - 1 || next() < 1 / 12) word += '.';
    out.push(word);
  }
  return out.join(' ');
}

/** The chapters of the guide, as typeset elements: headings at three sizes, prose, a list, a small table. */
export function guideElements(): DocElement[] {
  return [
    { heading: 'A Field Guide to Chunking', size: 22 },
    { paragraph: prose(90, 1) },
    { heading: 'Getting Started', size: 16 },
    { paragraph: prose(120, 2) },
    { heading: 'Installing the Tools', size: 13 },
    { paragraph: prose(70, 3) },
    { list: ['Install the package from the registry.', 'Run the command on a folder of documents.', 'Open the report and look at every boundary.'] },
    { heading: 'Choosing a Size', size: 13 },
    { paragraph: prose(140, 5) },
    { heading: 'Reading Tables', size: 16 },
    { paragraph: prose(60, 6) },
    { table: [['Option', 'Default', 'Meaning'], ['maxSize', '512', 'hard limit'], ['overlap', '0', 'units repeated']] },
    { paragraph: prose(110, 7) },
    { page: 2 },
    { heading: 'Two Columns of Notes', size: 16 },
    { paragraph: prose(160, 8) },
    { paragraph: prose(150, 9) },
    { paragraph: prose(140, 10) },
    { page: 1 },
    { heading: 'Closing Remarks', size: 16 },
    { paragraph: prose(130, 11) },
    { paragraph: prose(120, 12) },
  ];
}

/** The titles of the guide's headings, in order, with the depth their font size gives them. */
export const GUIDE_HEADINGS: readonly { title: string; depth: number }[] = [
  { title: 'A Field Guide to Chunking', depth: 1 },
  { title: 'Getting Started', depth: 2 },
  { title: 'Installing the Tools', depth: 3 },
  { title: 'Choosing a Size', depth: 3 },
  { title: 'Reading Tables', depth: 2 },
  { title: 'Two Columns of Notes', depth: 2 },
  { title: 'Closing Remarks', depth: 2 },
];

/** The running header and footer of the guide. */
export const GUIDE_HEADER = 'A FIELD GUIDE TO CHUNKING';

/**
 * A guide of several pages: headings by font size, prose, a list, a small table, a page of two columns, a running
 * header and page numbers, words hyphenated at line ends.
 */
export function guidePdf(): Uint8Array {
  return buildPdf(typeset(guideElements(), { header: () => GUIDE_HEADER, footer: (page) => String(page), hyphenate: true }));
}

/**
 * The same guide with bookmarks for its headings. The title is not among them, and their depths differ from what
 * the font sizes say, so a test can tell the outline was used.
 */
export function guidePdfWithOutline(): Uint8Array {
  const pages = typeset(guideElements(), { header: () => GUIDE_HEADER, footer: (page) => String(page), hyphenate: true });
  const pageOf = (title: string): number => pages.findIndex((p) => p.content.includes(`(${title})`)) + 1;
  const entry = (title: string, children?: OutlineSpec[]): OutlineSpec => ({ title, page: pageOf(title), ...(children ? { children } : {}) });
  return buildPdf(pages, { outline: GUIDE_OUTLINE.map((e) => entry(e.title, e.children?.map((c) => entry(c.title)))) });
}

/** The guide's bookmarks (titles and nesting; their pages are found in the typeset pages). */
export const GUIDE_OUTLINE: readonly { title: string; children?: { title: string }[] }[] = [
  { title: 'Getting Started', children: [{ title: 'Installing the Tools' }, { title: 'Choosing a Size' }] },
  { title: 'Reading Tables' },
  { title: 'Two Columns of Notes' },
  { title: 'Closing Remarks' },
];

/** A long document of `pages` pages or more of prose with a heading every few paragraphs, for stream and page tests. */
export function longPdf(chapters: number): Uint8Array {
  const elements: DocElement[] = [];
  for (let c = 1; c <= chapters; c++) {
    elements.push({ heading: `Chapter ${c}`, size: 16 });
    for (let p = 0; p < 4; p++) elements.push({ paragraph: prose(90, c * 10 + p) });
  }
  return buildPdf(typeset(elements, { header: () => 'LONG DOCUMENT', footer: (page) => String(page) }));
}
