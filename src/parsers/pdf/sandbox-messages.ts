/**
 * The messages between the PDF reader and the process that runs pdf.js for it (`sandbox-child.ts`). Plain data
 * only: they cross a process boundary with Node's advanced (structured clone) serialization. One document is open
 * at a time; requests are answered in order.
 */
import type { OutlineEntry } from './headings.js';
import type { PdfGraphics, PdfTextItem } from './types.js';

/**
 * Most text runs taken from one page. A dense page (a directory, a map's labels) has a few thousand; past this a page
 * is a flood, and what it would cost to lay out and to send is better spent on the pages after it.
 */
export const MAX_PAGE_ITEMS = 50_000;

/** Where the document comes from: a file the child reads itself, or bytes. */
export type SandboxSource = { readonly path: string } | { readonly data: Uint8Array };

/** Requests of the reader. */
export type SandboxRequest =
  | { readonly op: 'open'; readonly source: SandboxSource; readonly password: string | undefined }
  | { readonly op: 'page'; readonly number: number }
  | { readonly op: 'graphics'; readonly number: number }
  | { readonly op: 'close' };

/** The text of one page. */
export interface SandboxPage {
  readonly number: number;
  readonly items: PdfTextItem[];
  /** The page had more text runs than the reader takes from one page; the rest were dropped. */
  readonly truncated: boolean;
}

/** What one page draws (from its operator list), and the names of the fonts it uses. */
export interface SandboxGraphics {
  readonly number: number;
  readonly graphics: PdfGraphics;
  /** Names of the page's fonts (`ABCDEF+Calibri-Bold`), by the id its items carry. */
  readonly fonts: Readonly<Record<string, string>>;
}

/** Replies of the child, one per request; `ready` comes first, unasked, once pdf.js is loaded. */
export type SandboxReply =
  | { readonly op: 'ready' }
  | { readonly op: 'opened'; readonly pages: number; readonly outline: OutlineEntry[]; readonly warnings: string[] }
  | ({ readonly op: 'page' } & SandboxPage)
  | ({ readonly op: 'graphics' } & SandboxGraphics)
  | { readonly op: 'closed' }
  | { readonly op: 'failed'; readonly code: string; readonly message: string; readonly page?: number };
