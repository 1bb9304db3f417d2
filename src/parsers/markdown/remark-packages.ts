/**
 * The packages of the remark family that the Markdown parser loads on first use (`remark.ts`, `math-syntax.ts`,
 * `block-outline.ts`), from one bundle of them all when the build wrote it, else each from `node_modules`.
 *
 * Why a bundle: loaded one by one, unified, remark-parse, remark-gfm, remark-frontmatter, mdast-util-math and
 * micromark are some 200 ES modules, and resolving, reading and linking them cost about 160 ms of CPU in every
 * process and worker thread that meets one heading with emphasis or one image, as real documents do (Node's API
 * docs, the corpus): a third of a cold pass over a megabyte. `scripts/build.mjs` bundles them with esbuild into
 * `dist/parsers/markdown/vendor/remark.cjs`, which loads, builds the processor and parses a first line in about
 * 30 ms. The bundle holds the versions installed when it was built; the packages stay dependencies, for a tree
 * that was never built and for the math syntax should its file move (see `math-syntax.ts`).
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/** What the bundle holds, by the name each module is required by (the math syntax is a file of its package). */
export type RemarkPackageName = 'unified' | 'remark-parse' | 'remark-gfm' | 'remark-frontmatter' | 'mdast-util-math' | 'micromark' | 'micromark-extension-math/syntax';

/** The bundle's path: the same from `src/parsers/markdown/` (the tests) as from `dist/parsers/markdown/`. */
export const REMARK_BUNDLE = fileURLToPath(new URL('../../../dist/parsers/markdown/vendor/remark.cjs', import.meta.url));

const state: { packages?: Partial<Record<RemarkPackageName, unknown>> } = {};

/** The module `name` from the bundle, or undefined when there is no bundle (or it lacks that module). */
export function bundledPackage<T>(name: RemarkPackageName): T | undefined {
  state.packages ??= load();
  return state.packages[name] as T | undefined;
}

function load(): Partial<Record<RemarkPackageName, unknown>> {
  if (!existsSync(REMARK_BUNDLE)) return {};
  return (createRequire(import.meta.url)(REMARK_BUNDLE) as { packages: Partial<Record<RemarkPackageName, unknown>> }).packages;
}
