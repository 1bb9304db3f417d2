import { describe, expect, it } from 'vitest';
import { runCore } from '../../src/core.js';
import { cleanTitle, createDocumentContext, createTitleStage, frontMatterTitle, MAX_TITLE_LENGTH, TITLE_WINDOW } from '../../src/chunking/document-title.js';
import { parseMarkdown } from '../../src/parsers/markdown/parse.js';
import type { Block } from '../../src/types.js';

/** The title the stage settles for a Markdown text, and the blocks it passed on. */
function titleOf(markdown: string): { title: string | undefined; blocks: Block[] } {
  const document = createDocumentContext();
  const blocks = runCore(createTitleStage(document), parseMarkdown(markdown));
  return { title: document.title, blocks };
}

describe('frontMatterTitle', () => {
  it('reads a top-level title, plain or quoted, and nothing else', () => {
    expect(frontMatterTitle('---\ntitle: Install guide\nauthor: x\n---')).toBe('Install guide');
    expect(frontMatterTitle('---\ntitle: "Colons: fine \\"here\\""\n---')).toBe('Colons: fine "here"');
    expect(frontMatterTitle("---\ntitle: 'It''s quoted'\n---")).toBe("It's quoted");
    expect(frontMatterTitle('---\ntitle: Plain # a comment\n---')).toBe('Plain');
    expect(frontMatterTitle('---\r\ntitle: CRLF\r\n---')).toBe('CRLF');
    // Folded blocks, nested keys and other cases are left alone rather than read wrong.
    expect(frontMatterTitle('---\ntitle: >\n  folded\n---')).toBeUndefined();
    expect(frontMatterTitle('---\nmeta:\n  title: nested\n---')).toBeUndefined();
    expect(frontMatterTitle('---\nTitle: case matters\n---')).toBeUndefined();
    expect(frontMatterTitle('---\ntitle:\n---')).toBeUndefined();
  });

  it('cleans and bounds a title', () => {
    expect(cleanTitle('  two\n lines  ')).toBe('two lines');
    expect(cleanTitle(' \n ')).toBeUndefined();
    const long = cleanTitle('word '.repeat(200)) as string;
    expect(long.length).toBeLessThanOrEqual(MAX_TITLE_LENGTH);
    expect(long.endsWith('…')).toBe(true);
  });
});

describe('the title stage', () => {
  it('takes front matter first, then a first heading of level 1, then none', () => {
    expect(titleOf('---\ntitle: From front matter\n---\n\n# Heading\n\ntext\n').title).toBe('From front matter');
    expect(titleOf('<p>badge</p>\n\nintro\n\nGuide\n=====\n\ntext\n').title).toBe('Guide');
    // A first heading of another level settles it: a later level-1 heading is a chapter, not the title.
    expect(titleOf('## Contents\n\ntext\n\n# Chapter one\n\ntext\n').title).toBeUndefined();
    expect(titleOf('just text\n').title).toBeUndefined();
    expect(titleOf('# 1. Introduction\n\ntext\n\n# 2. Usage\n').title).toBeUndefined();
    expect(titleOf('# 2.1 Setup\n\ntext\n').title).toBeUndefined();
    expect(titleOf('# 1984 and After\n\ntext\n').title).toBe('1984 and After');
    expect(titleOf('# 10 Tips for Chunking\n\ntext\n').title).toBe('10 Tips for Chunking');
  });

  it('takes a title a parser declares on a block before any heading', () => {
    const document = createDocumentContext();
    const blocks = parseMarkdown('# Heading\n\ntext\n').map((b, i) => (i === 0 ? { ...b, documentTitle: 'Declared' } : b));
    runCore(createTitleStage(document), blocks);
    expect(document.title).toBe('Declared');
  });

  it(`holds at most ${TITLE_WINDOW} blocks, passes every block on in order, and settles without a heading in them`, () => {
    const paragraphs = Array.from({ length: TITLE_WINDOW + 5 }, (_, i) => `paragraph ${i}`);
    const text = `${paragraphs.join('\n\n')}\n\n# Too late\n`;
    const document = createDocumentContext();
    const stage = createTitleStage(document);
    const out: Block[] = [];
    const held = { now: 0, most: 0 };
    for (const block of parseMarkdown(text)) {
      const given = stage.write(block);
      out.push(...given);
      held.now += 1 - given.length;
      held.most = Math.max(held.most, held.now);
    }
    expect(document.settled).toBe(true);
    out.push(...stage.end());
    expect(document.title).toBeUndefined();
    expect(out.map((b) => b.text)).toEqual([...paragraphs, '# Too late']);
    expect(held.most).toBe(TITLE_WINDOW - 1);
  });
});
