/**
 * The Redis settings a queue depends on, read from `INFO` when a worker starts. Two settings decide whether jobs
 * survive: `maxmemory-policy` (anything but `noeviction` lets Redis delete keys, a job among them, when memory runs
 * short) and persistence (without an append-only file, a restart empties Redis and every waiting or running job
 * with it). Neither is the worker's to change: it says what it found, once, and the operator fixes the server.
 */
import type { ChunkWorkerWarning } from './worker.js';

/** What `INFO` says about the settings the queue depends on. */
export interface RedisSettings {
  readonly version: string | undefined;
  /** `maxmemory_policy`, e.g. `noeviction`, `allkeys-lru`. */
  readonly maxmemoryPolicy: string | undefined;
  /** `aof_enabled`: whether an append-only file is written. */
  readonly aofEnabled: boolean | undefined;
}

/** What a client needs for the check: BullMQ's own (`RedisQueueBackend.client`) has it. */
export interface InfoClient {
  info(): Promise<string>;
}

/** Reads `key:value` lines of an `INFO` reply. */
export function parseInfo(text: string): RedisSettings {
  const fields = new Map<string, string>();
  for (const line of text.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0 && !line.startsWith('#')) fields.set(line.slice(0, colon), line.slice(colon + 1).trim());
  }
  const aof = fields.get('aof_enabled');
  return {
    version: fields.get('redis_version') ?? fields.get('valkey_version'),
    maxmemoryPolicy: fields.get('maxmemory_policy'),
    aofEnabled: aof === undefined ? undefined : aof === '1',
  };
}

/** The warnings for settings that can lose jobs; none for a server set as the queue needs. */
export function settingsWarnings(settings: RedisSettings): ChunkWorkerWarning[] {
  const warnings: ChunkWorkerWarning[] = [];
  const policy = settings.maxmemoryPolicy;
  if (policy !== undefined && policy !== 'noeviction') {
    warnings.push({
      code: 'REDIS_EVICTION',
      message: `Redis evicts keys when its memory is full (maxmemory-policy ${policy}): an evicted job is a lost job. Set maxmemory-policy noeviction`,
    });
  }
  if (settings.aofEnabled === false) {
    warnings.push({
      code: 'REDIS_NO_AOF',
      message: 'Redis writes no append-only file (appendonly no): a restart loses every job waiting or running, and workers then find the queue empty. Set appendonly yes (appendfsync everysec, or always to lose nothing to a crash)',
    });
  }
  return warnings;
}

/**
 * Reads the settings and returns the warnings they call for. A server that refuses `INFO` (a restricted account, a
 * managed service) gets a warning of its own rather than a failure: the queue works, unchecked.
 */
export async function checkRedisSettings(client: InfoClient): Promise<{ settings: RedisSettings | undefined; warnings: ChunkWorkerWarning[] }> {
  let text: string;
  try {
    text = await client.info();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      settings: undefined,
      warnings: [{ code: 'REDIS_UNCHECKED', message: `Could not read Redis's settings (INFO: ${reason}): make sure it runs with maxmemory-policy noeviction and appendonly yes` }],
    };
  }
  const settings = parseInfo(text);
  return { settings, warnings: settingsWarnings(settings) };
}
