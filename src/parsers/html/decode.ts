/**
 * Bytes of an HTML document to text, the way a browser picks the encoding when no HTTP header names one: a byte
 * order mark first, else a `<meta charset>` (or `http-equiv="Content-Type"`) in the first kilobyte, else UTF-8.
 * The first kilobyte is held until it has come (or the input ends), then decoded with what it declared; a
 * declaration that is wrong gives replacement characters, never an error, unless `fatal` asks for one on invalid
 * UTF-8. Strings pass through (they are already text).
 */
import { createUtf8Decoder, type Utf8Decoder } from '../utf8-decoder.js';

/** How much of the input the `<meta charset>` prescan looks at, as the HTML standard's prescan does. */
export const CHARSET_PRESCAN_BYTES = 1024;

/** `<meta charset=x>` and `<meta http-equiv=Content-Type content="text/html; charset=x">`, read in Latin-1. */
const META_CHARSET = /<meta\b[^>]*?\bcharset\s*=\s*["']?\s*([A-Za-z0-9_:.+-]+)/i;

/** Decodes one document's writes into text. */
export interface HtmlDecoder {
  write(input: string | Uint8Array): string;
  end(): string;
  /** The encoding chosen (`utf-8` until the head has been read). */
  readonly encoding: string;
}

/** The encoding of a document's first bytes: its byte order mark, its `<meta charset>`, else UTF-8. */
export function sniffEncoding(head: Uint8Array): string {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return 'utf-8';
  if (head[0] === 0xfe && head[1] === 0xff) return 'utf-16be';
  if (head[0] === 0xff && head[1] === 0xfe) return 'utf-16le';
  const declared = META_CHARSET.exec(Buffer.from(head.subarray(0, CHARSET_PRESCAN_BYTES)).toString('latin1'))?.[1];
  if (declared === undefined) return 'utf-8';
  let encoding: string;
  try {
    encoding = new TextDecoder(declared).encoding;
  } catch {
    // A label no decoder knows: the default, as a browser does.
    return 'utf-8';
  }
  // A page read as ASCII to find its meta cannot be UTF-16: the standard reads such a declaration as UTF-8.
  return encoding.startsWith('utf-16') ? 'utf-8' : encoding;
}

/** A decoder of another encoding than UTF-8, in the shape of the UTF-8 one (never fatal: legacy encodings map every byte). */
function legacyDecoder(encoding: string): Utf8Decoder {
  const decoder = new TextDecoder(encoding);
  const read = { bytes: 0 };
  return {
    get bytesRead() {
      return read.bytes;
    },
    write(input) {
      if (typeof input === 'string') return this.end() + input;
      read.bytes += input.length;
      return decoder.decode(input, { stream: true });
    },
    end: () => decoder.decode(),
  };
}

/** Creates the decoder of one HTML document. */
export function createHtmlDecoder(options: { fatal?: boolean } = {}): HtmlDecoder {
  const state = { held: [] as Uint8Array[], heldBytes: 0, decoder: null as Utf8Decoder | null, encoding: 'utf-8' };

  /** Chooses the decoder from the held head and gives the head's text. */
  const decodeHead = (): { decoder: Utf8Decoder; text: string } => {
    const head = Buffer.concat(state.held);
    state.held = [];
    state.encoding = sniffEncoding(head);
    const decoder = state.encoding === 'utf-8' ? createUtf8Decoder(options) : legacyDecoder(state.encoding);
    state.decoder = decoder;
    return { decoder, text: decoder.write(head) };
  };

  return {
    get encoding() {
      return state.encoding;
    },
    write(input) {
      if (state.decoder !== null) return state.decoder.write(input);
      if (typeof input === 'string') {
        if (state.held.length === 0) return (state.decoder = createUtf8Decoder(options)).write(input);
        const { decoder, text } = decodeHead();
        return text + decoder.write(input);
      }
      state.held.push(input);
      state.heldBytes += input.length;
      return state.heldBytes < CHARSET_PRESCAN_BYTES ? '' : decodeHead().text;
    },
    end() {
      if (state.decoder !== null) return state.decoder.end();
      const { decoder, text } = decodeHead();
      return text + decoder.end();
    },
  };
}
