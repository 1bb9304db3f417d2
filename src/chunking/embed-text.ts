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
 *
 * With a document title (`title()`, `contextualize: { title: true }`), the line starts with it: `Title > Install >
 * Linux`, the title said once when the outermost heading is the title itself (a first level-1 heading). Shortening
 * keeps the title while outer headings are dropped (`Title > … > Linux`), and drops it before the innermost heading
 * is cut.
 */
export function createBreadcrumbLine(sizer: Sizer, maxSize: number, title: () => string | undefined = () => undefined) {
  const cache = new Map<string, { line: string; size: number }>();
  const allowance = Math.floor(maxSize / 2);
  const cost = (l: string) => (l === '' ? 0 : sizer.size(`${l}\n\n`));
  return (heading: HeadingContext): { line: string; size: number } => {
    const known = cache.get(heading.breadcrumb);
    if (known) return known;
    const result = shortenedLine(withoutTitle(heading.path, title()), title(), cost, allowance);
    if (cache.size > 10_000) cache.clear();
    cache.set(heading.breadcrumb, result);
    return result;
  };
}

/** The heading path less its first entry when that entry is the document's title. */
function withoutTitle(path: readonly string[], title: string | undefined): string[] {
  return title !== undefined && path[0] === title ? path.slice(1) : [...path];
}

/** The line of `title` and `path` (either may be empty) within `allowance`, and its cost. */
function shortenedLine(path: readonly string[], title: string | undefined, cost: (line: string) => number, allowance: number): { line: string; size: number } {
  const parts = { lead: title, dropped: false, path };
  const lineOf = () => [...(parts.lead === undefined ? [] : [parts.lead]), ...(parts.dropped ? ['…'] : []), ...parts.path].join(' > ');
  let line = lineOf();
  while (parts.path.length > 1 && cost(line) > allowance) {
    parts.path = parts.path.slice(1);
    parts.dropped = true;
    line = lineOf();
  }
  if (parts.lead !== undefined && parts.path.length > 0 && cost(line) > allowance) {
    parts.lead = undefined;
    line = lineOf();
  }
  while (line.length > 1 && cost(line) > allowance) {
    // At least two units go each round (one for the ellipsis put back): a short line cut by a fifth would keep
    // its length, and a tokenizer for which its ellipsis alone is over the allowance would loop forever.
    const keep = Math.min(line.length - 2, Math.floor(line.length * 0.8));
    line = keep <= 0 ? '' : `${line.slice(0, keep).trimEnd()}…`;
  }
  if (cost(line) > allowance) line = '';
  return { line, size: cost(line) };
}
