/**
 * `chunkstream/llamaindex`: chunkstream inside LlamaIndex.TS. Needs `@llamaindex/core` (an optional peer
 * dependency), which `import 'chunkstream'` never loads.
 */
export { ChunkstreamNodeParser, type ChunkstreamNodeParserOptions } from './node-parser.js';
export { ChunkstreamFileTransform, type ChunkstreamFileTransformOptions } from './file-transform.js';
export { chunkToNode } from './nodes.js';
export type { AdapterOptions } from '../shared.js';
