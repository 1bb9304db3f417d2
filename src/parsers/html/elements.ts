/**
 * What each HTML element means to the block reader: the elements that are never text, the landmarks that are not
 * the page's content, the elements that separate blocks, and the start tags that close an open element (the few
 * rules of the HTML tree construction that change where blocks end, after htmlparser2's table).
 */

/** Elements without content: never on the stack of open elements. */
export const VOID_ELEMENTS: ReadonlySet<string> = new Set([
  'area', 'base', 'basefont', 'bgsound', 'br', 'col', 'embed', 'frame', 'hr', 'img', 'input', 'keygen', 'link', 'meta', 'param', 'source', 'track', 'wbr',
]);

/**
 * Elements whose content is never read as text: code, styles, templates, what scripting replaces, the head, and
 * what a browser draws or asks for rather than shows as text (graphics, embedded documents, form controls).
 */
export const NEVER_TEXT: ReadonlySet<string> = new Set([
  'script', 'style', 'template', 'noscript', 'head', 'title', 'svg', 'canvas', 'iframe', 'object', 'embed', 'audio', 'video', 'picture',
  'select', 'datalist', 'textarea', 'button', 'input', 'option', 'optgroup', 'map', 'frameset', 'noembed', 'noframes',
]);

/** Elements that are not the page's content (navigation, complementary content, site search). */
export const BOILERPLATE: ReadonlySet<string> = new Set(['nav', 'aside', 'search']);

/** `header` and `footer` are boilerplate outside these (a page's banner and footer, not an article's). */
export const SECTIONING: ReadonlySet<string> = new Set(['main', 'article', 'section']);

/** ARIA roles of landmarks that are not the page's content. */
export const BOILERPLATE_ROLES: ReadonlySet<string> = new Set(['navigation', 'banner', 'contentinfo', 'complementary', 'search']);

/**
 * Class names that mark navigation on pages older than `nav` and ARIA: DocBook's `Prev | Up | Next` tables
 * (`class="nav"`, `navheader`, `navfooter`) and tables of contents (`toc`), the `navigation` bars of generated API
 * references, breadcrumb trails and skip links. Matched as whole class names, so `nav-zlib` or `tocbot-content` are not.
 */
export const NAVIGATION_CLASSES: ReadonlySet<string> = new Set(['nav', 'navbar', 'navigation', 'navheader', 'navfooter', 'toc', 'breadcrumb', 'breadcrumbs', 'skip-link']);

/** True when a `class` attribute holds one of `names` as a whole class name (ASCII case-insensitive, as HTML matches them in quirks mode). */
export function hasClassName(classes: string | undefined, names: ReadonlySet<string>): boolean {
  if (classes === undefined) return false;
  for (const name of classes.toLowerCase().split(/[ \t\n\f\r]+/)) if (names.has(name)) return true;
  return false;
}

/** Elements that separate blocks: text before and after them is never one paragraph. */
export const BLOCK_ELEMENTS: ReadonlySet<string> = new Set([
  'address', 'article', 'aside', 'blockquote', 'body', 'caption', 'center', 'dd', 'details', 'dialog', 'dir', 'div', 'dl', 'dt', 'fieldset',
  'figcaption', 'figure', 'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hgroup', 'hr', 'html', 'legend', 'li', 'listing', 'main',
  'menu', 'nav', 'ol', 'p', 'plaintext', 'pre', 'search', 'section', 'summary', 'table', 'tbody', 'td', 'tfoot', 'th', 'thead', 'tr', 'ul', 'xmp',
]);

const P = new Set(['p']);
const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'p']);
const TERMS = new Set(['dd', 'dt', 'p']);

/**
 * Start tags that close the open element on top of the stack when it is one of these: a block closes an open `p`,
 * a list item the item before it, a row or cell the one before it.
 */
export const CLOSED_BY: ReadonlyMap<string, ReadonlySet<string>> = new Map<string, ReadonlySet<string>>([
  ['tr', new Set(['tr', 'th', 'td', 'p'])],
  ['th', new Set(['th', 'td', 'p'])],
  ['td', new Set(['th', 'td', 'p'])],
  ['thead', new Set(['tbody', 'tfoot', 'tr', 'td', 'th'])],
  ['tbody', new Set(['thead', 'tbody', 'tfoot', 'tr', 'td', 'th'])],
  ['tfoot', new Set(['thead', 'tbody', 'tr', 'td', 'th'])],
  ['li', new Set(['li', 'p'])],
  ['dt', TERMS],
  ['dd', TERMS],
  ['h1', HEADINGS],
  ['h2', HEADINGS],
  ['h3', HEADINGS],
  ['h4', HEADINGS],
  ['h5', HEADINGS],
  ['h6', HEADINGS],
  ...['address', 'article', 'aside', 'blockquote', 'details', 'div', 'dl', 'fieldset', 'figcaption', 'figure', 'footer', 'form', 'header', 'hr', 'main', 'nav', 'ol', 'p', 'pre', 'section', 'table', 'ul', 'menu', 'search', 'summary'].map(
    (name) => [name, P] as const,
  ),
]);

/** The depth of each heading element. */
export const HEADING_DEPTH: ReadonlyMap<string, 1 | 2 | 3 | 4 | 5 | 6> = new Map([
  ['h1', 1],
  ['h2', 2],
  ['h3', 3],
  ['h4', 4],
  ['h5', 5],
  ['h6', 6],
] as const);

/**
 * Texts of the links documentation generators put in headings, which are not part of its title: permalinks, and
 * links to the source of what the heading documents (Node's `[src]`, Sphinx's `[source]`).
 */
export const PERMALINK_TEXTS: ReadonlySet<string> = new Set(['#', '¶', '§', '🔗', '⚓', '∞', 'link', 'permalink', '[src]', '[source]', '']);
