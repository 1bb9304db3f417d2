/**
 * Chunk fixtures for the report tests, built without the chunk engine: Markdown blocks packed greedily by size, and
 * hand-made chunks with overlap, prefixes, suffixes and pages.
 */
import { finishChunk, type ChunkDraft } from '../../src/chunking/chunk-factory.js';
import { createLineIndex } from '../../src/unicode/lines.js';
import { createHeadingStage, headingContext } from '../../src/chunking/heading-tracker.js';
import { runCore } from '../../src/core.js';
import { parseMarkdown } from '../../src/parsers/markdown/parse.js';
import type { Block, BlockKind, Chunk, ChunkStatistics } from '../../src/types.js';
import { prose } from '../support/pdf-samples.js';

/** Statistics computed the plain way, for fixtures. */
export function fixtureStats(chunks: readonly Chunk[], extra: Partial<ChunkStatistics> = {}): ChunkStatistics {
  const sizes = chunks.map((c) => c.size);
  const total = sizes.reduce((a, b) => a + b, 0);
  return {
    documents: 1,
    chunks: chunks.length,
    totalSize: total,
    averageSize: chunks.length ? total / chunks.length : 0,
    minSize: chunks.length ? Math.min(...sizes) : 0,
    maxSize: chunks.length ? Math.max(...sizes) : 0,
    oversized: chunks.filter((c) => c.oversized).length,
    oversizedReasons: {},
    undersized: 0,
    warnings: [],
    ...extra,
  };
}

/** Packs Markdown blocks into chunks of at most `maxChars` characters (a block larger than that stands alone), headings starting a new chunk. */
export function markdownChunks(text: string, maxChars: number, documentId = 'doc'): Chunk[] {
  const blocks = runCore(createHeadingStage(), parseMarkdown(text));
  const lineOf = createLineIndex(text);
  const drafts: ChunkDraft[] = [];
  let group: Block[] = [];
  const flush = (): void => {
    if (group.length === 0) return;
    const first = group[0] as Block;
    const last = group.at(-1) as Block;
    const kinds: BlockKind[] = [];
    for (const b of group) if (!kinds.includes(b.kind)) kinds.push(b.kind);
    const languages = group.flatMap((b) => (b.kind === 'code' && b.lang ? [b.lang] : []));
    drafts.push({
      text: text.slice(first.start, last.end),
      start: first.start,
      end: last.end,
      startLine: lineOf(first.start),
      endLine: lineOf(Math.max(first.start, last.end - 1)),
      size: last.end - first.start,
      heading: first.heading,
      metadata: {
        kinds,
        languages,
        hasCode: kinds.includes('code'),
        hasTable: kinds.includes('table'),
        hasList: kinds.includes('list'),
      },
    });
    group = [];
  };
  for (const b of blocks) {
    const start = group[0]?.start ?? b.start;
    if (group.length > 0 && (b.end - start > maxChars || (b.kind === 'heading' && group.some((g) => g.kind !== 'heading')))) flush();
    group.push(b);
  }
  flush();
  return drafts.map((d, i) => finishChunk(d, { documentId, origin: `${documentId}.md` }, i));
}

