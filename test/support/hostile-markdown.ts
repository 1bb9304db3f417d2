/**
 * Generated Markdown of the shapes real folders hold and well-written documents do not: CSV exports, generated
 * changelogs, HTML converted without blank lines, junk bytes named `.md`, deep nesting, lines of megabytes. Each
 * generator makes about `bytes` bytes of UTF-8 (never less), deterministically, so the tests can make small ones
 * and `bench/hostile.ts` large ones.
 */

/** A deterministic xorshift generator of numbers in [0, 1). */
function random(seed: number): () => number {
  let state = (seed * 2654435761) >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
}

/** Repeats `line(i)` until the text holds `bytes` bytes of UTF-8. */
function lines(bytes: number, line: (i: number) => string, head = ''): string {
  const parts = [head];
  let size = Buffer.byteLength(head);
  for (let i = 0; size < bytes; i++) {
    const l = line(i);
    parts.push(l);
    size += Buffer.byteLength(l);
  }
  return parts.join('');
}

const WORDS = 'alpha beta gamma delta release fixed added removed changed security table value report stream chunk'.split(' ');

/** A generator of one hostile shape. */
export interface HostileShape {
  readonly name: string;
  /** What it stands for. */
  readonly description: string;
  /** Markdown of about `bytes` bytes. */
  readonly make: (bytes: number) => string;
}

