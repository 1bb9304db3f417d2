/**
 * Measures whether HTML keeps the structure of the Markdown it was built from, on Node's API docs (each page exists
 * as `/usr/share/doc/nodejs/api/NAME.md` and as the `NAME.html` built from it):
 *
 *     npx tsx scripts/html-structure.ts [--max-size 512] [--split-levels 1,2] [--verbose]
 *
 * Every paragraph of every HTML chunk is looked up in the Markdown by its first 32 letters and digits (both sides
 * reduced to letters and digits, so `code`, **emphasis** and entities do not matter), in document order. For each
 * HTML character it prints:
 *
 * - whether its text is in the Markdown at all; what is not is counted by kind: what only the HTML has (the
 *   version-history tables and their "History" summaries, the "Added in" lines, the source links) apart from the
 *   rest (text the Markdown writes otherwise, as raw HTML or a link label, and paragraphs too short to look up);
 * - the structure: whether the heading path at the text is the one the Markdown has at the same text;
 * - the issue's figure: whether the breadcrumb of the HTML chunk that holds it (the heading path where that chunk
 *   starts) is the breadcrumb of the Markdown chunk that holds the same text.
 *
 * The last depends on where each side's chunks end, so beside it the same figure is printed for the Markdown
 * against itself with its HTML comments (YAML history, `introduced_in`, invisible on any page) taken out: how
 * much the breadcrumbs of two chunkings of the same words differ when only their sizes do.
 * `--verbose` lists the sections whose breadcrumbs differ most. `--causes` says why the others differ: which
 * side's chunk holds the text under the breadcrumb of a section before it, what each side measures, and the same
 * figure again with one cause taken away at a time (no fusion of small chunks; without the text only one side
 * has; both sides measured by their letters and digits, so that Markdown's marks weigh nothing).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { chunkBlocks, chunkFile, chunkText } from '../src/api/chunk.js';
import { normalizeParseOptions } from '../src/config.js';
import { formatEntry } from '../src/parsers/formats.js';
import type { Block, Chunk } from '../src/types.js';
import { createHeadingStage } from '../src/chunking/heading-tracker.js';
import { runCore } from '../src/core.js';

const DOCS = '/usr/share/doc/nodejs/api';
const PROBE = 32;
/** Paragraphs with fewer letters and digits than this are not looked up: too many would match anywhere. */
const MIN_PROBE = 12;
const { values } = parseArgs({
  options: {
    'max-size': { type: 'string', default: '512' },
    'split-levels': { type: 'string' },
    verbose: { type: 'boolean', default: false },
    causes: { type: 'boolean', default: false },
  },
});
const options = {
  maxSize: Number(values['max-size']),
  ...(values['split-levels'] !== undefined ? { splitLevels: values['split-levels'].split(',').map(Number) } : {}),
};

/** Letters and digits of `text`, lower case, with the offset in `text` of each. */
function reduce(text: string): { letters: string; at: number[] } {
  let letters = '';
  const at: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (/[\p{L}\p{N}]/u.test(c)) {
      letters += c.toLowerCase();
      at.push(i);
    }
  }
  return { letters, at };
}

/**
 * The Markdown's text as the lookup reads it: Node's docs set an anchor before many headings
 * (`<a id="ERR_ASYNC_CALLBACK"></a>`), and the probe of the heading found the anchor's id first, in the section
 * before. Anchors are blanked (their offsets kept), as a page shows them: not at all.
 */
const lookupText = (markdown: string): string => markdown.replace(/<a (?:id|name)=[^>]*><\/a>/g, (anchor) => ' '.repeat(anchor.length));

const joinPath = (path: readonly string[]): string => path.map((t) => t.replace(/\s+/g, ' ').trim()).join(' > ');
const crumb = (c: Chunk): string => joinPath(c.heading.path);

/** What only the HTML pages have: Node's HTML generator writes it from the YAML comments of the Markdown. */
const HTML_ONLY = { history: 'version history', added: 'added in / deprecated since', source: 'source links' } as const;
const OTHERWISE = 'written otherwise in the Markdown';
const SHORT = 'too short to look up';

