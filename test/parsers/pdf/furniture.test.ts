import { describe, expect, it } from 'vitest';
import { createFurnitureDetector, furnitureCandidates, furnitureKey } from '../../../src/parsers/pdf/furniture.js';
import { line } from '../../support/pdf-lines.js';

describe('furnitureKey', () => {
  it('ignores page numbers, case and punctuation', () => {
    expect(furnitureKey('12 FREE CULTURE')).toBe(furnitureKey('4  Free Culture'));
    expect(furnitureKey('xiv')).toBe('#');
    expect(furnitureKey('civil')).toBe('civil');
  });
});

describe('createFurnitureDetector', () => {
  const words = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta'];
  const page = (n: number) => [
    line(`${n} RUNNING HEAD`, 90, 750),
    ...words.map((w, i) => line(`${w} ${words[(i + n) % words.length]} text of page`, 90, 700 - 12 * i)),
    line(String(n), 300, 40),
  ];

  it('marks lines repeated at the same height on enough pages, and only those', () => {
    const detector = createFurnitureDetector({ window: 3, minPages: 3 });
    for (let n = 1; n <= 6; n++) detector.record(n, furnitureCandidates(page(n)));
    const lines = page(3);
    expect(lines.filter((l) => detector.isFurniture(3, l)).map((l) => l.text)).toEqual(['3 RUNNING HEAD', '3']);
  });

  it('keeps a repeated line that moves to another height', () => {
    const detector = createFurnitureDetector({ window: 3, minPages: 3 });
    for (let n = 1; n <= 5; n++) detector.record(n, furnitureCandidates([line('Same words', 90, 700 - n * 30), line('x', 90, 100)]));
    expect(detector.isFurniture(3, line('Same words', 90, 610))).toBe(false);
  });

  it('takes a page number alone on its line at the edge of a page without evidence, not one beside other text', () => {
    const detector = createFurnitureDetector({ window: 3, minPages: 3 });
    const lines = [line('Chapter text', 90, 700), line('more', 90, 688), line('x = y', 90, 52), line('(3)', 400, 52), line('21', 300, 40)];
    detector.record(1, furnitureCandidates(lines));
    expect(lines.filter((l) => detector.isFurniture(1, l)).map((l) => l.text)).toEqual(['21']);
  });

  it('needs minPages pages of evidence', () => {
    const detector = createFurnitureDetector({ window: 3, minPages: 3 });
    detector.record(1, furnitureCandidates(page(1)));
    detector.record(2, furnitureCandidates(page(2)));
    expect(detector.isFurniture(1, page(1)[0]!)).toBe(false);
  });
});
