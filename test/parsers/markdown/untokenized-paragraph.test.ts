import remarkParse from 'remark-parse';
import { unified, type Processor } from 'unified';
import type { Root } from 'mdast';
import { describe, expect, it } from 'vitest';
import { untokenizedParagraphs } from '../../../src/parsers/markdown/untokenized-paragraph.js';

function withExtension(this: Processor): void {
  const data = this.data() as { micromarkExtensions?: unknown[] };
  data.micromarkExtensions = [...(data.micromarkExtensions ?? []), untokenizedParagraphs];
}

const plain = unified().use(remarkParse).freeze();
const untokenized = unified().use(remarkParse).use(withExtension).freeze();

/** Node types and source offsets of a tree, children left out. */
const outline = (tree: Root) => tree.children.map((n) => [n.type, n.position?.start.offset, n.position?.end.offset]);

describe('untokenizedParagraphs', () => {
  const text = 'One *two*\nthree  \n\n[a]: /url "t"\nafter def\n\nSetext\nline\n===\n\n> quoted\nlazy\n\n- item\n  more\n';

  it('leaves paragraph text untokenized: paragraphs and setext headings have no children', () => {
    const tree = untokenized.parse(text) as Root;
    expect(tree.children[0]).toMatchObject({ type: 'paragraph', children: [] });
    expect(tree.children.find((n) => n.type === 'heading')).toMatchObject({ depth: 1, children: [] });
  });

  it('gives the block structure and positions of the ordinary parse, definitions included', () => {
    const tree = untokenized.parse(text) as Root;
    expect(outline(tree)).toEqual(outline(plain.parse(text) as Root));
    expect(tree.children.map((n) => n.type)).toEqual(['paragraph', 'definition', 'paragraph', 'heading', 'blockquote', 'list']);
  });

  it('keeps CRLF line endings and an empty document working', () => {
    const crlf = 'a\r\nb\r\n\r\nc\r\n';
    expect(outline(untokenized.parse(crlf) as Root)).toEqual(outline(plain.parse(crlf) as Root));
    expect((untokenized.parse('') as Root).children).toEqual([]);
  });
});
