/**
 * The docs stay whole: every error code the library raises has its line in docs/api.md, and every link from
 * README.md and docs/*.md to a file of the repository finds it (and, with an anchor, the heading it names).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './cli/support.js';
import { docPages } from './support/doc-snippets.js';

/** Pages the README links that other work is adding: a link to one is checked once the page is there. */
const COMING = new Set(['docs/html.md']);

/** The anchor GitHub gives a heading: lower case, punctuation dropped, spaces to dashes. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

describe('the docs', () => {
  it('give every error code a line in docs/api.md', () => {
    const codes = [...readFileSync(join(ROOT, 'src/errors.ts'), 'utf8').matchAll(/\|\s*'(ERR_[A-Z0-9_]+)'/g)].map((m) => m[1] as string);
    expect(codes.length).toBeGreaterThan(15);
    const api = readFileSync(join(ROOT, 'docs/api.md'), 'utf8');
    expect(codes.filter((code) => !api.includes(`\`${code}\``))).toEqual([]);
  });

  it('link only to files and headings that exist', () => {
    const broken: string[] = [];
    for (const page of docPages(ROOT)) {
      const text = readFileSync(join(ROOT, page), 'utf8').replace(/```[\s\S]*?```/g, '');
      for (const [, target = ''] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target)) continue;
        const [path = '', anchor] = target.split('#');
        const file = path === '' ? join(ROOT, page) : normalize(join(ROOT, dirname(page), path));
        if (!existsSync(file)) {
          if (COMING.has(normalize(join(dirname(page), path)))) continue;
          broken.push(`${page} → ${target}`);
          continue;
        }
        if (anchor !== undefined && file.endsWith('.md')) {
          const headings = [...readFileSync(file, 'utf8').matchAll(/^#+ (.+)$/gm)].map((m) => anchorOf(m[1] as string));
          if (!headings.includes(anchor)) broken.push(`${page} → ${target} (no such heading)`);
        }
      }
    }
    expect(broken).toEqual([]);
  });
});
