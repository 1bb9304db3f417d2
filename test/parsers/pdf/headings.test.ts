import { describe, expect, it } from 'vitest';
import { createFontStats, fontHeadingDepth, matchTitle, titleTokens } from '../../../src/parsers/pdf/headings.js';
import { line } from '../../support/pdf-lines.js';

const cues = { bodySize: 10, bodyFont: 'body', startsBlock: true, columnWidth: 400 };

describe('createFontStats', () => {
  it('takes the body size and font from the most characters', () => {
    const stats = createFontStats();
    stats.add(line('A big title', 0, 0, { fontSize: 20, fontName: 'bold' }));
    stats.add(line('body text that is much longer than the title', 0, 0, { fontSize: 10.1 }));
    stats.add(line('more body text in another run', 0, 0, { fontSize: 9.9 }));
    expect(stats.bodySize()).toBe(10);
    expect(stats.bodyFont()).toBe('body');
  });

  it('reads the body from the prose when code listings hold more characters, and from the code when it is nearly all code', () => {
    const stats = createFontStats();
    const code = { fontSize: 7.5, fontName: 'mono', monospace: true };
    stats.add(line('const buf = Buffer.alloc(10); console.log(buf.length); // prints 10', 0, 0, code));
    stats.add(line('buf.write("hello"); buf.toString("utf8");', 0, 0, code));
    stats.add(line('A Buffer holds a fixed-length sequence of bytes.', 0, 0, { fontSize: 9 }));
    expect(stats.bodySize()).toBe(9);
    expect(stats.bodyFont()).toBe('body');
    const listing = createFontStats();
    for (let i = 0; i < 8; i++) listing.add(line(`line ${i} of a long program listing, set in a fixed-pitch face`, 0, 0, code));
    listing.add(line('Listing 1', 0, 0, { fontSize: 9 }));
    expect(listing.bodySize()).toBe(7.5);
    expect(listing.bodyFont()).toBe('mono');
  });
});

describe('fontHeadingDepth', () => {
  it('ranks larger fonts by their ratio to the body size', () => {
    expect(fontHeadingDepth(line('Title', 0, 0, { fontSize: 20 }), cues)).toBe(1);
    expect(fontHeadingDepth(line('Chapter', 0, 0, { fontSize: 14 }), cues)).toBe(2);
    expect(fontHeadingDepth(line('Section', 0, 0, { fontSize: 11.2 }), cues)).toBe(3);
    expect(fontHeadingDepth(line('Body', 0, 0, { fontSize: 10 }), cues)).toBeNull();
  });

  it('takes a short standalone line in another font of the body size, not emphasis inside a paragraph', () => {
    const bold = { fontName: 'bold' };
    expect(fontHeadingDepth(line('The Buried Moon', 0, 0, bold), cues)).toBe(4);
    expect(fontHeadingDepth(line('The Buried Moon', 0, 0, bold), { ...cues, startsBlock: false })).toBeNull();
    expect(fontHeadingDepth(line('x'.repeat(79), 0, 0, bold), cues)).toBeNull();
    expect(fontHeadingDepth(line('Mixed fonts', 0, 0, { ...bold, fontShare: 0.6 }), cues)).toBeNull();
    expect(fontHeadingDepth(line('1234', 0, 0, { fontSize: 20 }), cues)).toBeNull();
  });
});

describe('matchTitle', () => {
  it('matches an outline title to the line that carries it, numbers written out or not', () => {
    const lines = [line('the creators of this work say', 0, 700), line('CHAPTER ONE: Creators', 0, 650, { fontSize: 11 }), line('In 1928, a cartoon', 0, 600)];
    expect(matchTitle('Chapter 1: Creators', lines)).toMatchObject({ index: 1, count: 1 });
  });

  it('spans a title set on two lines and skips lines already taken', () => {
    const lines = [line('Rebuilding Freedoms Previously', 0, 700), line('Presumed: Examples', 0, 686), line('text', 0, 650)];
    expect(matchTitle('Rebuilding Freedoms Previously Presumed: Examples', lines)).toMatchObject({ index: 0, count: 2 });
    expect(matchTitle('Rebuilding Freedoms Previously Presumed: Examples', lines, new Set([0]))).toBeNull();
  });

  it('matches a title whose bookmark drops a hyphen the page sets', () => {
    const lines = [line('2.12. Recommended checking order', 0, 700), line('2.13. Non-regular files', 0, 400), line('text', 0, 380)];
    expect(matchTitle('2.13. Nonregular files', lines)).toMatchObject({ index: 1, count: 1 });
    expect(titleTokens('Client\u2011side re-use, -1')).toEqual(['clientside', 'reuse', '1']);
  });

  it('returns null when no line carries most of the title', () => {
    expect(matchTitle('Completely different', [line('nothing alike', 0, 0)])).toBeNull();
    expect(titleTokens('Übungsaufgaben 1.2')).toEqual(['ubungsaufgaben', '1', '2']);
  });
});
