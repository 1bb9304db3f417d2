/** chunkstream: structure-aware, streaming Markdown and PDF chunking for retrieval. Re-exports only. */
export type * from './types.js';
export type { Sizer, SizerLike, TextSplitter, TextSplitterLike, HeadingTracker, ChunkOptimizer, ChunkOptimizerLike, Chunker } from './protocols.js';
export { toSizer, toTextSplitter, toOptimizer } from './protocols.js';
export type { ChunkErrorCode, ChunkErrorContext } from './errors.js';
export { ChunkError, isChunkError } from './errors.js';
export type { ParseOptions, ParseConfig, ChunkOptions, ChunkConfig, InputFormat, SizeUnit, TokenEncoding, StrategyName } from './config.js';
export { normalizeOptions, normalizeParseOptions } from './config.js';
export { DefaultHeadingTracker, formatBreadcrumb } from './core/heading-tracker.js';
export { charSizer, createGraphemeSizer, createWordSizer } from './core/sizers/basic.js';
export { parseMarkdown } from './parsers/markdown.js';
export { parse, detectFormat } from './stream/parse.js';
export { trackHeadings } from './stream/track-headings.js';
export type { ReportOptions } from './report/html.js';
export { renderReport } from './report/html.js';
export type { TerminalOptions } from './report/terminal.js';
export { renderTerminal } from './report/terminal.js';
export type { PageMark } from './report/layout.js';
