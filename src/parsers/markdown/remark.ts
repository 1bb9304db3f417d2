/**
 * remark, with GFM, front matter and math, loaded on first use: the full parse that block mapping re-parses the
 * blocks whose inline content matters with, and the extensions of micromark's block-level parse.
 *
 * The line scanner reads the block structure of nearly every batch, so a process that chunks ordinary Markdown
 * may need remark for a few blocks (a heading with emphasis, a paragraph with an image) or not at all. Imported
 * with the library, remark, micromark and the mdast utilities were some 200 modules and 150 ms of every start,
 * the command line's included. They are loaded with `require`, which keeps the parser synchronous: from the bundle
 * of them all that the build writes (`remark-packages.ts`), else each package (of ES modules, Node 20.19 and later).
 */
import { createRequire } from 'node:module';
import type { Root } from 'mdast';
import type { Extension } from 'micromark-util-types';
import type * as RemarkFrontmatter from 'remark-frontmatter';
import type * as RemarkGfm from 'remark-gfm';
import type * as RemarkParse from 'remark-parse';
import type * as Unified from 'unified';
import type { Processor } from 'unified';
import { remarkMathSyntax } from './math-syntax.js';
import { bundledPackage } from './remark-packages.js';
import { untokenizedParagraphs } from './untokenized-paragraph.js';

/**
 * micromark's inline constructs, by name. Block structure never depends on them, and they cost about half of
 * the parse time. The benches disable the same ones for their bare-remark floor.
 */
export const INLINE_CONSTRUCTS: readonly string[] = [
  'attention', 'autolink', 'characterEscape', 'characterReference', 'codeText', 'hardBreakEscape', 'htmlText',
  'labelEnd', 'labelStartImage', 'labelStartLink',
  // From the extensions: GFM autolink literals, strikethrough, footnote calls and task list checks; inline math.
  'wwwAutolink', 'protocolAutolink', 'emailAutolink', 'strikethrough', 'gfmFootnoteCall', 'gfmPotentialFootnoteCall',
  'tasklistCheck', 'mathText',
];

interface Remark {
  readonly processor: Processor;
  /** The micromark extensions of the full parse (GFM, front matter, math), with the inline constructs off. */
  readonly blockExtensions: readonly Extension[];
  /** The same without GFM tables, for batches that cannot hold one. */
  readonly blockExtensionsWithoutTables: readonly Extension[];
}

const require = createRequire(import.meta.url);
let remark: Remark | undefined;

function load(): Remark {
  if (remark !== undefined) return remark;
  const { unified } = bundledPackage<typeof Unified>('unified') ?? (require('unified') as typeof Unified);
  const remarkParse = (bundledPackage<typeof RemarkParse>('remark-parse') ?? (require('remark-parse') as typeof RemarkParse)).default;
  const remarkGfm = (bundledPackage<typeof RemarkGfm>('remark-gfm') ?? (require('remark-gfm') as typeof RemarkGfm)).default;
  const remarkFrontmatter = (bundledPackage<typeof RemarkFrontmatter>('remark-frontmatter') ?? (require('remark-frontmatter') as typeof RemarkFrontmatter)).default;
  const processor = unified().use(remarkParse).use(remarkGfm).use(remarkFrontmatter, ['yaml']).use(remarkMathSyntax).freeze() as unknown as Processor;
  const blockExtensions: readonly Extension[] = [
    ...((processor.data('micromarkExtensions') ?? []) as Extension[]),
    { disable: { null: [...INLINE_CONSTRUCTS] } },
    untokenizedParagraphs as Extension,
  ];
  remark = { processor, blockExtensions, blockExtensionsWithoutTables: [...blockExtensions, { disable: { null: ['table'] } }] };
  return remark;
}

/** The full parse of `text`: every construct of remark with GFM, YAML front matter and math. */
export function parseFull(text: string): Root {
  return load().processor.parse(text) as Root;
}

/** The extensions of micromark's block-level parse, with or without GFM tables. */
export function blockExtensions(tables: boolean): readonly Extension[] {
  const loaded = load();
  return tables ? loaded.blockExtensions : loaded.blockExtensionsWithoutTables;
}