/** Every shape, each named for what it is. */
export const HOSTILE_MARKDOWN: readonly HostileShape[] = [
  {
    name: 'csv-table',
    description: 'a CSV export as one GFM table of many rows',
    make: (bytes) => lines(bytes, (i) => `| ${i} | ${WORDS[i % WORDS.length]} | ${(i * 7.31).toFixed(2)} | 2024-${String((i % 12) + 1).padStart(2, '0')}-01 |\n`, '| id | name | amount | date |\n|---|---|---:|---|\n'),
  },
  {
    name: 'changelog',
    description: 'a generated changelog: a heading per release and list items, no blank lines',
    make: (bytes) => lines(bytes, (i) => (i % 6 === 0 ? `## Release ${i / 6}.0.0\n` : `- ${WORDS[i % WORDS.length]} issue #${i} in the ${WORDS[(i * 3) % WORDS.length]} module\n`)),
  },
  {
    name: 'headings',
    description: 'headings and nothing else, no blank lines',
    make: (bytes) => lines(bytes, (i) => `${'#'.repeat((i % 6) + 1)} Heading ${i}\n`),
  },
  {
    name: 'definitions',
    description: 'link reference definitions, no blank lines',
    make: (bytes) => lines(bytes, (i) => `[ref-${i}]: https://example.org/${i} "Title ${i}"\n`),
  },
  {
    name: 'wide-table',
    description: 'one table of 5,000 columns',
    make: (bytes) => {
      const columns = 5000;
      const row = (f: (c: number) => string) => `|${Array.from({ length: columns }, (_, c) => ` ${f(c)} `).join('|')}|\n`;
      return lines(bytes, (i) => row((c) => String((i + c) % 97)), row((c) => `h${c}`) + row(() => '---'));
    },
  },
  {
    name: 'unclosed-fence',
    description: 'a fenced code block opened and never closed',
    make: (bytes) => lines(bytes, (i) => (i % 9 === 8 ? '\n' : `const value${i} = compute(${i}, "${WORDS[i % WORDS.length]}");\n`), '```js\n'),
  },
  {
    name: 'crlf-blank-lines',
    description: 'nothing but blank lines with CRLF line endings',
    make: (bytes) => '\r\n'.repeat(Math.ceil(bytes / 2)),
  },
  {
    name: 'random-bytes',
    description: 'random bytes named .md (invalid UTF-8, control characters, few line breaks; no NUL, which makes them binary)',
    make: (bytes) => {
      const next = random(5);
      const out = Buffer.alloc(bytes);
      for (let i = 0; i < bytes; i++) out[i] = 1 + Math.floor(next() * 255);
      return out.toString('latin1');
    },
  },
  {
    name: 'deep-list',
    description: 'a list nested 1,000 deep, again and again',
    make: (bytes) => lines(bytes, (i) => `${'  '.repeat(i % 1000)}- item ${i}\n`),
  },
  {
    name: 'deep-quote',
    description: 'block quotes nested 5,000 deep on one line, again and again',
    make: (bytes) => lines(bytes, (i) => `${'>'.repeat(5000)} quoted ${i}\n`),
  },
  {
    name: 'cjk-line',
    description: 'CJK text on one line without punctuation or spaces',
    make: (bytes) => {
      const next = random(7);
      const chars: string[] = [];
      for (let size = 0; size < bytes; size += 3) chars.push(String.fromCharCode(0x4e00 + Math.floor(next() * 20000)));
      return chars.join('');
    },
  },
  {
    name: 'words-line',
    description: 'words on one line, never a line break',
    make: (bytes) => lines(bytes, (i) => `${WORDS[i % WORDS.length]} `),
  },
  {
    name: 'emoji-zwj',
    description: 'emoji ZWJ sequences without spaces',
    make: (bytes) => lines(bytes, (i) => ['👩‍👩‍👧‍👦', '🏳️‍🌈', '👨🏽‍💻', '🧑‍🤝‍🧑', '❤️‍🔥'][i % 5] as string),
  },
  {
    name: 'repeated-char',
    description: 'one character repeated, no spaces, no line breaks',
    make: (bytes) => 'x'.repeat(bytes),
  },
  {
    name: 'html-no-blank-lines',
    description: 'HTML converted to Markdown without blank lines',
    make: (bytes) => lines(bytes, (i) => (i % 4 === 0 ? `<div class="section" id="s${i}">\n` : i % 4 === 3 ? '</div>\n' : `<p>Paragraph ${i} with <b>bold</b> and <a href="/x/${i}">a link</a>.</p>\n`)),
  },
  {
    name: 'unclosed-comment',
    description: 'an HTML comment opened and never closed',
    make: (bytes) => lines(bytes, (i) => `comment line ${i} ${WORDS[i % WORDS.length]}\n`, '<!--\n'),
  },
  {
    name: 'unclosed-math',
    description: 'a display formula opened and never closed',
    make: (bytes) => lines(bytes, (i) => `x_{${i}} = \\frac{${i}}{${i + 1}} + y_{${i}} \\\\\n`, '$$\n'),
  },
  {
    name: 'long-paragraph',
    description: 'one paragraph of soft-wrapped prose, never a blank line',
    make: (bytes) => {
      const next = random(11);
      return lines(bytes, (i) => `${Array.from({ length: 10 }, () => WORDS[Math.floor(next() * WORDS.length)]).join(' ')}${i % 7 === 6 ? '.' : ','}\n`);
    },
  },
  {
    name: 'indented-code',
    description: 'indented code, no blank lines',
    make: (bytes) => lines(bytes, (i) => `    call(${i}); // ${WORDS[i % WORDS.length]}\n`),
  },
  {
    name: 'quote-lines',
    description: 'a block quote of many lines, never a blank line',
    make: (bytes) => lines(bytes, (i) => `> ${WORDS[i % WORDS.length]} ${i} and so on in the quote\n`),
  },
  {
    name: 'brackets',
    description: 'unbalanced brackets and emphasis markers, the inline parser’s worst case',
    make: (bytes) => lines(bytes, (i) => (i % 50 === 49 ? '\n\n' : '[![*a_ ')),
  },
  {
    name: 'one-letter-paragraphs',
    description: 'a one-letter paragraph every three bytes (`a` and a blank line): subtitles, poems and logs look alike',
    make: (bytes) => 'a\n\n'.repeat(Math.ceil(bytes / 3)),
  },
  {
    name: 'setext-headings',
    description: 'a setext heading every four bytes (`a` underlined with `=`), nothing else',
    make: (bytes) => 'a\n=\n'.repeat(Math.ceil(bytes / 4)),
  },
  {
    name: 'tight-atx-headings',
    description: 'an ATX heading every four bytes (`# a`), nothing else',
    make: (bytes) => '# a\n'.repeat(Math.ceil(bytes / 4)),
  },
  {
    name: 'tight-changelog',
    description: 'a generated changelog of one item per release, no blank lines',
    make: (bytes) => lines(bytes, (i) => (i % 2 === 0 ? `## ${i / 2}.0.0\n` : `- fixed #${i}\n`)),
  },
  {
    name: 'control-separated',
    description: 'paths separated by a control character (U+001E) on one line: output of `find -print0` with another separator, as NUL now makes input binary',
    make: (bytes) => lines(bytes, (i) => `./src/${WORDS[i % WORDS.length]}/file-${i}.md\u001e`),
  },
  {
    name: 'unclosed-frontmatter',
    description: 'front matter opened and never closed',
    make: (bytes) => lines(bytes, (i) => `key${i}: value ${i}\n`, '---\n'),
  },
];

/** The shape called `name`. */
export function hostileShape(name: string): HostileShape {
  const shape = HOSTILE_MARKDOWN.find((s) => s.name === name);
  if (shape === undefined) throw new Error(`no hostile shape called ${name}`);
  return shape;
}
