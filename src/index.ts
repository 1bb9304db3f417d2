/**
 * chunkstream: structure-aware, streaming Markdown and PDF chunking for retrieval. Re-exports only; the list and
 * the reasons for it are in docs/api.md, and a test pins the names. The report lives at `chunkstream/report`, the
 * framework adapters and the queue at their own subpaths.
 */
export type * from './types.js';
export type { Sizer, SizerLike, TextSplitterLike, ChunkOptimizerLike, Chunker } from './protocols.js';
export type { ChunkErrorCode, ChunkErrorContext } from './errors.js';
export { ChunkError, isChunkError } from './errors.js';
export type { ParseOptions, ChunkOptions, ChunkConfig, ContextualizeOptions, ParentsOptions, InputFormat, SizeUnit, TokenEncoding, TokenizerOption, TokenizerSource, HuggingFaceTokenizerJson, HuggingFaceTokenizerLike, StrategyName } from './config.js';

// Parsing: bytes or text → blocks.
export { parse, detectFormat } from './stream/parse.js';
export { parseMarkdown } from './parsers/markdown/parse.js';
export { parseText } from './parsers/text/parse.js';
export { parseHtml, type HtmlDocumentResult } from './parsers/html/parse.js';
export { parsePdf } from './parsers/pdf/parse-pdf.js';
export type { PdfDocument, PdfInfo, PdfInfoListener } from './parsers/pdf/reader.js';
export { parseTranscript } from './parsers/transcript/parse.js';
export type { TurnBlock } from './parsers/transcript/turns.js';
export { trackHeadings } from './stream/track-headings.js';

// Chunking: blocks → chunks, as a stream stage, on a string, on blocks, on files.
export { chunk } from './stream/chunk.js';
export type { ChunkStream } from './stream/chunk.js';
export type { ChunkTextOptions, ChunkFileOptions, ChunkFileResult } from './api/chunk.js';
export { chunkText, chunkFile, chunkBlocks } from './api/chunk.js';
export type { ChunkFilesOptions, ChunkFileOutcome, ChunkFileSuccess, ChunkFileFailure } from './api/files.js';
export { chunkFiles } from './api/files.js';
export type { ChunkDeps } from './chunking/chunker.js';
export { contextualize } from './chunking/embed-text.js';

// The chunker and its parts, configured once and reused.
export { SemanticChunker } from './api/semantic-chunker.js';
export { HeadingTracker, TextSplitter, ChunkOptimizer } from './api/parts.js';
export type {
  HeadingTrackerConstructor,
  TextSplitterConstructor,
  TextSplitterInstance,
  TextSplitterOptions,
  ChunkOptimizerConstructor,
  ChunkOptimizerInstance,
  ChunkOptimizerOptions,
} from './api/parts.js';
export { formatBreadcrumb } from './chunking/heading-tracker.js';
export { charSizer, createGraphemeSizer, createWordSizer } from './chunking/sizers/basic.js';
export { createSizer, createTokenSizer, countTokens, type SizerConfig } from './chunking/sizers/index.js';

// Other strategies: whole documents and streams of text.
export { fixedSize, slidingWindow, byMarkers } from './chunking/strategies/index.js';
export type { FixedSizeOptions, SlidingWindowOptions, MarkersOptions, TurnsOptions } from './chunking/strategies/index.js';
export { byTurns } from './api/strategies.js';
export { fixedSizeStream, slidingWindowStream, byMarkersStream, turnGroups } from './stream/strategies.js';
export type { StrategyStreamOptions, TextStreamOptions } from './stream/strategies.js';

// Ends of a pipeline, and re-indexing.
export type { ToJsonlOptions } from './sinks/to-jsonl.js';
export { toJsonl } from './sinks/to-jsonl.js';
export type { CollectOptions } from './sinks/collect.js';
export { collect } from './sinks/collect.js';
export type { ChunkDocument, ChunkDocumentMetadata, PositionMode, ToDocumentOptions, ParentDocument } from './sinks/documents.js';
export { toDocument, toDocuments, toParentDocuments } from './sinks/documents.js';
export type { ChunkDiff, Identified } from './api/diff.js';
export { diffChunks } from './api/diff.js';

// Kept for one release under their former names (docs/api.md, "Names that go").
export {
  DefaultHeadingTracker,
  createTextSplitter,
  readTurns,
  type SizerProtocol,
  type TextSplitterProtocol,
  type HeadingTrackerProtocol,
  type ChunkOptimizerProtocol,
  type SemanticChunkerParts,
} from './api/deprecated.js';
