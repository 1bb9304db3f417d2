/**
 * The title of a PDF that declares none: metadata titles are often missing, or left by the tool that made the file
 * (`Microsoft Word - report.docx`, `PowerPoint Presentation`, `10811.exe`), while the first page shows the real one
 * in its largest type. A cover title is the text set in page 1's largest size, when that size stands well above the
 * body's and holds a line or three of words; a numbered line is a section's heading, not a title.
 */
import { numberingDepth } from './headings.js';
import type { PdfLine } from './types.js';

/** How much larger than the body a cover title is set, at least. */
const COVER_TITLE_RATIO = 1.5;
/** Most lines a cover title takes. */
const MAX_TITLE_LINES = 3;
/** Longest cover title, in UTF-16 units: longer is a paragraph set large. */
const MAX_TITLE_CHARS = 200;
/** Font sizes within this many points are one size. */
const SIZE_TOLERANCE = 0.5;

/** The cover title of a first page's lines (in reading order), or `undefined` when none stands out. */
export function coverTitle(lines: readonly PdfLine[], bodySize: number): string | undefined {
  if (bodySize <= 0) return undefined;
  const worded = lines.filter((l) => l.figure !== true && (l.text.match(/\p{L}/gu)?.length ?? 0) >= 3);
  let top = 0;
  for (const line of worded) top = Math.max(top, line.fontSize);
  if (top < COVER_TITLE_RATIO * bodySize) return undefined;
  const first = worded.findIndex((l) => l.fontSize >= top - SIZE_TOLERANCE);
  const taken: string[] = [];
  for (let i = first; i < worded.length && taken.length < MAX_TITLE_LINES; i++) {
    const line = worded[i] as PdfLine;
    if (line.fontSize < top - SIZE_TOLERANCE) break;
    taken.push(line.text.trim());
  }
  // Set large elsewhere on the page too: a poster's or a slide's words, not one title.
  if (worded.slice(first + taken.length).some((l) => l.fontSize >= top - SIZE_TOLERANCE)) return undefined;
  const title = taken.join(' ').replace(/\s+/g, ' ');
  if (title.length > MAX_TITLE_CHARS || numberingDepth(title) !== null) return undefined;
  return title;
}

/** Metadata titles a tool wrote rather than an author: a file name, an application's default, a blank. */
const TOOL_TITLE = /^(?:untitled|powerpoint presentation|presentation\d*|document\d*|slide \d+|microsoft (?:word|powerpoint|excel) - .*)$|\.(?:docx?|pptx?|xlsx?|pdf|rtf|odt|tex|dvi|ps|exe|txt|html?|qxd|indd|cdr)$/i;

/**
 * The document information dictionary's `Title` when an author wrote it, or `undefined` when a tool did (a file
 * name, `PowerPoint Presentation`, `Microsoft Word - …`) or it holds no words.
 */
export function authoredTitle(title: string | undefined): string | undefined {
  if (title === undefined) return undefined;
  const clean = title.replace(/\s+/g, ' ').trim();
  if (clean === '' || TOOL_TITLE.test(clean)) return undefined;
  // One token of letters, digits and underscores with an underscore in it is a file or job name (`905_Precinct_NoOU`).
  if (/^[\p{L}\p{N}_-]+$/u.test(clean) && clean.includes('_')) return undefined;
  return clean;
}
