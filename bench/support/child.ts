/**
 * Runs one measurement in a fresh, plain Node process (no TypeScript loader: its extra thread would add some
 * 30 MB to every figure), so that peak memory (the process's own high-water mark, worker threads included) and the
 * warm-up of one configuration never leak into another.
 */
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';

/** What a measured process reports. */
export interface Measurement {
  /** Input bytes processed. */
  readonly bytes: number;
  /** Wall-clock seconds of the measured work (module loading excluded). */
  readonly seconds: number;
  /** CPU seconds (user + system, all threads) of the measured work. */
  readonly cpuSeconds: number;
  /** Peak resident set size of the whole process, in MB. */
  readonly peakRssMb: number;
  /** Items produced (blocks, or parsed batches for the bare parsers). */
  readonly items: number;
}

/** Compiles `src/` to `dist/`, which the measured processes load. */
export function buildDist(root: string): void {
  const result = spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'tsconfig.json')], { stdio: 'inherit' });
  if (result.status !== 0) throw new Error('tsc failed; the bench needs dist/');
}

/** Spawns `node <script> ...args` and reads the JSON report it prints last. */
export function measureInChild(script: string, args: string[]): Promise<Measurement> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (d: string) => (out += d));
    child.on('error', reject);
    child.on('close', (code) => {
      const line = out.trim().split('\n').at(-1) ?? '';
      if (code !== 0) return reject(new Error(`measurement ${args.join(' ')} exited with ${code}: ${out}`));
      try {
        resolve(JSON.parse(line) as Measurement);
      } catch {
        reject(new Error(`measurement ${args.join(' ')} printed no report: ${out}`));
      }
    });
  });
}
