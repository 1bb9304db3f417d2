/**
 * Right-to-left ligatures: pdf.js reverses a run's text character by character, so a glyph that stands for two
 * letters (lam-alef) comes out with them swapped. The reader spells such words again from the glyphs.
 */
import { describe, expect, it } from 'vitest';
import { reversedLigatureWords, repairLigatureWords } from '../../../src/parsers/pdf/ligatures.js';
import { parsePdf } from '../../../src/parsers/pdf/reader.js';
import { arabicString, buildPdf } from '../../support/pdf-builder.js';
import { checkDocument } from '../../support/pdf-contracts.js';

/** A `showText` glyph list in drawing order for a logical word, lam-alef drawn as one glyph. */
const drawn = (word: string): { unicode: string }[] => (word.match(/ل[اأإآ]|./gsu) ?? []).reverse().map((unicode) => ({ unicode }));

describe('reversedLigatureWords', () => {
  it('spells a word drawn with a lam-alef glyph both ways', () => {
    const repairs = reversedLigatureWords([[...drawn('خلال'), { unicode: ' ' }, ...drawn('الإنتاجية')]]);
    expect([...repairs]).toEqual([
      ['خالل', 'خلال'],
      ['اإلنتاجية', 'الإنتاجية'],
    ]);
  });

  it('keeps words within one glyph list across spacing numbers, and ends them at spaces and other scripts', () => {
    const glyphs = [...drawn('المشكلات').flatMap((g) => [g, -12]), { unicode: 'R' }, ...drawn('لا')];
    expect([...reversedLigatureWords([glyphs])]).toEqual([
      ['المشكالت', 'المشكلات'],
      ['ال', 'لا'],
    ]);
  });

  it('leaves out a spelling that the page also draws as a word of its own', () => {
    // `ال` drawn as two glyphs is the article; the swapped `لا` reads the same, so neither can be repaired.
    const repairs = reversedLigatureWords([drawn('لا'), drawn('ال')]);
    expect(repairs.size).toBe(0);
  });

  it('finds nothing to repair without multi-letter glyphs', () => {
    expect(reversedLigatureWords([drawn('سؤال'), [{ unicode: 'ﬁ' }, { unicode: 'x' }]]).size).toBe(0);
  });
});

describe('repairLigatureWords', () => {
  it('replaces whole words only', () => {
    const repairs = new Map([['خالل', 'خلال']]);
    expect(repairLigatureWords('من خالل البرمجة', repairs)).toBe('من خلال البرمجة');
    expect(repairLigatureWords('خاللي', repairs)).toBe('خاللي');
  });
});

describe('a PDF with lam-alef ligatures', () => {
  const heading = 'تحسين الإنتاجية وحل المشكلات';
  const body = 'من خلال البرمجة يمكن حل سؤال صعب بسهولة';
  const content = [
    `BT /F7 20 Tf 200 700 Td ${arabicString(heading)} Tj ET`,
    `BT /F7 11 Tf 200 660 Td ${arabicString(body)} Tj ET`,
  ].join('\n');

  it('reads the words as they are written, in the heading and the body', async () => {
    const doc = await parsePdf(buildPdf([{ content }]));
    checkDocument(doc);
    const texts = doc.blocks.map((b) => doc.text.slice(b.start, b.end));
    expect(texts.join('\n')).toContain('الإنتاجية');
    expect(texts.join('\n')).toContain('المشكلات');
    expect(texts.join('\n')).toContain('خلال');
    // A word whose alef and lam are two glyphs is left as drawn.
    expect(texts.join('\n')).toContain('سؤال');
    expect(texts.join('\n')).not.toMatch(/اإلنتاجية|المشكالت|خالل/);
  });
});
