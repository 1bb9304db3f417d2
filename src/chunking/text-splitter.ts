/**
 * The TextSplitter built in: the cutting engine over the text levels (`text-levels.ts`) behind the one-method
 * protocol, so that an injected splitter can take its place. Its spans are packed greedily, in order, up to
 * `targetSize`, never above `maxSize`, each measured once; where the next span does not fit, the end is chosen by
 * content (`pack.ts`).
 */
import { invalidOption } from '../config.js';
import { ChunkError } from '../errors.js';
import type { Sizer, SpanSplitter } from '../protocols.js';
import type { Span } from '../types.js';
import { segmenterFor } from '../unicode/segmenters.js';
import { abbreviationsFor, createAbbreviationTest } from './abbreviations.js';
import { budget } from './budget.js';
import { cutTextLevels, type Segmenters } from './text-levels.js';

/** What `createTextSplitter` needs: the sizer of the configured unit, and the locale of segmentation. */
export interface TextSplitterConfig {
  readonly sizer: Sizer;
  /** BCP 47 tag for sentence and word segmentation. Default `'en'`. */
  readonly locale?: string;
  /**
   * Abbreviations after which no sentence ends (each with its dot: `'Mr.'`, `'e.g.'`); initials and dotted letters
   * are always included. Default the locale's list (`abbreviations.ts`); `false` keeps every sentence end
   * `Intl.Segmenter` finds.
   */
  readonly abbreviations?: readonly string[] | false;
}

/**
 * The sentence, word and grapheme segmenters of `locale`, each built on first use: building one loads ICU's rules
 * for its granularity, tens of milliseconds on a process's first document, and a text that fits is never cut. The
 * tag is checked now, as the constructor would check it.
 */
function segmentersFor(locale: string, abbreviation: Segmenters['abbreviation']): Segmenters {
  try {
    Intl.getCanonicalLocales(locale);
  } catch {
    throw invalidOption('locale', 'must be a BCP 47 language tag such as "en" or "de-CH"', locale);
  }
  // `segmenterFor` keeps each segmenter it builds: a getter only defers the first build to the first cut.
  return {
    abbreviation,
    get sentence() {
      return segmenterFor(locale, 'sentence');
    },
    get word() {
      return segmenterFor(locale, 'word');
    },
    get grapheme() {
      return segmenterFor(locale, 'grapheme');
    },
  };
}

/**
 * A `TextSplitter` whose `split(text, maxSize, targetSize = maxSize)` returns spans `{ start, end }` into `text`:
 * in order, disjoint, trimmed of whitespace, covering every non-whitespace character, each measuring at most
 * `maxSize`, never cutting a grapheme cluster. Trimming works on clusters: a whitespace character that shares a
 * cluster with a non-whitespace one (a space carrying a combining mark, a space after U+0600) stays in the span. The one exception to the size: a single grapheme cluster that
 * alone measures over `maxSize` (a long emoji sequence under a tiny limit) cannot be cut and comes back as its
 * own span; the caller measures it and flags the chunk.
 */
export function createTextSplitter(config: TextSplitterConfig): HeadTextSplitter {
  const { sizer } = config;
  if (sizer === null || typeof sizer !== 'object' || typeof sizer.size !== 'function') {
    throw invalidOption('sizer', 'must be an object with a size(text) method', sizer);
  }
  const locale = config.locale ?? 'en';
  const abbreviation = config.abbreviations === false ? null : createAbbreviationTest(config.abbreviations ?? abbreviationsFor(locale));
  const segmenters = segmentersFor(locale, abbreviation);
  const splitSized = (text: string, maxSize: number, targetSize: number = maxSize): SizedSpan[] => {
    checkArguments(text, maxSize, targetSize);
    return cutTextLevels({ text, sizer, segmenters, budget: budget(Math.min(targetSize, maxSize), maxSize) });
  };
  return {
    split: (text, maxSize, targetSize = maxSize) => splitSized(text, maxSize, targetSize).map(({ start, end }) => ({ start, end })),
    splitSized,
    splitHead(text: string, maxSize: number): SizedSpan | undefined {
      checkArguments(text, maxSize, maxSize);
      return cutTextLevels({ text, sizer, segmenters, budget: budget(maxSize) }, true)[0];
    },
    splitFramed(text: string, prefix: string, maxSize: number): Span[] {
      checkArguments(text, maxSize, maxSize);
      if (typeof prefix !== 'string') throw new ChunkError('ERR_INVALID_INPUT', `TextSplitter.splitFramed needs a string prefix, got ${typeof prefix}`);
      const frame = { prefix, suffix: '', prefixFirst: true, suffixLast: false };
      return cutTextLevels({ text, sizer, segmenters, budget: budget(maxSize), frame }).map(({ start, end }) => ({ start, end }));
    },
  };
}

/** A span with its size, when it is known exactly. */
export interface SizedSpan extends Span {
  readonly size?: number;
}

/** The TextSplitter built in, which can also give the sizes of the spans it measured, and the first span alone. */
export interface HeadTextSplitter extends SpanSplitter {
  /** The spans of `split`, each with its size as measured: the chunker need not measure them again. */
  splitSized(text: string, maxSize: number, targetSize?: number): SizedSpan[];
  /**
   * The first span `splitSized(text, maxSize)` returns, found without cutting the rest of the text: the chunker
   * cuts the head of a long block to the room its headings leave, then splits the rest at the full size.
   */
  splitHead(text: string, maxSize: number): SizedSpan | undefined;
  /**
   * The spans of `text`, each measuring at most `maxSize` as `prefix + span` (a turn's speaker label before each
   * part of its utterance): the prefix is the frame of every span, and the one fit search measures every run with
   * it, so that tokens that join across it count. The exception of `split` stands: a lone grapheme cluster over
   * the room, and so every cluster once the prefix alone fills `maxSize`, comes back as its own span.
   */
  splitFramed(text: string, prefix: string, maxSize: number): Span[];
}

/** True for a splitter that gives its spans' sizes and the head of a split alone (the built-in one). */
export function isHeadTextSplitter(splitter: SpanSplitter): splitter is HeadTextSplitter {
  const methods = splitter as Partial<HeadTextSplitter>;
  return typeof methods.splitHead === 'function' && typeof methods.splitSized === 'function';
}

function checkArguments(text: unknown, maxSize: unknown, targetSize: unknown): void {
  if (typeof text !== 'string') {
    throw new ChunkError('ERR_INVALID_INPUT', `TextSplitter.split needs a string, got ${typeof text}`);
  }
  if (typeof maxSize !== 'number' || Number.isNaN(maxSize) || maxSize <= 0) {
    throw invalidOption('maxSize', 'must be a number > 0', maxSize);
  }
  if (typeof targetSize !== 'number' || Number.isNaN(targetSize) || targetSize <= 0) {
    throw invalidOption('targetSize', 'must be a number > 0', targetSize);
  }
}

