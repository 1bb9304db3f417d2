import { describe, expect, it } from 'vitest';
import { DefaultHeadingTracker } from '../../src/chunking/heading-tracker.js';

describe('DefaultHeadingTracker', () => {
  it('replaces the entry at the same level: H1 → H2 → H2', () => {
    const t = new DefaultHeadingTracker();
    t.update(1, 'A');
    t.update(2, 'B');
    t.update(2, 'C');
    expect(t.getPath()).toEqual(['A', 'C']);
    expect(t.getLevels()).toEqual([1, 2]);
  });

  it('pops deeper entries: H1 → H3 → H2 gives [H1, H2]', () => {
    const t = new DefaultHeadingTracker();
    t.update(1, 'A');
    t.update(3, 'deep');
    t.update(2, 'B');
    expect(t.getPath()).toEqual(['A', 'B']);
    expect(t.getLevels()).toEqual([1, 2]);
  });

  it('reset empties the stack and getPath returns copies', () => {
    const t = new DefaultHeadingTracker();
    t.update(1, 'A');
    const path = t.getPath();
    path.push('mutated');
    expect(t.getPath()).toEqual(['A']);
    t.reset();
    expect(t.getPath()).toEqual([]);
  });
});
