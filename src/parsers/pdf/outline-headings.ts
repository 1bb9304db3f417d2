/**
 * Headings from the document's outline (bookmarks). The outline gives the headings when enough of its entries are
 * found in the text of their pages; an outline that matches nothing (a single bookmark named after a file) is
 * ignored, and fonts make the headings. Each entry is matched to the lines of its page, or of the next page when it
 * points just above its heading, at the end of the previous one.
 */
import { matchTitle, type Depth, type OutlineEntry } from './headings.js';
import type { PdfLine } from './types.js';

/** Share of the outline entries at hand that must be found in their pages' text for the outline to give headings. */
const OUTLINE_MIN_SHARE = 0.5;
/** Fewest outline entries for an outline to give headings: one or two bookmarks (a file name, a title) are a stub. */
const OUTLINE_MIN_ENTRIES = 3;
/** Outline entries at hand before the outline is judged. */
const OUTLINE_EVIDENCE = 3;

/** A page's lines, as the outline is matched against them. */
export interface OutlinePage {
  readonly number: number;
  readonly lines: readonly PdfLine[];
}

/** A heading the outline puts on a line of a page: its depth, its title, and how many lines it takes. */
export interface OutlineHeading {
  readonly depth: Depth;
  readonly title: string;
  readonly count: number;
}

/** The outline of a document, matched to its pages as they are laid out. */
export interface OutlineHeadings {
  /** False once the outline is known not to give the headings (or when there is none). */
  active(): boolean;
  /**
   * Whether the outline gives the headings of `page`, judged from the entries of the pages at hand (`page` and the
   * `ahead` after it): once judged, the verdict holds for the rest of the document.
   */
  decide(page: OutlinePage, ahead: readonly OutlinePage[]): boolean;
  /** The outline's headings on a page (its lines in reading order), by line index. */
  headingsOn(page: number, ordered: readonly PdfLine[]): Map<number, OutlineHeading>;
  /** Called once the last page is laid out: entries still waiting for their heading are missing. */
  end(): void;
  warnings(): string[];
}

/** Matches `entries` to the pages; `window` is how many pages ahead are at hand when judging. */
export function createOutlineHeadings(entries: readonly OutlineEntry[], window: number): OutlineHeadings {
  const byPage = new Map<number, OutlineEntry[]>();
  for (const entry of entries) {
    const list = byPage.get(entry.page);
    if (list === undefined) byPage.set(entry.page, [entry]);
    else list.push(entry);
  }
  const total = entries.length;
  const state: { mode: boolean | null; verdict: string | null; carried: OutlineEntry[]; missing: string[] } = {
    mode: total >= OUTLINE_MIN_ENTRIES ? null : false,
    verdict: total > 0 && total < OUTLINE_MIN_ENTRIES ? `The outline has only ${total} entr${total === 1 ? 'y' : 'ies'}: headings come from fonts` : null,
    carried: [],
    missing: [],
  };
  return {
    active: () => state.mode !== false,
    decide(page, ahead) {
      if (state.mode !== null) return state.mode;
      const { tried, found } = countMatches(byPage, [page, ...ahead]);
      // Until three entries are at hand (or all of a shorter outline), the outline is trusted, as most are.
      if (tried < Math.min(OUTLINE_EVIDENCE, total) && ahead.length > 0) return true;
      if (tried === 0) return false;
      state.mode = found >= OUTLINE_MIN_SHARE * tried;
      if (!state.mode) {
        state.verdict = `The outline does not match the page text (${found} of the ${tried} entries on pages ${page.number}–${page.number + window} found): headings come from fonts`;
      }
      return state.mode;
    },
    headingsOn(page, ordered) {
      const found = new Map<number, OutlineHeading>();
      const taken = new Set<number>();
      const stillCarried: OutlineEntry[] = [];
      for (const entry of [...state.carried, ...(byPage.get(page) ?? [])]) {
        const match = matchTitle(entry.title, ordered, taken);
        if (match === null) {
          // The entry may point just above its heading, at the end of the previous page.
          if (entry.page === page) stillCarried.push(entry);
          else state.missing.push(entry.title);
          continue;
        }
        found.set(match.index, { depth: entry.depth, title: entry.title, count: match.count });
        for (let k = 0; k < match.count; k++) taken.add(match.index + k);
      }
      state.carried = stillCarried;
      return found;
    },
    end() {
      state.missing.push(...state.carried.map((e) => e.title));
      state.carried = [];
    },
    warnings() {
      const out: string[] = [];
      if (state.verdict !== null) out.push(state.verdict);
      const missing = state.missing;
      if (missing.length > 0) {
        const shown = missing.slice(0, 5).map((t) => JSON.stringify(t)).join(', ');
        out.push(`${missing.length} outline entr${missing.length === 1 ? 'y was' : 'ies were'} not found in the page text: ${shown}${missing.length > 5 ? ', …' : ''}`);
      }
      return out;
    },
  };
}

/** Entries of the pages at hand, and how many are found in their page's text or the next page's. */
function countMatches(byPage: ReadonlyMap<number, readonly OutlineEntry[]>, pages: readonly OutlinePage[]): { tried: number; found: number } {
  let tried = 0;
  let found = 0;
  for (const p of pages) {
    const next = pages.find((q) => q.number === p.number + 1);
    for (const entry of byPage.get(p.number) ?? []) {
      tried++;
      if (matchTitle(entry.title, p.lines) !== null || (next !== undefined && matchTitle(entry.title, next.lines) !== null)) found++;
    }
  }
  return { tried, found };
}
