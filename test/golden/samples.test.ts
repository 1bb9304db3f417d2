/**
 * Golden snapshots: the chunks of every sample at a few sizes. A change in chunking shows up as a reviewable diff
 * of `__snapshots__/samples.test.ts.snap`; and every snapshot taken also keeps the chunk contracts, so a snapshot
 * updated by mistake cannot enshrine a broken chunk.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chunkFile, chunkText } from '../../src/api/chunk.js';
import { normalizeOptions, normalizeParseOptions, type ChunkOptions } from '../../src/config.js';
import { runCore } from '../../src/core.js';
import { createHeadingStage } from '../../src/chunking/heading-tracker.js';
import { createSizer } from '../../src/chunking/sizers/index.js';
import { parseMarkdown } from '../../src/parsers/markdown/parse.js';
import { parsePdf } from '../../src/parsers/pdf/reader.js';
import { formatEntry } from '../../src/parsers/formats.js';
import type { Block, Chunk, ChunkStatistics } from '../../src/types.js';
import { checkChunks } from '../support/chunk-contracts.js';
import { samplePdf, SAMPLE_PDF } from '../../scripts/sample-pdf.js';

const SAMPLES = new URL('../../samples/', import.meta.url).pathname;
const SIZES: ChunkOptions[] = [{ maxSize: 128 }, { maxSize: 512 }, { unit: 'chars', maxSize: 1000, overlap: 100 }];

describe('golden chunks of the samples', () => {
  for (const name of readdirSync(SAMPLES).filter((n) => n.endsWith('.md')).sort()) {
    for (const size of SIZES) {
      it(`${name} ${JSON.stringify(size)}`, () => {
        const options = { ...size, documentId: name };
        const { chunks, statistics } = chunkText(readFileSync(join(SAMPLES, name)), options);
        const text = readFileSync(join(SAMPLES, name), 'utf8').replace(/^\uFEFF/, '');
        keepsContracts(text, parseMarkdown(text), chunks, options);
        expect(summarize(chunks, statistics)).toMatchSnapshot();
      });
    }
  }

  for (const name of readdirSync(SAMPLES).filter((n) => n.endsWith('.html') || n.endsWith('.docx')).sort()) {
    for (const size of SIZES) {
      it(`${name} ${JSON.stringify(size)}`, async () => {
        const options = { ...size, documentId: name };
        const { chunks, statistics, text } = await chunkFile(join(SAMPLES, name), options);
        const { blocks } = await formatEntry(name.endsWith('.html') ? 'html' : 'docx').readDocument(join(SAMPLES, name), normalizeParseOptions());
        keepsContracts(text, blocks, chunks, options);
        expect(summarize(chunks, statistics)).toMatchSnapshot();
      });
    }
  }

  // The turns strategy, a transcript's default: windows of whole turns, each an exact slice within maxSize.
  for (const size of [{}, { maxSize: 48 }] as ChunkOptions[]) {
    it(`standup.transcript ${JSON.stringify(size)}`, async () => {
      const path = join(SAMPLES, 'standup.transcript');
      const { chunks, statistics, text } = await chunkFile(path, { ...size, documentId: 'standup.transcript' });
      expect(text).toBe(readFileSync(path, 'utf8'));
      for (const c of chunks) {
        expect(text.slice(c.start, c.end)).toBe(c.text);
        expect(c.size).toBeLessThanOrEqual(size.maxSize ?? 512);
      }
      expect(summarize(chunks, statistics)).toMatchSnapshot();
    });
  }

  it('handbook.pdf is what scripts/sample-pdf.ts makes', () => {
    expect(Buffer.from(readFileSync(SAMPLE_PDF)).equals(Buffer.from(samplePdf()))).toBe(true);
  });

  for (const size of SIZES) {
    it(`handbook.pdf ${JSON.stringify(size)}`, async () => {
      const options = { ...size, documentId: 'handbook.pdf' };
      const { chunks, statistics, text } = await chunkFile(SAMPLE_PDF, options);
      keepsContracts(text, (await parsePdf(SAMPLE_PDF)).blocks, chunks, options);
      expect(summarize(chunks, statistics)).toMatchSnapshot();
    });
  }
});

/** Checks the chunk contracts (exact slices, sizes, coverage or overlap, headings, ids) on one sample's chunks. */
function keepsContracts(text: string, blocks: Iterable<Block>, chunks: readonly Chunk[], options: ChunkOptions): void {
  const config = normalizeOptions(options);
  checkChunks(text, runCore(createHeadingStage(), blocks), chunks, config, createSizer(config));
}

/** A reviewable text form of chunks: positions, sizes, headings, kinds, added text and the text itself, shortened. */
function summarize(chunks: readonly Chunk[], statistics: ChunkStatistics): string {
  const summary = chunks.map((c) =>
    [
      `#${c.index} [${c.start},${c.end}) lines ${c.startLine}-${c.endLine}${c.pageStart === undefined ? '' : ` pages ${c.pageStart}-${c.pageEnd}`} size ${c.size}`,
      `  heading: ${c.heading.breadcrumb}`,
      `  kinds: ${c.metadata.kinds.join(',')}${c.metadata.isSplit ? ' (split)' : ''}${c.metadata.languages.length ? ` langs: ${c.metadata.languages.join(',')}` : ''}${c.metadata.images.length ? ` images: ${c.metadata.images.join(',')}` : ''}${c.metadata.hasFormula ? ' formula' : ''}`,
      ...(c.prefix ? [`  prefix: ${JSON.stringify(c.prefix)}`] : []),
      ...(c.suffix ? [`  suffix: ${JSON.stringify(c.suffix)}`] : []),
      `  text: ${JSON.stringify(c.text.length > 160 ? `${c.text.slice(0, 80)}…${c.text.slice(-60)}` : c.text)}`,
    ].join('\n'),
  );
  return `${summary.join('\n')}\nstatistics: ${JSON.stringify(statistics)}`;
}
