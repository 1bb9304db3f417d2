/**
 * What a user gets from `npm install chunkstream`: the package packed as it would be published (`npm pack`),
 * unpacked into the `node_modules` of a fresh project. Its dependencies are not downloaded: every other entry of
 * that `node_modules` links to the repository's own, so a project is ready in a second or two, with the same
 * versions the tests run against.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBuilt, ROOT } from '../cli/support.js';

/** The packed tarball and what it holds. */
export interface Packed {
  /** The folder everything is made in; remove it when done. */
  readonly dir: string;
  readonly tarball: string;
  /** Paths inside the package, as `npm pack` lists them (`package.json`, `dist/index.js`, …). */
  readonly files: readonly string[];
}

/** Builds `dist/` if needed and packs the package into a fresh temporary folder. */
export function packChunkstream(): Packed {
  ensureBuilt();
  const dir = mkdtempSync(join(tmpdir(), 'chunkstream-pack-'));
  const json = execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', dir], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const [entry] = JSON.parse(json) as { filename: string; files: { path: string }[] }[];
  if (entry === undefined) throw new Error(`npm pack printed no package: ${json}`);
  return { dir, tarball: join(dir, entry.filename), files: entry.files.map((f) => f.path).sort() };
}

/**
 * Makes a project folder `dir/name` holding `files` (path → content), with the packed package unpacked as
 * `node_modules/chunkstream` and every other dependency linked to the repository's, and `samples/` linked too
 * (the examples read `samples/guide.md`).
 */
export function makeProject(packed: Packed, name: string, files: Readonly<Record<string, string>>): string {
  const project = join(packed.dir, name);
  const modules = join(project, 'node_modules');
  mkdirSync(join(modules, 'chunkstream'), { recursive: true });
  execFileSync('tar', ['-xzf', packed.tarball, '-C', join(modules, 'chunkstream'), '--strip-components=1']);
  for (const entry of readdirSync(join(ROOT, 'node_modules'))) {
    if (entry === 'chunkstream' || entry.startsWith('.')) continue;
    symlinkSync(join(ROOT, 'node_modules', entry), join(modules, entry));
  }
  symlinkSync(join(ROOT, 'samples'), join(project, 'samples'));
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(project, path, '..'), { recursive: true });
    writeFileSync(join(project, path), content);
  }
  return project;
}

/** Copies a file of the repository into a project. */
export function copyInto(project: string, from: string, to: string): void {
  cpSync(join(ROOT, from), join(project, to));
}

/**
 * The TypeScript settings a strict user would have: strict, NodeNext, and the libraries' types checked too. `lib`
 * is left to the target's default, as `tsc --init` leaves it: the default includes the DOM's types, which the AI
 * SDK's and LlamaIndex's declarations use.
 */
export function strictTsconfig(extra: Record<string, unknown> = {}): string {
  const compilerOptions = {
    strict: true,
    noImplicitOverride: true,
    module: 'nodenext',
    moduleResolution: 'nodenext',
    target: 'es2022',
    types: ['node'],
    skipLibCheck: false,
    rootDir: 'src',
    outDir: 'out',
    ...extra,
  };
  return `${JSON.stringify({ compilerOptions, include: ['src'] }, null, 2)}\n`;
}

/** Runs the repository's `tsc -p` in `project`; returns its diagnostics, one per line ('' when it passes). */
export function typeCheck(project: string): string {
  try {
    execFileSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', project], { cwd: project, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    return '';
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    return `${stdout ?? ''}${stderr ?? ''}`.trim();
  }
}
