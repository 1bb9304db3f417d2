/**
 * Writes small PDFs by hand (objects, content streams, a correct cross-reference table) for tests that need a PDF
 * with a known shape: a given text layout, an image-only page, a page with nothing.
 */

/** One page: a content stream, and whether it uses the image `/Im1`. */
export interface PageSpec {
  /** PDF content stream operators, e.g. `BT /F1 12 Tf 72 720 Td (Hello) Tj ET`. `/F1` is Helvetica, `/F2` Helvetica-Bold. */
  readonly content: string;
  readonly image?: boolean;
}

/** A line of text at a position, as PDF operators. */
export function textAt(x: number, y: number, text: string, size = 12, font = 'F1'): string {
  const escaped = text.replace(/[\\()]/g, (c) => `\\${c}`);
  return `BT /${font} ${size} Tf ${x} ${y} Td (${escaped}) Tj ET`;
}

/** Builds a PDF whose pages are given as content streams. Bytes are Latin-1. */
export function buildPdf(pages: readonly PageSpec[]): Uint8Array {
  const objects: string[] = [];
  const add = (body: string): number => {
    objects.push(body);
    return objects.length;
  };
  const catalog = add('');
  const pagesId = add('');
  const helvetica = add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  const bold = add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>');
  const pixels = '\u0000\u00ff\u00ff\u0000';
  const image = add(
    `<< /Type /XObject /Subtype /Image /Width 2 /Height 2 /ColorSpace /DeviceGray /BitsPerComponent 8 /Length ${pixels.length} >>\nstream\n${pixels}\nendstream`,
  );
  const kids: number[] = [];
  for (const page of pages) {
    const contents = add(`<< /Length ${page.content.length} >>\nstream\n${page.content}\nendstream`);
    const resources = `<< /Font << /F1 ${helvetica} 0 R /F2 ${bold} 0 R >>${page.image === true ? ` /XObject << /Im1 ${image} 0 R >>` : ''} >>`;
    kids.push(add(`<< /Type /Page /Parent ${pagesId} 0 R /MediaBox [0 0 612 792] /Resources ${resources} /Contents ${contents} 0 R >>`));
  }
  objects[catalog - 1] = `<< /Type /Catalog /Pages ${pagesId} 0 R >>`;
  objects[pagesId - 1] = `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${kids.length} >>`;
  let out = '%PDF-1.4\n%\u00e2\u00e3\u00cf\u00d3\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) out += `${String(offset).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root ${catalog} 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new Uint8Array(Buffer.from(out, 'latin1'));
}
