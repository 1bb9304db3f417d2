import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { niceStep, renderHistogram } from '../../src/report/histogram.js';
import { fcParams } from '../support/property.js';

/** The bins of a histogram: range, count and drawn bar height. */
function bins(svg: string): { lo: number; hi: number; n: number; height: number }[] {
  return [...svg.matchAll(/<g class="bin[^"]*" data-lo="(\d+)" data-hi="(\d+)" data-n="(\d+)">.*?<rect class="bar[^"]*" [^>]*height="([\d.]+)"\/><rect class="hit"[^>]*\/><\/g>/g)].map((m) => ({
    lo: Number(m[1]),
    hi: Number(m[2]),
    n: Number(m[3]),
    height: Number(m[4]),
  }));
}

describe('renderHistogram', () => {
  it('draws one bar per bin whose counts add up to the number of sizes', () => {
    const sizes = [10, 20, 20, 30, 400, 512, 700];
    const svg = renderHistogram(sizes, { unit: 'tokens', targetSize: 384, maxSize: 512, bins: 10 });
    expect(svg.startsWith('<svg class="histogram" data-view="0"')).toBe(true);
    const counts = [...svg.matchAll(/<title>[^<]*: (\d+) chunks?<\/title>/g)].map((m) => Number(m[1]));
    expect(counts.reduce((a, b) => a + b, 0)).toBe(sizes.length);
    expect(svg).toContain('target 384');
    expect(svg).toContain('max 512');
    expect(svg).toMatch(/class="bar over"/);
  });

  it('keeps a bin of one chunk visible beside a bin of thousands, and gives every bin its range', () => {
    const sizes = [3, ...new Array<number>(5000).fill(200)];
    const svg = renderHistogram(sizes, { unit: 'tokens', minSize: 48, targetSize: 192, maxSize: 256 });
    const all = bins(svg);
    const tiny = all.find((b) => b.lo <= 3 && 3 <= b.hi)!;
    expect(tiny.n).toBe(1);
    expect(tiny.height).toBeGreaterThanOrEqual(3);
    expect(all.filter((b) => b.n === 0).every((b) => b.height === 0)).toBe(true);
    // Bins tile the axis: each starts where the last ended.
    all.forEach((b, i) => { expect(b.lo).toBe(i === 0 ? 0 : all[i - 1]!.hi + 1); });
    expect(svg).toMatch(/<rect class="bar under"/);
    expect(svg).toContain('>min 48</text>');
  });

  it('labels both axes with round ticks and keeps marker labels apart', () => {
    const svg = renderHistogram([100, 150, 150, 200], { unit: 'tokens', minSize: 48, targetSize: 192, maxSize: 256 });
    const xTicks = [...svg.matchAll(/<text class="tick" x="[\d.]+" y="\d+" text-anchor="(?:middle|end)">([\d,]+)<\/text>/g)].map((m) => Number(m[1]!.replace(',', '')));
    expect(xTicks).toEqual([0, 50, 100, 150, 200, 250]);
    const yTicks = [...svg.matchAll(/<text class="tick" x="[\d.]+" y="[\d.]+" dy="3" text-anchor="end">(\d+)<\/text>/g)].map((m) => Number(m[1]));
    expect(yTicks).toEqual([0, 1, 2]);
    // Target 192 and max 256 are close: their labels go on different rows or do not overlap.
    const marks = [...svg.matchAll(/<text class="mark (\w+)" x="([\d.]+)" y="([\d.]+)" text-anchor="(\w+)">([^<]+)<\/text>/g)].map((m) => ({ cls: m[1], x: Number(m[2]), y: Number(m[3]), anchor: m[4], text: m[5]! }));
    expect(marks.map((m) => m.cls)).toEqual(['min', 'target', 'limit']);
    const box = (m: (typeof marks)[number]) => {
      const w = m.text.length * 5.4;
      const left = m.anchor === 'end' ? m.x - w : m.anchor === 'start' ? m.x : m.x - w / 2;
      return [left, left + w, m.y] as const;
    };
    for (let i = 0; i < marks.length; i++) {
      for (let j = i + 1; j < marks.length; j++) {
        const [a0, a1, ay] = box(marks[i]!);
        const [b0, b1, by] = box(marks[j]!);
        expect(ay !== by || a1 < b0 || b1 < a0).toBe(true);
      }
    }
  });

  it('handles no sizes and no markers', () => {
    const svg = renderHistogram([], { unit: 'chars' });
    expect(svg).toContain('Histogram of 0 chunk sizes in chars');
    expect(svg).not.toContain('target');
  });

  it('property: niceStep is 1, 2 or 5 times a power of ten, at least its input and less than 2.5 times it', () => {
    fc.assert(
      fc.property(fc.double({ min: 1.01, max: 1e9, noNaN: true }), (raw) => {
        const step = niceStep(raw);
        const mantissa = step / 10 ** Math.floor(Math.log10(step) + 1e-9);
        expect([1, 2, 5].some((m) => Math.abs(mantissa - m) < 1e-6)).toBe(true);
        expect(step).toBeGreaterThanOrEqual(raw);
        expect(step).toBeLessThan(raw * 2.5);
      }),
      fcParams(200),
    );
    expect(niceStep(0.3)).toBe(1);
  });
});
