/**
 * The HTML reader: the element → block mapping, only the content, whitespace and entities as a browser shows them,
 * the encoding from a BOM or `<meta charset>`, source offsets, and the format table's rules for HTML.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { chunkFile } from '../../../src/api/chunk.js';
import { detectFileFormat, detectFormat } from '../../../src/parsers/detect.js';
import { parseHtml } from '../../../src/parsers/html/parse.js';
import { MAX_ATTRIBUTE_LENGTH } from '../../../src/parsers/html/tokens.js';
import type { Block } from '../../../src/types.js';

const dir = mkdtempSync(join(tmpdir(), 'chunkstream-html-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `[kind, text]` of each block, with the depth of headings and the language of code. */
function shape(blocks: readonly Block[]): unknown[] {
  return blocks.map((b) => (b.kind === 'heading' ? [b.kind, b.text, b.depth] : b.kind === 'code' ? [b.kind, b.text, b.lang] : [b.kind, b.text]));
}

const read = (html: string | Uint8Array, options = {}) => shape(parseHtml(html, options).blocks);

describe('parseHtml: blocks', () => {
  it('maps headings, paragraphs, code, tables, lists, quotes, rules and figures', () => {
    const html = `<h1>Guide</h1><p>Some <b>bold</b>
      text &amp; more.<br>Next line</p><pre><code class="language-js">const a = 1;\n  if (a) {}\n</code></pre>
      <table><thead><tr><th>Name</th><th>Value</th></tr></thead><tr><td>a|b</td><td>1</td></tr></table>
      <ul><li>One<li>Two<ol start="3"><li>Nested</ol></ul><blockquote><p>Quoted</p></blockquote><hr>
      <figure><img src="cat.png" alt="A cat"><figcaption>The cat</figcaption></figure>`;
    expect(read(html)).toEqual([
      ['heading', 'Guide', 1],
      ['paragraph', 'Some bold text & more.\nNext line'],
      ['code', 'const a = 1;\n  if (a) {}', 'js'],
      ['table', '| Name | Value |\n| --- | --- |\n| a\\|b | 1 |'],
      ['list', '- One\n- Two\n  3. Nested'],
      ['blockquote', '> Quoted'],
      ['thematicBreak', '---'],
      ['paragraph', 'A cat'],
      ['paragraph', 'The cat'],
    ]);
  });

  it('gives tables their header row and list items their spans', () => {
    const { blocks, text } = parseHtml('<table>\n<caption>Sizes</caption>\n<tr><th>h</th></tr>\n<tr><td>1</td></tr><tr><td>2</td></tr></table><ul><li>a<ul><li>b</li></ul></li><li>c</li></ul>');
    const [caption, table, list] = blocks as [Block, Extract<Block, { kind: 'table' }>, Extract<Block, { kind: 'list' }>];
    expect([caption.kind, caption.text]).toEqual(['paragraph', 'Sizes']);
    expect(table.rows.map((r) => text.slice(r.start, r.end))).toEqual(['| h |', '| 1 |', '| 2 |']);
    expect(text.slice(table.delimiterRow.start, table.delimiterRow.end)).toBe('| --- |');
    expect(list.items.map((i) => [text.slice(i.start, i.end), i.items.map((n) => text.slice(n.start, n.end))])).toEqual([
      ['- a\n  - b', ['- b']],
      ['- c', []],
    ]);
  });

  it('takes the depth from aria-level and role="heading", and leaves permalink anchors out of titles', () => {
    expect(read('<h1>One</h1><h2 aria-level="4">Four</h2><div role="heading" aria-level="3">Three</div><h3>Sphinx<a class="headerlink" href="#s">¶</a></h3>')).toEqual([
      ['heading', 'One', 1],
      ['heading', 'Four', 4],
      ['heading', 'Three', 3],
      ['heading', 'Sphinx', 3],
    ]);
    expect(read('<h2>File system<span><a class="mark" href="#fs">#</a></span><a aria-hidden="true" id="x"></a></h2>')).toEqual([['heading', 'File system', 1]]);
    expect(read('<h1>T</h1><h2><a href="#t">Linked title</a></h2>')).toEqual([['heading', 'T', 1], ['heading', 'Linked title', 2]]);
    expect(read('<h2>Stream<a class="srclink" href="x">[src]</a><span><a class="mark" href="#s">#</a></span></h2>')).toEqual([['heading', 'Stream', 1]]);
  });

  it('counts heading depths from the first heading read (an h1 that was the banner is not read)', () => {
    expect(read('<header><h1>Site</h1></header><main><h2>Page</h2><h3>Section</h3><h2>Other</h2><h1>Top</h1></main>')).toEqual([
      ['heading', 'Page', 1],
      ['heading', 'Section', 2],
      ['heading', 'Other', 1],
      ['heading', 'Top', 1],
    ]);
  });

  it('gives each code element of a pre its own block and language', () => {
    const html = '<pre><input type="checkbox"><code class="language-js mjs">import x;</code><code class="lang-python">y = 1</code><button>copy</button></pre>';
    expect(read(html)).toEqual([
      ['code', 'import x;', 'js'],
      ['code', 'y = 1', 'python'],
    ]);
  });

  it('shows whitespace as a browser does: runs collapse, pre keeps it, CR LF is a line feed', () => {
    expect(read('<p>  a \n\t b  </p><pre>\r\nline 1\r\n  line 2\r</pre>')).toEqual([
      ['paragraph', 'a b'],
      ['code', 'line 1\n  line 2', null],
    ]);
    expect(read('<p>x&nbsp;y &eacute;&#233;&#x1F600;</p>')).toEqual([['paragraph', 'x\u00a0y éé😀']]);
  });

  it('lays out lists in a quote, quotes in a quote and code in a list as they show', () => {
    // Node's docs quote their resolution algorithms as numbered lists, and put a space before each copy button.
    const quote = '<blockquote><ol><li>Assert: x.</li><li>If <em>url</em> ends, then<ol><li>Return.</li></ol>more</li></ol><blockquote><p>b</p></blockquote><p>c</p></blockquote><p>after</p>';
    expect(read(quote)).toEqual([
      ['blockquote', '> 1. Assert: x.\n> 2. If url ends, then\n>    1. Return.\n>    more\n\n> > b\n\n> c'],
      ['paragraph', 'after'],
    ]);
    const list = '<ol><li>\n<p>Copy it:</p><pre><code class="language-bash">cp a b</code> <button>copy</button></pre></li><li>a<ul><li>b</li></ul>c</li></ol>';
    expect(read(list)).toEqual([['list', '1. Copy it:\n\n   cp a b\n2. a\n   - b\n   c']]);
  });

  it('reads text outside any block element as paragraphs, and recovers from sloppy markup', () => {
    expect(read('loose<div>in div</div>after<p>one<p>two</div></span><li>stray')).toEqual([
      ['paragraph', 'loose'],
      ['paragraph', 'in div'],
      ['paragraph', 'after'],
      ['paragraph', 'one'],
      ['paragraph', 'two'],
      ['paragraph', 'stray'],
    ]);
  });
});

