import { describe, expect, it } from 'vitest';
import { buildLines, cleanText } from '../../../src/parsers/pdf/lines.js';
import { item } from '../../support/pdf-lines.js';

describe('buildLines', () => {
  it('joins runs on one baseline and breaks at a new baseline', () => {
    const lines = buildLines([item('Hello', 10, 100), item('world', 38, 100), item('Next line', 10, 88)]);
    expect(lines.map((l) => l.text)).toEqual(['Hello world', 'Next line']);
  });

  it('puts no space between runs that touch, and one where there is a gap', () => {
    const lines = buildLines([item('infor', 10, 100), item('mation', 35, 100), item('x', 70, 100)]);
    expect(lines[0]?.text).toBe('information x');
  });

  it('keeps superscripts and subscripts on their line', () => {
    const lines = buildLines([item('U', 10, 100), item('1', 15, 97, { fontSize: 7 }), item('∩ U', 22, 100), item('2', 37, 103, { fontSize: 7 })]);
    expect(lines).toHaveLength(1);
    expect(lines[0]?.text).toBe('U1 ∩ U2');
    expect(lines[0]?.fontSize).toBe(10);
  });

  it('starts a new fragment at a wide gap (another column or a table cell)', () => {
    const lines = buildLines([item('left column text', 10, 100), item('right column', 200, 100)]);
    expect(lines.map((l) => l.text)).toEqual(['left column text', 'right column']);
  });

  it('honours the line end the text layer saw when the next run goes back to the left', () => {
    const lines = buildLines([item('first', 10, 100, { hasEOL: true }), item('second', 10, 100)]);
    expect(lines).toHaveLength(2);
  });

  it('records the main font, its share and monospace', () => {
    const [l] = buildLines([item('Bold', 10, 100, { fontName: 'bold' }), item(' and regular text', 30, 100), item('x', 120, 100, { monospace: true })]);
    expect(l?.fontName).toBe('body');
    expect(l?.fontShare).toBeLessThan(1);
    expect(l?.monospace).toBe(false);
  });

  it('drops empty runs and collapses whitespace', () => {
    const lines = buildLines([item('', 10, 100, { hasEOL: true }), item('a   b\u0000', 10, 90), item('   ', 40, 80)]);
    expect(lines.map((l) => l.text)).toEqual(['a b']);
    expect(cleanText('x\u00ady')).toBe('xy');
  });
});
