import { describe, expect, it } from 'vitest';
import { listOfDoubles, settleFields } from '../src/core.js';

describe('settleFields', () => {
  it('leaves every field with its own value, in its own order', () => {
    const target = { a: 1, b: null as { x: number } | null, c: 'c', d: true };
    settleFields(target, { a: 2, b: { x: 1 }, d: false });
    expect(target).toStrictEqual({ a: 1, b: null, c: 'c', d: true });
    expect(Object.keys(target)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('adds no field that the target lacks', () => {
    const target: { a: number; b?: number } = { a: 1 };
    settleFields(target, { a: 3 });
    expect(Object.keys(target)).toEqual(['a']);
  });
});

describe('listOfDoubles', () => {
  it('starts empty and keeps the numbers pushed, small integers and large ones alike', () => {
    const list = listOfDoubles();
    expect(list).toEqual([]);
    list.push(3, 2 ** 40 + 7, 0.25);
    expect(list).toEqual([3, 2 ** 40 + 7, 0.25]);
  });
});
