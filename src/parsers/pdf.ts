/** PDF input (pdfjs-dist, text layer only). */
import type { ParseConfig } from '../config.js';
import { ChunkError } from '../errors.js';
import type { Block } from '../types.js';

/** Reads a whole PDF into blocks, page by page. */
export async function* readPdfBlocks(_bytes: Uint8Array, _config: ParseConfig): AsyncGenerator<Block> {
  throw new ChunkError('ERR_UNSUPPORTED_FORMAT', 'PDF input is not available yet');
}
