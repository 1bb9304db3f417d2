/**
 * The line scanner must give micromark's outline (types, offsets, lines and columns, heading depths and titles,
 * info strings, HTML values, definition labels, list kinds, nesting) for every text it reads, and must read the
 * ordinary documents it is there for; what it leaves to micromark it must say so (null), never guess.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import fc from 'fast-check';
import type { Root } from 'mdast';
import { describe, expect, it } from 'vitest';
import { normalizeParseOptions } from '../../../src/config.js';
import { scanOutline, unscannedReason } from '../../../src/parsers/markdown/block-scanner.js';
import { createMarkdownBatchCore, eventsOutline } from '../../../src/parsers/markdown/parse.js';
import { corpusFiles, describeCorpus } from '../../support/corpus.js';
import { markdownDocument } from '../../support/markdown-arbitrary.js';
import { fcParams } from '../../support/property.js';
import { sampleMarkdownFiles } from '../../support/samples.js';

interface Node {
  type: string;
  position?: { start: { line: number; column: number; offset?: number }; end: { line: number; column: number; offset?: number } };
  children?: Node[];
  [field: string]: unknown;
}

/** What block mapping reads of an outline node, as one comparable value. */
function shape(node: Node): unknown {
  const p = node.position;
  const out: Record<string, unknown> = { type: node.type, from: [p?.start.offset, p?.start.line, p?.start.column], to: [p?.end.offset, p?.end.line, p?.end.column] };
  if (node.type === 'heading') {
    out.depth = node.depth;
    out.title = (node.children ?? []).map((c) => c.value).join('');
  }
  if (node.type === 'code') Object.assign(out, { lang: node.lang, meta: node.meta });
  if (node.type === 'html') out.value = node.value;
  if (node.type === 'definition') out.label = node.label;
  if (node.type === 'list') out.ordered = node.ordered;
  if (node.children !== undefined && node.type !== 'heading' && node.type !== 'paragraph') out.children = node.children.map(shape);
  return out;
}

const shapes = (tree: Root): unknown => (tree.children as unknown as Node[]).map(shape);

/**
 * Compares the scanner with micromark on `text`: 'scanned' when they agree, 'left' when the scanner leaves the
 * text to micromark; throws when they differ.
 */
function expectScannedLikeMicromark(text: string): 'scanned' | 'left' {
  const scanned = scanOutline(text);
  if (scanned === null) return 'left';
  const reference = eventsOutline(text);
  expect(reference).not.toBeNull();
  expect(shapes(scanned)).toEqual(shapes(reference as Root));
  return 'scanned';
}

/** The parse batches of a document, as the parser cuts them. */
function batchTexts(text: string, batchSize?: number): string[] {
  const core = createMarkdownBatchCore(normalizeParseOptions({ format: 'markdown', ...(batchSize === undefined ? {} : { batchSize }) }));
  return [...core.write(text), ...core.end()].map((b) => b.text);
}

