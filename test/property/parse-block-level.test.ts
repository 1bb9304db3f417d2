/**
 * Block-level parsing (block structure from the line scanner or micromark's events, inline-dependent blocks
 * re-parsed) must give exactly the blocks of a full parse: kinds, offsets, lines, titles, table rows, list items,
 * code info strings and features.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseMarkdownWith } from '../../src/parsers/markdown/parse.js';
import type { Block } from '../../src/types.js';
import { corpusFiles, describeCorpus } from '../support/corpus.js';
import { INLINE_MATH_PIECES } from '../support/inline-math-pieces.js';
import { fcParams } from '../support/property.js';
import { sampleMarkdownFiles } from '../support/samples.js';

/** Every corpus document: the files themselves, and each example of the spec JSON files. */
function corpusDocuments(): { name: string; text: string }[] {
  const docs: { name: string; text: string }[] = [];
  for (const file of [...corpusFiles('', ['.md', '.txt']), ...corpusFiles('md/marked-specs', ['.json'])]) {
    const text = readFileSync(file, 'utf8');
    if (!file.endsWith('.json')) {
      docs.push({ name: file, text });
      continue;
    }
    (JSON.parse(text) as { markdown: string }[]).forEach((example, i) => { docs.push({ name: `${basename(file)}#${i}`, text: example.markdown }); });
  }
  return docs;
}

/**
 * The blocks of the default parse (the line scanner) equal the full parse's, and so do those of micromark's
 * block-level events (the scanner's fallback) unless `events` is false: on the corpus, the scanner's tree is held
 * equal to micromark's events in `block-scanner.test.ts`, and running both here too only doubled the time.
 */
function expectSameBlocks(text: string, options: { batchSize?: number } = {}, events = true): Block[] {
  const full = parseMarkdownWith('full', text, options);
  expect(parseMarkdownWith('block', text, options)).toEqual(full);
  if (events) expect(parseMarkdownWith('events', text, options)).toEqual(full);
  return full;
}

/** `bytes` bytes from a small deterministic generator. */
function randomBytes(bytes: number, seed: number): Uint8Array {
  let state = seed;
  const out = new Uint8Array(bytes);
  for (let i = 0; i < bytes; i++) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    out[i] = state >>> 24;
  }
  return out;
}

