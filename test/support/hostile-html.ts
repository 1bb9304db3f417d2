/**
 * Hostile HTML shapes, at any size: each is something a crawler meets (or an attacker writes) that a reader holding
 * a document tree, a stack of open elements or a whole text node would choke on. `test/property/html.test.ts`
 * reads them small; `bench/hostile.ts` streams them at 8 and 32 MB.
 */

/** A generator of one hostile shape. */
export interface HostileHtmlShape {
  readonly name: string;
  readonly description: string;
  /** HTML of about `bytes` bytes (bytes themselves for the shapes about encodings). */
  readonly make: (bytes: number) => string | Uint8Array;
}

/** `unit` repeated until `bytes`, between `head` and `tail`. */
function repeat(bytes: number, unit: string, head = '', tail = ''): string {
  return head + unit.repeat(Math.max(1, Math.floor((bytes - head.length - tail.length) / unit.length))) + tail;
}

const WORDS = 'alpha beta gamma delta release fixed added removed changed security table value report stream chunk ';

export const HOSTILE_HTML: readonly HostileHtmlShape[] = [
  { name: 'unclosed-tags', description: 'paragraphs, items, cells and inline elements never closed', make: (b) => repeat(b, `<p><b><i>${WORDS}<li>item <td>cell <span>`) },
  {
    name: 'deep-nesting',
    description: '100,000 nested divs (fewer in small sizes) around text, then their end tags, then paragraphs',
    make: (b) => {
      const depth = Math.min(100_000, Math.floor(b / 24));
      const nested = `${'<div>'.repeat(depth)}deep text${'</div>'.repeat(depth)}`;
      return repeat(b, `<p>${WORDS}</p>`, nested);
    },
  },
  { name: 'huge-text-node', description: 'one text node of the whole size, no tag inside', make: (b) => repeat(b, WORDS, '<p>', '</p>') },
  { name: 'huge-attribute', description: 'one attribute value of the whole size', make: (b) => repeat(b, 'x', '<img alt="', '"><p>after</p>') },
  { name: 'unmatched-end-tags', description: 'end tags that match nothing open (a million in 7 MB), inside open spans', make: (b) => repeat(b, '</div>', `${'<span>'.repeat(500)}<p>text`, '</p>') },
  { name: 'invalid-utf8', description: 'random bytes between tags: invalid UTF-8 throughout', make: (b) => {
    const out = Buffer.alloc(b);
    let state = 7;
    for (let i = 0; i < b; i++) {
      state = (Math.imul(state, 1103515245) + 12345) >>> 0;
      out[i] = i % 97 === 0 ? 0x3c : state >>> 24;
    }
    return out;
  } },
  { name: 'wrong-charset', description: 'UTF-8 text under a meta charset that says windows-1252', make: (b) => repeat(b, '<p>naïve café — 日本語 👩‍👩‍👧</p>', '<meta charset="windows-1252">') },
  { name: 'huge-table', description: 'one table of many rows without a header', make: (b) => repeat(b, `<tr><td>${WORDS}</td><td>42</td></tr>`, '<table>', '</table>') },
  { name: 'huge-list', description: 'one list of many items, some nested', make: (b) => repeat(b, `<li>${WORDS}<ul><li>nested</li></ul></li>`, '<ul>', '</ul>') },
  { name: 'unclosed-comment', description: 'a comment opened and never closed', make: (b) => repeat(b, WORDS, '<p>before</p><!--') },
];
