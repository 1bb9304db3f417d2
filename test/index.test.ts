import { describe, expect, it } from 'vitest';

describe('public API', () => {
  it('exports exactly these names', async () => {
    const names = Object.keys(await import('../src/index.js')).sort();
    expect(names).toMatchInlineSnapshot(`
      [
        "ChunkError",
        "DefaultHeadingTracker",
        "POSITION_KEYS",
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
        "createStrategy",
        "createTextSplitter",
        "createTokenSizer",
        "createWordSizer",
        "detectFormat",
        "diffChunks",
        "fixedSize",
        "fixedSizeStream",
        "formatBreadcrumb",
        "isChunkError",
        "normalizeOptions",
        "normalizeParseOptions",
        "parse",
        "parseMarkdown",
        "parsePdf",
        "parseText",
        "readTurns",
        "renderReport",
        "renderTerminal",
        "slidingWindow",
        "slidingWindowStream",
        "toDocument",
        "toDocuments",
        "toJsonl",
        "toOptimizer",
        "toSizer",
        "toTextSplitter",
        "trackHeadings",
        "turnGroups",
      ]
    `);
  });
});