describe('parseHtml: only the content', () => {
  it('drops scripts, styles, templates, hidden elements, navigation, banners, footers and asides', () => {
    const html = `<head><title>T</title><style>p{}</style></head><body><header>Site</header><nav>Menu</nav><p>Kept</p>
      <script>var p = "<p>no</p>";</script><template><p>no</p></template><noscript>no</noscript><div hidden>no</div>
      <div aria-hidden="true">no</div><aside>no</aside><div role="navigation">no</div><div role="contentinfo">no</div>
      <article><header><h1>Article title</h1></header><p>Body</p><footer>By me</footer></article><footer>Copyright</footer></body>`;
    expect(read(html)).toEqual([
      ['heading', 'Article title', 1],
      ['paragraph', 'Body'],
      ['paragraph', 'By me'],
    ]);
  });

  it('drops the navigation older pages mark with class names only, and keeps it when asked for everything', () => {
    const html = `<div class="navheader"><table class="nav" summary="Navigation header"><tr><td>Prev</td><td>Up</td><td>Next</td></tr></table></div>
      <div class="toc"><ul><li>1. Overview</li></ul></div><h1>Manual</h1><p class="Nav-zlib intro">Kept</p>
      <table class="navigation"><tr><td>Home</td></tr></table><ol class="breadcrumb"><li>Docs</li></ol><p>Also kept</p>
      <div class="TOC  nav"><p>no</p></div>`;
    expect(read(html)).toEqual([
      ['heading', 'Manual', 1],
      ['paragraph', 'Kept'],
      ['paragraph', 'Also kept'],
    ]);
    expect(read(html, { htmlContent: 'all' }).map((b) => b[1]).join(' ')).toMatch(/Prev.*1\. Overview.*Home.*Docs/s);
  });

  it('reads a layout table (role="presentation" or "none") as the blocks its cells hold', () => {
    const html = `<table role="presentation"><tr><td><h1>Guide</h1><p>First.</p></td><td><pre><code class="language-sh">make</code></pre></td></tr></table>
      <table role="none"><tr><td>Cell text</td></tr></table><table><tr><th>Name</th></tr><tr><td>a</td></tr></table>`;
    expect(read(html)).toEqual([
      ['heading', 'Guide', 1],
      ['paragraph', 'First.'],
      ['code', 'make', 'sh'],
      ['paragraph', 'Cell text'],
      ['table', '| Name |\n| --- |\n| a |'],
    ]);
  });

  it('reads a table that lays out a page (a heading in a cell) as the blocks its cells hold from that heading on', () => {
    const html = `<table border="0" width="100%"><tr><td>Logo</td><td>Home</td></tr><tr><td><h2>Description</h2>
      <p>Applies a stylesheet.</p><table border="0"><tr><td>ctxt:</td><td>the context</td></tr></table>
      <h3>Function: apply</h3><pre class="programlisting">void apply(ctxt)</pre></td></tr></table><p>After.</p>`;
    expect(read(html)).toEqual([
      ['table', '| Logo | Home |\n| --- | --- |'],
      ['heading', 'Description', 1],
      ['paragraph', 'Applies a stylesheet.'],
      ['table', '| ctxt: | the context |\n| --- | --- |'],
      ['heading', 'Function: apply', 2],
      ['code', 'void apply(ctxt)', null],
      ['paragraph', 'After.'],
    ]);
    // Layout tables nest: a heading in an inner one ends the outer one too.
    expect(read('<table><tr><td>Logo</td></tr><tr><td><table><tr><td><h4>Usage</h4><p>Text.</p></td></tr></table></td></tr></table>')).toEqual([
      ['table', '| Logo |\n| --- |'],
      ['heading', 'Usage', 1],
      ['paragraph', 'Text.'],
    ]);
    // A data table's cells hold no headings: it stays a table.
    expect(read('<table><tr><th>A</th></tr><tr><td><table><tr><td><b>x</b></td></tr></table></td></tr></table>').map((b) => b[0])).toEqual(['table']);
  });

  it('reads only main when there is one, else a single article, else the whole page', () => {
    expect(read('<p>before</p><main><p>inside</p></main><p>after</p>')).toEqual([['paragraph', 'inside']]);
    expect(read('<p>before</p><div role="main"><p>inside</p></div>')).toEqual([['paragraph', 'inside']]);
    expect(read('<p>before</p><article><p>one</p></article><p>after</p>')).toEqual([['paragraph', 'one']]);
    expect(read('<p>before</p><article><p>one</p></article><p>between</p><article><p>two</p></article>')).toEqual([
      ['paragraph', 'before'],
      ['paragraph', 'one'],
      ['paragraph', 'between'],
      ['paragraph', 'two'],
    ]);
  });

  it("keeps everything visible with htmlContent: 'all'", () => {
    const html = '<nav>Menu</nav><main><p>inside</p></main><footer>Foot</footer><script>no</script>';
    expect(read(html, { htmlContent: 'all' })).toEqual([
      ['paragraph', 'Menu'],
      ['paragraph', 'inside'],
      ['paragraph', 'Foot'],
    ]);
  });
});

