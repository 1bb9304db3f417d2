/**
 * Pieces of paragraph text dense in what decides whether a `$` starts inline math: dollar and backtick runs,
 * escapes, inline HTML of every kind, autolinks, brackets, quote markers on continuation lines, and a few
 * characters micromark reads specially (tab, NUL, non-ASCII). Joined at random, they make paragraphs where the
 * constructs run into each other.
 */
export const INLINE_MATH_PIECES: readonly string[] = [
  '$', '$', '$$', '$$$', '`', '`', '``', '\\', '\\$', '\\`', '<', '>', '[', ']', '](', '(', ')', '!', '![', 'a', 'b', ' ', ' ', '\n',
  '\n> ', '\n   >', '\n    >', '\n> > ', '\n>>', '\n>    >', '\n>     >', '\n>\t>', '\n  ', '\n- ', '\n1. ', '\n  - ', '\r\n', '\t', '"', "'", '-', '--', '?', '=', '/', ':', '@', '.', 'x', '<!--', '-->', '<!-->', '<?',
  '?>', '<![CDATA[', ']]>', '<!DOCTYPE', '<a', '<a ', '</a', 'b=', 'b="', "b='", 'c:d', '<http:', '<ab+c:', 'u@v', 'u@v.w', '<u@v.w>',
  '&amp;', '*', '_', '~', '\0', 'h', 'www', 'ww.', '<img', 'é', '😀',
  // Link resources, which decide whether a `](` makes a link or an image.
  '](<', '](a', '](a)', '](<a>)', ' "t"', " 't')", ' (t)', '\\(', '\\)', '((', '))', '](\n', ')',
];

