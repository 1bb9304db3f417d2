/**
 * The PDF sandbox: a child process that runs pdf.js for the PDF reader (`sandbox.ts`), one document at a time,
 * answering each request of `sandbox-messages.ts` in order. The reader watches its time and memory and kills it
 * when a document goes past its limits; nothing here needs to police itself. It exits when the reader goes away.
 */
import { loadPdfjs, openPdf, PdfReadError, type OpenedPdf } from './pdfjs-reader.js';
import { packItems, type SandboxReply, type SandboxRequest } from './sandbox-messages.js';

let document: OpenedPdf | null = null;
/** Requests are handled one after the other, in the order they came. */
let queue: Promise<void> = Promise.resolve();

function reply(message: SandboxReply): void {
  process.send?.(message);
}

function failure(error: unknown, page?: number): SandboxReply {
  if (error instanceof PdfReadError) {
    return { op: 'failed', code: error.code, message: error.message, ...(error.page !== undefined ? { page: error.page } : {}) };
  }
  // pdf.js overflowing the stack on a deeply nested object, or any other failure inside it: the file is at fault.
  const message = error instanceof Error ? error.message : String(error);
  return { op: 'failed', code: 'ERR_PDF_INVALID', message: page === undefined ? `The input is not a readable PDF: ${message}` : `Page ${page} cannot be read: ${message}`, ...(page !== undefined ? { page } : {}) };
}

async function handle(request: SandboxRequest): Promise<void> {
  if (request.op === 'open') {
    await document?.close();
    document = null;
    try {
      document = await openPdf(request.source, request.password);
      reply({ op: 'opened', pages: document.pages, outline: document.outline, warnings: document.warnings, ...(document.title !== undefined ? { title: document.title } : {}) });
    } catch (error) {
      reply(failure(error));
    }
  } else if (request.op === 'page' || request.op === 'graphics') {
    if (document === null) return reply({ op: 'failed', code: 'ERR_INTERNAL', message: 'No PDF is open' });
    try {
      if (request.op === 'page') {
        const page = await document.page(request.number);
        reply({ op: 'page', number: page.number, packed: packItems(page.items), truncated: page.truncated, ...(page.frame !== undefined ? { frame: page.frame } : {}) });
      }
      else reply({ op: 'graphics', ...(await document.graphics(request.number)) });
    } catch (error) {
      reply(failure(error, request.number));
    }
  } else {
    const open = document;
    document = null;
    try {
      await open?.close();
    } finally {
      reply({ op: 'closed' });
    }
  }
}

process.on('message', (request: SandboxRequest) => {
  queue = queue.then(() => handle(request)).catch((error: unknown) => reply(failure(error)));
});
// Loading pdf.js is not the document's work: the reader starts its clock once this process says it is ready.
queue = loadPdfjs().then(
  () => reply({ op: 'ready' }),
  (error: unknown) => reply({ op: 'failed', code: 'ERR_INTERNAL', message: `pdf.js cannot be loaded: ${(error as Error).message}` }),
);
// The reader is gone (it exited, or dropped this process): nothing is left to do.
process.on('disconnect', () => process.exit(0));
