/**
 * Right-to-left words whose ligatures pdf.js spells backwards, and how they are spelled.
 *
 * pdf.js builds a text run by joining the Unicode of its glyphs in drawing order (left to right), then reverses the
 * joined string character by character for right-to-left text. A glyph that stands for two letters (Arabic lam-alef,
 * mapped to `لا` in logical order by the font) comes out with its letters swapped: `خلال` reads `خالل`, `الإنتاجية`
 * reads `اإلنتاجية`. The swapped text cannot be told from real text (`ال` is the article) without the glyphs. The
 * operator list has them: this module spells each word drawn with such a glyph both ways, the way pdf.js did and
 * the right way, so the page's text can be repaired word by word.
 */

/** Presentation forms, which pdf.js turns into plain letters (NFKC) before it reverses the run. */
const FORMS = '\\ufb1d-\\ufdff\\ufe70-\\ufefc';
/** Letters of the scripts whose ligature glyphs are spelled backwards: Hebrew, Arabic and its supplements, forms. */
const RTL = `\\u0590-\\u08ff${FORMS}`;
const RTL_LETTERS = new RegExp(`[${RTL}]`, 'u');
const RTL_WORD = new RegExp(`[${RTL}]+`, 'gu');
const PRESENTATION_FORMS = new RegExp(`[${FORMS}]+`, 'gu');

/** One glyph of a `showText` operation, as pdf.js lists it (numbers between glyphs are spacing). */
interface ListedGlyph {
  readonly unicode?: unknown;
  readonly isSpace?: unknown;
}

const plain = (text: string): string => text.replace(PRESENTATION_FORMS, (forms) => forms.normalize('NFKC'));

const reversed = (text: string): string => Array.from(text).reverse().join('');

/**
 * Words the page's text spells backwards, each with its right spelling. Only words drawn with a glyph that stands for
 * several right-to-left letters can be wrong; a spelling that the page also draws as a word of its own is left out,
 * since its text could be either.
 *
 * @param showTexts the glyph lists of the page's `showText` operations, in drawing order
 */
export function reversedLigatureWords(showTexts: Iterable<readonly unknown[]>): Map<string, string> {
  const repairs = new Map<string, string>();
  const drawn = new Set<string>();
  for (const glyphs of showTexts) {
    let word: string[] = [];
    let ligature = false;
    const close = (): void => {
      if (word.length === 0) return;
      const right = plain(word.slice().reverse().join(''));
      drawn.add(right);
      if (ligature) {
        const asRead = reversed(plain(word.join('')));
        if (asRead !== right) repairs.set(asRead, right);
      }
      word = [];
      ligature = false;
    };
    for (const glyph of glyphs) {
      // Spacing between glyphs (a number) does not end a word; a space glyph, or a glyph of another script, does.
      if (glyph === null || typeof glyph !== 'object') continue;
      const { unicode, isSpace } = glyph as ListedGlyph;
      if (typeof unicode !== 'string' || isSpace === true || !RTL_LETTERS.test(unicode) || /[^\p{L}\p{M}]/u.test(unicode)) {
        close();
        continue;
      }
      if (unicode.length > 1) ligature = true;
      word.push(unicode);
    }
    close();
  }
  for (const asRead of repairs.keys()) if (drawn.has(asRead)) repairs.delete(asRead);
  return repairs;
}

/** `text` with each right-to-left word found in `repairs` spelled the right way. */
export function repairLigatureWords(text: string, repairs: ReadonlyMap<string, string>): string {
  if (repairs.size === 0) return text;
  return text.replace(RTL_WORD, (word) => repairs.get(word) ?? word);
}
