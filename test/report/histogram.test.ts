import { describe, expect, it } from 'vitest';
import { renderHistogram } from '../../src/report/histogram.js';

describe('renderHistogram', () => {
  it('draws one bar per bin whose titles add up to the number of sizes', () => {
    const sizes = [10, 20, 20, 30, 400, 512, 700];
    const svg = renderHistogram(sizes, { unit: 'tokens', targetSize: 384, maxSize: 512, bins: 10 });
    expect(svg.startsWith('<svg class="histogram"')).toBe(true);
    const counts = [...svg.matchAll(/<title>[^<]*: (\d+) chunks?<\/title>/g)].map((m) => Number(m[1]));
    expect(counts.reduce((a, b) => a + b, 0)).toBe(sizes.length);
    expect(svg).toContain('target 384');
    expect(svg).toContain('max 512');
    expect(svg).toMatch(/class="bar over"/);
  });

  it('handles no sizes and no markers', () => {
    const svg = renderHistogram([], { unit: 'chars' });
    expect(svg).toContain('Histogram of 0 chunk sizes in chars');
    expect(svg).not.toContain('target');
  });
});
