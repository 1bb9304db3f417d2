/**
 * fast-check arbitraries for Markdown documents with the constructs that make chunking hard: headings of every
 * level (ATX and setext), fences with blank lines inside, tables, nested and loose lists, quotes, HTML blocks,
 * math, CRLF line endings and multi-byte text.
 */
import fc from 'fast-check';

const words = fc.constantFrom(
  'alpha', 'beta', 'gamma', 'delta', 'chunk', 'stream', 'résumé', 'naïve', '日本語', '中文', '한국어', 'Ελληνικά',
  'emoji👍', '👩‍👩‍👧‍👦', 'e\u0301', 'x', 'a-b', '`code`', '**bold**', '_em_', '[link](u)', '$x^2$', '<b>',
);
const sentence = fc.array(words, { minLength: 1, maxLength: 14 }).map((w) => w.join(' ') + '.');
const paragraph = fc.array(sentence, { minLength: 1, maxLength: 5 }).map((s) => s.join(' '));
const multiLineParagraph = fc.array(sentence, { minLength: 1, maxLength: 4 }).map((s) => s.join('\n'));

const atx = fc.tuple(fc.integer({ min: 1, max: 6 }), sentence).map(([d, t]) => `${'#'.repeat(d)} ${t}`);
const setext = fc.tuple(fc.constantFrom('=', '-'), sentence).map(([c, t]) => `${t}\n${c.repeat(3)}`);
const fence = fc
  .tuple(fc.constantFrom('```', '~~~', '````'), fc.constantFrom('', 'js', 'python', 'bash'), fc.array(fc.oneof(fc.constant(''), sentence), { minLength: 1, maxLength: 8 }))
  .map(([f, lang, lines]) => `${f}${lang}\n${lines.join('\n')}\n${f}`);
const table = fc
  .tuple(fc.integer({ min: 1, max: 4 }), fc.array(fc.array(words, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 8 }))
  .map(([cols, rows]) => {
    const row = (cells: string[]) => `| ${Array.from({ length: cols }, (_, i) => (cells[i] ?? '').replace(/\|/g, '')).join(' | ')} |`;
    return [row(Array.from({ length: cols }, (_, i) => `h${i}`)), `|${' --- |'.repeat(cols)}`, ...rows.map(row)].join('\n');
  });
const listItem: fc.Arbitrary<string> = fc
  .tuple(sentence, fc.option(fc.array(sentence, { minLength: 1, maxLength: 3 }), { nil: undefined }))
  .map(([head, nested]) => (nested ? `${head}\n${nested.map((n) => `  - ${n}`).join('\n')}` : head));
const list = fc
  .tuple(fc.boolean(), fc.boolean(), fc.array(listItem, { minLength: 1, maxLength: 6 }))
  .map(([ordered, loose, items]) => items.map((it, i) => `${ordered ? `${i + 1}.` : '-'} ${it}`).join(loose ? '\n\n' : '\n'));
const quote = fc.array(sentence, { minLength: 1, maxLength: 3 }).map((s) => s.map((l) => `> ${l}`).join('\n'));
const html = fc.constantFrom('<div>\n<p>html block</p>\n</div>', '<!-- a comment\n\nwith a blank line -->', '<details>\n<summary>More</summary>\n\ntext\n\n</details>');
const math = fc.array(sentence, { minLength: 1, maxLength: 3 }).map((s) => `$$\n${s.join('\n')}\n$$`);
const rule = fc.constantFrom('---', '* * *', '___');

/** One Markdown block. */
export const markdownBlock = fc.oneof(
  { weight: 5, arbitrary: paragraph },
  { weight: 2, arbitrary: multiLineParagraph },
  { weight: 3, arbitrary: atx },
  { weight: 1, arbitrary: setext },
  { weight: 2, arbitrary: fence },
  { weight: 2, arbitrary: table },
  { weight: 2, arbitrary: list },
  { weight: 1, arbitrary: quote },
  { weight: 1, arbitrary: html },
  { weight: 1, arbitrary: math },
  { weight: 1, arbitrary: rule },
);

/** A whole Markdown document, sometimes with front matter, sometimes with CRLF line endings. */
export const markdownDocument = fc
  .tuple(fc.boolean(), fc.array(markdownBlock, { minLength: 0, maxLength: 30 }), fc.boolean())
  .map(([frontmatter, blocks, crlf]) => {
    const text = (frontmatter ? '---\ntitle: t\n---\n\n' : '') + blocks.join('\n\n') + '\n';
    return crlf ? text.replace(/\n/g, '\r\n') : text;
  });

/** Cuts `bytes` into pieces at the given relative positions (any size, including 1 byte). */
export function cutInto(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
  const points = [...new Set(cuts.map((c) => Math.floor(c * bytes.length)))].filter((p) => p > 0 && p < bytes.length).sort((a, b) => a - b);
  const pieces: Uint8Array[] = [];
  let last = 0;
  for (const p of points) {
    pieces.push(bytes.subarray(last, p));
    last = p;
  }
  pieces.push(bytes.subarray(last));
  return pieces;
}
