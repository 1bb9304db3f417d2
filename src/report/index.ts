/**
 * `chunkstream/report`: the views of `chunkstream inspect` as functions, for a notebook or a server. The HTML
 * report (one self-contained page, or two runs side by side), the terminal view, and the exact page and heading
 * marks that make them precise. Re-exports only; the main entry does not load the report's page code.
 */
export type { ReportOptions, ReportPageOptions, ComparisonRun } from './html.js';
export { renderReport, renderComparison } from './html.js';
export type { ReportSettings } from './settings.js';
export type { TerminalOptions, TerminalRun, TerminalStatistics } from './terminal.js';
export { renderTerminal, renderTerminalComparison } from './terminal.js';
export type { PageMark } from './layout.js';
export { pageMarks } from './layout.js';
export type { HeadingMark } from './outline.js';
export { headingMarks } from './outline.js';
