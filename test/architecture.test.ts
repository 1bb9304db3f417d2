/**
 * The layout holds: each folder of `src/` imports only from the rooms below it, format-specific libraries stay in
 * their format's room, and nothing below the stream adapters loads `node:stream`. Read from the sources'
 * import statements, static and dynamic.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(import.meta.dirname, '../src');

/** Every TypeScript file under `src/`, relative to it. */
function sources(dir = SRC): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sources(path));
    else if (name.endsWith('.ts')) out.push(relative(SRC, path));
  }
  return out;
}

/** The module specifiers a file imports (static imports and exports, dynamic `import()`). */
function importsOf(file: string): string[] {
  const text = readFileSync(join(SRC, file), 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"]*?\bfrom\s*['"]([^'"]+)['"]/g)) out.push(m[1] as string);
  for (const m of text.matchAll(/(?:^|\n)\s*import\s*['"]([^'"]+)['"]/g)) out.push(m[1] as string);
  for (const m of text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) out.push(m[1] as string);
  return out;
}

/** The room of a source file: its first folder, or `base` for the files at the top of `src/`. */
function roomOf(file: string): string {
  const parts = file.split('/');
  return parts.length === 1 ? 'base' : (parts[0] as string);
}

/** What each room may import from (besides itself): the rooms below it. */
const ALLOWED: Readonly<Record<string, readonly string[]>> = {
  base: ['unicode'],
  unicode: ['base'],
  parsers: ['base', 'unicode'],
  chunking: ['base', 'unicode'],
  stream: ['base', 'unicode', 'parsers', 'chunking'],
  api: ['base', 'unicode', 'parsers', 'chunking', 'stream'],
  sinks: ['base', 'unicode', 'chunking', 'stream'],
  report: ['base', 'unicode', 'chunking'],
  files: ['base', 'unicode', 'parsers', 'chunking', 'stream', 'api', 'sinks'],
  integrations: ['base', 'unicode', 'parsers', 'chunking', 'stream', 'api', 'sinks', 'files'],
  cli: ['base', 'unicode', 'parsers', 'chunking', 'stream', 'api', 'sinks', 'report', 'files', 'integrations'],
};

/** Packages that only one room may load, by the start of their names. */
const OWNED: readonly { prefix: RegExp; room: string }[] = [
  { prefix: /^(mdast|micromark|remark|unified)/, room: 'parsers/markdown' },
  { prefix: /^pdfjs-dist/, room: 'parsers/pdf' },
  { prefix: /^htmlparser2/, room: 'parsers/html' },
  { prefix: /^mammoth/, room: 'parsers/docx' },
];

const files = sources();

describe('the layout of src/', () => {
  it('finds the sources and their imports', () => {
    expect(files.length).toBeGreaterThan(50);
    expect(files.flatMap(importsOf).length).toBeGreaterThan(200);
  });

  it('imports only from the rooms below', () => {
    const wrong: string[] = [];
    for (const file of files) {
      const room = roomOf(file);
      if (file === 'index.ts') continue;
      for (const spec of importsOf(file)) {
        if (!spec.startsWith('.')) continue;
        const target = relative(SRC, resolve(join(SRC, dirname(file)), spec)).replace(/\.js$/, '.ts');
        const to = roomOf(target);
        if (to !== room && !(ALLOWED[room] ?? []).includes(to)) wrong.push(`${file} → ${target}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('keeps format libraries in their format’s room, and node:stream out of the base and of chunking', () => {
    const wrong: string[] = [];
    for (const file of files) {
      for (const spec of importsOf(file)) {
        for (const { prefix, room } of OWNED) if (prefix.test(spec) && !file.startsWith(`${room}/`)) wrong.push(`${file} → ${spec}`);
        if ((spec === 'node:stream' || spec === 'node:stream/promises') && ['base', 'unicode', 'chunking'].includes(roomOf(file))) wrong.push(`${file} → ${spec}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
