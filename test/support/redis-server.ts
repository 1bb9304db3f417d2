/**
 * A throwaway Redis for the queue tests and bench: Debian's `redis-server` on a free loopback port, with its own
 * temporary folder and no persistence, stopped (and its folder removed) by `stop()`. `.ci/run` installs the
 * package when missing; where it is absent outside CI the queue tests are skipped with a note.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The server binary. */
export const REDIS_SERVER = 'redis-server';

/** True when `redis-server` runs here. */
export const HAS_REDIS = spawnSync(REDIS_SERVER, ['--version'], { stdio: 'ignore' }).status === 0;

/**
 * Whether the Redis tests run: where redis-server is, and always in CI (where `.ci/run` installs it, so its absence
 * is a failure to see rather than a skip).
 */
export const RUN_REDIS_TESTS = HAS_REDIS || process.env.CI !== undefined;

/** A running server. */
export interface RedisServer {
  readonly port: number;
  /** `redis://127.0.0.1:PORT`. */
  readonly url: string;
  /** Stops the server and removes its folder. */
  stop(): Promise<void>;
}

/** A loopback port that was free a moment ago. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** Starts the server; resolves once it accepts connections, rejects with its log if it exits first. */
function launch(port: number, dir: string): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      REDIS_SERVER,
      ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no', '--daemonize', 'no', '--protected-mode', 'yes', '--loglevel', 'notice'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let log = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`redis-server did not start within 20 s:\n${log}`));
    }, 20_000);
    const onData = (d: Buffer): void => {
      log += d.toString();
      if (log.includes('Ready to accept connections')) {
        clearTimeout(timer);
        child.stdout?.off('data', onData);
        // Keep draining its output so the pipe never fills and blocks the server.
        child.stdout?.resume();
        resolve(child);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (d: Buffer) => (log += d.toString()));
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited with ${code}:\n${log}`));
    });
  });
}

/** Starts a Redis on a free loopback port (a few tries, in case another process takes the port first). */
export async function startRedis(): Promise<RedisServer> {
  const dir = mkdtempSync(join(tmpdir(), 'chunkstream-redis-'));
  let lastError: unknown;
  for (let attempt = 0; attempt < 5; attempt++) {
    const port = await freePort();
    let child: ChildProcess;
    try {
      child = await launch(port, dir);
    } catch (error) {
      lastError = error;
      continue;
    }
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    return {
      port,
      url: `redis://127.0.0.1:${port}`,
      async stop() {
        if (child.exitCode === null && child.signalCode === null) {
          child.kill('SIGTERM');
          await exited;
        }
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  rmSync(dir, { recursive: true, force: true });
  throw lastError;
}