function htmlOnlyKind(paragraph: string): string | null {
  if (paragraph.startsWith('| Version | Changes |') || paragraph === 'History') return HTML_ONLY.history;
  if (/^(?:Added in|Deprecated since|Removed in): v/.test(paragraph)) return HTML_ONLY.added;
  if (paragraph.startsWith('Source Code: ')) return HTML_ONLY.source;
  return null;
}

/** One side's chunks, with the heading path in force at each block (null when not measured). */
interface Side {
  readonly text: string;
  readonly chunks: readonly Chunk[];
  readonly tracked: readonly Block[] | null;
}

/** Tallies of one comparison, in characters of the `other` side's chunks. */
interface Tally {
  chars: number;
  found: number;
  sameCrumb: number;
  samePath: number;
  missing: Map<string, number>;
  differing: Map<string, number>;
  /** Characters whose breadcrumbs differ, by cause (`causeOf`). */
  causes: Map<string, number>;
}

const newTally = (): Tally => ({ chars: 0, found: 0, sameCrumb: 0, samePath: 0, missing: new Map(), differing: new Map(), causes: new Map() });

/**
 * Why a text's breadcrumbs differ, from the heading paths at the text on each side (`textPath`, `referencePath`)
 * and the breadcrumbs of the chunks holding it: a chunk whose breadcrumb is not the path at the text began in a
 * section before it, and holds the end of that section and the start of this one.
 */
function causeOf(textPath: string, referencePath: string, crumbs: { other: string; reference: string }, otherName: string): string {
  if (textPath !== referencePath) return 'the heading path at the text differs';
  const otherSpans = crumbs.other !== textPath;
  const referenceSpans = crumbs.reference !== textPath;
  if (otherSpans && referenceSpans) return 'both chunks began in a section before the text, not the same one';
  return otherSpans ? `the ${otherName} chunk began in a section before the text, the Markdown's in its section` : `the Markdown chunk began in a section before the text, the ${otherName} one in its section`;
}
const add = (map: Map<string, number>, key: string, n: number) => map.set(key, (map.get(key) ?? 0) + n);

/** The heading path in force at `offset`: the one of the last block starting at or before it. */
function pathAt(blocks: readonly Block[], offset: number): string {
  let lo = 0;
  let hi = blocks.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if ((blocks[mid] as Block).start <= offset) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return joinPath(blocks[found]?.heading?.path ?? []);
}

/** The chunk holding `offset` (chunks are in order and, without overlap, do not overlap). */
function chunkAt(chunks: readonly Chunk[], offset: number): Chunk | undefined {
  let lo = 0;
  let hi = chunks.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const c = chunks[mid] as Chunk;
    if (offset < c.start) hi = mid - 1;
    else if (offset >= c.end) lo = mid + 1;
    else return c;
  }
  return undefined;
}

/** Looks every paragraph of `other`'s chunks up in `reference` and tallies what matches. */
function compare(reference: Side, other: Side, tally: Tally, page: string, otherName = 'HTML'): void {
  const source = reduce(lookupText(reference.text));
  // Both documents are in the same order: a probe is looked for after the last one found, so a sentence the page
  // repeats (a callback API and its promise twin) is matched where it stands. One found only before that (the HTML
  // repeats what the Markdown says once) is matched there without moving the place the next search starts from.
  let from = 0;
  for (const chunk of other.chunks) {
    let at = 0;
    for (const paragraph of chunk.text.split(/\n\n+/)) {
      const offset = chunk.start + chunk.text.indexOf(paragraph, at);
      at = offset - chunk.start + paragraph.length;
      tally.chars += paragraph.length;
      const probe = reduce(paragraph).letters.slice(0, PROBE);
      let hit = probe.length < MIN_PROBE ? -1 : source.letters.indexOf(probe, from);
      if (hit >= 0) from = hit + probe.length;
      else if (probe.length >= MIN_PROBE) hit = source.letters.indexOf(probe);
      if (hit < 0) {
        add(tally.missing, htmlOnlyKind(paragraph) ?? (probe.length < MIN_PROBE ? SHORT : OTHERWISE), paragraph.length);
        continue;
      }
      tally.found += paragraph.length;
      const referenceOffset = source.at[hit] as number;
      const paths = reference.tracked !== null && other.tracked !== null ? { other: pathAt(other.tracked, offset), reference: pathAt(reference.tracked, referenceOffset) } : null;
      if (paths !== null && paths.other === paths.reference) tally.samePath += paragraph.length;
      const referenceChunk = chunkAt(reference.chunks, referenceOffset);
      if (referenceChunk !== undefined && crumb(referenceChunk) === crumb(chunk)) tally.sameCrumb += paragraph.length;
      else {
        add(tally.differing, `${page}: html "${crumb(chunk)}" / md "${referenceChunk === undefined ? '(none)' : crumb(referenceChunk)}"`, paragraph.length);
        const crumbs = { other: crumb(chunk), reference: referenceChunk === undefined ? '' : crumb(referenceChunk) };
        if (paths !== null) add(tally.causes, causeOf(paths.other, paths.reference, crumbs, otherName), paragraph.length);
      }
    }
  }
}