/** A small document and hand-made chunks covering every drawing case: overlap, added text, pages, a lonely heading, an oversized chunk. */
export function handMadeFixture(): { text: string; chunks: Chunk[] } {
  const text = [
    '# Guide', // 0..7
    '',
    '| a | b |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |',
    '',
    '```js\nconst x = 1;\nconst y = 2;\n```',
    '',
    '## Lonely',
    '',
    '## Next',
    '',
    'Alpha beta gamma delta. Epsilon zeta eta theta. Iota kappa lambda mu.',
  ].join('\n');
  const at = (s: string, from = 0): number => {
    const i = text.indexOf(s, from);
    if (i < 0) throw new Error(`fixture: ${s} not found`);
    return i;
  };
  const lineOf = createLineIndex(text);
  const guide = headingContext(['Guide'], [1]);
  const make = (start: number, end: number, extra: Partial<ChunkDraft>): ChunkDraft => ({
    text: text.slice(start, end),
    start,
    end,
    startLine: lineOf(start),
    endLine: lineOf(Math.max(start, end - 1)),
    size: end - start + (extra.prefix?.length ?? 0) + (extra.suffix?.length ?? 0),
    heading: guide,
    ...extra,
  });
  const row3 = at('| 3 | 4 |');
  const y = at('const y');
  const fenceEnd = at('```', y);
  const lonely = at('## Lonely');
  const next = at('## Next');
  const epsilon = at('Epsilon');
  const iota = at('Iota');
  const drafts: ChunkDraft[] = [
    make(0, row3 - 1, { pageStart: 1, pageEnd: 1, metadata: { kinds: ['heading', 'table'], hasTable: true, isSplit: true } }),
    make(row3, y - 1, { prefix: '| a | b |\n|---|---|\n', suffix: '\n```', pageStart: 1, pageEnd: 2, metadata: { kinds: ['table', 'code'], hasTable: true, hasCode: true, languages: ['js'], isSplit: true } }),
    make(y, fenceEnd + 3, { prefix: '```js\n', pageStart: 2, pageEnd: 2, metadata: { kinds: ['code'], hasCode: true, languages: ['js'], isSplit: true } }),
    make(lonely, lonely + '## Lonely'.length, { heading: headingContext(['Guide', 'Lonely'], [1, 2]), pageStart: 2, pageEnd: 2, metadata: { kinds: ['heading'] } }),
    make(next, iota - 1, { heading: headingContext(['Guide', 'Next'], [1, 2]), pageStart: 4, pageEnd: 4, metadata: { kinds: ['heading', 'paragraph'] } }),
    // Overlap: the previous chunk's last sentence is repeated.
    make(epsilon, text.length, {
      heading: headingContext(['Guide', 'Next'], [1, 2]),
      pageStart: 4,
      pageEnd: 4,
      oversized: true,
      metadata: { kinds: ['paragraph'], isSplit: true, oversizedReason: 'test' },
    }),
  ];
  return { text, chunks: drafts.map((d, i) => finishChunk(d, { documentId: 'guide', origin: 'guide.md' }, i)) };
}

/** A document that tries every way out of the page: script and style end tags, event handlers, `javascript:` links, a fake JSON end. */
export function hostileFixture(): { text: string; chunks: Chunk[] } {
  const text = [
    '# <script>window.__pwned = 1; alert("heading")</script>',
    '',
    'Click [here](javascript:window.__pwned=2) or <a href="javascript:alert(1)">there</a>.',
    '',
    '</style><style>body{display:none}</style> <img src=x onerror="window.__pwned=3">',
    '',
    '</script><script>window.__pwned = 4</script> <!-- "quotes" & \'apostrophes\' -->',
    '',
    '\u2028line separator\u2029 and {"chunks": []} </main></aside>',
  ].join('\n');
  const parts = text.split('\n\n');
  let from = 0;
  const drafts: ChunkDraft[] = parts.map((p, i) => {
    const start = text.indexOf(p, from);
    from = start + p.length;
    return {
      text: p,
      start,
      end: start + p.length,
      startLine: 1 + 2 * i,
      endLine: 1 + 2 * i,
      size: p.length,
      heading: headingContext(['<script>alert("crumb")</script>', '"><img src=x onerror=alert(2)>'], [1, 2]),
      prefix: i === 1 ? '<script>window.__pwned = 5</script>' : '',
      suffix: i === 2 ? '</div></div><script>window.__pwned = 6</script>' : '',
      metadata: { kinds: ['paragraph'], languages: ['</script><script>window.__pwned=7</script>'] },
    };
  });
  return { text, chunks: drafts.map((d, i) => finishChunk(d, { documentId: '<b>doc</b>', origin: '"><script>alert(8)</script>' }, i)) };
}

/**
 * A long generated Markdown document with every kind of problem the report points at, for the chunker to cut:
 * sections of prose with third-level headings inside them, empty sections (a heading-only chunk each), one-line
 * sections (undersized), and a large fenced block (oversized with `preserveCode`).
 */
export function problemMarkdown(sections = 60): string {
  const parts: string[] = ['# Field notes on chunking\n', prose(60, 1)];
  for (let i = 0; i < sections; i++) {
    if (i % 9 === 4) {
      // A section with nothing in it before the next one.
      parts.push(`## Empty section ${i}`);
      continue;
    }
    if (i % 7 === 3) {
      parts.push(`## Short section ${i}`, 'One line only.');
      continue;
    }
    parts.push(`## Section ${i}`, prose(70, i * 3 + 2), `### Detail ${i}`, prose(50, i * 3 + 3), prose(40, i * 3 + 4));
    if (i === 20) parts.push('```text\n' + Array.from({ length: 120 }, (_, n) => `line ${n}: ${prose(6, n + 7)}`).join('\n') + '\n```');
  }
  return `${parts.join('\n\n')}\n`;
}
