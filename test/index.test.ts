/**
 * The public API, pinned: the names each entry point exports. A change here is a change users see; docs/api.md
 * says why each name is there, and which are kept a release under a former name.
 */
import { describe, expect, it } from 'vitest';

const names = async (entry: Promise<object>): Promise<string[]> => Object.keys(await entry).sort();

describe('public API', () => {
  it('exports exactly these names', async () => {
    expect(await names(import('../src/index.js'))).toMatchInlineSnapshot(`
      [
        "ChunkError",
        "ChunkOptimizer",
        "DefaultHeadingTracker",
        "HeadingTracker",
        "SemanticChunker",
        "TextSplitter",
        "byMarkers",
        "byMarkersStream",
        "byTurns",
        "charSizer",
        "chunk",
        "chunkBlocks",
        "chunkFile",
        "chunkFiles",
        "chunkText",
        "collect",
        "contextualize",
        "countTokens",
        "createGraphemeSizer",
        "createSizer",
        "createTextSplitter",
        "createTokenSizer",
        "createWordSizer",
        "detectFormat",
        "diffChunks",
        "fixedSize",
        "fixedSizeStream",
        "formatBreadcrumb",
        "isChunkError",
        "parse",
        "parseHtml",
        "parseMarkdown",
        "parsePdf",
        "parseText",
        "parseTranscript",
        "readTurns",
        "slidingWindow",
        "slidingWindowStream",
        "toDocument",
        "toDocuments",
        "toJsonl",
        "toParentDocuments",
        "trackHeadings",
        "turnGroups",
      ]
    `);
  });

  it('chunkstream/report exports exactly these names', async () => {
    expect(await names(import('../src/report/index.js'))).toMatchInlineSnapshot(`
      [
        "headingMarks",
        "pageMarks",
        "renderComparison",
        "renderReport",
        "renderTerminal",
        "renderTerminalComparison",
      ]
    `);
  });

  it('chunkstream/langchain, chunkstream/llamaindex and chunkstream/queue export exactly these names', async () => {
    expect({
      langchain: await names(import('../src/integrations/langchain/index.js')),
      llamaindex: await names(import('../src/integrations/llamaindex/index.js')),
      queue: await names(import('../src/integrations/queue/index.js')),
    }).toMatchInlineSnapshot(`
      {
        "langchain": [
          "ChunkstreamLoader",
          "ChunkstreamTextSplitter",
          "chunkToDocument",
        ],
        "llamaindex": [
          "ChunkstreamFileTransform",
          "ChunkstreamNodeParser",
          "chunkToNode",
        ],
        "queue": [
          "DEFAULT_QUEUE_NAME",
          "DEFAULT_REDIS_URL",
          "FINAL_ERROR_CODES",
          "JOB_DATA_VERSION",
          "JOB_NAME",
          "MAX_INLINE_BYTES",
          "createChunkProcessor",
          "createChunkWorker",
          "decodeChunkOptions",
          "encodeChunkOptions",
          "enqueueFiles",
          "formatManifest",
          "getQueueStatus",
          "parseFailedReason",
          "parseManifest",
          "readJobData",
        ],
      }
    `);
  });
});
