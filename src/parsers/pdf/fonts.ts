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

/**
 * Creates an empty registry. Its methods run for every run of text: a class, whose compiled methods serve every
 * document, where closures made for each document were compiled again for each (see `createFurnitureDetector`).
 */
export function createFontRegistry(): FontRegistry {
  return new NamedFontRegistry();
}

class NamedFontRegistry implements FontRegistry {
  readonly #names = new Map<string, string>();
  readonly #faces = new Map<string, FontFace>();

  learn(known: Readonly<Record<string, string>> | undefined): void {
    if (known === undefined) return;
    for (const [id, name] of Object.entries(known)) {
      if (this.#names.size >= MAX_FONTS) break;
      this.#names.set(id, name);
      this.#faces.delete(id);
    }
  }

  named(id: string): boolean {
    return this.#names.has(id);
  }

  face(id: string): FontFace {
    let face = this.#faces.get(id);
    if (face === undefined) {
      const name = this.#names.get(id);
      face = name === undefined ? { key: id, bold: false, monospace: undefined } : { key: baseFontName(name), ...faceOf(name) };
      if (this.#faces.size < MAX_FONTS) this.#faces.set(id, face);
    }
    return face;
  }
}

/** Two letters or more. */
const LETTERS = /\p{L}.*\p{L}/u;
/** Fewest distinct runs of a font, of three characters or more, before its pitch is judged. */
const PITCH_RUNS = 4;
/** Most spread of the advance per character between a fixed-pitch font's runs (pdf.js rounds widths a little). */
const PITCH_SPREAD = 0.01;
/** Most fonts whose runs are measured; a document with more keeps judging the ones it has. */
const MAX_PITCH_FONTS = 1_000;

/** The pitch of fonts, judged from the runs they set: what tells a fixed-pitch font pdf.js has no name or flag for. */
export interface PitchStats {
  /** Measures a page's runs. */
  add(items: readonly { readonly str: string; readonly width: number; readonly fontSize: number; readonly fontName: string; readonly angle?: number }[]): void;
  /** True when every run of the font seen so far advances by the same width per character (and there are enough). */
  fixed(id: string): boolean;
}

/**
 * Creates empty pitch statistics. In a fixed-pitch font every character, a space too, advances by the same width,
 * so the width of a run divided by its length is one figure for all its runs; in a proportional font it varies from
 * run to run by some percent (capitals and digits against `i` and `l`), and justified lines vary more.
 */
export function createPitchStats(): PitchStats {
  return new RunPitchStats();
}

/** A class for the reason `createFontRegistry` gives: `add` reads every run of every page. */
class RunPitchStats implements PitchStats {
  readonly #fonts = new Map<string, { min: number; max: number; runs: Set<string> }>();

  add(items: readonly { readonly str: string; readonly width: number; readonly fontSize: number; readonly fontName: string; readonly angle?: number }[]): void {
    const fonts = this.#fonts;
    for (const item of items) {
      const n = item.str.length;
      // Digits are as wide as one another in most fonts (tabular figures): only runs with letters tell.
      if (n < 3 || !(item.width > 0) || !(item.fontSize > 0) || (item.angle ?? 0) !== 0 || item.str.trim().length !== n || !LETTERS.test(item.str)) continue;
      const advance = item.width / n / item.fontSize;
      let font = fonts.get(item.fontName);
      if (font === undefined) {
        if (fonts.size >= MAX_PITCH_FONTS) continue;
        fonts.set(item.fontName, (font = { min: advance, max: advance, runs: new Set() }));
      }
      font.min = Math.min(font.min, advance);
      font.max = Math.max(font.max, advance);
      if (font.runs.size < PITCH_RUNS) font.runs.add(item.str);
    }
  }

  fixed(id: string): boolean {
    const font = this.#fonts.get(id);
    return font !== undefined && font.runs.size >= PITCH_RUNS && font.max <= font.min * (1 + PITCH_SPREAD);
  }
}
