import { describe, expect, it } from 'vitest';
import {
  DEFAULT_QUEUE_NAME,
  DEFAULT_REDIS_URL,
  normalizeEnqueueOptions,
  normalizeQueueOptions,
  normalizeStatusOptions,
  normalizeWorkerOptions,
} from '../../../src/integrations/queue/options.js';

function failure(f: () => unknown): { code?: string; message?: string } {
  try {
    f();
  } catch (error) {
    return { code: (error as { code?: string }).code, message: (error as Error).message };
  }
  throw new Error('expected a failure');
}

describe('queue options', () => {
  it('fill the defaults and freeze the result', () => {
    const worker = normalizeWorkerOptions({ outDir: 'out' });
    expect(worker).toMatchObject({ queue: DEFAULT_QUEUE_NAME, redis: DEFAULT_REDIS_URL, concurrency: 1, lockDuration: 30_000, stalledInterval: 30_000, maxStalledCount: 1, outDir: 'out' });
    expect(worker.workerId).toMatch(/^.+:\d+$/);
    expect(Object.isFrozen(worker)).toBe(true);
    const enqueue = normalizeEnqueueOptions({ chunkOptions: { maxSize: 300 } });
    expect(enqueue).toMatchObject({ attempts: 3, backoff: 1000, inlineBelow: 0, chunkOptions: { maxSize: 300 } });
    expect(Object.isFrozen(enqueue)).toBe(true);
    expect(normalizeStatusOptions()).toMatchObject({ failedLimit: 1000, queue: 'chunkstream' });
  });

  it('hide the password of a Redis URL in messages', () => {
    expect(normalizeQueueOptions({ redis: 'redis://user:secret@cache.internal:6380/2' }).label).toBe('redis://user:***@cache.internal:6380/2');
    expect(normalizeQueueOptions({ redis: 'rediss://cache.internal' }).label).toBe('rediss://cache.internal');
  });

  it('take a connection object as is', () => {
    const connection = { host: '127.0.0.1', port: 1 };
    expect(normalizeQueueOptions({ connection }).connection).toBe(connection);
  });

  // One case per option: the code, and a message naming the option, the rule and the value.
  const cases: [string, () => unknown, string][] = [
    ['redis', () => normalizeQueueOptions({ redis: 'http://x' }), 'Invalid option redis: must be a redis:// or rediss:// URL, got "http://x"'],
    ['redis host', () => normalizeQueueOptions({ redis: 'redis://' }), 'Invalid option redis: must name a host, got "redis://"'],
    ['redis db', () => normalizeQueueOptions({ redis: 'redis://h/x' }), 'Invalid option redis: may end only with a database number (/0, /1, …), got "redis://h/x"'],
    ['redis and connection', () => normalizeQueueOptions({ redis: 'redis://h', connection: {} }), 'Invalid option redis: cannot be combined with connection, got "redis://h"'],
    ['connection', () => normalizeQueueOptions({ connection: 3 as never }), 'Invalid option connection: must be ioredis options or an ioredis instance, got 3'],
    ['queue', () => normalizeQueueOptions({ queue: '' }), 'Invalid option queue: must be a non-empty string, got ""'],
    ['queue colon', () => normalizeQueueOptions({ queue: 'a:b' }), 'Invalid option queue: must not contain ":", got "a:b"'],
    ['prefix', () => normalizeQueueOptions({ prefix: 5 as never }), 'Invalid option prefix: must be a non-empty string, got 5'],
    ['unknown', () => normalizeQueueOptions({ host: 'x' } as never), 'Invalid option host: is not a known option (known: redis, connection, queue, prefix), got "x"'],
    ['outDir', () => normalizeWorkerOptions({} as never), 'Invalid option outDir: must be a non-empty path, got undefined'],
    ['concurrency', () => normalizeWorkerOptions({ outDir: 'o', concurrency: 0 }), 'Invalid option concurrency: must be an integer between 1 and 1024, got 0'],
    ['lockDuration', () => normalizeWorkerOptions({ outDir: 'o', lockDuration: 5 }), 'Invalid option lockDuration: must be an integer between 100 and 86400000, got 5'],
    ['stalledInterval', () => normalizeWorkerOptions({ outDir: 'o', stalledInterval: 1.5 }), 'Invalid option stalledInterval: must be an integer between 100 and 86400000, got 1.5'],
    ['maxStalledCount', () => normalizeWorkerOptions({ outDir: 'o', maxStalledCount: -1 }), 'Invalid option maxStalledCount: must be an integer between 0 and 1000, got -1'],
    ['workerId', () => normalizeWorkerOptions({ outDir: 'o', workerId: '' }), 'Invalid option workerId: must be a non-empty string, got ""'],
    ['format', () => normalizeEnqueueOptions({ format: 'rtf' as never }), "Invalid option format: must be one of 'markdown', 'pdf', 'transcript', 'text', 'html', 'docx', got \"rtf\""],
    ['chunkOptions.documentId', () => normalizeEnqueueOptions({ chunkOptions: { documentId: 'x' } as never }), 'Invalid option chunkOptions.documentId: is set per file and cannot be given, got "x"'],
    ['chunkOptions.tokenizer', () => normalizeEnqueueOptions({ chunkOptions: { tokenizer: { model: { type: 'WordLevel', vocab: {} } } } }), "Invalid option chunkOptions.tokenizer: must be 'cl100k_base', 'o200k_base' or the path of a tokenizer.json where the workers run (a job is JSON), got \"object\""],
    ['parseOptions', () => normalizeEnqueueOptions({ parseOptions: { workers: 2 } as never }), 'Invalid option workers: is not a known option (known: password, fatal, maxPdfBytes, maxPdfSeconds, maxPdfMemoryMb, htmlContent), got 2'],
    ['inlineBelow', () => normalizeEnqueueOptions({ inlineBelow: -1 }), 'Invalid option inlineBelow: must be an integer between 0 and 8388608, got -1'],
    ['attempts', () => normalizeEnqueueOptions({ attempts: 0 }), 'Invalid option attempts: must be an integer between 1 and 100, got 0'],
    ['backoff', () => normalizeEnqueueOptions({ backoff: 'soon' as never }), 'Invalid option backoff: must be an integer between 0 and 86400000, got "soon"'],
    ['failedLimit', () => normalizeStatusOptions({ failedLimit: -2 }), 'Invalid option failedLimit: must be an integer between 0 and 1000000, got -2'],
  ];
  it('validation: chunkOptions, with the library\'s own rule for each', () => {
    // The rule's wording belongs to normalizeOptions; what matters here is that it is the one that speaks.
    expect(failure(() => normalizeEnqueueOptions({ chunkOptions: { maxSize: 0 } }))).toEqual({ code: 'ERR_INVALID_OPTION', message: expect.stringMatching(/^Invalid option maxSize: .*, got 0$/) });
  });
  for (const [name, run, message] of cases) {
    it(`validation: ${name}`, () => {
      expect(failure(run)).toEqual({ code: 'ERR_INVALID_OPTION', message });
    });
  }
});
