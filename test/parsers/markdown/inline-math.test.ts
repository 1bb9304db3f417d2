/**
 * `holdsInlineMath` must say what remark's full parse says of a paragraph (inline math in the tree or not) each
 * time it answers; where it cannot tell, it must say so (null). Held to the full parse over generated text dense in
 * the characters that decide it, over named cases, and over every paragraph of the samples and the corpus.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import type { Nodes, Parent, RootContent } from 'mdast';
import { describe, expect, it } from 'vitest';
import { holdsInlineMath, holdsInlineMathIn, mayHoldImageWithoutReferences } from '../../../src/parsers/markdown/inline-math.js';
import { inlineContents } from '../../../src/parsers/markdown/paragraph-content.js';
import { parseFull } from '../../../src/parsers/markdown/remark.js';
import { corpusFiles, describeCorpus } from '../../support/corpus.js';
import { INLINE_MATH_PIECES } from '../../support/inline-math-pieces.js';
import { fcParams } from '../../support/property.js';
import { sampleMarkdownFiles } from '../../support/samples.js';

/** Whether the fully parsed `node` holds inline math, and an image (markdown or HTML: a block feature either way). */
function inTree(node: Nodes): { math: boolean; image: boolean } {
  const found = { math: false, image: false };
  const visit = (n: Nodes): void => {
    if (n.type === 'inlineMath') found.math = true;
    if (n.type === 'image' || n.type === 'imageReference' || (n.type === 'html' && /<img/i.test(n.value))) found.image = true;
    if ('children' in n) for (const child of (n as Parent).children) visit(child as Nodes);
  };
  visit(node);
  return found;
}

/** Every block of `text` that `inlineContents` reads, with the reader's answer and the tree's, where it answers. */
function answers(text: string): { content: string; said: boolean; tree: boolean }[] {
  const tree = parseFull(text);
  const defines = tree.children.some((n) => n.type === 'definition' || n.type === 'footnoteDefinition');
  const out: { content: string; said: boolean; tree: boolean }[] = [];
  for (const node of tree.children as RootContent[]) {
    const contents = inlineContents(node, text);
    if (contents === null || defines) continue;
    const content = contents.join('\n\n');
    const found = inTree(node);
    // The caller sends a block that may hold an image to the full parse; so does this test. It must see each one.
    if (found.image) {
      expect({ text, mayHoldImage: contents.map(mayHoldImageWithoutReferences) }).not.toEqual({ text, mayHoldImage: contents.map(() => false) });
      continue;
    }
    const said = holdsInlineMathIn(contents);
    if (said !== null) out.push({ content, said, tree: found.math });
  }
  return out;
}

function expectAgrees(text: string): number {
  const all = answers(text);
  for (const a of all) expect({ text, content: a.content, said: a.said }).toEqual({ text, content: a.content, said: a.tree });
  return all.length;
}

const generated = fc.array(fc.constantFrom(...INLINE_MATH_PIECES), { maxLength: 40 }).map((pieces) => pieces.join(''));
/** The same, often ending with a formula: what comes before decides whether it is one. */
const endingInMath = fc.tuple(generated, fc.constantFrom('', ' $a$', '$', ' $$b$$')).map(([text, end]) => text + end);

