/** The pure page-signal modules: what an operator list draws, unreadable fonts, rotation, font names, numbering. */
import { describe, expect, it } from 'vitest';
import { baseFontName, createFontRegistry, faceOf } from '../../../src/parsers/pdf/fonts.js';
import { looksTabular, readGraphics, type OperatorCodes } from '../../../src/parsers/pdf/graphics.js';
import { createSizeRanks, numberingDepth } from '../../../src/parsers/pdf/headings.js';
import { judgeReadability } from '../../../src/parsers/pdf/readability.js';
import { levelled, pageDirection, splitRotated, turnItems } from '../../../src/parsers/pdf/rotation.js';
import { item, line } from '../../support/pdf-lines.js';

/** Operator codes with the values of pdf.js's OPS (fixed here: the module only compares them). */
const OPS: OperatorCodes = {
  save: 10, restore: 11, transform: 12, constructPath: 91, paintFormXObjectBegin: 74, paintFormXObjectEnd: 75,
  stroke: 20, closeStroke: 21, fill: 22, eoFill: 23, fillStroke: 24, eoFillStroke: 25, closeFillStroke: 26, closeEOFillStroke: 27, endPath: 28,
  paintImageXObject: 85, paintInlineImageXObject: 86, paintImageMaskXObject: 83, paintImageXObjectRepeat: 88, paintInlineImageXObjectGroup: 87,
  paintImageMaskXObjectGroup: 84, paintImageMaskXObjectRepeat: 89, clip: 29, eoClip: 30,
};
const MOVE = 0;
const LINE = 1;
const CURVE = 2;
const CLOSE = 4;
const path = (paint: number, ...ops: number[]) => [OPS.constructPath, [paint, [new Float32Array(ops)], null]] as const;

describe('readGraphics', () => {
  it('reads strokes as rules, a rectangle as its four sides, a thin fill as one line, curves and images as boxes', () => {
    const list = [
      path(OPS.stroke, MOVE, 10, 100, LINE, 200, 100),
      path(OPS.eoFill, MOVE, 10, 50, LINE, 200, 50, LINE, 200, 50.8, LINE, 10, 50.8, CLOSE),
      path(OPS.stroke, MOVE, 0, 0, LINE, 40, 0, LINE, 40, 20, LINE, 0, 20, CLOSE),
      path(OPS.stroke, MOVE, 300, 300, CURVE, 310, 320, 330, 320, 340, 300),
      [OPS.save, null],
      [OPS.transform, [50, 0, 0, 30, 400, 500]],
      [OPS.paintImageXObject, ['img_1', 2, 2]],
      [OPS.restore, null],
    ] as const;
    const g = readGraphics(list.map((o) => o[0]), list.map((o) => o[1]), OPS);
    expect(g.rules).toContainEqual({ x0: 10, y0: 100, x1: 200, y1: 100 });
    expect(g.rules.filter((r) => Math.abs(r.y0 - 50.4) < 0.01)).toHaveLength(1);
    expect(g.rules.filter((r) => r.x1 <= 40 && r.y1 <= 20)).toHaveLength(4);
    expect(g.drawings).toEqual([{ x0: 300, y0: 300, x1: 340, y1: 320 }]);
    expect(g.images).toEqual([{ x0: 400, y0: 500, x1: 450, y1: 530 }]);
  });

  it('tracks the transformation through q, cm, Q and form XObjects', () => {
    const list = [
      [OPS.paintFormXObjectBegin, [[1, 0, 0, 1, 100, 200], null]],
      [OPS.transform, [2, 0, 0, 2, 0, 0]],
      path(OPS.stroke, MOVE, 0, 0, LINE, 10, 0),
      [OPS.paintFormXObjectEnd, null],
      path(OPS.stroke, MOVE, 0, 0, LINE, 10, 0),
    ] as const;
    const g = readGraphics(list.map((o) => o[0]), list.map((o) => o[1]), OPS);
    expect(g.rules).toEqual([
      { x0: 100, y0: 200, x1: 120, y1: 200 },
      { x0: 0, y0: 0, x1: 10, y1: 0 },
    ]);
  });

  it('keeps of a rule only what the clipping path in force shows, until the state it was set in is restored', () => {
    const rect = (x0: number, y0: number, x1: number, y1: number) => path(OPS.stroke, MOVE, x0, y0, LINE, x1, y0, LINE, x1, y1, LINE, x0, y1, CLOSE);
    const list = [
      [OPS.save, null],
      [OPS.clip, null],
      path(OPS.endPath, MOVE, 0, 0, LINE, 100, 0, LINE, 100, 100, LINE, 0, 100, CLOSE),
      rect(-300, 10, -200, 40), // a hidden menu item, wholly outside the clip
      path(OPS.stroke, MOVE, 50, 60, LINE, 400, 60), // half inside: seen to the clip's edge
      [OPS.eoClip, null],
      path(OPS.endPath, MOVE, 20, 20, LINE, 30, 20, LINE, 30, 30, LINE, 20, 30, CLOSE),
      path(OPS.stroke, MOVE, 0, 25, LINE, 100, 25), // clips nest: only the inner square's width
      [OPS.restore, null],
      path(OPS.stroke, MOVE, -300, 5, LINE, -200, 5), // after the restore nothing is clipped
    ] as const;
    const g = readGraphics(list.map((o) => o[0]), list.map((o) => o[1]), OPS);
    expect(g.rules).toEqual([
      { x0: 50, y0: 60, x1: 100, y1: 60 },
      { x0: 20, y0: 25, x1: 30, y1: 25 },
      { x0: -300, y0: 5, x1: -200, y1: 5 },
    ]);
  });

  it('takes the crop box of the page as the first clip: a rule off the page is dropped, one across its edge cut there', () => {
    const list = [
      path(OPS.stroke, MOVE, -480, 300, LINE, 390, 300),
      path(OPS.stroke, MOVE, -480, 300, LINE, -480, 360),
      path(OPS.stroke, MOVE, 72, 100, LINE, 540, 100),
      path(OPS.stroke, MOVE, 900, 10, LINE, 950, 10),
    ] as const;
    const fns = list.map((o) => o[0]);
    const args = list.map((o) => o[1]);
    expect(readGraphics(fns, args, OPS, [0, 0, 612, 792]).rules).toEqual([
      { x0: 0, y0: 300, x1: 390, y1: 300 },
      { x0: 72, y0: 100, x1: 540, y1: 100 },
    ]);
    // A crop box that is not four finite numbers in order clips nothing.
    expect(readGraphics(fns, args, OPS, [0, 0, Number.NaN, 792]).rules).toHaveLength(4);
  });

  it('stops at a flood of paths, saying so', () => {
    const list = Array.from({ length: 30_000 }, () => path(OPS.stroke, MOVE, 0, 0, LINE, 10, 0));
    const g = readGraphics(list.map((o) => o[0]), list.map((o) => o[1]), OPS);
    expect(g.truncated).toBe(true);
    expect(g.rules.length).toBe(20_000);
  });
});

