/**
 * Generated HTML for the contract properties: pages of every construct the HTML reader maps (headings with
 * permalinks, paragraphs with inline markup, entities and line breaks, code, tables with and without a header,
 * nested lists and code in items, quotes holding lists and quotes, rules, figures), boilerplate it drops, and the sloppy markup browsers accept (unclosed
 * paragraphs and items, stray end tags, CRLF).
 */
import fc from 'fast-check';

const word = fc.constantFrom('alpha', 'beta', 'gamma', 'delta', 'Mr.', 'Smith', 'é', '日本語', '👩‍👩‍👧', 'a&amp;b', '&lt;tag&gt;', '&nbsp;', '&#x1F600;', 'x|y', 'done.');
const words = fc.array(word, { minLength: 1, maxLength: 14 }).map((w) => w.join(' '));
const space = fc.constantFrom(' ', '\n', '\r\n', '  \t', '');
const inline = fc
  .array(fc.oneof(words, words.map((w) => `<b>${w}</b>`), words.map((w) => `<a href="#x">${w}</a>`), words.map((w) => `<code>${w}</code>`), fc.constant('<br>'), fc.constant('<img src="i.png" alt="an image">')), {
    minLength: 1,
    maxLength: 4,
  })
  .chain((parts) => space.map((s) => parts.join(s)));

const heading = fc.tuple(fc.integer({ min: 1, max: 6 }), words, fc.boolean()).map(([d, w, link]) => `<h${d}>${w}${link ? `<a class="anchor" href="#h">#</a>` : ''}</h${d}>`);
const paragraph = fc.tuple(inline, fc.boolean()).map(([t, close]) => `<p>${t}${close ? '</p>' : ''}`);
// Spaces may end the code (Node's docs put one before a copy button): they are held until more text comes.
const code = fc
  .tuple(
    fc.constantFrom('js', 'python', ''),
    fc.array(fc.constantFrom('const a = 1;', '  if (a) {', '\treturn a &lt; 2;', '}', '', 'x  \t'), { minLength: 1, maxLength: 6 }),
    fc.constantFrom('\n', '\r\n'),
    fc.constantFrom('', '', ' <button>copy</button>', '  \t'),
  )
  .map(([lang, lines, nl, end]) => `<pre><code${lang === '' ? '' : ` class="language-${lang}"`}>${lines.join(nl)}</code>${end}</pre>`);
const cells = (tag: string) => fc.array(words, { minLength: 1, maxLength: 4 }).map((c) => c.map((t) => `<${tag}>${t}</${tag}>`).join(''));
const table = fc.tuple(fc.boolean(), cells('th'), fc.array(cells('td'), { minLength: 1, maxLength: 5 })).map(
  ([head, h, rows]) => `<table>\n  ${head ? `<thead><tr>${h}</tr></thead>` : ''}<tbody>${rows.map((r) => `<tr>${r}</tr>\n`).join('')}</tbody></table>`,
);
const item: fc.Arbitrary<string> = fc.letrec((tie) => ({
  item: fc
    .tuple(inline, fc.option(tie('list'), { freq: 4 }), fc.oneof({ weight: 9, arbitrary: fc.constant('') }, { weight: 1, arbitrary: code }), fc.boolean())
    .map(([t, nested, pre, close]) => `<li>${t}${nested ?? ''}${pre}${close ? '</li>' : ''}`),
  list: fc.tuple(fc.constantFrom('ul', 'ol'), fc.array(tie('item'), { minLength: 1, maxLength: 4 })).map(([tag, items]) => `<${tag}>${items.join('')}</${tag}>`),
})).list as fc.Arbitrary<string>;
// A quote holds paragraphs, lists (laid out as a list block's) and quotes.
const quoted = fc.oneof({ weight: 6, arbitrary: paragraph }, { weight: 1, arbitrary: item }, { weight: 1, arbitrary: paragraph.map((p) => `<blockquote>${p}</blockquote>`) });
const quote = fc.array(quoted, { minLength: 1, maxLength: 3 }).map((ps) => `<blockquote>${ps.join('')}</blockquote>`);
const figure = words.map((w) => `<figure><img src="f.png" alt="${w.replaceAll('"', '')}"><figcaption>${w}</figcaption></figure>`);
const boilerplate = fc.constantFrom('<nav><a href="/">Home</a></nav>', '<aside>Related</aside>', '<div hidden>secret</div>', '<script>var x = "<p>";</script>', '<style>p { color: red }</style>', '<div role="navigation">menu</div>', '</div>', '</span>');
const loose = words.map((w) => `<div>${w}</div>`);
const block = fc.oneof(heading, paragraph, code, table, item, quote, figure, boilerplate, loose, fc.constant('<hr>'));

/** An HTML page: an optional doctype and header, blocks, optionally inside `main`. */
export const htmlDocument: fc.Arbitrary<string> = fc
  .tuple(fc.boolean(), fc.boolean(), fc.array(fc.tuple(block, space), { minLength: 1, maxLength: 14 }))
  .map(([doctype, main, blocks]) => {
    const body = blocks.map(([b, s]) => b + s).join('');
    return `${doctype ? '<!DOCTYPE html>\n<html><head><title>Page</title></head><body><header>Site</header>' : ''}${main ? `<main>${body}</main><footer>Foot</footer>` : body}`;
  });
