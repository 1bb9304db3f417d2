import { describe, expect, it } from 'vitest';
import { createHeadingStage, DefaultHeadingTracker } from '../../src/chunking/heading-tracker.js';
import type { Block } from '../../src/types.js';

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

describe('createHeadingStage', () => {
  const heading = (depth: number, title: string): Block => ({ kind: 'heading', depth, title, text: `${'#'.repeat(depth)} ${title}`, start: 0, end: 0, startLine: 1, endLine: 1 }) as Block;
  const paragraph: Block = { kind: 'paragraph', text: 'x', start: 0, end: 1, startLine: 1, endLine: 1 } as Block;
  const contextOf = (stage: ReturnType<typeof createHeadingStage>, block: Block) => (stage.write(block)[0] as Block).heading;

  it('keeps the context of a heading repeated at its level, and follows every other change', () => {
    const stage = createHeadingStage();
    const a = contextOf(stage, heading(1, 'a'));
    expect(contextOf(stage, heading(1, 'a'))).toBe(a);
    expect(contextOf(stage, paragraph)).toBe(a);
    const b = contextOf(stage, heading(2, 'b'));
    expect(b?.path).toEqual(['a', 'b']);
    expect(contextOf(stage, heading(2, 'b'))).toBe(b);
    expect(contextOf(stage, heading(2, 'c'))?.path).toEqual(['a', 'c']);
    expect(contextOf(stage, heading(1, 'a'))?.path).toEqual(['a']);
  });

  it('reads the tracker again after a change made outside the stage', () => {
    const tracker = new DefaultHeadingTracker();
    const stage = createHeadingStage(tracker);
    contextOf(stage, heading(1, 'a'));
    tracker.reset();
    tracker.update(1, 'a');
    tracker.update(2, 'x');
    tracker.update(1, 'a');
    const after = contextOf(stage, heading(1, 'a'));
    expect(after?.path).toEqual(['a']);
    tracker.update(3, 'z');
    expect(contextOf(stage, heading(3, 'z'))?.path).toEqual(['a', 'z']);
  });
});
