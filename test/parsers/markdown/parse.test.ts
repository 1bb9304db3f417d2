import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseMarkdown } from '../../../src/parsers/markdown/parse.js';
import { parse } from '../../../src/stream/parse.js';
import { trackHeadings } from '../../../src/stream/track-headings.js';
import { ChunkError } from '../../../src/errors.js';
import type { Block, CodeBlock, HeadingBlock, ListBlock, TableBlock } from '../../../src/types.js';

async function streamBlocks(pieces: (string | Uint8Array)[], options = {}): Promise<Block[]> {
  const out: Block[] = [];
  await pipeline(
    Readable.from(pieces, { objectMode: true }),
    parse(options),
    new Writable({ objectMode: true, write: (b, _e, cb) => (out.push(b), cb()) }),
  );
  return out;
}

describe('parseMarkdown', () => {
  const guide = readFileSync(new URL('../../../samples/guide.md', import.meta.url), 'utf8');
  const blocks = parseMarkdown(guide);

  it('emits typed blocks whose text is the exact source slice', () => {
    for (const b of blocks) expect(guide.slice(b.start, b.end)).toBe(b.text);
    expect(blocks[0]?.kind).toBe('frontmatter');
  });

  it('gives headings their depth and plain title, ATX and setext alike', () => {
    const headings = blocks.filter((b): b is HeadingBlock => b.kind === 'heading');
    expect(headings.map((h) => [h.depth, h.title])).toEqual([
      [1, 'Harbor Pilot Handbook'],
      [1, 'Getting Started'],
      [2, 'Install'],
      [3, 'Linux'],
      [4, 'Systemd unit'],
      [5, 'Hardening'],
      [6, 'Footnote on SELinux'],
      [3, 'macOS'],
      [2, 'Configuration'],
      [2, 'Operating'],
    ]);
  });

  it('keeps a fence with blank lines inside as one code block with its language and fence', () => {
    const code = blocks.filter((b): b is CodeBlock => b.kind === 'code');
    expect(code.map((c) => [c.lang, c.fence])).toEqual([
      ['bash', '```'],
      ['ini', '~~~'],
      [null, null],
    ]);
    expect(code[0]?.text).toContain('\n\n# The archive');
  });

  it('gives tables their rows (header first) and delimiter row', () => {
    const table = blocks.find((b): b is TableBlock => b.kind === 'table');
    expect(table).toBeDefined();
    const rows = table!.rows.map((r) => guide.slice(r.start, r.end));
    expect(rows).toHaveLength(5);
    expect(rows[0]).toMatch(/^\| Key/);
    expect(guide.slice(table!.delimiterRow.start, table!.delimiterRow.end)).toMatch(/^\|-+\|/);
  });

  it('gives lists their items with nested items', () => {
    const list = blocks.find((b): b is ListBlock => b.kind === 'list' && b.ordered);
    expect(list!.items).toHaveLength(4);
    expect(list!.items[1]!.items).toHaveLength(2);
    expect(guide.slice(list!.items[1]!.items[1]!.start, list!.items[1]!.items[1]!.end)).toContain('Tokens are stored');
  });

  it('maps quotes, HTML, thematic breaks and definitions', () => {
    const kinds = new Set(blocks.map((b) => b.kind));
    for (const k of ['blockquote', 'html', 'thematicBreak', 'definition', 'paragraph']) expect(kinds).toContain(k);
  });

  it('strips a BOM, keeps CRLF, and counts lines from 1', () => {
    const bytes = readFileSync(new URL('../../../samples/windows-crlf.md', import.meta.url));
    expect(bytes[0]).toBe(0xef);
    const text = bytes.toString('utf8').slice(1);
    const crlf = parseMarkdown(bytes);
    expect(crlf[0]).toMatchObject({ kind: 'heading', start: 0, startLine: 1, title: 'Windows notes' });
    for (const b of crlf) expect(text.slice(b.start, b.end)).toBe(b.text);
    expect(crlf.find((b) => b.kind === 'paragraph')!.text).toContain('\r\n');
    const setext = crlf.find((b): b is HeadingBlock => b.kind === 'heading' && b.title === 'Setext under CRLF');
    expect(setext).toMatchObject({ depth: 2 });
    expect(text.split('\r\n')[setext!.startLine - 1]).toBe('Setext under CRLF');
  });

  it('records images and math as block features', () => {
    const [p] = parseMarkdown('See ![a chart](chart.png) and <img src="x.svg"> where $e^{i\\pi}+1=0$.');
    expect(p!.features).toEqual({ images: ['chart.png', 'x.svg'], math: true });
  });

  it('replaces invalid UTF-8 by default and fails with fatal, naming the byte offset', () => {
    const bad = Buffer.from([0x61, 0x62, 0xff, 0x63]);
    expect(parseMarkdown(bad)[0]!.text).toBe('ab\ufffdc');
    try {
      parseMarkdown(bad, { fatal: true });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ChunkError);
      expect(error).toMatchObject({ code: 'ERR_INVALID_UTF8', byteOffset: 2 });
    }
  });

  it('cuts a long region without blank lines at a line boundary within maxBatchSize, the parts marked as continuing', () => {
    const lines = Array.from({ length: 400 }, (_, i) => `line ${i} of a long paragraph without blank lines`);
    const text = lines.join('\n');
    const blocks = parseMarkdown(text, { maxBatchSize: 4096, batchSize: 1024 });
    expect(blocks.length).toBeGreaterThan(1);
    for (const [i, b] of blocks.entries()) {
      expect(text.slice(b.start, b.end)).toBe(b.text);
      expect(b.text.length).toBeLessThanOrEqual(4096);
      expect(b).toMatchObject({ kind: 'paragraph', continuation: { previous: i > 0, next: i < blocks.length - 1 } });
    }
  });

  it('cuts a line longer than maxBatchSize inside it, with a warning, or fails on it with strict', () => {
    const text = 'ok\n\n' + 'x'.repeat(5000);
    const blocks = parseMarkdown(text, { maxBatchSize: 4096, batchSize: 1024 });
    expect(blocks.map((b) => b.text).join('')).toBe(`ok${'x'.repeat(5000)}`);
    expect(blocks.slice(1).every((b) => b.kind === 'paragraph' && b.text.length <= 4096)).toBe(true);
    expect(blocks.at(-1)?.warnings).toEqual(['a line longer than maxBatchSize was cut inside the line']);
    expect(() => parseMarkdown(text, { maxBatchSize: 4096, batchSize: 1024, strict: true })).toThrowError(
      expect.objectContaining({ code: 'ERR_BUFFER_OVERFLOW', byteOffset: 4 }),
    );
  });

  it('tracks a fence opened on a list item marker line, so its indented closing line is not taken for an opener', () => {
    const filler = Array.from({ length: 30 }, (_, i) => `Paragraph ${i} with some words to fill the batch.`).join('\n\n');
    const text = `- \`\`\`\n  code in item\n  \`\`\`\n\n${filler}\n\n\`\`\`\nlet a;\n\nNot a paragraph\n\nlet b;\n\`\`\`\n\nafter\n`;
    const small = parseMarkdown(text, { batchSize: 64 });
    expect(small).toEqual(parseMarkdown(text, { batchSize: 1 << 20 }));
    expect(small.filter((b) => b.kind === 'code')).toHaveLength(1);
  });

  it('cuts batches only where the whole-document parse has a block boundary', () => {
    const loose = Array.from({ length: 60 }, (_, i) => `- item ${i}\n\n  continued ${i}\n`).join('\n');
    const fence = '```\n' + Array.from({ length: 80 }, (_, i) => `code ${i}\n`).join('\n') + '```\n';
    const text = `# Top\n\n${loose}\n${fence}\nafter\n`;
    const small = parseMarkdown(text, { batchSize: 64 });
    const whole = parseMarkdown(text, { batchSize: 1 << 20 });
    expect(small).toEqual(whole);
    expect(small.map((b) => b.kind)).toEqual(['heading', 'list', 'code', 'paragraph']);
  });
});

