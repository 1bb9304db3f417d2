/**
 * The queue's record: one small hash beside BullMQ's keys (`<prefix>:<queue>:chunkstream`) saying that jobs were
 * enqueued, how many, and under which `epoch`, a random id set by the first enqueue. It exists to tell an empty
 * queue from a lost one. A Redis that restarts without persistence (or whose keys are flushed or evicted) comes
 * back empty, and to BullMQ an empty queue is a finished one: workers would report "done" over jobs that were
 * never run. The record vanishes with the jobs, so a worker that saw it and no longer does knows the queue was
 * lost; an enqueue manifest (the job ids, kept outside Redis) then says which jobs vanished.
 */
import { randomBytes } from 'node:crypto';

/** Field names of the record's hash. */
const EPOCH = 'epoch';
const ENQUEUED = 'enqueued';

/** Adds `ARGV[2]` jobs to the record, creating it with epoch `ARGV[1]` if it is missing; returns its epoch. */
const NOTE_ENQUEUED = `
if redis.call('HSETNX', KEYS[1], '${EPOCH}', ARGV[1]) == 1 then
  redis.call('HSET', KEYS[1], 'created', ARGV[3])
end
redis.call('HINCRBY', KEYS[1], '${ENQUEUED}', ARGV[2])
return redis.call('HGET', KEYS[1], '${EPOCH}')
`;

/** Returns the 1-based positions of the keys in ARGV that do not exist. */
const MISSING_KEYS = `
local missing = {}
for i, key in ipairs(ARGV) do
  if redis.call('EXISTS', key) == 0 then missing[#missing + 1] = i end
end
return missing
`;

/** What the record holds. */
export interface QueueRecord {
  /** Set by the first enqueue into this queue; another epoch, or none, means the jobs enqueued before are gone. */
  readonly epoch: string;
  /** Jobs enqueued under this epoch. */
  readonly enqueued: number;
}

/** The client calls the record needs: BullMQ's client (`RedisQueueBackend.client`) has them. */
export interface RecordClient {
  hgetall(key: string): Promise<Record<string, string>>;
  defineCommand(name: string, definition: { numberOfKeys: number; lua: string }): void;
  runCommand(name: string, args: unknown[]): Promise<unknown>;
}

/** The scripts, by their name on a client; each is defined once per client. */
const SCRIPTS = {
  chunkstreamNoteEnqueued: { numberOfKeys: 1, lua: NOTE_ENQUEUED },
  chunkstreamMissingKeys: { numberOfKeys: 0, lua: MISSING_KEYS },
} as const;
const defined = new WeakMap<object, Set<string>>();

/** Runs one of `SCRIPTS`, defining it on the client first if needed. */
function runScript(client: RecordClient, name: keyof typeof SCRIPTS, args: unknown[]): Promise<unknown> {
  let names = defined.get(client);
  if (names === undefined) defined.set(client, (names = new Set()));
  if (!names.has(name)) {
    client.defineCommand(name, SCRIPTS[name]);
    names.add(name);
  }
  return client.runCommand(name, args);
}

/** Keys checked per script call: bounded, so that Redis is never held by one long call. */
const KEYS_PER_CALL = 1000;

/** The key of a queue's record, from BullMQ's own key builder (`queue.toKey`). */
export function recordKey(toKey: (type: string) => string): string {
  return toKey('chunkstream');
}

/** Counts `count` jobs into the record (creating it) and returns its epoch. */
export async function noteEnqueued(client: RecordClient, key: string, count: number): Promise<string> {
  return String(await runScript(client, 'chunkstreamNoteEnqueued', [key, randomBytes(8).toString('hex'), count, Date.now()]));
}

/**
 * The keys among `keys` that Redis does not hold. Keys go as arguments rather than as script keys: a single
 * Redis (not a cluster) is what BullMQ's own scripts assume too.
 */
export async function missingKeys(client: RecordClient, keys: readonly string[]): Promise<string[]> {
  const missing: string[] = [];
  for (let i = 0; i < keys.length; i += KEYS_PER_CALL) {
    const slice = keys.slice(i, i + KEYS_PER_CALL);
    const positions = (await runScript(client, 'chunkstreamMissingKeys', slice)) as number[];
    for (const p of positions) missing.push(slice[p - 1] as string);
  }
  return missing;
}

/** Reads the record; undefined when there is none (nothing enqueued yet, or the queue was lost). */
export async function readRecord(client: RecordClient, key: string): Promise<QueueRecord | undefined> {
  const fields = await client.hgetall(key);
  const epoch = fields[EPOCH];
  if (epoch === undefined) return undefined;
  return { epoch, enqueued: Number(fields[ENQUEUED] ?? 0) };
}