/** Letters and digits count, a fourth of them a unit: a size that Markdown's marks and a page's markup do not move. */
const LETTER = /[\p{L}\p{N}]/gu;
const letterSizer = (text: string): number => Math.ceil((text.match(LETTER)?.length ?? 0) / 4);
/** What only one side has: the HTML's renderings of the YAML comments, the Markdown's HTML comments. */
const oneSided = (block: Block): boolean => htmlOnlyKind(block.text) !== null || (block.kind === 'html' && block.text.startsWith('<!--'));

/** The breadcrumb figure again with one cause of difference taken away (`--causes`). */
const VARIANTS = [
  { name: 'no fusion of small chunks (minSize 0)', minSize: true, drop: false, letters: false },
  { name: 'without the text only one side has (version histories, "Added in" lines; HTML comments)', minSize: false, drop: true, letters: false },
  { name: 'both sides measured by their letters and digits (a unit per four)', minSize: false, drop: false, letters: true },
  { name: 'without the one-sided text, measured by letters and digits', minSize: false, drop: true, letters: true },
] as const;

/** The HTML and the Markdown chunked as `variant` says, compared into `tally`. */
function compareVariant(variant: (typeof VARIANTS)[number], sides: { md: Side; html: Side; mdBlocks: readonly Block[]; htmlBlocks: readonly Block[] }, tally: Tally, page: string): void {
  const chunkOptions = variant.minSize ? { ...options, minSize: 0 } : options;
  const deps = variant.letters ? { sizer: letterSizer } : undefined;
  const chunksOf = (blocks: readonly Block[]) => chunkBlocks(variant.drop ? blocks.filter((b) => !oneSided(b)) : blocks, chunkOptions, deps).chunks;
  // Chunks of blocks keep the blocks' offsets, into the texts of the documents read whole.
  compare({ text: sides.md.text, chunks: chunksOf(sides.mdBlocks), tracked: null }, { text: sides.html.text, chunks: chunksOf(sides.htmlBlocks), tracked: null }, tally, page);
}

const html = newTally();
const control = newTally();
const variants = VARIANTS.map(newTally);
const measured = { md: { chunks: 0, size: 0 }, html: { chunks: 0, size: 0 } };
const code = { html: 0, htmlLang: 0, md: 0, mdLang: 0 };
const tables = { html: 0, md: 0, history: 0 };
const pages = readdirSync(DOCS).filter((n) => n.endsWith('.html') && n !== 'all.html' && n !== 'index.html').sort();
for (const name of pages) {
  const base = name.slice(0, -5);
  const mdPath = join(DOCS, `${base}.md`);
  const md = await chunkFile(mdPath, options);
  const page = await chunkFile(join(DOCS, name), options);
  const mdBlocks = [...(await formatEntry('markdown').readDocument(mdPath, normalizeParseOptions())).blocks];
  const htmlBlocks = [...(await formatEntry('html').readDocument(join(DOCS, name), normalizeParseOptions())).blocks];
  for (const [blocks, side] of [[mdBlocks, 'md'], [htmlBlocks, 'html']] as const) {
    const codeBlocks = blocks.filter((b): b is Extract<Block, { kind: 'code' }> => b.kind === 'code');
    code[side] += codeBlocks.length;
    code[side === 'md' ? 'mdLang' : 'htmlLang'] += codeBlocks.filter((b) => b.lang !== null).length;
    tables[side] += blocks.filter((b) => b.kind === 'table').length;
  }
  tables.history += htmlBlocks.filter((b) => b.kind === 'table' && b.text.startsWith('| Version | Changes |')).length;
  // The heading path in force at each block, on both sides: the structure itself, whatever the chunk packing.
  const reference: Side = { text: md.text, chunks: md.chunks, tracked: runCore(createHeadingStage(), mdBlocks) };
  compare(reference, { text: page.text, chunks: page.chunks, tracked: runCore(createHeadingStage(), htmlBlocks) }, html, base);
  const uncommented = readFileSync(mdPath, 'utf8').replace(/<!--[\s\S]*?-->\n?/g, '');
  const plain = chunkText(uncommented, options);
  compare(reference, { text: uncommented, chunks: plain.chunks, tracked: null }, control, base, 'uncommented Markdown');
  for (const [side, chunks] of [['md', md.chunks], ['html', page.chunks]] as const) {
    measured[side].chunks += chunks.length;
    measured[side].size += chunks.reduce((sum, c) => sum + c.size, 0);
  }
  if (values.causes) {
    const sides = { md: reference, html: { text: page.text, chunks: page.chunks, tracked: null }, mdBlocks, htmlBlocks };
    for (const [i, variant] of VARIANTS.entries()) compareVariant(variant, sides, variants[i] as Tally, base);
  }
}

