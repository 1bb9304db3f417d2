/**
 * The math plugin gives the trees remark-math gives, without loading KaTeX.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import remarkFrontmatter from 'remark-frontmatter';
import remarkGfm from 'remark-gfm';
import remarkMath from 'remark-math';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { describe, expect, it } from 'vitest';
import { mathSyntaxSource, remarkMathSyntax } from '../../../src/parsers/markdown/math-syntax.js';
import { corpusFiles, describeCorpus } from '../../support/corpus.js';
import { fcParams } from '../../support/property.js';

const reference = unified().use(remarkParse).use(remarkGfm).use(remarkFrontmatter, ['yaml']).use(remarkMath).freeze();
const ours = unified().use(remarkParse).use(remarkGfm).use(remarkFrontmatter, ['yaml']).use(remarkMathSyntax).freeze();

const expectSameTree = (markdown: string): void => {
  expect(ours.parse(markdown)).toEqual(reference.parse(markdown));
};

describe('remarkMathSyntax', () => {
  it('reads the syntax from the package file that does not import KaTeX', () => {
    expect(mathSyntaxSource()).toBe('syntax');
  });

  it('makes math and inlineMath nodes as remark-math does', () => {
    const markdown = 'Euler: $e^{i\\pi} + 1 = 0$.\n\n$$\n\\int_0^1 x\\,dx\n$$\n\n> $$ a $$\n\n- $x$ and $$y$$\n';
    const tree = ours.parse(markdown);
    const types = JSON.stringify(tree).match(/"type":"(math|inlineMath)"/g) ?? [];
    expect(types.length).toBeGreaterThanOrEqual(4);
    expectSameTree(markdown);
  });

  it('gives remark-math’s trees on generated text full of dollars, fences and escapes', () => {
    const piece = fc.constantFrom('$', '$$', '\\$', 'x', ' ', '\n', '\n\n', '> ', '- ', '`', '```', 'a^2', '{', '}', '\\\\', '|', '---');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (pieces) => expectSameTree(pieces.join(''))),
      fcParams(300),
    );
  });

});

describeCorpus('math syntax on the Markdown', () => {
  it('gives remark-math’s trees on every file with a dollar sign', () => {
    const files = corpusFiles('', ['.md']).filter((f) => readFileSync(f, 'utf8').includes('$'));
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) expectSameTree(readFileSync(file, 'utf8'));
  });
});