describe('scanOutline', () => {
  it('reads the samples like micromark, every batch of them', () => {
    const files = sampleMarkdownFiles();
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      for (const text of batchTexts(readFileSync(file, 'utf8'))) expect([file, expectScannedLikeMicromark(text)]).toEqual([file, 'scanned']);
    }
  });

  it('reads nearly every generated document', () => {
    let scanned = 0;
    let total = 0;
    for (const text of fc.sample(markdownDocument, { seed: fcParams(1).seed, numRuns: 200 })) {
      for (const batch of batchTexts(text)) {
        if (expectScannedLikeMicromark(batch) === 'scanned') scanned += batch.length;
        total += batch.length;
      }
    }
    expect(total).toBeGreaterThan(0);
    expect(scanned / total).toBeGreaterThan(0.9);
  });

  it.each([
    ['an indented code block that a list item may not interrupt unless it starts at 1', '    code\n\n\n2) a\n\n    code\n1. b\n'],
    ['the interruption rule kept for every item a line opens', 'a\n> 10. x\n\npara\n- - \n\n    c\n> -\n> d\n'],
    ['no interruption when a container ends on the line', '2)     <script>\n1. \n\n> a\n10. b\n'],
    ['a list reaching the marker of a blank quote line', '> * a\n>\n> b\n\n> - c\n>  \n\nd\n'],
    ['lists and quotes a new container ends, reaching the prefix of the quote that went on', '> - a\n> > b\n\n> 1. a\n> - b\n\n> > - a\n> - b\n\n> - - a\n> > b\n'],
    ['items of the open list, which end what they close with its content', '> - - a\n> - b\n\n> 1. a\n> 2. b\n\n> - 10. \n> - \n'],
    ['an unclosed fence at the end, in a list item', '- ```\n  x\n\n'],
    ['an unclosed HTML block at the end, in a quote', '> <!X y\n'],
    ['an unclosed fence at the end whose last line its containers take', '> - ```\n>   x\n>   '],
    ['an empty list item kept open over blank lines', '1. \n\n     x\n    \n'],
    ['indented code opened as a quote ends, one line long', '> a\n>\n    b\n    c\n1.\n'],
    ['math blocks', '$$\nx\n$$\n\n  $$ m\n  y\n   $$$  \n\na\n$$\nb\n\n$$y$$\n'],
    ['tables', '| a | b |\n| - | :-: |\n| c | d |\n\np\nb|c\n-|-\nd\n\n> | x || y |\n> |-|-|-|\n> | \\| |\nlazy\n\na\n-|-\n'],
    ['blank lines of indented code, tabs among them', '    a\n      \n\tb\n\t\n  \nc\n'],
    ['blank list items and their blanks', '- \n\n-   \n  x\n2)  \t\n'],
    ['definitions, their blanks, titles and escaped labels', '[t]: /t "title"\n[p]: <p> (title)  \n[a]: /u  \n[b\\]c]: <d e>\n[[x]]: /y\n[]: /z\npara\n\n> [q]: /q\nlazy\n'],
    ['front matter, closed or not a fence', '---\ntitle: t\n---  \n# h\n\n---\n\nx\n'],
    ['front matter never closed: no line opens a container', '---\na: b\n> c\n- d\n1. e\n# f\n```\ng\n```\n'],
    ['HTML blocks of every condition', '<pre>\nx</pre>\n<!-- a\n\nb -->  \n<?x?>\n<!DOCTYPE html>\n<div\n\n<span a="b">\n\n</em>\ntail\n'],
    ['info strings with blanks', '```js  x y \ncode\n```\n~~~ py\n~~~\n```js  \n```\n'],
    ['ATX headings with closing sequences', '# h1 ##  \n  ## x #\n#\n### #\n#5 no\n'],
    ['setext headings and thematic breaks', 'a\n---\nb\n===\n> c\n---\n* * *\n_ _ _\n'],
  ])('matches micromark on %s', (_name, text) => {
    expect(expectScannedLikeMicromark(text)).toBe('scanned');
    expect(expectScannedLikeMicromark(text.replaceAll('\n', '\r\n'))).toBe('scanned');
  });

  it.each([
    ['a footnote definition', 'a [^1]\n\n[^1]: note\n', 'a footnote definition'],
    ['an unclosed fence that a new container ends', '- ```\n\n- a\n', 'an unclosed fence that a container ends'],
    ['a table header that may be HTML', 'a\n<span>\n| - |\n', 'a table header that may be HTML'],
    ['a table header on the line that ends the containers of a table', '> | a |\n> | - |\n| b |\n| - |\n', 'a table header on a line that ends containers'],
    ['a definition with a title over lines', '[a]: /u "t\nu"\n', 'a definition title'],
    ['a definition whose title may be on the next line', '[a]: /u\n"t"\n', 'a definition title'],
    ['a label over lines', '[a\nb]: /u\n', 'a label over lines'],
    ['CDATA', '<![CDATA[x]]>\n', 'CDATA'],
    ['an HTML tag on a lazy line', '> a\n<span>\n', 'an HTML tag on a lazy line'],
    ['a setext heading after a definition', '[a]: /u\nb\n===\n', 'a setext heading after a bracket'],
  ])('leaves %s to micromark', (_name, text, reason) => {
    expect(unscannedReason(text)).toBe(reason);
    expect(scanOutline(text)).toBeNull();
  });

  it('leaves containers nested past its depth to micromark', () => {
    expect(unscannedReason(`${'> '.repeat(60)}x\n`)).toBe('deep nesting');
    expect(unscannedReason(`${'- '.repeat(60)}x\n`)).toBe('deep nesting');
  });

  it('matches micromark on random fragments of block syntax', () => {
    // Fragments glued at random make the container and interruption cases no document writes on purpose.
    const fragment = fc.constantFrom(
      'a', 'b c', 'x  ', '# ', '## ', '#', '###### h #', '- ', '-', '* ', '+ ', '1. ', '2) ', '10. ', '1.', '> ', '>', '    ', '  ', ' ', '   ', '\t', ' \t',
      '```', '~~~', '````', '```js x', '|', '---', '===', '***', '* * *', '_ _ _', '- - -',
      '[x]', '[x]: /u', '[x]: <a b>', '[x]:\n/u', '[x]: /u "t"', '[\\]]: /v', '[a\nb]: /w', '[x]: /u\n"t"', '![i](p)',
      '<div>', '</div>', '<div/x', '<span>', '<span a="b">', '</em>', '<a\nb>', '<!--', '-->', '<!-->', '<?', '?>', '<!X', '<pre>', '</pre>', '<script>', '<![CDATA[', ']]>',
      '`c`', '\\', '&amp;', '*e*', '_', '\n', '\n', '\n', '\n\n', '\r\n', '\r', '\u00e9', '\ud83d\ude00', '+++', '---\nk: v\n---\n', '<img src="x">', 'http://a.b', '    code', '- [ ] ',
      // micromark reads a NUL as U+FFFD, in titles, info strings and HTML values too.
      '\0',
    );
    let scanned = 0;
    fc.assert(
      fc.property(fc.array(fragment, { minLength: 1, maxLength: 40 }).map((f) => f.join('')), (text) => {
        if (expectScannedLikeMicromark(text) === 'scanned') scanned++;
      }),
      fcParams(3000),
    );
    // The property means little if the scanner left most cases to micromark.
    expect(scanned).toBeGreaterThan(fcParams(3000).numRuns / 2);
  });

  it('matches micromark on lines of nested containers, indentation and tabs', () => {
    // Each line: indentation, a container marker or two, more indentation, a line's content; the cases where
    // containers end, items interrupt and tabs are consumed in part, which fragments reach less often.
    const indent = fc.constantFrom('', '', ' ', '  ', '   ', '    ', '     ', '      ', '\t', '  \t', '        ');
    const marker = fc.constantFrom('', '', '> ', '>', '- ', '* ', '1. ', '2) ', '-   ', '10. ', '>  ', '-\t', '- > ', '> - ', '1.     ');
    const content = fc.constantFrom(
      '', 'a', 'b c', '# h', '## h ##', '```', '```js', '~~~', '$$', '---', '===', '***', '<div>', '<!-- c', '-->', '<span>', '</pre>',
      '[a]: /u', '[b]:', '| a | b |', '|-|-|', ':-', 'x | y', '    code', '<?', '?>', '  ', '\\|',
    );
    const line = fc.tuple(indent, marker, marker, indent, content, fc.constantFrom('\n', '\n', '\r\n', '\r')).map((parts) => parts.join(''));
    let scanned = 0;
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 14 }).map((lines) => lines.join('')), fc.boolean(), (text, frontMatter) => {
        if (expectScannedLikeMicromark(frontMatter ? `---\n${text}` : text) === 'scanned') scanned++;
      }),
      fcParams(1500),
    );
    expect(scanned).toBeGreaterThan(fcParams(1500).numRuns / 2);
  });

  it('matches micromark on generated documents, in small and default batches', () => {
    fc.assert(
      fc.property(markdownDocument, fc.constantFrom(undefined, 64), (text, batchSize) => {
        for (const batch of batchTexts(text, batchSize)) expectScannedLikeMicromark(batch);
      }),
      fcParams(200),
    );
  });
});

describeCorpus('scanOutline on the corpus', () => {
  it('matches micromark on every batch of every document and spec example, and reads most of them', () => {
    const docs: { name: string; text: string }[] = [];
    for (const file of corpusFiles('', ['.md', '.txt'])) docs.push({ name: file, text: readFileSync(file, 'utf8') });
    for (const file of corpusFiles('md/marked-specs', ['.json'])) {
      (JSON.parse(readFileSync(file, 'utf8')) as { markdown: string }[]).forEach((example, i) => { docs.push({ name: `${basename(file)}#${i}`, text: example.markdown }); });
    }
    expect(docs.length).toBeGreaterThan(0);
    let scanned = 0;
    let total = 0;
    for (const { name, text } of docs) {
      for (const batch of batchTexts(text)) {
        try {
          if (expectScannedLikeMicromark(batch) === 'scanned') scanned += batch.length;
        } catch (error) {
          throw new Error(`${name}: ${(error as Error).message}`);
        }
        total += batch.length;
      }
    }
    console.log(`block scanner: read ${((100 * scanned) / total).toFixed(1)}% of ${total} characters of corpus batches`);
    expect(scanned / total).toBeGreaterThan(0.8);
  });
});
