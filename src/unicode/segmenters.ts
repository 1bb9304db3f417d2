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
