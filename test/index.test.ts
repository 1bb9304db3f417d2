import { describe, expect, it } from 'vitest';

describe('public API', () => {
  it('exports exactly these names', async () => {
    const names = Object.keys(await import('../src/index.js')).sort();
    expect(names).toMatchInlineSnapshot(`
      [
        "ChunkError",
        "DefaultHeadingTracker",
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
        "fixedSize",
        "fixedSizeStream",
        "formatBreadcrumb",
        "headingMarks",
        "isChunkError",
        "normalizeOptions",
        "normalizeParseOptions",
        "pageMarks",
        "parse",
        "parseMarkdown",
        "parsePdf",
        "readTurns",
        "renderComparison",
        "renderReport",
        "renderTerminal",
        "renderTerminalComparison",
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
