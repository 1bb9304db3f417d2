/**
 * The stylesheet and the script of the HTML report, as strings inlined into the page. Their sources are real
 * modules, `client/*.ts` and `client/report.css`, type-checked and bundled by `npm run build`
 * (`scripts/build.mjs`) into `dist/report/client/`; this module reads the bundle once, when the
 * report is first loaded. The page admits the script by the hash of exactly this string.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ChunkError } from '../errors.js';

/**
 * Where the bundle is. This file runs as `dist/report/client.js` in the package and as `src/report/client.ts`
 * under the tests; both sit two folders below the package root, so one path reaches `dist/report/client/` from
 * either.
 */
const BUNDLE = new URL('../../dist/report/client/', import.meta.url);

/** One file of the bundle; its absence (a tree never built) says how to make it. */
function readBundle(name: string): string {
  try {
    return readFileSync(new URL(name, BUNDLE), 'utf8');
  } catch (error) {
    throw new ChunkError('ERR_INTERNAL', `the HTML report's ${name} is missing from ${fileURLToPath(BUNDLE)}: run "npm run build" (${(error as Error).message})`);
  }
}

/** Styles of the report, desktop first; at 820 px and narrower, the phone layout. */
export const REPORT_CSS = readBundle('page.css');

/**
 * Behaviour of the report: hover shows a chunk's facts, click pins it, ‹ › and j / k step through chunks, problem
 * rows, histogram bars, ‹ › and n / p through problems, the minimap and the outline jump, Esc releases, and the
 * views of a comparison scroll together. One classic script (an IIFE, ES2020) that runs in any current browser from
 * a `file://` URL.
 */
export const REPORT_SCRIPT = readBundle('page.js');
