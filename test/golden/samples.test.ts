/**
 * Golden snapshots: the chunks of every sample at a few sizes. A change in chunking shows up as a reviewable diff
 * of `__snapshots__/samples.test.ts.snap`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chunkFile, chunkText } from '../../src/api/chunk.js';
import type { ChunkOptions } from '../../src/config.js';
import type { Chunk, ChunkStatistics } from '../../src/types.js';
import { samplePdf, SAMPLE_PDF } from '../../scripts/sample-pdf.js';

const SAMPLES = new URL('../../samples/', import.meta.url).pathname;
const SIZES: ChunkOptions[] = [{ maxSize: 128 }, { maxSize: 512 }, { unit: 'chars', maxSize: 1000, overlap: 100 }];

describe('golden chunks of the samples', () => {
  for (const name of readdirSync(SAMPLES).filter((n) => n.endsWith('.md')).sort()) {
    for (const size of SIZES) {
      it(`${name} ${JSON.stringify(size)}`, () => {
        const { chunks, statistics } = chunkText(readFileSync(join(SAMPLES, name)), { ...size, documentId: name });
        expect(summarize(chunks, statistics)).toMatchSnapshot();
      });
    }
  }

  it('handbook.pdf is what scripts/sample-pdf.ts makes', () => {
    expect(Buffer.from(readFileSync(SAMPLE_PDF)).equals(Buffer.from(samplePdf()))).toBe(true);
  });

  for (const size of SIZES) {
    it(`handbook.pdf ${JSON.stringify(size)}`, async () => {
      const { chunks, statistics } = await chunkFile(SAMPLE_PDF, { ...size, documentId: 'handbook.pdf' });
      expect(summarize(chunks, statistics)).toMatchSnapshot();
    });
  }
});

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