const pct = (a: number, b: number) => `${((100 * a) / Math.max(1, b)).toFixed(1)}%`;
const onlyKinds: readonly string[] = Object.values(HTML_ONLY);
const htmlOnlyChars = [...html.missing].reduce((sum, [kind, n]) => sum + (onlyKinds.includes(kind) ? n : 0), 0);
const setting = `chunks of ${options.maxSize} tokens${options.splitLevels ? `, splitLevels ${options.splitLevels.join(',')}` : ''}`;
console.log(`${pages.length} pages of Node's API docs, ${setting}`);
console.log(`HTML chunk characters: ${html.chars}; their text found in the Markdown: ${html.found} (${pct(html.found, html.chars)})`);
console.log(`  not found, only in the HTML: ${htmlOnlyChars} (${pct(htmlOnlyChars, html.chars)})`);
for (const [kind, n] of [...html.missing].sort((a, b) => b[1] - a[1])) console.log(`    ${onlyKinds.includes(kind) ? '' : 'other: '}${kind}: ${n} (${pct(n, html.chars)})`);
console.log(`same heading path at the text: ${pct(html.samePath, html.found)} of the characters found`);
console.log(`same chunk breadcrumb: ${pct(html.sameCrumb, html.found)} of the characters found, ${pct(html.sameCrumb, html.chars - htmlOnlyChars)} of all but the HTML-only, ${pct(html.sameCrumb, html.chars)} of all`);
console.log(`  control, the Markdown against itself without its HTML comments: ${pct(control.sameCrumb, control.found)} of the characters found`);
console.log(`code blocks with a language: HTML ${code.htmlLang} of ${code.html}, Markdown ${code.mdLang} of ${code.md}`);
console.log(`tables: HTML ${tables.html} (${tables.history} version histories), Markdown ${tables.md}`);
if (values.causes) {
  const differing = html.found - html.sameCrumb;
  console.log(`why breadcrumbs differ (${differing} characters, ${pct(differing, html.found)} of those found):`);
  for (const [cause, n] of [...html.causes].sort((a, b) => b[1] - a[1])) console.log(`  ${cause}: ${n} (${pct(n, html.found)})`);
  const { md: m, html: h } = measured;
  console.log(`sizes: Markdown ${m.size} tokens in ${m.chunks} chunks, HTML ${h.size} tokens in ${h.chunks} chunks (${pct(h.size, m.size)} of the Markdown's tokens)`);
  console.log('the same chunk breadcrumb with one cause taken away:');
  for (const [i, variant] of VARIANTS.entries()) {
    const tally = variants[i] as Tally;
    console.log(`  ${variant.name}: ${pct(tally.sameCrumb, tally.found)} of the characters found`);
  }
}
if (values.verbose) {
  console.log('largest differences (characters):');
  for (const [key, chars] of [...html.differing].sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log(`  ${chars}\t${key}`);
}
