/**
 * Fonts by name. pdf.js gives each font an id per load (`g_d0_f3`); one font loaded twice (a font dictionary that is
 * not shared, a cache dropped) gets two ids and would read as two fonts, so a line set in the body font looks like
 * a heading in "another font". Where the name is known (`ABCDEF+Calibri-Bold`), the font is identified by its base
 * name without the subset tag, and the name tells bold and fixed-pitch faces.
 */

/** What the layout needs to know of a font. */
export interface FontFace {
  /** The key fonts are compared by: the base name without its subset tag, or the pdf.js id when no name is known. */
  readonly key: string;
  readonly bold: boolean;
  /** Fixed-pitch by its name; undefined when no name is known. */
  readonly monospace: boolean | undefined;
}

const BOLD = /bold|black|heavy|demi|medi(?:um)?\b|[-,_]bd\b|cmbx|cmb\d/i;
const MONO = /courier|mono|consol|menlo|\bcmtt|\bsfmono|inconsolata|typewriter|lettergothic|\bcode\b|fixed|\bocr[ab]?\b|lucidaconsole|dejavusansmono|sourcecodepro|firacode|andalemono/i;

/** The base name of a font: the subset tag (`ABCDEF+`) dropped. */
export function baseFontName(name: string): string {
  return name.replace(/^[A-Z]{6}\+/, '');
}

/** The face a font's name describes. */
export function faceOf(name: string): Omit<FontFace, 'key'> {
  const base = baseFontName(name);
  return { bold: BOLD.test(base), monospace: MONO.test(base) };
}

/** The fonts of one document: ids mapped to names as the sandbox learns them. */
export interface FontRegistry {
  /** Records names of ids. */
  learn(names: Readonly<Record<string, string>> | undefined): void;
  /** The face of a font id. */
  face(id: string): FontFace;
  /** True when the name of a font id is known. */
  named(id: string): boolean;
}

/** Most font ids remembered; a document that loads more fonts than this keeps comparing the rest by id. */
const MAX_FONTS = 10_000;

/** Creates an empty registry. */
export function createFontRegistry(): FontRegistry {
  const names = new Map<string, string>();
  const faces = new Map<string, FontFace>();
  return {
    learn(known) {
      if (known === undefined) return;
      for (const [id, name] of Object.entries(known)) {
        if (names.size >= MAX_FONTS) break;
        names.set(id, name);
        faces.delete(id);
      }
    },
    named: (id) => names.has(id),
    face(id) {
      let face = faces.get(id);
      if (face === undefined) {
        const name = names.get(id);
        face = name === undefined ? { key: id, bold: false, monospace: undefined } : { key: baseFontName(name), ...faceOf(name) };
        if (faces.size < MAX_FONTS) faces.set(id, face);
      }
      return face;
    },
  };
}