describe('holdsInlineMath against the full parse', () => {
  it('agrees on generated paragraphs', () => {
    let answered = 0;
    fc.assert(
      fc.property(generated, (text) => {
        answered += expectAgrees(text);
      }),
      fcParams(3000),
    );
    // Most generated paragraphs are answered: the reader is not null everywhere.
    expect(answered).toBeGreaterThan(1500);
  });

  it('agrees on generated block quotes, nested or not', () => {
    fc.assert(
      fc.property(endingInMath, fc.constantFrom('> ', '> > ', '>>', ' > >  > '), (text, markers) => {
        expectAgrees(`${markers}${text}`);
      }),
      fcParams(1500),
    );
  });

  it('agrees on generated lists of paragraphs', () => {
    const item = fc.tuple(fc.constantFrom('- ', '* ', '1. ', '2) '), endingInMath).map(([marker, text]) => marker + text);
    fc.assert(
      fc.property(fc.array(item, { minLength: 1, maxLength: 4 }), (items) => {
        expectAgrees(items.join('\n'));
      }),
      fcParams(1500),
    );
  });

  // A paragraph's first line must not open an HTML block: cases of inline HTML start with text.
  it.each([
    ['$x$', true],
    ['costs $5 and $10', true],
    ['just $5', false],
    ['\\$x$', false],
    ['\\\\$x$', true],
    ['`$x$`', false],
    ['``$x$` ``', false],
    ['`a``$x$', true],
    ['$$x$', false],
    ['$a$$b$', true],
    ['a <a title="$x$">', false],
    ["a <a title='$x$'>", false],
    ['a <a b=/c$x$>', false],
    ['a <a b=c$ $x$', true],
    ['a <!-- $x$ -->', false],
    ['a <!-->$x$', true],
    ['a <!--->$x$', true],
    ['a <? $x$ ?>', false],
    ['a <![CDATA[ $x$ ]]>', false],
    ['a <!DOCTYPE $x$>', false],
    ['a </a $x$>', true],
    ['a <scheme:$x$>', false],
    ['a <s:$x$>', true],
    ['a <a$b@c.d>$', false],
    ['a <a$b@c-.d>$', true],
    ['a <a$b@c.d->$', true],
    ['a <a\n$x$>', true],
    ['> <a\n> $x$ b="', true],
    ['> <a b="\n> $x$">', false],
    ['\0<a:$x\0$>', true],
    ['a <ab:$x\0$>', false],
  ] as const)('%j holds inline math: %s', (text, expected) => {
    const found = answers(text);
    expect(found.map((a) => a.tree)).toEqual([expected]);
    expect(found.map((a) => a.said)).toEqual([expected]);
  });

  it.each([
    ['[a](b $x$)', true],
    ['[a](<b $x$)', true],
    ['[a](b "$x$" c)', true],
    ['[a](b\n"$x$")', null],
    ['[a](<$x$>)', null],
    ['[a]($x$)', null],
    ['[a](b (c) $x$)', true],
    ['[a](b((c)) "t" $x$', true],
  ] as const)('%j: a resource that parses may make a link (%s)', (text, expected) => {
    expect(holdsInlineMath(text)).toBe(expected);
    if (expected !== null) expect(answers(text).map((a) => a.tree)).toEqual([expected]);
  });

  it.each([
    ['![a](b) $x$', true],
    ['![a](b c) $x$', false],
    ['![a] (b) $x$', false],
    ['![a]\n(b) $x$', false],
    ['![a](<b c>) $x$', true],
    ['![a](b "c)" $x$', false],
    ['[a](b) ![c] $x$', false],
    ['x <IMG src=y> $x$', true],
  ] as const)('%j may hold an image: %s', (text, expected) => {
    expect(mayHoldImageWithoutReferences(text)).toBe(expected);
    expect(inTree(parseFull(text)).image).toBe(expected);
  });

  it('leaves link destinations, autolink literals and endless reading to the full parse', () => {
    expect(holdsInlineMath('[a]($x$)')).toBeNull();
    expect(holdsInlineMath('see www.example.com/$x$')).toBeNull();
    expect(holdsInlineMath('see https://example.com/$x$')).toBeNull();
    // Code spans all the way, and a run of two that finds no closing run once (later searches reuse the answer).
    expect(holdsInlineMath('`$` '.repeat(20_000))).toBe(false);
    expect(holdsInlineMath(`\`\` x ${'` $$ ` '.repeat(20_000)}`)).toBe(false);
    // Every `<!--` and `<a b="` seeks the same close, which is not there: sought once.
    expect(holdsInlineMath(`${'<!-- a '.repeat(20_000)}$x$`)).toBe(true);
    expect(holdsInlineMath(`${'<a b="c '.repeat(20_000)}$x$`)).toBe(true);
    // Runs of every length, none closed: each one reads to the end, which is more than linear work.
    expect(holdsInlineMath(Array.from({ length: 500 }, (_, i) => `${'`'.repeat(i + 1)} x`).join(' ') + ' $x$')).toBeNull();
  });

  it('agrees on every paragraph of the samples', () => {
    let answered = 0;
    for (const file of sampleMarkdownFiles()) answered += expectAgrees(readFileSync(file, 'utf8'));
    expect(answered).toBeGreaterThan(0);
  });
});

describeCorpus('holdsInlineMath against the full parse', () => {
  it('agrees on every paragraph of the corpus', () => {
    let answered = 0;
    for (const file of corpusFiles('md', ['.md'])) answered += expectAgrees(readFileSync(file, 'utf8'));
    expect(answered).toBeGreaterThan(0);
  });
});