describe('parseHtml: text and source offsets', () => {
  it('gives blocks that are slices of the extracted text, pointing at their elements in the source', () => {
    const html = '<!doctype html><h1 id="t">Title</h1>\n<p>A <em>paragraph</em>.</p>';
    const { blocks, text } = parseHtml(html);
    expect(text).toBe('Title\n\nA paragraph.');
    for (const b of blocks) expect(text.slice(b.start, b.end)).toBe(b.text);
    expect(blocks.map((b) => html.slice(b.sourceStart, b.sourceEnd))).toEqual(['<h1 id="t">Title</h1>', '<p>A <em>paragraph</em>.</p>']);
  });

  it('decodes by the BOM, else the meta charset, else UTF-8', () => {
    const latin = Buffer.concat([Buffer.from('<meta charset="iso-8859-1"><p>caf'), Buffer.from([0xe9]), Buffer.from('</p>')]);
    expect(read(latin)).toEqual([['paragraph', 'café']]);
    const httpEquiv = Buffer.concat([Buffer.from('<meta http-equiv="Content-Type" content="text/html; charset=windows-1252"><p>'), Buffer.from([0x93, 0x61, 0x94]), Buffer.from('</p>')]);
    expect(read(httpEquiv)).toEqual([['paragraph', '“a”']]);
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('<p>wide é</p>', 'utf16le')]);
    expect(read(utf16)).toEqual([['paragraph', 'wide é']]);
    expect(read(Buffer.from('\ufeff<meta charset="windows-1252"><p>é</p>', 'utf8'))).toEqual([['paragraph', 'é']]);
  });

  it('reads a wrong declared charset and invalid UTF-8 with replacement characters, or fails with fatal', () => {
    const bytes = Buffer.concat([Buffer.from('<meta charset="utf-8"><p>caf'), Buffer.from([0xe9]), Buffer.from('</p>')]);
    expect(read(bytes)).toEqual([['paragraph', 'caf\ufffd']]);
    expect(() => parseHtml(bytes, { fatal: true })).toThrow(expect.objectContaining({ code: 'ERR_INVALID_UTF8' }));
  });

  it("keeps an alt text up to MAX_ATTRIBUTE_LENGTH, and says so on the image's block when it cut one", () => {
    const image = (alt: string) => parseHtml(`<p>before</p><img alt="${alt}"><p>after</p>`).blocks;
    const whole = image('x'.repeat(MAX_ATTRIBUTE_LENGTH - 1) + '&amp;');
    expect(whole[1]?.text).toBe(`${'x'.repeat(MAX_ATTRIBUTE_LENGTH - 1)}&`);
    expect(whole.flatMap((b) => b.warnings ?? [])).toEqual([]);
    const cut = image('y'.repeat(MAX_ATTRIBUTE_LENGTH) + '&amp;z');
    expect(cut[1]?.text).toBe('y'.repeat(MAX_ATTRIBUTE_LENGTH));
    expect(cut[1]?.warnings).toEqual([expect.stringMatching(/alt text longer than 4096 characters was cut/)]);
    expect(cut.map((b) => b.warnings)).toEqual([undefined, cut[1]?.warnings, undefined]);
  });
});

