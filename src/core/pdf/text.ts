/**
 * Lines → block text. Soft-wrapped lines are joined with a space; lines of code (fixed-pitch fonts) and table-like
 * rows keep their line breaks. A word hyphenated across a line break is joined only when the joined word is a word
 * of the document; otherwise the hyphen stays (`self-` + `made` → `self-made`).
 */
import type { PdfLine } from './types.js';

/** Tells whether a lower-case word is known (seen whole in the document). */
export type Vocabulary = (word: string) => boolean;

const HYPHENATED = /(\p{L}+)-$/u;
const LEADING_WORD = /^\p{L}+/u;

/** Joins the lines of one block (or one list item) into its text; `keepBreaks` false joins code and rows with spaces too. */
export function joinLines(lines: readonly PdfLine[], knows: Vocabulary, keepBreaks = true): string {
  const parts: string[] = [];
  let previous: PdfLine | null = null;
  for (const line of lines) {
    if (previous !== null) {
      const sep = separator(previous, line, knows, keepBreaks);
      // null: the hyphen ending the previous line goes, the word is whole again.
      if (sep === null) parts[parts.length - 1] = previous.text.slice(0, -1);
      else parts.push(sep);
    }
    parts.push(line.text);
    previous = line;
  }
  return parts.join('');
}

/** What goes between two lines: a space, a line break, nothing (after a kept hyphen), or null to delete the hyphen. */
function separator(previous: PdfLine, line: PdfLine, knows: Vocabulary, keepBreaks: boolean): string | null {
  if (keepBreaks && ((previous.monospace && line.monospace) || previous.cells > 1 || line.cells > 1)) return '\n';
  const text = previous.text;
  if (text.charCodeAt(text.length - 1) === 45 /* - */) {
    const hyphen = HYPHENATED.exec(text.slice(-64));
    const next = LEADING_WORD.exec(line.text);
    if (hyphen !== null && next !== null && !text.endsWith('--')) {
      return knows(`${hyphen[1]}${next[0]}`.toLowerCase()) ? null : '';
    }
  }
  return ' ';
}

/** The words of a line, lower-cased, for the vocabulary hyphenated words are checked against. */
export function wordsOf(text: string): string[] {
  return text.toLowerCase().match(/\p{L}{2,}/gu) ?? [];
}
