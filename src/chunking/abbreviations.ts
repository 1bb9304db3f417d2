/**
 * No sentence boundary right after a common abbreviation. `Intl.Segmenter` ends a sentence at "Mr. " when a capital
 * follows ("Mr. Smith"), and at every initial ("J. R. R. Tolkien"); the text splitter would then cut there. The
 * sentences it finds are joined back here when the first ends with an abbreviation of the locale's list, an
 * initial (one capital letter and a dot), or dotted letters ("U.S.", "e.g.", "p.m.").
 *
 * The lists are keyed by language subtag (`en-GB` uses `en`); add a language as one more entry of
 * `SENTENCE_ABBREVIATIONS`, or pass `abbreviations` to `createTextSplitter`. Entries are case-sensitive and end with
 * their dot, so "No." (number) is listed while a sentence ending in "no." still ends there. Scripts without case
 * and without these dots (CJK, Thai, Arabic, Devanagari) never match: their sentences are left as they are.
 */

import { invalidOption } from '../config.js';

/** Abbreviations after which a sentence does not end, per language subtag. */
export const SENTENCE_ABBREVIATIONS: Readonly<Record<string, readonly string[]>> = Object.freeze({
  en: Object.freeze([
    // Titles and ranks.
    'Mr.', 'Mrs.', 'Ms.', 'Mx.', 'Dr.', 'Prof.', 'Sr.', 'Jr.', 'St.', 'Rev.', 'Hon.', 'Gen.', 'Col.', 'Capt.', 'Lt.',
    'Sgt.', 'Maj.', 'Adm.', 'Gov.', 'Sen.', 'Rep.', 'Pres.', 'Supt.', 'Fr.', 'Messrs.', 'Ph.D.', 'M.D.',
    // Latin and references.
    'e.g.', 'i.e.', 'cf.', 'vs.', 'viz.', 'al.', 'approx.', 'ca.', 'No.', 'Nos.', 'Vol.', 'vol.', 'Fig.', 'fig.',
    'Figs.', 'Eq.', 'Ch.', 'ch.', 'Sec.', 'sec.', 'pp.', 'p.', 'ed.', 'eds.', 'op.', 'cit.', 'ibid.', 'Ibid.',
    // Companies and places.
    'Inc.', 'Ltd.', 'Corp.', 'Co.', 'Bros.', 'Dept.', 'Univ.', 'Ave.', 'Blvd.', 'Rd.', 'Mt.', 'Ft.',
    // Months, abbreviated.
    'Jan.', 'Feb.', 'Mar.', 'Apr.', 'Jun.', 'Jul.', 'Aug.', 'Sep.', 'Sept.', 'Oct.', 'Nov.', 'Dec.',
  ]),
  de: Object.freeze([
    'Hr.', 'Hrn.', 'Fr.', 'Dr.', 'Prof.', 'St.', 'Nr.', 'Bd.', 'Abb.', 'Kap.', 'Tab.', 'S.', 'vgl.', 'bzw.', 'ca.',
    'usw.', 'etc.', 'z.B.', 'd.h.', 'u.a.', 'o.ä.', 'ggf.', 'evtl.', 'inkl.', 'bspw.', 'Jh.', 'Str.',
  ]),
  fr: Object.freeze(['M.', 'MM.', 'Mme.', 'Mlle.', 'Dr.', 'Pr.', 'St.', 'Ste.', 'p.', 'pp.', 'cf.', 'etc.', 'env.', 'vol.', 'n°.', 'av.', 'apr.', 'J.-C.']),
  es: Object.freeze(['Sr.', 'Sra.', 'Srta.', 'Dr.', 'Dra.', 'Prof.', 'Ud.', 'Uds.', 'pág.', 'págs.', 'p.ej.', 'etc.', 'aprox.', 'núm.', 'Av.', 'EE.UU.']),
});

/** The list for a BCP 47 locale: its language subtag's entry, or none. */
export function abbreviationsFor(locale: string): readonly string[] {
  const language = locale.split(/[-_]/)[0]?.toLowerCase() ?? '';
  return SENTENCE_ABBREVIATIONS[language] ?? [];
}

/** Tells whether the text before `end` ends with an abbreviation, so that no sentence may end there. */
export type AbbreviationTest = (text: string, end: number) => boolean;

/** Longest token looked at before the dot: abbreviations are short, and a bounded look keeps the test O(1). */
const MAX_TOKEN = 16;
const LETTER_OR_DOT = /[\p{L}\p{M}.°-]/u;
// One capital and a dot; not "I.", which ends English sentences ("…said I.") far more often than it abbreviates.
const INITIAL = /^(?!I\.)\p{Lu}\.$/u;
// Cased letters only: a script without case has no such abbreviations, and its sentences stay as segmented.
const DOTTED_LETTERS = /^(?:[\p{Lu}\p{Ll}]\.){2,}$/u;

/** A test for `words` (each ending with its dot), initials and dotted letters. */
export function createAbbreviationTest(words: readonly string[]): AbbreviationTest {
  if (!Array.isArray(words) || words.some((w) => typeof w !== 'string' || !w.endsWith('.'))) {
    throw invalidOption('abbreviations', "must be false or an array of strings that each end with '.'", words);
  }
  const known = new Set(words);
  return (text, end) => {
    let t = end;
    while (t > 0 && /\s/.test(text[t - 1] as string)) t--;
    if (t === 0 || text.charCodeAt(t - 1) !== 46 /* . */) return false;
    let k = t - 1;
    while (k > 0 && t - k < MAX_TOKEN && LETTER_OR_DOT.test(text[k - 1] as string)) k--;
    // A token cut by the bound, or glued to a digit or a word character we do not read, is not an abbreviation.
    if (k > 0 && /[\p{L}\p{N}]/u.test(text[k - 1] as string)) return false;
    const token = text.slice(k, t);
    return known.has(token) || INITIAL.test(token) || DOTTED_LETTERS.test(token);
  };
}

/**
 * Wraps the emitter of sentence spans so that a sentence ending with an abbreviation is joined to the next one.
 * `add` takes the spans in order; `end` emits the one held back.
 */
export function joinAfterAbbreviations(
  text: string,
  test: AbbreviationTest,
  emit: (start: number, end: number) => void,
): { add(start: number, end: number): void; end(): void } {
  let heldStart = -1;
  let heldEnd = -1;
  return {
    add(start, end) {
      if (heldStart === -1) heldStart = start;
      heldEnd = end;
      if (test(text, end)) return;
      emit(heldStart, heldEnd);
      heldStart = -1;
    },
    end() {
      if (heldStart !== -1) emit(heldStart, heldEnd);
      heldStart = -1;
    },
  };
}
