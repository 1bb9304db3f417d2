/** Chunks built with the shared chunk factory, for sink tests. */
import { finishChunk } from '../../src/chunking/chunk-factory.js';
import type { Chunk } from '../../src/types.js';

/** Three chunks of a small document, the second under a heading, the third on a PDF page with an embed text. */
export function sampleChunks(): Chunk[] {
  const owner = { documentId: 'guide.md', origin: 'docs/guide.md' };
  return [
    finishChunk({ text: 'Intro text.', start: 0, end: 11, startLine: 1, endLine: 1, size: 3 }, owner, 0),
    finishChunk(
      {
        text: '```js\nx\n```',
        start: 20,
        end: 31,
        startLine: 3,
        endLine: 5,
        size: 5,
        heading: { path: ['Install', 'Linux'], levels: [1, 2], breadcrumb: 'Install > Linux' },
        metadata: { hasCode: true, languages: ['js'], kinds: ['code'] },
        oversized: true,
      },
      owner,
      1,
    ),
    {
      ...finishChunk({ text: 'Page text', start: 40, end: 49, startLine: 7, endLine: 8, size: 2, pageStart: 2, pageEnd: 3, embedText: 'Install\n\nPage text' }, owner, 2),
      boxes: [
        { page: 2, x: 72, y: 700, width: 30, height: 10 },
        { page: 3, x: 72, y: 60, width: 20, height: 10 },
      ],
    },
  ];
}
