/**
 * `npm run build`: four steps, run at once rather than one after the other, so that the small ones (about a
 * second of CPU together, much of it process start-up) add little to the wall time of the large one:
 *
 * - `tsc -p tsconfig.json`: `src/` to `dist/`, Node code (`src/report/client/` is left out);
 * - `tsc -p src/report/client/tsconfig.json`: the HTML report's browser code, type-checked only (DOM library, no
 *   Node types);
 * - esbuild: that code bundled into one classic script, `src/report/client/main.ts` and the modules it imports, and
 *   `src/report/client/report.css` into one stylesheet, both written to `dist/report/client/` (the package ships
 *   `dist`), where `src/report/client.ts` reads them to inline them into every report. esbuild only strips types.
 *
 * - esbuild: the remark family the Markdown parser loads on first use (unified, remark-parse, remark-gfm,
 *   remark-frontmatter, mdast-util-math, micromark and micromark-extension-math's syntax file) bundled into one
 *   CommonJS file, `dist/parsers/markdown/vendor/remark.cjs`: some 200 modules that cost 160 ms of CPU to load one
 *   by one in every process and thread that needs them load in about 30 (`src/parsers/markdown/remark-packages.ts`).
 *
 * - after `tsc`: js-tiktoken's ranks of each encoding decoded once into the arrays token counting looks up, written
 *   to `dist/chunking/sizers/ranks/<encoding>.bin` (`src/chunking/sizers/rank-table-file.ts`): every process and
 *   thread reads them in a few milliseconds instead of decoding a megabyte of base64 on its first count.
 * - after `tsc`: pdf.js's worker module without image decoding or glyph outlines, written to
 *   `dist/parsers/pdf/vendor/pdf.worker.mjs` under a first line naming the pdfjs-dist worker it was made from
 *   (`src/parsers/pdf/pdfjs-worker.ts`): every PDF sandbox imports it as it is instead of patching 2.1 MB into a
 *   temporary file when it starts. When the patches do not apply to the installed pdfjs-dist, no file is written
 *   (the sandbox then loads pdf.js's own worker) and the build says so; `test/parsers/pdf/pdfjs-worker.test.ts`
 *   fails on such a version.
 *
 * The script stays readable (not minified), as the old hand-written one was, so a reader of a report can audit
 * what runs in it; its hash in the page's Content-Security-Policy pins exactly that. The stylesheet, written one
 * rule per line, loses only its whitespace: no rule is rewritten (esbuild's full minify would turn `rgba()` into
 * rounded hex colours and `::before` into `:before`). Any step failing, or esbuild warning, fails the build.
 *
 *     node scripts/build.mjs
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { build } from 'esbuild';

const ROOT = join(import.meta.dirname, '..');
const CLIENT = join(ROOT, 'src/report/client');
const OUT = join(ROOT, 'dist/report/client');
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');

/** Runs `tsc` on a project; resolves to whether it succeeded (its diagnostics go to the terminal as they come). */
function typeCheck(project) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [TSC, '-p', project], { cwd: ROOT, stdio: 'inherit' });
    child.on('error', (error) => {
      console.error(`tsc -p ${project}: ${error.message}`);
      resolve(false);
    });
    child.on('exit', (code) => resolve(code === 0));
  });
}

/** What both bundles share: UTF-8 kept as it is (the page is UTF-8, and `‹ ›` read better than `\u2039`). */
const COMMON = { bundle: true, charset: 'utf8', legalComments: 'none', logLevel: 'warning', outdir: OUT, absWorkingDir: ROOT };

/** Bundles the page's script and stylesheet; resolves to whether both built without a warning. */
async function bundleClient() {
  try {
    const results = await Promise.all([
      build({
        ...COMMON,
        entryPoints: { page: join(CLIENT, 'main.ts') },
        tsconfig: join(CLIENT, 'tsconfig.json'),
        format: 'iife',
        platform: 'browser',
        // Every current browser; a report opens from disk years after it was written.
        target: 'es2020',
      }),
      build({ ...COMMON, entryPoints: { page: join(CLIENT, 'report.css') }, minifyWhitespace: true }),
    ]);
    // A warning (a CSS property esbuild does not know, an import that resolves oddly) is a mistake in the page.
    return results.every((r) => r.warnings.length === 0);
  } catch {
    return false; // esbuild has printed the errors
  }
}

