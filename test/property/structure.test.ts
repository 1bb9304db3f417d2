/**
 * Structure-faithful chunks: every chunk's prefix + text + suffix parses back to the constructs it came from (a
 * table piece is a table, a code piece is one closed code block with the original language), no table row,
 * list item first line or formula is cut, and sizes hold with the added text counted.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import type { Root, RootContent } from 'mdast';
import remarkFrontmatter from 'remark-frontmatter';
import remarkGfm from 'remark-gfm';
import remarkMath from 'remark-math';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { describe, expect, it } from 'vitest';
import { chunkText } from '../../src/api/chunk.js';
import type { ChunkOptions } from '../../src/config.js';
import { parseMarkdown } from '../../src/parsers/markdown/parse.js';
import type { Block, Chunk, ListItemSpan, Span } from '../../src/types.js';
import { markdownDocument } from '../support/markdown-arbitrary.js';
import { corpusFiles, describeCorpus } from '../support/corpus.js';
import { fcParams } from '../support/property.js';
import { sampleMarkdownFiles } from '../support/samples.js';

const remark = unified().use(remarkParse).use(remarkGfm).use(remarkFrontmatter, ['yaml']).use(remarkMath).freeze();
const topLevel = (markdown: string): RootContent[] => (remark.parse(markdown) as Root).children;

/** Checks that framed pieces parse back to their construct, and that no protected span is cut. */
function checkStructure(text: string, options: ChunkOptions): void {
  const { chunks } = chunkText(text, options);
  const blocks = parseMarkdown(text);
  for (const c of chunks) checkFrame(c, blocks);
  const cuts = new Set<number>();
  for (const c of chunks) {
    if (c.metadata.fallback !== undefined) continue;
    cuts.add(c.start);
    cuts.add(c.end);
  }
  for (const [what, span] of protectedSpans(text, blocks)) {
    for (const cut of cuts) {
      if (cut > span.start && cut < span.end) {
        const owners = chunks.filter((c) => c.start === cut || c.end === cut);
        if (owners.some((c) => c.metadata.fallback !== undefined)) continue;
        // A display formula larger than a chunk is split between its lines, each piece framed in $$ again.
        if (what === 'formula' && owners.some((c) => c.prefix.startsWith('$$') || c.suffix.endsWith('$$'))) continue;
        throw new Error(`a chunk boundary at ${cut} cuts a ${what}: ${JSON.stringify(text.slice(span.start, span.end).slice(0, 120))}`);
      }
    }
  }
}

function checkFrame(c: Chunk, blocks: readonly Block[]): void {
  if (c.prefix === '' && c.suffix === '') return;
  if (c.metadata.fallback !== undefined) return;
  const nodes = topLevel(c.prefix + c.text + c.suffix);
  const source = blocks.find((b) => b.start <= c.start && c.start < b.end) ?? blocks.find((b) => b.start >= c.start);
  if (source?.kind === 'table' && c.prefix !== '') {
    if (nodes[0]?.type !== 'table') throw new Error(`table piece #${c.index} parses as ${nodes.map((n) => n.type)}`);
    const rows = (nodes[0] as { children: unknown[] }).children.length;
    // The piece's rows run up to the first blank line (a paragraph may follow in the same chunk).
    const expected = 1 + (c.text.split(/\r?\n[ \t]*\r?\n/)[0] as string).split('\n').length;
    if (rows !== expected) throw new Error(`table piece #${c.index} has ${rows} rows, expected ${expected}: ${JSON.stringify(c.prefix + c.text)}`);
  }
  // A piece that starts inside a fence is re-opened by its prefix; one that ends inside a fence is closed by its suffix.
  const checkCode = (offset: number, node: RootContent | undefined, side: string): void => {
    const code = blocks.find((b) => b.kind === 'code' && b.start <= offset && offset < b.end);
    if (code?.kind !== 'code' || code.fence === null) return;
    if (node?.type !== 'code') throw new Error(`code piece #${c.index} (${side}) parses as ${nodes.map((n) => n.type)}: ${JSON.stringify(c.prefix + c.text + c.suffix)}`);
    if ((node.lang ?? null) !== code.lang) throw new Error(`code piece #${c.index} (${side}) has language ${node.lang}, expected ${code.lang}`);
  };
  if (c.prefix !== '') checkCode(c.start, nodes[0], 'start');
  if (c.suffix !== '') checkCode(c.end - 1, nodes.at(-1), 'end');
}

/** Table rows, first lines of list items, and formulas: spans no chunk boundary may fall inside. */
function* protectedSpans(text: string, blocks: readonly Block[]): Generator<[string, Span]> {
  for (const b of blocks) {
    if (b.kind === 'table') for (const row of b.rows) yield ['table row', row];
    if (b.kind === 'list') {
      const items = (list: readonly ListItemSpan[]): Generator<[string, Span]> =>
        (function* () {
          for (const item of list) {
            const nl = text.indexOf('\n', item.start);
            const lineEnd = nl === -1 || nl > item.end ? item.end : text[nl - 1] === '\r' ? nl - 1 : nl;
            yield ['list item first line', { start: item.start, end: lineEnd }];
            yield* items(item.items);
          }
        })();
      yield* items(b.items);
    }
    if (b.kind === 'math') yield ['formula', b];
    if (b.kind === 'paragraph' && b.features?.math) {
      for (const m of b.text.matchAll(/\$\$[^$\n]+\$\$|\$[^$\s][^$\n]*?\$/g)) yield ['formula', { start: b.start + m.index, end: b.start + m.index + m[0].length }];
    }
  }
}

describe('structure-faithful chunks', () => {
  it('over generated documents with tables, fences, lists and math', () => {
    fc.assert(
      fc.property(markdownDocument, fc.constantFrom<ChunkOptions>({ maxSize: 48 }, { maxSize: 96 }, { unit: 'chars', maxSize: 300 }), (text, options) => {
        checkStructure(text, options);
      }),
      fcParams(150),
    );
  });

  it('over the samples and the Markdown fixtures', () => {
    checkFiles(sampleMarkdownFiles());
  });
});

describeCorpus('structure-faithful chunks', () => {
  it('over every corpus Markdown file (jupyterlab fences, free-programming-books lists)', () => {
    checkFiles(corpusFiles('', ['.md']));
  });
});

/** Checks the structure of the chunks of every file at two settings. */
function checkFiles(files: string[]): void {
  expect(files.length).toBeGreaterThan(0);
  for (const file of files) {
    for (const options of [{ maxSize: 128 }, { maxSize: 512, contextualize: true }] as ChunkOptions[]) {
      try {
        checkStructure(readFileSync(file, 'utf8'), options);
      } catch (error) {
        throw new Error(`${file} ${JSON.stringify(options)}: ${(error as Error).message}`);
      }
    }
  }
}
