/** Corpus PDFs and what pdf.js itself reads from them, for tests that check the parser against the source. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CORPUS } from './property.js';

/** Path of a corpus PDF. */
export function corpusPdf(name: string): string {
  return join(CORPUS, 'pdf', name);
}

/** The letters of each page (index 0 is page 1) in text-layer order, from bare pdf.js, lower-cased. */
export async function pageLetters(path: string): Promise<string[]> {
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const task = getDocument({ data: new Uint8Array(readFileSync(path)), isEvalSupported: false, disableFontFace: true, useSystemFonts: false, verbosity: 0 });
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
