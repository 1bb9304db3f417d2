/**
 * Measures whether HTML keeps the structure of the Markdown it was built from, on Node's API docs (each page exists
 * as `/usr/share/doc/nodejs/api/NAME.md` and as the `NAME.html` built from it):
 *
 *     npx tsx scripts/html-structure.ts [--max-size 512] [--verbose]
 *
 * For every paragraph of every HTML chunk, its first 32 letters and digits are looked up in the Markdown source
 * (both reduced to letters and digits, so `code`, **emphasis** and entities do not matter); the Markdown chunk
 * that holds the match gives the breadcrumb the Markdown path gives that text. The share of HTML characters whose
 * chunk has the same breadcrumb is printed, over the characters found in the Markdown and over all of them, with
 * the code blocks that keep a language and the tables on each side. `--verbose` lists the paragraphs that differ.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { chunkFile } from '../src/api/chunk.js';
import { normalizeParseOptions } from '../src/config.js';
import { formatEntry } from '../src/parsers/formats.js';
import type { Block, Chunk } from '../src/types.js';
import { createHeadingStage } from '../src/chunking/heading-tracker.js';
import { runCore } from '../src/core.js';

const DOCS = '/usr/share/doc/nodejs/api';
const PROBE = 32;
const { values } = parseArgs({ options: { 'max-size': { type: 'string', default: '512' }, verbose: { type: 'boolean', default: false } } });
const maxSize = Number(values['max-size']);

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

const crumb = (c: Chunk): string => c.heading.path.map((t) => t.replace(/\s+/g, ' ').trim()).join(' > ');

const totals = { chars: 0, found: 0, same: 0, sameBlock: 0, htmlCode: 0, htmlCodeLang: 0, mdCode: 0, mdCodeLang: 0, htmlTables: 0, mdTables: 0 };
const differing = new Map<string, number>();
const pages = readdirSync(DOCS).filter((n) => n.endsWith('.html') && n !== 'all.html' && n !== 'index.html').sort();
for (const name of pages) {
  const base = name.slice(0, -5);
  const md = await chunkFile(join(DOCS, `${base}.md`), { maxSize });
  const html = await chunkFile(join(DOCS, name), { maxSize });
  const mdBlocks = [...(await formatEntry('markdown').readDocument(join(DOCS, `${base}.md`), normalizeParseOptions())).blocks];
  const htmlBlocks = [...(await formatEntry('html').readDocument(join(DOCS, name), normalizeParseOptions())).blocks];
  const count = (blocks: Iterable<Block>, kind: string) => [...blocks].filter((b) => b.kind === kind);
  const mdCode = count(mdBlocks, 'code') as Extract<Block, { kind: 'code' }>[];
  const htmlCode = count(htmlBlocks, 'code') as Extract<Block, { kind: 'code' }>[];
  totals.mdCode += mdCode.length;
  totals.mdCodeLang += mdCode.filter((b) => b.lang !== null).length;
  totals.htmlCode += htmlCode.length;
  totals.htmlCodeLang += htmlCode.filter((b) => b.lang !== null).length;
  totals.mdTables += count(mdBlocks, 'table').length;
  totals.htmlTables += count(htmlBlocks, 'table').length;

  const source = reduce(md.text);
  // The heading path in force at each block, on both sides: the structure itself, whatever the chunk packing.
  const mdTracked = runCore(createHeadingStage(), mdBlocks);
  const htmlTracked = runCore(createHeadingStage(), htmlBlocks);
  const pathAt = (blocks: readonly Block[], offset: number): string => {
    let found: Block | undefined;
    for (const b of blocks) {
      if (b.start > offset) break;
      found = b;
    }
    return (found?.heading?.path ?? []).map((t) => t.replace(/\s+/g, ' ').trim()).join(' > ');
  };
  // The Markdown chunk holding each offset: chunks are in order and, without overlap, do not overlap.
  const chunkAt = (offset: number): Chunk | undefined => md.chunks.find((c) => c.start <= offset && offset < c.end);
  // Both documents are in the same order: a probe is looked for after the last one found first, so a sentence the
  // page repeats (a callback API and its promise twin) is matched where it stands, not at its first occurrence.
  let from = 0;
  for (const chunk of html.chunks) {
    for (const paragraph of chunk.text.split(/\n\n+/)) {
      const probe = reduce(paragraph).letters.slice(0, PROBE);
      totals.chars += paragraph.length;
      if (probe.length < 12) continue;
      let hit = source.letters.indexOf(probe, from);
      if (hit < 0) hit = source.letters.indexOf(probe);
      if (hit < 0) continue;
      from = hit + probe.length;
      totals.found += paragraph.length;
      const mdOffset = source.at[hit] as number;
      const htmlOffset = chunk.start + chunk.text.indexOf(paragraph);
      if (pathAt(htmlTracked, htmlOffset) === pathAt(mdTracked, mdOffset)) totals.sameBlock += paragraph.length;
      const mdChunk = chunkAt(mdOffset);
      if (mdChunk !== undefined && crumb(mdChunk) === crumb(chunk)) totals.same += paragraph.length;
      else {
        const key = `${name}: html "${crumb(chunk)}" / md "${mdChunk === undefined ? '(none)' : crumb(mdChunk)}"`;
        differing.set(key, (differing.get(key) ?? 0) + paragraph.length);
      }
    }
  }
}

const pct = (a: number, b: number) => `${((100 * a) / Math.max(1, b)).toFixed(1)}%`;
console.log(`${pages.length} pages of Node's API docs, chunks of ${maxSize} tokens`);
console.log(`HTML chunk characters: ${totals.chars}; found in the Markdown: ${totals.found} (${pct(totals.found, totals.chars)})`);
console.log(`same chunk breadcrumb: ${pct(totals.same, totals.found)} of the characters found, ${pct(totals.same, totals.chars)} of all`);
console.log(`same heading path at the text: ${pct(totals.sameBlock, totals.found)} of the characters found, ${pct(totals.sameBlock, totals.chars)} of all`);
console.log(`code blocks with a language: HTML ${totals.htmlCodeLang} of ${totals.htmlCode}, Markdown ${totals.mdCodeLang} of ${totals.mdCode}`);
console.log(`tables: HTML ${totals.htmlTables}, Markdown ${totals.mdTables}`);
const worst = [...differing].sort((a, b) => b[1] - a[1]);
console.log(`largest differences (characters):`);
for (const [key, chars] of worst.slice(0, values.verbose ? 100 : 12)) console.log(`  ${chars}\t${key}`);
