/**
 * Makes `samples/handbook.pdf`, the PDF among the samples: a few pages with headings at three sizes, a list, a
 * small table, a page set in two columns, a running header and page numbers. Run it after changing it:
 *
 *     npx tsx scripts/sample-pdf.ts
 *
 * A test holds the committed file equal to what this script makes.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildPdf, typeset, type DocElement } from '../test/support/pdf-builder.js';

/** Where the sample is written. */
export const SAMPLE_PDF = fileURLToPath(new URL('../samples/handbook.pdf', import.meta.url));

const ELEMENTS: DocElement[] = [
  { heading: 'The Indexing Handbook', size: 22 },
  {
    paragraph:
      'This handbook explains how a folder of documents becomes an index that a retrieval system can search. Each ' +
      'document is read, cut into chunks along its own structure, measured in the units of the embedding model and ' +
      'written out with the headings in force, the pages it came from and the exact offsets of its text.',
  },
  { heading: 'Preparing the Documents', size: 16 },
  {
    paragraph:
      'Collect the documents in one folder. Markdown files keep their headings, lists, tables and code blocks; PDF ' +
      'files are read from their text layer, page by page, so scanned pages without text must go through optical ' +
      'character recognition first. A running header or a page number is not content and is left out of the chunks.',
  },
  { heading: 'Installing the Tools', size: 13 },
  {
    list: [
      'Install Node.js version 20.19 or later.',
      'Install the package with the npm command.',
      'Run the command on the folder and read the output.',
    ],
  },
  { heading: 'Choosing the Options', size: 13 },
  {
    paragraph:
      'The size of a chunk is a retrieval decision. Small chunks match a question closely but carry little context; ' +
      'large chunks carry context but dilute the match. Start from the defaults below and look at the report.',
  },
  {
    table: [
      ['Option', 'Default', 'Meaning'],
      ['max size', '512', 'hard limit per chunk'],
      ['overlap', '0', 'units repeated'],
      ['unit', 'tokens', 'what sizes count'],
    ],
  },
  { page: 2 },
  { heading: 'How the Chunks Are Made', size: 16 },
  {
    paragraph:
      'The parser turns the text into typed blocks: headings, paragraphs, lists, tables and code. A heading tracker ' +
      'attaches the path of headings to every block, so that a chunk deep inside a chapter still knows the chapter ' +
      'and the section it belongs to. The packer then fills chunks up to the target size, block by block, and never ' +
      'packs across a chapter or a section heading.',
  },
  {
    paragraph:
      'A block that does not fit in one chunk is cut along its own structure before anything else is tried: a table ' +
      'between its rows, with the header row repeated in front of every piece; a list between its items; a code ' +
      'block between its lines, with the fence opened again. Only text without such structure goes to the text ' +
      'splitter, which cuts at paragraph breaks, then at sentence ends, then between words.',
  },
  {
    paragraph:
      'Every chunk keeps the exact offsets of its text in the document, so that a search result can be shown in ' +
      'place, and a hash of its text, so that an index can tell which chunks changed between two runs. Text that is ' +
      'added for the embedding model, such as a repeated table header, travels beside the chunk text and never ' +
      'inside it.',
  },
  { page: 1 },
  { heading: 'Keeping the Index Fresh', size: 16 },
  {
    paragraph:
      'Documents change. When a paragraph is edited, only the chunks around it change; the others keep their text ' +
      'and their hash, and need not be embedded again. Compare the chunks of two runs and send only the new ones to ' +
      'the embedding model.',
  },
];

/** The sample PDF's bytes. */
export function samplePdf(): Uint8Array {
  return buildPdf(typeset(ELEMENTS, { header: () => 'THE INDEXING HANDBOOK', footer: (page) => String(page) }));
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(SAMPLE_PDF, samplePdf());
  console.log(`wrote ${SAMPLE_PDF}`);
}
