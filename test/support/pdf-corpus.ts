/** Corpus PDFs and what pdf.js itself reads from them, for tests that check the parser against the source. */
import { readFileSync } from 'node:fs';
import { corpusPath } from './corpus.js';

/** Path of a corpus PDF. */
export function corpusPdf(name: string): string {
  return corpusPath('pdf', name);
}

/** The letters of each page (index 0 is page 1) in text-layer order, from bare pdf.js, lower-cased. */
export async function pageLetters(source: string | Uint8Array): Promise<string[]> {
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const data = typeof source === 'string' ? new Uint8Array(readFileSync(source)) : new Uint8Array(source);
  const task = getDocument({ data, isEvalSupported: false, disableFontFace: true, useSystemFonts: false, verbosity: 0 });
  try {
    const doc = await task.promise;
    const pages: string[] = [];
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      const content = await page.getTextContent();
      pages.push(letters(content.items.map((i) => ('str' in i ? i.str : '')).join('')));
      page.cleanup();
    }
    return pages;
  } finally {
    await task.destroy();
  }
}

/** Only the letters and digits of a text, lower-cased: spacing, hyphens and punctuation do not matter. */
export function letters(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
}
