/** chunkstream: structure-aware, streaming Markdown and PDF chunking for retrieval. Re-exports only. */
export type * from './types.js';
export type {
  SizerProtocol,
  TextSplitterProtocol,
  HeadingTrackerProtocol,
  ChunkOptimizerProtocol,
  Sizer,
  SizerLike,
  TextSplitterLike,
  ChunkOptimizerLike,
  Chunker,
} from './protocols.js';
export { toSizer, toTextSplitter, toOptimizer } from './protocols.js';
export type { ChunkErrorCode, ChunkErrorContext } from './errors.js';
export { ChunkError, isChunkError } from './errors.js';
export type { ParseOptions, ParseConfig, ChunkOptions, ChunkConfig, InputFormat, SizeUnit, TokenEncoding, StrategyName } from './config.js';
export { normalizeOptions, normalizeParseOptions } from './config.js';
export { DefaultHeadingTracker, formatBreadcrumb } from './chunking/heading-tracker.js';
export { charSizer, createGraphemeSizer, createWordSizer } from './chunking/sizers/basic.js';
export { createSizer, createTokenSizer, countTokens, type SizerConfig } from './chunking/sizers/index.js';
export { createTextSplitter, type TextSplitterConfig } from './chunking/text-splitter.js';
export { parseMarkdown } from './parsers/markdown/parse.js';
export { parseText } from './parsers/text/parse.js';
export { parseHtml, type HtmlDocumentResult } from './parsers/html/parse.js';
export { parse, detectFormat } from './stream/parse.js';
export { trackHeadings } from './stream/track-headings.js';
export type { PdfDocument, PdfInfo, PdfInfoListener } from './parsers/pdf/reader.js';
export { parsePdf } from './parsers/pdf/reader.js';
export { fixedSize, slidingWindow, byMarkers } from './chunking/strategies/index.js';
export type { FixedSizeOptions, SlidingWindowOptions, MarkersOptions, TurnsOptions } from './chunking/strategies/index.js';
export { createStrategy, byTurns } from './api/strategies.js';
export { readTurns } from './parsers/transcript/turns.js';
export type { TurnBlock } from './parsers/transcript/turns.js';
export { fixedSizeStream, slidingWindowStream, byMarkersStream, turnGroups } from './stream/strategies.js';
export type { StrategyStreamOptions, TextStreamOptions } from './stream/strategies.js';
export type { ChunkTextOptions, ChunkFileOptions, ChunkFileResult } from './api/chunk.js';
export { chunkText, chunkFile, chunkBlocks } from './api/chunk.js';
export { SemanticChunker, type SemanticChunkerParts } from './api/semantic-chunker.js';
export { HeadingTracker, TextSplitter, ChunkOptimizer } from './api/parts.js';
export type {
  HeadingTrackerConstructor,
  TextSplitterConstructor,
  TextSplitterOptions,
  ChunkOptimizerConstructor,
  ChunkOptimizerInstance,
  ChunkOptimizerOptions,
} from './api/parts.js';
export type { ChunkDeps } from './chunking/chunker.js';
export { chunk } from './stream/chunk.js';
export type { ChunkStream } from './stream/chunk.js';
export { contextualize } from './chunking/embed-text.js';
export type { ReportOptions, ReportPageOptions, ComparisonRun } from './report/html.js';
export { renderReport, renderComparison } from './report/html.js';
export type { ReportSettings } from './report/settings.js';
export type { TerminalOptions, TerminalRun, TerminalStatistics } from './report/terminal.js';
export { renderTerminal, renderTerminalComparison } from './report/terminal.js';
export type { PageMark } from './report/layout.js';
export { pageMarks } from './report/layout.js';
export type { HeadingMark } from './report/outline.js';
export { headingMarks } from './report/outline.js';
export type { ToJsonlOptions } from './sinks/to-jsonl.js';
export { toJsonl } from './sinks/to-jsonl.js';
export type { CollectOptions } from './sinks/collect.js';
export { collect } from './sinks/collect.js';
export type { ChunkDocument, ChunkDocumentMetadata, PositionMode, ToDocumentOptions } from './sinks/documents.js';
export { POSITION_KEYS, toDocument, toDocuments } from './sinks/documents.js';
export type { ChunkFilesOptions, ChunkFileOutcome, ChunkFileSuccess, ChunkFileFailure } from './api/files.js';
export { chunkFiles } from './api/files.js';
export type { ChunkDiff, Identified } from './api/diff.js';
export { diffChunks } from './api/diff.js';