describe('looksTabular', () => {
  const row = (y: number, cells: [number, string][]) => cells.map(([x, s]) => item(s, x, y));
  it('suspects consecutive rows of aligned cells with words or figures', () => {
    const items = [700, 688, 676, 664].flatMap((y, i) => row(y, [[50, `Item ${i}`], [200, `${100 + i}.50`], [350, 'open']]));
    expect(looksTabular(items)).toBe(true);
  });
  it('does not suspect prose, two columns of prose, or the symbols of formulas', () => {
    const prose = [700, 688, 676, 664].flatMap((y) => [item('a line of prose in the left column', 50, y), item('and one in the right column too', 300, y)]);
    expect(looksTabular(prose)).toBe(false);
    const formula = [700, 660, 620].flatMap((y) => row(y, [[50, 'n'], [150, '∣'], [250, 'x']]));
    expect(looksTabular(formula)).toBe(false);
  });
});

describe('judgeReadability', () => {
  it('finds a font whose text is raw codes, and a page mostly in it', () => {
    const junk = String.fromCharCode(3, 4, 5, 6, 33, 34, 35, 37, 38, 39, 4, 5, 6, 7);
    const page = [item(junk, 50, 700, { fontName: 'g_d0_f2' }), item(junk + junk, 50, 688, { fontName: 'g_d0_f2' }), item('Readable title', 50, 720)];
    const r = judgeReadability(page);
    expect([...r.junkFonts]).toEqual(['g_d0_f2']);
    expect(r.unreadable).toBe(true);
  });
  it('leaves ordinary text, figures, code and formulas alone', () => {
    const page = [
      item('The quick brown fox jumps over the lazy dog.', 50, 700),
      item('$ 1,234.50 | 98 452 | 12%', 50, 688, { fontName: 'numbers' }),
      item('if (x) { return f(a, b); }', 50, 676, { fontName: 'code' }),
      item('∑ xᵢ ≤ ∫ f(x) dx', 50, 664, { fontName: 'math' }),
    ];
    expect(judgeReadability(page)).toEqual({ junkFonts: new Set(), unreadable: false });
  });
  it('reads the dot leaders of a contents page as leaders, not raw codes', () => {
    const page = [
      item('1 Einleitung . . . . . . . . . . . . . . . . . . 3', 50, 700, { fontName: 'toc' }),
      item('2 Grundlagen ............................ 5', 50, 688, { fontName: 'toc' }),
      item('2.1 Geometrie ----------------------- 7', 50, 676, { fontName: 'toc' }),
      item('. . . . . . . . . . . . . . . . . . . . . . . . 9', 50, 664, { fontName: 'toc' }),
    ];
    expect(judgeReadability(page)).toEqual({ junkFonts: new Set(), unreadable: false });
  });
  it('reads a font that draws one mark throughout, a survey table\'s asterisks, as marks, not raw codes', () => {
    const marks = [700, 688, 676, 664, 652, 640, 628].flatMap((y) => [item('*', 300, y, { fontName: 'dingbats' }), item('*', 360, y, { fontName: 'dingbats' })]);
    expect(judgeReadability([...marks, item('Persons with disabilities', 50, 700)]).junkFonts).toEqual(new Set());
    // Two symbols that vary are raw codes again.
    const varied = marks.map((m, i) => (i % 3 === 0 ? { ...m, str: '#' } : m));
    expect(judgeReadability(varied).junkFonts).toEqual(new Set(['dingbats']));
  });
});

