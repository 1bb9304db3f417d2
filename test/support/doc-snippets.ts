/**
 * The code blocks of README.md and docs/*.md that are examples to run: every block fenced as `ts` (or
 * `typescript`). A block in JavaScript is refused (write examples in TypeScript, so that they are type-checked);
 * blocks in other languages (`sh`, `json`, `text`) are text. A comment on the line before a block says what it
 * needs, in words the snippet test knows:
 *
 *     <!-- snippet: name=vercel-ai given=model needs=redis -->
 *
 * - `name`: a name a test uses to check more than that the block ran (what it printed, what it embedded);
 * - `given`: the things a reader brings and a test fakes, imported from `snippet-given.ts` (an embedding `model`,
 *   a vector `store`);
 * - `needs`: what must be on the machine for the block to run (`redis`); it is type-checked everywhere.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** One example, where it is written and what it needs. */
export interface DocSnippet {
  /** The page, relative to the repository: `README.md`, `docs/api.md`. */
  readonly page: string;
  /** The line of the opening fence, 1-based. */
  readonly line: number;
  /** A file name for it, unique and readable: `docs-api-L42`. */
  readonly id: string;
  readonly code: string;
  readonly name: string | undefined;
  readonly given: readonly string[];
  readonly needs: readonly string[];
}

/** A fenced block's opening line: the fence and its language. */
const FENCE = /^(`{3,}|~{3,})\s*([\w-]*)/;
const DIRECTIVE = /^<!--\s*snippet:\s*(.*?)\s*-->\s*$/;
const RUN = new Set(['ts', 'typescript']);
const REFUSED = new Set(['js', 'javascript', 'mjs', 'cjs', 'jsx', 'tsx']);

/** The pages whose examples run: README.md and every Markdown file under docs/. */
export function docPages(root: string): string[] {
  const docs = readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`);
  return ['README.md', ...docs];
}

/** Every example of `page`, in order; throws on a block in JavaScript or a directive it does not understand. */
export function snippetsOf(root: string, page: string): DocSnippet[] {
  const lines = readFileSync(join(root, page), 'utf8').split('\n');
  const out: DocSnippet[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i] as string);
    if (open === null) continue;
    const [, fence, lang = ''] = open;
    let end = i + 1;
    while (end < lines.length && !(lines[end] as string).startsWith(fence as string)) end++;
    const where = `${page}:${i + 1}`;
    if (REFUSED.has(lang)) throw new Error(`${where}: an example in ${lang}; write it in TypeScript (\`\`\`ts) so that it is type-checked`);
    if (RUN.has(lang)) {
      const directive = parseDirective(lines[i - 1] ?? '', where);
      const base = page.replace(/\.md$/, '').replace(/[^A-Za-z0-9]+/g, '-').toLowerCase();
      out.push({ page, line: i + 1, id: `${base}-L${i + 1}`, code: lines.slice(i + 1, end).join('\n'), ...directive });
    }
    i = end;
  }
  return out;
}

/** Every example of README.md and docs/*.md. */
export function allSnippets(root: string): DocSnippet[] {
  return docPages(root).flatMap((page) => snippetsOf(root, page));
}

function parseDirective(line: string, where: string): Pick<DocSnippet, 'name' | 'given' | 'needs'> {
  const match = DIRECTIVE.exec(line.trim());
  const result: { name: string | undefined; given: string[]; needs: string[] } = { name: undefined, given: [], needs: [] };
  if (match === null) return result;
  for (const word of (match[1] as string).split(/\s+/).filter((w) => w !== '')) {
    const [key, value = ''] = word.split('=');
    if (key === 'name') result.name = value;
    else if (key === 'given' || key === 'needs') result[key].push(...value.split(',').filter((v) => v !== ''));
    else throw new Error(`${where}: unknown snippet directive ${JSON.stringify(word)} (name=, given=, needs=)`);
  }
  return result;
}
