/**
 * Escaping for the three places a document's text can land in a report: HTML text and attributes, JSON inside a
 * `<script>` element, and a terminal.
 */

const HTML_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escapes `& < > " '`, so the result is safe as HTML text and inside a quoted attribute. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] as string);
}

/**
 * `JSON.stringify` for embedding in a `<script type="application/json">` element: `<`, `>` and `&` become `\u003c`,
 * `\u003e`, `\u0026`, so no `</script>` or `<!--` can end or bend the element, and U+2028/U+2029 are escaped for
 * engines that treat them as line ends.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * Makes text safe to print on a terminal: C0 and C1 control characters (an ESC starting a colour or cursor sequence,
 * a lone CR rewinding the line, a BEL) become visible Control Pictures or `\xNN`, and bidirectional overrides (which
 * can make printed text read differently from what it is) become `<U+202E>`; tabs and line ends stay. A CR before LF
 * is dropped so Windows line ends print as one line end.
 */
export function sanitizeTerminal(text: string): string {
  return text.replace(/\r\n|[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g, (c) => {
    if (c === '\r\n') return '\n';
    const code = c.charCodeAt(0);
    if (code >= 0x202a) return `<U+${code.toString(16).toUpperCase()}>`;
    if (code < 0x20) return String.fromCharCode(0x2400 + code);
    if (code === 0x7f) return '\u2421';
    return `\\x${code.toString(16)}`;
  });
}