describe('HTML in the format table', () => {
  it('is detected by its extension and by its first bytes', async () => {
    expect(detectFormat('<!DOCTYPE html>\n<html>')).toBe('html');
    expect(detectFormat('\ufeff <!-- x --><html lang="en">')).toBe('html');
    expect(detectFormat('# Title\n\n<html> in prose')).toBe('markdown');
    writeFileSync(join(dir, 'page'), '<!doctype html><p>x</p>');
    expect(await detectFileFormat(join(dir, 'page'))).toBe('html');
    expect(await detectFileFormat(join(dir, 'x.XHTML'))).toBe('html');
  });

  it('chunkFile gives chunks that are slices of the extracted text, with the heading path', async () => {
    const path = join(dir, 'guide.htm');
    writeFileSync(path, '<nav>menu</nav><main><h1>Guide</h1><p>Read first.</p><h2>Install</h2><p>Run the installer.</p></main>');
    const result = await chunkFile(path, { maxSize: 64 });
    expect(result.format).toBe('html');
    expect(result.text).toBe('Guide\n\nRead first.\n\nInstall\n\nRun the installer.');
    for (const c of result.chunks) expect(result.text.slice(c.start, c.end)).toBe(c.text);
    expect(result.chunks.at(-1)?.heading.path).toEqual(['Guide', 'Install']);
  });
});
