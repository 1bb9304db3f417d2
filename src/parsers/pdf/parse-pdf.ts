/**
 * `parsePdf` as the package exports it: the PDF reader (its layout modules and the sandbox that runs pdf.js) is
 * loaded on the first call, so that `import 'chunkstream'` does not load some thirty modules for users of other
 * formats.
 */
import type { ParseOptions } from '../../config.js';
import type { PdfDocument } from './reader.js';

/**
 * Reads a whole PDF, from a file path (read by the sandbox, never held here) or from bytes (copied, never detached),
 * into its blocks, its extracted document text, its page count, `needsOcr` and warnings.
 *
 * ```ts
 * const { blocks, text, pages, needsOcr } = await parsePdf('paper.pdf');
 * ```
 */
export async function parsePdf(input: string | Uint8Array, options?: ParseOptions): Promise<PdfDocument> {
  const reader = await import('./reader.js');
  return reader.parsePdf(input, options);
}
