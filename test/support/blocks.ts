/**
 * Hand-made blocks for the chunking rooms' own tests: a document described block by block, laid out with the
 * separators given, each block an exact slice with its lines, gap and kind-specific fields.
 */
import type { Block, ListItemSpan, Span } from '../../src/types.js';

/** One block of a hand-made document: its kind and text (for a heading, its depth too). */
export type BlockSpec =
  | { readonly kind: 'heading'; readonly depth: 1 | 2 | 3 | 4 | 5 | 6; readonly text: string }
  | { readonly kind: 'paragraph' | 'blockquote' | 'html' | 'math' | 'thematicBreak'; readonly text: string }
  | { readonly kind: 'code'; readonly text: string }
  | { readonly kind: 'table'; readonly text: string }
  | { readonly kind: 'list'; readonly text: string };

/** The document's text and its blocks. */
export interface HandMade {
  readonly text: string;
  readonly blocks: Block[];
}

/** Lines of `text` from `offset` as spans (without line endings). */
function lineSpans(text: string, offset: number): Span[] {
  const out: Span[] = [];
  let start = 0;
  for (const line of text.split('\n')) {
    out.push({ start: offset + start, end: offset + start + line.length });
    start += line.length + 1;
  }
  return out;
}

/** Lays out `specs`, each after `separator` (`"\n\n"` by default). */
export function handMade(specs: readonly BlockSpec[], separator = '\n\n'): HandMade {
  let text = '';
  const blocks: Block[] = [];
  for (const spec of specs) {
    const gapBefore = text === '' ? '' : separator;
    text += gapBefore;
    const start = text.length;
    text += spec.text;
    const end = text.length;
    const startLine = text.slice(0, start).split('\n').length;
    const base = { text: spec.text, start, end, startLine, endLine: startLine + spec.text.split('\n').length - 1, gapBefore };
    switch (spec.kind) {
      case 'heading':
        blocks.push({ ...base, kind: 'heading', depth: spec.depth, title: spec.text.replace(/^#+\s*/, '') });
        break;
      case 'code': {
        const fence = /^(`{3,}|~{3,})/.exec(spec.text)?.[1] ?? null;
        const lang = fence === null ? null : (spec.text.slice(fence.length).split('\n')[0] as string).trim() || null;
        blocks.push({ ...base, kind: 'code', lang, meta: null, fence });
        break;
      }
      case 'table': {
        const lines = lineSpans(spec.text, start);
        blocks.push({ ...base, kind: 'table', rows: [lines[0] as Span, ...lines.slice(2)], delimiterRow: lines[1] as Span });
        break;
      }
      case 'list': {
        const items: ListItemSpan[] = lineSpans(spec.text, start).map((s) => ({ ...s, items: [] }));
        blocks.push({ ...base, kind: 'list', ordered: false, items });
        break;
      }
      default:
        blocks.push({ ...base, kind: spec.kind });
    }
  }
  return { text, blocks };
}

/** A sentence-per-line paragraph of `words` numbered words, for sizes that are easy to read in characters. */
export function words(count: number, from = 0): string {
  return Array.from({ length: count }, (_, i) => `w${from + i}`).join(' ');
}
