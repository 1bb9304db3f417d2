import { describe, expect, it } from 'vitest';
import { isOneGrapheme, segmenterFor } from '../../src/unicode/segmenters.js';

describe('segmenterFor', () => {
  it('builds a segmenter once per locale and granularity', () => {
    expect(segmenterFor('de', 'word')).toBe(segmenterFor('de', 'word'));
    expect(segmenterFor('de', 'word')).not.toBe(segmenterFor('de', 'sentence'));
    expect(segmenterFor('de', 'word')).not.toBe(segmenterFor('fr', 'word'));
    expect(segmenterFor('de', 'word').resolvedOptions()).toMatchObject({ locale: 'de', granularity: 'word' });
  });

  it('throws the RangeError of Intl.Segmenter for a tag that is not one, and keeps nothing for it', () => {
    expect(() => segmenterFor('not a tag', 'word')).toThrow(RangeError);
    expect(() => segmenterFor('not a tag', 'word')).toThrow(RangeError);
  });
});

describe('isOneGrapheme', () => {
  it('tells one cluster (an emoji with its modifiers, a letter with its accent) from two and from none', () => {
    for (const one of ['*', '✓', 'e\u0301', '👍🏽', '🇩🇪']) expect(isOneGrapheme(one)).toBe(true);
    for (const not of ['', 'ab', '**', '✓ ']) expect(isOneGrapheme(not)).toBe(false);
  });
});
