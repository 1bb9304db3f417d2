/**
 * `chunkstream/langchain`: chunkstream inside LangChain.js. Needs `@langchain/core` and `@langchain/textsplitters`
 * (optional peer dependencies), which `import 'chunkstream'` never loads.
 */
export { ChunkstreamTextSplitter, chunkToDocument, type ChunkstreamTextSplitterOptions } from './text-splitter.js';
export { ChunkstreamLoader, type ChunkstreamLoaderOptions } from './loader.js';
export type { AdapterOptions } from '../shared.js';
