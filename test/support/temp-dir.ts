/**
 * Temporary folders for tests, removed when the test file that made them ends, so that a test run leaves nothing
 * behind in the system's temporary folder (each CI run and each local run used to leave a few hundred).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

const made: string[] = [];

// Test files are isolated (each loads its own copy of this module), so this hook belongs to the file importing it.
afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Makes a fresh folder `chunkstream-<name>-XXXXXX` in the system's temporary folder, removed after the test file. */
export function tempDir(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `chunkstream-${name}-`));
  made.push(dir);
  return dir;
}