describeCorpus('block-level parse = full parse', () => {
  const docs = corpusDocuments();

  it('on every corpus document and spec example', () => {
    expect(docs.length).toBeGreaterThan(0);
    let titlesWithMarkup = 0;
    let images = 0;
    for (const { name, text } of docs) {
      let blocks: Block[];
      try {
        blocks = expectSameBlocks(text, {}, false);
      } catch (error) {
        throw new Error(`${name}: ${(error as Error).message}`);
      }
      for (const b of blocks) {
        if (b.kind === 'heading' && b.title !== b.text.replace(/^ {0,3}#+\s*|\s*#*\s*$/g, '')) titlesWithMarkup++;
        images += b.features?.images?.length ?? 0;
      }
    }
    // Said of what was found, not of a given corpus: the documents exercise what block-level parsing re-parses.
    console.log(`block-level parse: ${docs.length} documents, ${titlesWithMarkup} titles with markup, ${images} images`);
  });

  it('on the larger corpus files cut into small batches', () => {
    for (const { name, text } of docs.filter((d) => d.text.length > 20_000)) {
      try {
        expectSameBlocks(text, { batchSize: 2048 }, false);
      } catch (error) {
        throw new Error(`${name}: ${(error as Error).message}`);
      }
    }
  });
});

describe('block-level parse = full parse', () => {
  it('on the samples, whole and cut into small batches', () => {
    const files = sampleMarkdownFiles();
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      for (const batchSize of [undefined, 512]) {
        try {
          expectSameBlocks(text, batchSize === undefined ? {} : { batchSize });
        } catch (error) {
          throw new Error(`${file} (batchSize ${batchSize ?? 'default'}): ${(error as Error).message}`);
        }
      }
    }
  });

  it('keeps inline-dependent fields: titles, images, math, info strings, references', () => {
    const text = [
      '# Title with *emphasis*, `code` and [a link][ref]',
      '',
      '## [^1] note &amp; \\*stars\\*',
      '',
      'Text ![alt](img.png) and <img src="x.png"> and $x^2$.',
      '',
      '```js\\_x &lt;meta&gt;',
      'code',
      '```',
      '',
      '- item with ![i](a.png)',
      '  ```py&#32;x',
      '  y',
      '  ```',
      '',
      '| a | b |',
      '| - | - |',
      '| $m$ | ![t](t.png) |',
      '',
      '[ref]: /url',
      '[^1]: A footnote.',
    ].join('\n');
    const blocks = expectSameBlocks(text);
    const [h1, h2, p, code, list, table] = blocks as [Block, Block, Block, Block, Block, Block];
    expect(h1).toMatchObject({ kind: 'heading', title: 'Title with emphasis, code and a link' });
    expect(h2).toMatchObject({ kind: 'heading', title: 'note & *stars*' });
    expect(p.features).toEqual({ images: ['img.png', 'x.png'], math: true });
    expect(code).toMatchObject({ kind: 'code', lang: 'js_x', meta: '<meta>' });
    expect(list.features).toEqual({ images: ['a.png'], codeLangs: ['py x'] });
    expect(table.features).toEqual({ images: ['t.png'], math: true });
  });

  it('finds tables whether or not the batch has pipes', () => {
    const blocks = expectSameBlocks('Title\n:-\nrow\n\n> quoted\n> -:\n\n- item\n\n  head\n  :-:\n  cell\n\nNote: a - b\n');
    expect(blocks.filter((b) => b.kind === 'table')).toHaveLength(1);
    expect(blocks.map((b) => b.kind)).toEqual(['table', 'blockquote', 'list', 'paragraph']);
    expect(blocks[1]?.features).toEqual({ table: true });
    expect(blocks[2]?.features).toEqual({ table: true });
  });

  it('re-parses alone only what nests the same alone', () => {
    // An autolink literal runs over the backticks: they are text, not a code span.
    expect(expectSameBlocks('# http://a.b`c`d\n')[0]).toMatchObject({ title: 'http://a.b`c`d' });
    // After a paragraph, "> 2) x" quotes a paragraph (a list not starting at 1 cannot interrupt one); alone, it
    // would quote a list.
    expect(expectSameBlocks('para\n> 2) x $y$\n')[1]).toMatchObject({ kind: 'blockquote', features: { math: true } });
  });

  it('falls back to a full parse when the re-parsed blocks run into each other', () => {
    // An unclosed fence runs to the end of the batch and would swallow what the small document puts after it.
    expectSameBlocks('# A *b*\n\n```a\\_b\ncode\n\n# not a heading');
    expectSameBlocks('<img src="a.png">\n\n- x ![y](z)\n\n<!-- open comment\n\n# *t*');
  });

  it('on random fragments of Markdown syntax', () => {
    // Fragments run into each other in ways no template writes. Such divergences are rare (about one input in
    // 10,000): CI runs 2,000 cases, and `FC_RUNS=30000` finds the list re-parsed out of its context if it comes back.
    const fragment = fc.constantFrom(
      'a', 'b c', '# ', '## ', '- ', '* ', '1. ', '2) ', '> ', '    ', '  ', '\t', '```', '~~~', '$$', '|', ' | ', '---', '===',
      ':-', '-:', '[x]', '[x]: /u', '[^1]: n', '![i](p)', '<div>', '</div>', '<!--', '-->', '`c`', '``', '\\', '&amp;', '*e*',
      '_', '\n', '\n', '\n\n', '\r\n', '\u00e9', '\ud83d\ude00', '+++', '---\nk: v\n---\n', '<img src="x">', '$x$', '[^1]',
      'http://a.b', '    code', '- [ ] ', '| - |',
    );
    fc.assert(
      fc.property(fc.array(fragment, { minLength: 1, maxLength: 30, size: 'max' }).map((f) => f.join('')), fc.constantFrom(16, 8192), (text, batchSize) => {
        expectSameBlocks(text, { batchSize });
      }),
      fcParams(2000),
    );
  });

  it('on paragraphs and quotes dense in what decides inline math', () => {
    // Paragraphs whose `$` is read without the inline parse (inline-math.ts) must keep the full parse's features.
    const paragraph = fc.array(fc.constantFrom(...INLINE_MATH_PIECES), { minLength: 1, maxLength: 30 }).map((p) => p.join(''));
    const block = fc.oneof(paragraph, paragraph.map((p) => `> ${p}`), fc.constantFrom('[d]: /u', '![i](p)', '<img src="i">', '# h'));
    const doc = fc.array(block, { minLength: 1, maxLength: 6 }).map((blocks) => blocks.join('\n\n'));
    fc.assert(
      fc.property(doc, fc.constantFrom(64, 65536), (text, batchSize) => {
        expectSameBlocks(text, { batchSize }, false);
      }),
      fcParams(1500),
    );
  });

  it('on random bytes', () => {
    for (const seed of [1, 2, 3]) {
      const text = new TextDecoder().decode(randomBytes(24_000, seed));
      const blocks = expectSameBlocks(text, {}, false);
      expect(blocks.some((b) => b.features?.math === true)).toBe(true);
    }
  });

  it('on generated Markdown, in any batch size', () => {
    const inline = fc.constantFrom(
      'plain words', '*em*', '__strong__', '`code`', '[link](/u)', '[ref]', '[^1]', '![img](i.png)', '<img src="h.png">',
      '$x$', '$$y$$', '\\$', '\\*', '&amp;', '&#35;', '~~del~~', 'https://example.com', '<https://a.b>', 'a@b.co',
      '<span>', '\\', '`$`', '[x]: no', '!', '[', ']', '|', '#',
      // Code spans, the one markup a title is read without an inline parse: padding, longer fences, markup inside.
      '`f(a[, b])`', '` padded `', '`  `', '`` a ` b ``', '```x``', '` \t `', '`<b>`', '`*x*` and `y`', '`open',
      'http://a.b`c`', 'www.a.b`c`d`', 'a@b.c`d`',
    );
    const line = fc.array(inline, { minLength: 1, maxLength: 5 }).map((parts) => parts.join(' '));
    const info = fc.constantFrom('', 'js', 'py title="x"', 'a\\_b', 'c&amp;d', 'e &lt;f&gt;');
    const block = fc.oneof(
      line,
      fc.tuple(fc.integer({ min: 1, max: 6 }), line).map(([d, l]) => `${'#'.repeat(d)} ${l}`),
      fc.tuple(line, fc.constantFrom('===', '---')).map(([l, u]) => `${l}\n${u}`),
      fc.tuple(info, line).map(([i, l]) => `\`\`\`${i}\n${l}\n\`\`\``),
      fc.array(line, { minLength: 1, maxLength: 3 }).map((ls) => ls.map((l) => `- ${l}`).join('\n')),
      fc.tuple(line, info, line).map(([a, i, b]) => `1. ${a}\n   - ${b}\n\n   ~~~${i}\n   x\n   ~~~`),
      fc.tuple(line, line).map(([a, b]) => `> ${a}\n> - ${b}`),
      fc.tuple(line, line).map(([a, b]) => `| h | ${a.replaceAll('|', '\\|')} |\n| - | :-: |\n| ${b.replaceAll('|', '\\|')} | c |`),
      fc.constantFrom('[ref]: /url "t"', '[^1]: foot ![f](f.png)', '<div>\n<img src="d.png">\n</div>', '$$\nm\n$$', '***', '    indented $x$'),
      // Tables the batch-level table test must not miss: one column without pipes, in quotes and list items, CRLF.
      fc.constantFrom('h\n:-', 'h\n-:\nx', '> h\n> :-:\n> x', '- i\n\n  h\n  --:\n  x', '| a |\r\n| - |\r\n| b |', 'Note: x -- y', 'a:-b'),
    );
    const doc = fc.array(fc.tuple(block, fc.constantFrom('\n', '\n\n', '\n\n\n')), { minLength: 1, maxLength: 12 })
      .map((parts) => parts.map(([b, sep]) => b + sep).join(''));
    fc.assert(
      fc.property(doc, fc.constantFrom(16, 200, 65536), (text, batchSize) => {
        expectSameBlocks(text, { batchSize });
      }),
      fcParams(300),
    );
  });
});
