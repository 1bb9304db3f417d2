/**
 * `Intl.Segmenter`s, built once per locale and granularity. A segmenter holds no state between calls, and building
 * one costs more than most of the texts it segments: every stage that segments takes its segmenters from here.
 */

/** Most segmenters kept; past it the cache starts over (locales come from options, and a service may see many). */
const MOST_KEPT = 256;

const cache = new Map<string, Intl.Segmenter>();

/**
 * The segmenter of `locale` (undefined: the runtime's default) at `granularity`. Throws the `RangeError` of
 * `Intl.Segmenter` for a tag that is not a BCP 47 language tag.
 */
export function segmenterFor(locale: string | undefined, granularity: 'grapheme' | 'word' | 'sentence'): Intl.Segmenter {
  const key = `${granularity} ${locale ?? ''}`;
  let segmenter = cache.get(key);
  if (segmenter === undefined) {
    segmenter = new Intl.Segmenter(locale, { granularity });
    if (cache.size >= MOST_KEPT) cache.clear();
    cache.set(key, segmenter);
  }
  return segmenter;
}

/**
 * True when `text` is a single grapheme cluster (in the runtime's default locale). Text longer than 64 UTF-16 units is
 * taken for more than one without segmenting it: no cluster of ordinary text is that long.
 */
export function isOneGrapheme(text: string): boolean {
  if (text.length === 0 || text.length > 64) return false;
  let n = 0;
  for (const _ of segmenterFor(undefined, 'grapheme').segment(text)) if (++n > 1) return false;
  return true;
}
