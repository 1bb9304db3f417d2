/**
 * One parse measurement, run by `bench/parse.ts` in its own process against the built `dist/`:
 * `node bench/support/parse-child.mjs <configuration> <file>`. Prints one JSON line (see `Measurement`).
 */
import { createReadStream } from 'node:fs';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parse } from '../../dist/index.js';
import { peakRssBytes } from '../../dist/cli/peak-rss.js';
import { defaultBatches, remarkFloor } from './remark-floor.mjs';

const [config, path] = process.argv.slice(2);

/** Bare remark on the batches chunkstream cuts, streamed from disk; trees are dropped at once. */
async function bareRemark(blockLevel) {
  const frozen = remarkFloor(blockLevel);
  const batches = defaultBatches();
  let bytes = 0;
  let items = 0;
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
  return { bytes, items };
}

/** The chunkstream parse() stream into a sink that counts blocks. */
async function stream(workers) {
  let bytes = 0;
  let items = 0;
  const source = createReadStream(path).on('data', (d) => (bytes += d.length));
  const sink = new Writable({
    objectMode: true,
    write(_block, _encoding, callback) {
      items++;
      callback();
    },
  });
  await pipeline(source, parse({ workers }), sink);
  return { bytes, items };
}

const run = {
  'remark full': () => bareRemark(false),
  'remark block-level': () => bareRemark(true),
  'parse() workers: 0': () => stream(0),
  'parse() default': () => stream('auto'),
  'parse() workers: 2': () => stream(2),
}[config];
if (run === undefined) throw new Error(`unknown configuration ${config}`);

const started = performance.now();
const cpu = process.cpuUsage();
const { bytes, items } = await run();
const used = process.cpuUsage(cpu);
const report = {
  bytes,
  seconds: (performance.now() - started) / 1000,
  cpuSeconds: (used.user + used.system) / 1e6,
  peakRssMb: peakRssBytes() / 2 ** 20,
  items,
};
process.stdout.write(`${JSON.stringify(report)}\n`);