describe('parse() stream', () => {
  it('emits the blocks of parseMarkdown when fed one byte at a time, splitting UTF-8 and CRLF', async () => {
    const bytes = readFileSync(new URL('../../../samples/multilingual.md', import.meta.url));
    const pieces = [...bytes].map((b) => Uint8Array.of(b));
    expect(await streamBlocks(pieces, { batchSize: 128 })).toEqual(parseMarkdown(bytes, { batchSize: 128 }));
  });

  it('parses a large write piece by piece: the same blocks, inline and on the pool', async () => {
    const text = readFileSync(new URL('../../../samples/guide.md', import.meta.url), 'utf8');
    const bytes = Buffer.from(text.repeat(Math.ceil(200_000 / text.length)));
    const expected = parseMarkdown(bytes, { batchSize: 1024 });
    expect(await streamBlocks([bytes], { batchSize: 1024, workers: 0 })).toEqual(expected);
    expect(await streamBlocks([bytes.subarray(0, 70_000), bytes.subarray(70_000)], { batchSize: 1024, workers: 1 })).toEqual(expected);
  });

  it('with strict, fails once with ERR_BUFFER_OVERFLOW when a later piece of a large write holds a long line, after the blocks before it', async () => {
    const before = 'A paragraph of words.\n\n'.repeat(2000);
    const bytes = Buffer.from(`${before}${'x'.repeat(20_000)}\n\nafter\n`);
    const out: Block[] = [];
    const errors: unknown[] = [];
    await pipeline(
      Readable.from([bytes], { objectMode: true }),
      parse({ batchSize: 1024, maxBatchSize: 16_384, strict: true, workers: 0 }).on('error', (e) => errors.push(e)),
      new Writable({ objectMode: true, write: (b, _e, cb) => (out.push(b), cb()) }),
    ).catch(() => undefined);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ code: 'ERR_BUFFER_OVERFLOW', byteOffset: before.length });
    // The pieces before the long line were parsed and emitted: their paragraphs came out before the error.
    expect(out.length).toBeGreaterThan(1000);
    expect(out.every((b) => b.kind === 'paragraph')).toBe(true);
  });

  it('detects PDF input from the first bytes and Markdown otherwise', async () => {
    const blocks = await streamBlocks(['# T', 'itle\n\nbody\n']);
    expect(blocks.map((b) => b.kind)).toEqual(['heading', 'paragraph']);
  });

  it('rejects objects that are not text or bytes with ERR_INVALID_INPUT', async () => {
    await expect(streamBlocks([{ not: 'text' } as unknown as string])).rejects.toMatchObject({ code: 'ERR_INVALID_INPUT' });
  });

  it('respects backpressure: a paused sink stops the source from being read to the end', async () => {
    const section = '## Section\n\n' + 'Some words in a paragraph. '.repeat(40) + '\n\n';
    let produced = 0;
    const total = 2000;
    const source = new Readable({
      read() {
        if (produced >= total) return this.push(null);
        produced++;
        this.push(section);
      },
    });
    const stage = parse({ batchSize: 1024 });
    source.pipe(stage);
    // Nobody reads from the stage: the source must stall far before its end.
    await new Promise((r) => setTimeout(r, 200));
    expect(produced).toBeLessThan(total / 4);
    const buffered = stage.readableLength;
    expect(buffered).toBeLessThan(200);
    source.destroy();
    stage.destroy();
  });

  it('attaches heading context with trackHeadings()', async () => {
    const out: Block[] = [];
    await pipeline(
      Readable.from(['# A\n\n## B\n\ntext\n\n### C\n\nmore\n\n## D\n\nend\n']),
      parse(),
      trackHeadings(),
      new Writable({ objectMode: true, write: (b, _e, cb) => (out.push(b), cb()) }),
    );
    expect(out.map((b) => b.heading?.path)).toEqual([['A'], ['A', 'B'], ['A', 'B'], ['A', 'B', 'C'], ['A', 'B', 'C'], ['A', 'D'], ['A', 'D']]);
    expect(out[4]!.heading?.breadcrumb).toBe('A > B > C');
  });

  it('uses an injected tracker', async () => {
    const calls: [number, string][] = [];
    const tracker = {
      update: (level: number, text: string) => void calls.push([level, text]),
      getPath: () => ['injected'],
      getLevels: () => [1],
      reset: () => undefined,
    };
    const out: Block[] = [];
    await pipeline(
      Readable.from(['# A\n\ntext\n']),
      parse(),
      trackHeadings({ tracker }),
      new Writable({ objectMode: true, write: (b, _e, cb) => (out.push(b), cb()) }),
    );
    expect(calls).toEqual([[1, 'A']]);
    expect(out.every((b) => b.heading?.path[0] === 'injected')).toBe(true);
  });
});
