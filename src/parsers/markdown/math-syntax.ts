/**
 * `$$` math blocks and `$` inline math, as remark-math adds them, without KaTeX.
 *
 * remark-math is two lines over `micromark-extension-math` (the syntax) and `mdast-util-math` (the tree). But
 * `micromark-extension-math`'s entry point also exports its HTML renderer, which imports KaTeX: importing
 * remark-math loaded KaTeX's 1.2 MB of source and kept some 2.4 MB of heap and 9 MB of memory for a renderer
 * chunkstream never calls. Its syntax half is read here from the package's own `lib/syntax.js`, which the
 * package does not list in its exports, so it is found next to the resolved entry point. Should a later version
 * move that file, the entry point is used instead: the same syntax, with KaTeX loaded.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { math as mathExtension } from 'micromark-extension-math';
import type { mathFromMarkdown } from 'mdast-util-math';
import type { Processor } from 'unified';
import { bundledPackage } from './remark-packages.js';

type MathSyntax = { math: typeof mathExtension; source: 'syntax' | 'entry' };

const require = createRequire(import.meta.url);

/**
 * Loads the syntax half, synchronously: `require` of an ES module (Node 20.19 and later) keeps this module free of
 * top-level await, which would stop CommonJS users from requiring chunkstream and worker threads under a
 * TypeScript loader from starting. Loaded on first use, with the rest of remark (see `remark.ts`).
 */
function loadMath(): MathSyntax {
  const bundled = bundledPackage<{ math?: typeof mathExtension }>('micromark-extension-math/syntax');
  if (typeof bundled?.math === 'function') return { math: bundled.math, source: 'syntax' };
  const entry = require.resolve('micromark-extension-math');
  try {
    const syntax = require(join(dirname(entry), 'lib', 'syntax.js')) as { math?: typeof mathExtension };
    if (typeof syntax.math === 'function') return { math: syntax.math, source: 'syntax' };
  } catch {
    // Moved or renamed in a later version: the entry point below has the same export.
  }
  return { math: (require(entry) as { math: typeof mathExtension }).math, source: 'entry' };
}

let loaded: MathSyntax | undefined;
const loadedMath = (): MathSyntax => (loaded ??= loadMath());

/** Where the math syntax came from: `syntax` (KaTeX not loaded) or `entry` (a later layout of the package). */
export function mathSyntaxSource(): 'syntax' | 'entry' {
  return loadedMath().source;
}

/** A unified plugin doing what remark-math does for parsing: math syntax in, `math` and `inlineMath` nodes out. */
export function remarkMathSyntax(this: Processor): undefined {
  const data = this.data();
  type MdastMath = { mathFromMarkdown: typeof mathFromMarkdown };
  const { mathFromMarkdown: fromMarkdown } = bundledPackage<MdastMath>('mdast-util-math') ?? (require('mdast-util-math') as MdastMath);
  (data.micromarkExtensions ??= []).push(loadedMath().math());
  (data.fromMarkdownExtensions ??= []).push(fromMarkdown());
  return undefined;
}
