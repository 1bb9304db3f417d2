/**
 * The text sent to the embedding model: the breadcrumb line, then prefix, text and suffix.
 */
import type { Sizer } from '../protocols.js';
import type { Chunk, HeadingContext } from '../types.js';

/** Joins the breadcrumb line and the chunk's framed text. An empty breadcrumb adds nothing. */
export function joinEmbedText(breadcrumb: string, prefix: string, text: string, suffix: string): string {
  const body = prefix + text + suffix;
  return breadcrumb === '' ? body : `${breadcrumb}\n\n${body}`;
}

/**
 * What to send to the embedding model for `chunk`: its `embedText` when it was computed within budget
 * (`contextualize: true`), otherwise the breadcrumb line, prefix, text and suffix.
 */
export function contextualize(chunk: Pick<Chunk, 'heading' | 'prefix' | 'text' | 'suffix' | 'embedText'>): string {
  return chunk.embedText ?? joinEmbedText(chunk.heading.breadcrumb, chunk.prefix, chunk.text, chunk.suffix);
}

/**
 * The breadcrumb line for a chunk, shortened when it would take more than half of `maxSize`: outer headings are
 * dropped first (`… > Linux`), then the innermost title is cut. A breadcrumb is context; it must not crowd out
 * the text it describes.
 */
export function createBreadcrumbLine(sizer: Sizer, maxSize: number) {
  const cache = new Map<string, { line: string; size: number }>();
  const allowance = Math.floor(maxSize / 2);
  return (heading: HeadingContext): { line: string; size: number } => {
    const known = cache.get(heading.breadcrumb);
    if (known) return known;
    let path = [...heading.path];
    let line = heading.breadcrumb;
    const cost = (l: string) => (l === '' ? 0 : sizer.size(`${l}\n\n`));
    while (path.length > 1 && cost(line) > allowance) {
      path = path.slice(1);
      line = `… > ${path.join(' > ')}`;
    }
    while (line.length > 1 && cost(line) > allowance) {
      // At least two units go each round (one for the ellipsis put back): a short line cut by a fifth would keep
      // its length, and a tokenizer for which its ellipsis alone is over the allowance would loop forever.
      const keep = Math.min(line.length - 2, Math.floor(line.length * 0.8));
      line = keep <= 0 ? '' : `${line.slice(0, keep).trimEnd()}…`;
    }
    if (cost(line) > allowance) line = '';
    const result = { line, size: cost(line) };
    if (cache.size > 10_000) cache.clear();
    cache.set(heading.breadcrumb, result);
    return result;
  };
}
