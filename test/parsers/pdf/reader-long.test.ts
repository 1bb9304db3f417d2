import { describe, expect, it } from 'vitest';
import { normalizeParseOptions } from '../../../src/config.js';
import { readPdfBlocks } from '../../../src/parsers/pdf/reader.js';
import type { Block } from '../../../src/types.js';
import { buildPdf, textAt } from '../../support/pdf-builder.js';

describe('a long PDF in one standard font', () => {
  it('never turns body text into headings, however many pages come before it', async () => {
    // Helvetica without a font descriptor: pdf.js gives it a new name whenever its font cache is dropped, and the
    // body text of later pages must not then read as headings in "another font".
    const words = 'the quick brown fox jumps over a lazy dog while seven wizards quietly judge boxing matches'.split(' ');
    const page = (p: number) => {
      const lines = [textAt(72, 750, `Synthetic Report ${p}`, 9), textAt(300, 40, String(p), 9)];
      for (let l = 0; l < 45; l++) {
        const text = Array.from({ length: 12 }, (_, w) => words[(p * 7 + l * 3 + w) % words.length]).join(' ');
        lines.push(textAt(l % 9 === 0 ? 90 : 72, 720 - l * 14, l % 9 === 8 ? `${text}.` : text, 11));
      }
      return { content: lines.join('\n') };
    };
    const bytes = buildPdf(Array.from({ length: 600 }, (_, i) => page(i + 1)));
    const blocks: Block[] = [];
    for await (const block of readPdfBlocks(bytes, normalizeParseOptions({ format: 'pdf' }))) blocks.push(block);
    expect(blocks.at(-1)?.page).toBe(600);
    expect(blocks.filter((b) => b.kind === 'paragraph').length).toBeGreaterThan(600 * 4);
    expect(blocks.filter((b) => b.kind === 'heading')).toEqual([]);
  });
});
