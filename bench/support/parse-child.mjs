/**
 * One parse measurement, run by `bench/parse.ts` in its own plain Node process against the built `dist/`:
 * `node bench/support/parse-child.mjs <configuration> <file>`. Prints one JSON line: bytes, seconds, cpuSeconds,
 * peakRssMb, and items (blocks, or parsed batches for the bare parsers).
 */
import { createReadStream } from 'node:fs';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { distModule, peakRssBytes, report, stopwatch } from './measured.mjs';

const [config, path] = process.argv.slice(2);

/** Bare remark on the batches chunkstream cuts, streamed from disk; trees are dropped at once. */
async function bareRemark(blockLevel) {
  const { defaultBatches, remarkFloor } = await import('./remark-floor.mjs');
  const frozen = remarkFloor(blockLevel);
  const batches = defaultBatches();
  let bytes = 0;
  let items = 0;
  const elapsed = stopwatch();
  for await (const piece of createReadStream(path)) {
    bytes += piece.length;
    for (const batch of batches.write(piece)) {
      frozen.parse(batch.text);
      items++;
    }
  }
  for (const batch of batches.end()) {
    frozen.parse(batch.text);
    items++;
  }
  return { bytes, items, ...elapsed() };
}

/** The chunkstream parse() stream into a sink that counts blocks. */
async function stream(workers) {
  const { parse } = await distModule();
  let bytes = 0;
  let items = 0;
  const elapsed = stopwatch();
  const source = createReadStream(path).on('data', (d) => (bytes += d.length));
  const sink = new Writable({
    objectMode: true,
    write(_block, _encoding, callback) {
      items++;
      callback();
    },
  });
  await pipeline(source, parse({ workers }), sink);
  return { bytes, items, ...elapsed() };
}

const run = {
  'remark full': () => bareRemark(false),
  'remark block-level': () => bareRemark(true),
  'parse() workers: 0': () => stream(0),
  'parse() default': () => stream('auto'),
  'parse() workers: 2': () => stream(2),
}[config];
if (run === undefined) throw new Error(`unknown configuration ${config}`);

const { bytes, items, seconds, cpuSeconds } = await run();
report({ bytes, seconds, cpuSeconds, peakRssMb: peakRssBytes() / 2 ** 20, items });
