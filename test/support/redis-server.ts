/**
 * A throwaway Redis for the queue tests and bench: Debian's `redis-server` on a free loopback port, with its own
 * temporary folder, stopped (and its folder removed) by `stop()`. Without options it keeps nothing on disk; with
 * `appendonly` it writes an append-only file there, so `restart()` brings its data back as a production Redis with
 * persistence would. `.ci/run` installs the package when missing; where it is absent outside CI the queue tests
 * are skipped with a note.
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

/** How the server is configured. */
export interface RedisServerOptions {
  /**
   * Append-only persistence: `always` fsyncs every write (nothing is lost even to SIGKILL), `everysec` once a second
   * (Redis's default when AOF is on). Default: no persistence at all, so a restart starts empty.
   */
  readonly appendonly?: 'always' | 'everysec';
  /** `maxmemory-policy`; default Redis's own (`noeviction`). */
  readonly maxmemoryPolicy?: string;
}

/** A running server. */
export interface RedisServer {
  readonly port: number;
  /** `redis://127.0.0.1:PORT`. */
  readonly url: string;
  /** Its process id while it runs. */
  readonly pid: number | undefined;
  /**
   * Stops the server (SIGTERM: with AOF it writes what it holds; SIGKILL: it dies at once) and starts it again on
   * the same port and folder; resolves once it accepts connections again. `downMs` keeps it down that long first.
   */
  restart(options?: { signal?: 'SIGTERM' | 'SIGKILL'; downMs?: number }): Promise<void>;
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

/** The command line of a server on `port` keeping its files in `dir`. */
function serverArgs(port: number, dir: string, options: RedisServerOptions): string[] {
  const persistence = options.appendonly ? ['--appendonly', 'yes', '--appendfsync', options.appendonly] : ['--appendonly', 'no'];
  const policy = options.maxmemoryPolicy ? ['--maxmemory-policy', options.maxmemoryPolicy] : [];
  return ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', ...persistence, ...policy, '--daemonize', 'no', '--protected-mode', 'yes', '--loglevel', 'notice'];
}

/** Starts the server; resolves once it accepts connections, rejects with its log if it exits first. */
function launch(args: string[]): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(REDIS_SERVER, args, { stdio: ['ignore', 'pipe', 'pipe'] });
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

/** Stops `child` with `signal` and waits for it to exit. */
function halt(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill(signal);
  return exited;
}

/** Starts a Redis on a free loopback port (a few tries, in case another process takes the port first). */
export async function startRedis(options: RedisServerOptions = {}): Promise<RedisServer> {
  const dir = mkdtempSync(join(tmpdir(), 'chunkstream-redis-'));
  let lastError: unknown;
  for (let attempt = 0; attempt < 5; attempt++) {
    const port = await freePort();
    let child: ChildProcess;
    try {
      child = await launch(serverArgs(port, dir, options));
    } catch (error) {
      lastError = error;
      continue;
    }
    const state = { child };
    return {
      port,
      url: `redis://127.0.0.1:${port}`,
      get pid() {
        return state.child.pid;
      },
      async restart({ signal = 'SIGTERM', downMs = 0 } = {}) {
        await halt(state.child, signal);
        if (downMs > 0) await new Promise((resolve) => setTimeout(resolve, downMs));
        state.child = await launch(serverArgs(port, dir, options));
      },
      async stop() {
        await halt(state.child, 'SIGTERM');
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  rmSync(dir, { recursive: true, force: true });
  throw lastError;
}
