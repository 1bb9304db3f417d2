import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { describe, expect, it } from 'vitest';
import { chunkBlocks, chunkFile, chunkText } from '../../src/api/chunk.js';
import { contextualize } from '../../src/chunking/embed-text.js';
import { parseMarkdown } from '../../src/parsers/markdown/parse.js';
import { chunk } from '../../src/stream/chunk.js';
import { parse } from '../../src/stream/parse.js';
import type { Chunk, Span } from '../../src/types.js';
import { referenceChunkIds } from '../support/chunk-contracts.js';
import { tempDir } from '../support/temp-dir.js';

const guide = readFileSync(new URL('../../samples/guide.md', import.meta.url), 'utf8');

async function streamChunks(text: string, options = {}, deps = {}): Promise<Chunk[]> {
  const out: Chunk[] = [];
  await pipeline(Readable.from([text]), parse(), chunk(options, deps), new Writable({ objectMode: true, write: (c, _e, cb) => (out.push(c), cb()) }));
  return out;
}

describe('chunkText', () => {
  it('gives every chunk its id, position, heading, counts and hash', () => {
    const { chunks, statistics } = chunkText(guide, { maxSize: 128, documentId: 'guide', origin: 'samples/guide.md' });
    const linux = chunks.find((c) => c.text.includes('tar xzf'))!;
    expect(linux).toMatchObject({ documentId: 'guide', origin: 'samples/guide.md', heading: { path: ['Getting Started', 'Install'], breadcrumb: 'Getting Started > Install' } });
    // The chunk starts at '## Install', so that is the heading in force at its start.
    expect(linux.text.startsWith('## Install')).toBe(true);
    expect(linux.id).toBe(referenceChunkIds('guide', chunks)[linux.index]);
    expect(linux.id).toMatch(/^guide#[0-9a-f]{16}$/);
    expect(linux.metadata).toMatchObject({ hasCode: true, languages: ['bash'] });
    expect(linux.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(guide.split('\n')[linux.startLine - 1]).toBe(linux.text.split('\n')[0]);
    expect(statistics).toMatchObject({ documents: 1, chunks: chunks.length, oversized: 0 });
    expect(statistics.maxSize).toBeLessThanOrEqual(128);
  });

  it('keeps a heading with what follows it', () => {
    const { chunks } = chunkText(guide, { maxSize: 40 });
    for (const c of chunks) {
      if (/^#{1,6} /.test(c.text)) expect(c.text.trim()).not.toMatch(/^#{1,6} [^\n]*$/);
    }
  });

  it('cuts a heading that fills a chunk alone, so that its last part opens the next chunk with content', () => {
    // The heading is exactly 32 cl100k tokens: with the paragraph's first word it would be 34.
    const heading = "# What these PDFs hold (facts from pdfplumber's own test suite, jsvine/pdfplumber@147f2c4, MIT)";
    const text = `${heading}\n\nUse them to test table extraction: a table found in one of these should come out as a block.\n`;
    const { chunks } = chunkText(text, { maxSize: 32 });
    expect(chunks.every((c) => c.size <= 32)).toBe(true);
    expect(chunks[0]?.text.startsWith('# What these PDFs hold')).toBe(true);
    expect(chunks[0]?.text.length).toBeLessThan(heading.length);
    expect(chunks[1]?.text).toMatch(/MIT\)\n\nUse/);
  });

  it('splits a large table between rows and repeats the header as prefix', () => {
    const rows = Array.from({ length: 60 }, (_, i) => `| row ${i} | value ${i * 7} | some words in a cell |`);
    const table = ['| Name | Value | Notes |', '|------|-------|-------|', ...rows].join('\n');
    const { chunks } = chunkText(`# T\n\n${table}\n`, { maxSize: 120 });
    const pieces = chunks.filter((c) => c.metadata.hasTable);
    expect(pieces.length).toBeGreaterThan(2);
    for (const p of pieces.slice(1)) {
      expect(p.prefix).toBe('| Name | Value | Notes |\n|------|-------|-------|\n');
      expect(p.text).toMatch(/^\| row \d+ \|/);
      expect(p.text).toMatch(/\|$/);
    }
  });

  it('re-opens and closes a long fence with its info string', () => {
    const body = Array.from({ length: 80 }, (_, i) => (i % 10 === 9 ? '' : `print("line ${i}")`)).join('\n');
    const { chunks } = chunkText(`Intro.\n\n\`\`\`python title="x.py"\n${body}\n\`\`\`\n`, { maxSize: 100 });
    const code = chunks.filter((c) => c.metadata.hasCode);
    expect(code.length).toBeGreaterThan(2);
    code.slice(1).forEach((c) => { expect(c.prefix).toBe('```python title="x.py"\n'); });
    code.slice(0, -1).forEach((c) => { expect(c.suffix).toBe('\n```'); });
    expect(code.at(-1)!.suffix).toBe('');
    for (const c of code) expect(c.metadata.languages).toEqual(['python']);
  });

  it('keeps a fence whole with preserveCode and flags it oversized, counted in the statistics', () => {
    const body = Array.from({ length: 80 }, (_, i) => `x = ${i}`).join('\n');
    const { chunks, statistics } = chunkText(`# Code\n\n\`\`\`js\n${body}\n\`\`\`\n\nAfter.\n`, { maxSize: 64, preserveCode: true });
    const big = chunks.find((c) => c.oversized)!;
    expect(big.text).toContain('```js');
    expect(big.text.endsWith('```')).toBe(true);
    expect(statistics.oversized).toBe(1);
    expect(Object.values(statistics.oversizedReasons)).toEqual([1]);
    expect(big.metadata.oversizedReason).toMatch(/preserveCode/);
  });

  it('with contextualize, the embed text starts with the breadcrumb and stays within maxSize', () => {
    const { chunks } = chunkText(guide, { maxSize: 64, contextualize: true });
    for (const c of chunks) {
      expect(c.embedText).toBe(contextualize(c));
      expect(c.size).toBeLessThanOrEqual(64);
      if (c.heading.breadcrumb !== '') expect(c.embedText!.startsWith(`${c.heading.breadcrumb}\n\n`) || c.embedText!.startsWith('…')).toBe(true);
    }
  });

  it('adds overlap as an exact slice reaching back into the previous chunk', () => {
    const prose = Array.from({ length: 40 }, (_, i) => `Sentence number ${i} says something about chunking.`).join(' ');
    const { chunks } = chunkText(prose, { maxSize: 60, overlap: 12 });
    for (let i = 1; i < chunks.length; i++) {
      expect(chunks[i]!.start).toBeLessThan(chunks[i - 1]!.end);
      expect(chunks[i]!.end).toBeGreaterThan(chunks[i - 1]!.end);
      expect(prose.slice(chunks[i]!.start, chunks[i]!.end)).toBe(chunks[i]!.text);
    }
  });

  it('runs the simpler strategies over the same blocks', () => {
    const fixed = chunkText(guide, { strategy: 'fixed', unit: 'chars', maxSize: 300 }).chunks;
    expect(fixed.every((c) => c.text.length <= 300)).toBe(true);
    const window = chunkText(guide, { strategy: 'window', maxSize: 64, overlap: 8 }).chunks;
    expect(window.length).toBeGreaterThan(5);
    for (const c of [...fixed, ...window]) expect(guide.slice(c.start, c.end)).toBe(c.text);
  });
});

describe('dependency injection', () => {
  it('uses an injected sizer given as a plain function', () => {
    const seen: string[] = [];
    const { chunks } = chunkText('# A\n\none two three four five six seven eight\n', { maxSize: 6, targetSize: 6, minSize: 0 }, { sizer: (t: string) => (seen.push(t), t.split(/\s+/).filter(Boolean).length) });
    expect(seen.length).toBeGreaterThan(0);
    for (const c of chunks) expect(c.size).toBeLessThanOrEqual(6);
  });

  it('calls an injected splitter with the oversized text and the limit', () => {
    const calls: [string, number][] = [];
    const splitter = {
      split(text: string, maxSize: number): Span[] {
        calls.push([text, maxSize]);
        const mid = text.indexOf(' ', Math.floor(text.length / 2));
        return [{ start: 0, end: mid }, { start: mid + 1, end: text.length }];
      },
    };
    const long = 'word '.repeat(30).trim();
    chunkText(long, { unit: 'words', maxSize: 20, minSize: 0 }, { textSplitter: splitter });
    expect(calls[0]).toEqual([long, 20]);
  });

  it('uses an injected tracker and optimizer (plain function)', async () => {
    const tracked: string[] = [];
    const tracker = {
      stack: [] as string[],
      update(level: number, text: string) {
        tracked.push(`${level}:${text}`);
      },
      getPath: () => ['fixed path'],
      getLevels: () => [1],
      reset() {},
    };
    let windows = 0;
    const optimizer = (chunks: Chunk[]) => (windows++, chunks.map((c) => ({ ...c, metadata: { ...c.metadata, kinds: ['paragraph' as const] } })));
    const chunks = await streamChunks(guide, { maxSize: 128 }, { tracker, optimizer });
    expect(tracked).toContain('2:Install');
    expect(windows).toBeGreaterThan(0);
    expect(chunks.every((c) => c.heading.path[0] === 'fixed path' && c.metadata.kinds[0] === 'paragraph')).toBe(true);
    expect(chunks.map((c) => c.index)).toEqual(chunks.map((_, i) => i));
  });
});

describe('chunk() stream and chunkBlocks', () => {
  it('gives the chunks of chunkText, and statistics at the end', async () => {
    const stage = chunk({ maxSize: 100 });
    const out: Chunk[] = [];
    await pipeline(Readable.from([guide]), parse(), stage, new Writable({ objectMode: true, write: (c, _e, cb) => (out.push(c), cb()) }));
    expect(out).toEqual(chunkText(guide, { maxSize: 100 }).chunks);
    expect(stage.statistics().chunks).toBe(out.length);
    expect(chunkBlocks(parseMarkdown(guide), { maxSize: 100 }).chunks).toEqual(out);
  });

  it('rejects bad options with ERR_INVALID_OPTION', () => {
    expect(() => chunk({ maxSize: -1 })).toThrowError(expect.objectContaining({ code: 'ERR_INVALID_OPTION', option: 'maxSize' }));
  });
});

describe('chunkFile', () => {
  it('chunks Markdown and returns the document text the offsets point into', async () => {
    const r = await chunkFile(new URL('../../samples/windows-crlf.md', import.meta.url).pathname, { maxSize: 64 });
    expect(r.format).toBe('markdown');
    expect(r.text.charCodeAt(0)).not.toBe(0xfeff);
    for (const c of r.chunks) expect(r.text.slice(c.start, c.end)).toBe(c.text);
    expect(r.chunks[0]!.origin).toMatch(/windows-crlf\.md$/);
  });

  it('chunks a transcript in turn windows', async () => {
    const dir = tempDir('chat');
    const path = join(dir, 'chat.jsonl');
    writeFileSync(path, Array.from({ length: 10 }, (_, i) => JSON.stringify({ speaker: i % 2 ? 'bot' : 'user', text: `message ${i}` })).join('\n'));
    const r = await chunkFile(path, { turnsPerChunk: 4, overlapTurns: 1 });
    expect(r.format).toBe('transcript');
    expect(r.chunks.map((c) => [c.startTurn, c.endTurn])).toEqual([[0, 3], [3, 6], [6, 9]]);
  });

  it('fails with ERR_READ on a missing file', async () => {
    await expect(chunkFile('/nonexistent/file.md')).rejects.toMatchObject({ code: 'ERR_READ' });
  });
});

describe('a document given no documentId', () => {
  it('gets chunk ids that are their content digest alone, the same streamed or not, and an empty documentId', async () => {
    const { chunks, document } = chunkText(guide, { maxSize: 128 });
    expect(document.documentId).toBe('');
    expect(chunks.every((c) => c.documentId === '' && /^#[0-9a-f]{16}(-\d+)?$/.test(c.id))).toBe(true);
    expect(chunks.map((c) => c.id)).toEqual(referenceChunkIds('', chunks));
    expect((await streamChunks(guide, { maxSize: 128 })).map((c) => c.id)).toEqual(chunks.map((c) => c.id));
  });

  it('so that two documents holding the same paragraph give it the same id, and different ones differ', () => {
    const shared = 'A paragraph both documents hold, word for word.';
    const a = chunkText(`# A\n\nOnly in A.\n\n## Shared\n\n${shared}`, { unit: 'chars', maxSize: 60, minSize: 0 }).chunks;
    const b = chunkText(`# B\n\nOnly in B, and longer.\n\n## Shared\n\n${shared}`, { unit: 'chars', maxSize: 60, minSize: 0 }).chunks;
    expect(a.find((c) => c.text.includes(shared))?.id).toBe(b.find((c) => c.text.includes(shared))?.id);
    expect(new Set([...a, ...b].map((c) => c.id)).size).toBe(new Set([...a, ...b].map((c) => c.prefix + c.text + c.suffix)).size);
  });
});
