/**
 * `chunkstream/queue`: chunkstream as BullMQ workers. `enqueueFiles` adds one job per input file, workers made by
 * `createChunkWorker` (on any number of machines against one Redis) chunk each file with the command line's own
 * path and write `<out-dir>/<input>.jsonl`, and `getQueueStatus` tells what is left and what failed. Re-exports only;
 * `bullmq` is an optional peer dependency, loaded by this entry and never by `chunkstream` itself.
 */
export { createChunkWorker } from './worker.js';
export type { ChunkWorker, ChunkWorkerFigures, ChunkWorkerStart, ChunkWorkerWarning } from './worker.js';
export { enqueueFiles } from './enqueue.js';
export type { EnqueueResult, EnqueuedJob, InlineDocument } from './enqueue.js';
export { getQueueStatus } from './status.js';
export type { QueueStatus, QueueCounts, FailedJob, VanishedJob } from './status.js';
export type { QueueRecord } from './queue-record.js';
export type { RedisSettings } from './redis-check.js';
export { formatManifest, parseManifest } from './manifest.js';
export type { ManifestEntry } from './manifest.js';
export { createChunkProcessor } from './processor.js';
export type { ChunkProcessor, ChunkProcessorOptions, ChunkJobLike } from './processor.js';
export { DEFAULT_QUEUE_NAME, DEFAULT_REDIS_URL } from './options.js';
export type { ChunkWorkerOptions, EnqueueOptions, QueueConnectionOptions, QueueStatusOptions, BullConnection, ExpectedJob } from './options.js';
export { JOB_NAME, JOB_DATA_VERSION, MAX_INLINE_BYTES, readJobData, encodeChunkOptions, decodeChunkOptions } from './job-data.js';
export type { ChunkJobData, ChunkJobResult, ReadJobData, ReadJobDataOptions, JobChunkOptions, JobFormat, EncodedRegExp } from './job-data.js';
export { FINAL_ERROR_CODES, parseFailedReason } from './failure.js';
export type { FailedReason } from './failure.js';