describe('rotation', () => {
  it('keeps text at an angle apart from level text', () => {
    const { level, rotated } = splitRotated([item('level', 0, 0), item('stamp', 30, 300, { angle: 90 }), item('skewed scan', 0, 20, { angle: 1 })]);
    expect(level.map((i) => i.str)).toEqual(['level', 'skewed scan']);
    expect(rotated.map((i) => i.str)).toEqual(['stamp']);
    const [stamp] = levelled(rotated);
    expect(stamp?.angle).toBe(0);
    expect(stamp?.x).toBeCloseTo(300, 6);
    expect(stamp?.y).toBeCloseTo(-30, 6);
  });
  it('reads a page in the direction of most of its text, and not for a stamp', () => {
    const turned = Array.from({ length: 20 }, (_, i) => item('text drawn turned for a page turned back', 100 + i * 12, 50, { angle: 90 }));
    expect(pageDirection(turned)).toBe(90);
    expect(turnItems(turned, 90)[0]).toMatchObject({ x: 50, y: -100 });
    expect(turnItems(turned, 90)[0]?.angle).toBeUndefined();
    expect(pageDirection([item('A short title', 72, 700), item('arXiv:2305.03393v1 [cs.CL] 5 May 2023', 30, 250, { angle: 90 })])).toBe(0);
  });
});

describe('fonts', () => {
  it('names fonts by their base name, bold and fixed-pitch from it, one font loaded twice as one', () => {
    expect(baseFontName('ABCDEF+Calibri-Bold')).toBe('Calibri-Bold');
    expect(faceOf('TACTGM+NimbusRomNo9L-Medi')).toEqual({ bold: true, monospace: false });
    expect(faceOf('XYZABC+CMTT10')).toEqual({ bold: false, monospace: true });
    expect(faceOf('XYZABC+CMSY8')).toEqual({ bold: false, monospace: false });
    const fonts = createFontRegistry();
    fonts.learn({ g_d0_f1: 'AAAAAA+Times-Roman', g_d0_f9: 'BBBBBB+Times-Roman' });
    expect(fonts.face('g_d0_f1').key).toBe(fonts.face('g_d0_f9').key);
    expect(fonts.face('g_d0_f5')).toEqual({ key: 'g_d0_f5', bold: false, monospace: undefined });
  });
});

describe('heading depths', () => {
  it('takes depth from numbering', () => {
    expect(['1 Intro', '1.2 Scope', '1.2.3 Detail', 'I. INTRODUCTION', 'A. Emily Howell', '(1) first', '1928 was a year', 'Intro'].map(numberingDepth)).toEqual([1, 2, 3, 1, 2, 3, null, null]);
  });
  it('ranks heading sizes as they come, and keeps the depth a size was given', () => {
    const ranks = createSizeRanks();
    for (const size of [20, 13.5, 12.5]) ranks.add(line('A Heading', 0, 0, { fontSize: size }), 10);
    expect([20, 13.5, 12.5].map((s) => ranks.depthOf(s))).toEqual([1, 2, 3]);
    ranks.add(line('A Larger One', 0, 0, { fontSize: 24 }), 10);
    expect(ranks.depthOf(13.5)).toBe(2);
    expect(ranks.bodyDepth()).toBe(5);
  });
});
