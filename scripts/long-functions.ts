/**
 * Lists every function, method, accessor and closure below a folder that is longer than a number of lines, longest
 * first (issue #34: "no function over ~80 lines"). A function's lines run from the line its declaration starts on to
 * the line it ends on, as an editor shows them (its TSDoc not counted); a function inside another counts in both.
 * Biome's `noExcessiveLinesPerFunction` counts the body only, so its figures are a little smaller.
 *
 *   npx tsx scripts/long-functions.ts [folder=src] [lines=80]
 *
 * The parser is oxc's, through rolldown (there already, under vite): TypeScript 7's package has no JavaScript parser.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseAst } from 'rolldown/parseAst';

/** One function found too long. */
interface LongFunction {
  where: string;
  name: string;
  lines: number;
}

/** An ESTree node as the walk sees it: a type, source offsets, and children under any key. */
interface AstNode {
  type: string;
  start: number;
  end: number;
  [key: string]: unknown;
}

const FUNCTION_TYPES = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression']);

/** Every `.ts` file below `folder`, `.d.ts` left out. */
function sourceFiles(folder: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(folder)) {
    const path = join(folder, entry);
    if (statSync(path).isDirectory()) files.push(...sourceFiles(path));
    else if (entry.endsWith('.ts') && !entry.endsWith('.d.ts')) files.push(path);
  }
  return files;
}

/** Whether a value is an AST node. */
function isNode(value: unknown): value is AstNode {
  return typeof value === 'object' && value !== null && typeof (value as AstNode).type === 'string';
}

/** The name of a key-bearing node (`id` or `key`), or undefined. */
function ownName(node: AstNode | undefined): string | undefined {
  const id = (node?.id ?? node?.key) as AstNode | undefined;
  return id !== undefined && id !== null && typeof id.name === 'string' ? id.name : undefined;
}

/** The line (1-based) of each offset, from the offsets where lines start. */
function lineOf(lineStarts: readonly number[], offset: number): number {
  let low = 0;
  let high = lineStarts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if ((lineStarts[middle] ?? 0) <= offset) low = middle;
    else high = middle - 1;
  }
  return low + 1;
}

/** The functions of one file longer than `limit` lines. */
function longFunctionsOf(file: string, limit: number): LongFunction[] {
  const text = readFileSync(file, 'utf8');
  const lineStarts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lineStarts.push(i + 1);
  const found: LongFunction[] = [];
  const visit = (node: AstNode, parent: AstNode | undefined): void => {
    if (FUNCTION_TYPES.has(node.type)) {
      // A method's or a variable's function starts where its name does.
      const holder = parent !== undefined && ownName(parent) !== undefined ? parent : node;
      const first = lineOf(lineStarts, holder.start);
      const lines = lineOf(lineStarts, node.end - 1) - first + 1;
      const name = ownName(node) ?? ownName(parent) ?? '<anonymous>';
      if (lines > limit) found.push({ where: `${relative(process.cwd(), file)}:${first}`, name, lines });
    }
    for (const value of Object.values(node)) {
      if (Array.isArray(value)) for (const item of value) isNode(item) && visit(item, node);
      else if (isNode(value)) visit(value, node);
    }
  };
  visit(parseAst(text, { lang: 'ts' }, file) as unknown as AstNode, undefined);
  return found;
}

const folder = process.argv[2] ?? 'src';
const limit = Number(process.argv[3] ?? 80);
const found = sourceFiles(folder).flatMap((file) => longFunctionsOf(file, limit));
found.sort((a, b) => b.lines - a.lines);
for (const { where, name, lines } of found) console.log(`${String(lines).padStart(4)}  ${name}  ${where}`);
console.log(`${found.length} function(s) over ${limit} lines in ${folder}`);