/**
 * The modules of `remark-packages.ts`, by the name it asks for, each as the package resolves it for `require` (the
 * math syntax is a file its package does not export: found beside the entry point, as `math-syntax.ts` finds it).
 */
function remarkModules() {
  const require = createRequire(join(ROOT, 'package.json'));
  const mathSyntax = join(dirname(require.resolve('micromark-extension-math')), 'lib', 'syntax.js');
  const names = ['unified', 'remark-parse', 'remark-gfm', 'remark-frontmatter', 'mdast-util-math', 'micromark'];
  return [...names.map((name) => [name, name]), ['micromark-extension-math/syntax', mathSyntax]];
}

/** Bundles the remark family into one CommonJS file exporting `packages`; resolves to whether it built without a warning. */
async function bundleRemark() {
  const modules = remarkModules();
  const contents = [
    ...modules.map(([, path], i) => `import * as m${i} from ${JSON.stringify(path)};`),
    `export const packages = { ${modules.map(([name], i) => `${JSON.stringify(name)}: m${i}`).join(', ')} };`,
  ].join('\n');
  try {
    const result = await build({
      stdin: { contents, resolveDir: ROOT, sourcefile: 'remark-packages.js', loader: 'js' },
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      // The packages' licence comments, gathered at the end of the file.
      legalComments: 'eof',
      logLevel: 'warning',
      outfile: join(ROOT, 'dist/parsers/markdown/vendor/remark.cjs'),
    });
    return result.warnings.length === 0;
  } catch {
    return false; // esbuild has printed the errors
  }
}

/** Writes the prebuilt rank table of each encoding, with the modules `tsc` has just built; resolves to whether it did. */
async function writeRankTables() {
  try {
    const { rankArraysOf } = await import('../dist/chunking/sizers/count-tables.js');
    const { encodeRankTableFile, ranksFingerprint } = await import('../dist/chunking/sizers/rank-table-file.js');
    const { parseRanks, prebuiltRankTablePath } = await import('../dist/chunking/sizers/tokens.js');
    const require = createRequire(join(ROOT, 'package.json'));
    for (const encoding of ['cl100k_base', 'o200k_base']) {
      const source = require.resolve(`js-tiktoken/ranks/${encoding}`);
      const bytes = readFileSync(source);
      const ranks = parseRanks(bytes);
      if (ranks === null) throw new Error(`${source} is not the JSON ranks file it used to be`);
      const file = prebuiltRankTablePath(encoding);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, encodeRankTableFile({ pattern: ranks.pat_str, arrays: rankArraysOf(ranks) }, ranksFingerprint(bytes)));
    }
    return true;
  } catch (error) {
    console.error(`rank tables: ${error.message}`);
    return false;
  }
}

/** Writes the PDF sandbox's worker module, with the module `tsc` has just built; resolves to whether nothing failed. */
async function writePdfWorker() {
  try {
    const { prebuiltWorker, prebuiltWorkerPath } = await import('../dist/parsers/pdf/pdfjs-worker.js');
    const file = prebuiltWorkerPath();
    const bytes = prebuiltWorker();
    if (bytes === null) {
      // A copy left by an earlier build would not match the new pdfjs-dist anyway; it is not shipped either.
      rmSync(file, { force: true });
      console.warn(`pdf worker: the patch does not apply to the installed pdfjs-dist; ${file} not written, PDF sandboxes decode images`);
      return true;
    }
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, bytes);
    return true;
  } catch (error) {
    console.error(`pdf worker: ${error.message}`);
    return false;
  }
}

const afterTsc = async (built) => built && (await Promise.all([writeRankTables(), writePdfWorker()])).every(Boolean);
const ok = await Promise.all([typeCheck('tsconfig.json').then(afterTsc), typeCheck(join('src', 'report', 'client', 'tsconfig.json')), bundleClient(), bundleRemark()]);
if (!ok.every(Boolean)) process.exit(1);
