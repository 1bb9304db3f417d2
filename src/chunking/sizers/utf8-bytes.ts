/** UTF-8 encoding into a reused buffer, for the counters that merge bytes. */

/**
 * Writes the UTF-8 bytes of `text` into `bytes` (at least three per unit) and returns their number; a lone
 * surrogate becomes U+FFFD, as in `TextEncoder`, js-tiktoken's encoder and the Rust tokenizers library. Written out
 * rather than calling `TextEncoder.encodeInto`, whose call costs more than encoding the few characters of a pre-token.
 */
export function utf8Into(text: string, bytes: Uint8Array): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    let unit = text.charCodeAt(i);
    if (unit < 0x80) {
      bytes[n++] = unit;
      continue;
    }
    if (unit < 0x800) {
      bytes[n++] = 0xc0 | (unit >> 6);
      bytes[n++] = 0x80 | (unit & 0x3f);
      continue;
    }
    if (unit >= 0xd800 && unit <= 0xdfff) {
      const low = unit <= 0xdbff ? text.charCodeAt(i + 1) : Number.NaN;
      if (low >= 0xdc00 && low <= 0xdfff) {
        const cp = 0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00);
        bytes[n++] = 0xf0 | (cp >> 18);
        bytes[n++] = 0x80 | ((cp >> 12) & 0x3f);
        bytes[n++] = 0x80 | ((cp >> 6) & 0x3f);
        bytes[n++] = 0x80 | (cp & 0x3f);
        i++;
        continue;
      }
      unit = 0xfffd;
    }
    bytes[n++] = 0xe0 | (unit >> 12);
    bytes[n++] = 0x80 | ((unit >> 6) & 0x3f);
    bytes[n++] = 0x80 | (unit & 0x3f);
  }
  return n;
}
