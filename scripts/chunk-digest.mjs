/**
 * Writes a digest of the chunks chunkstream makes of a set of documents, so that two builds can be compared: a
 * change that should not alter behaviour must leave the digest the same.
 *
 *     node scripts/chunk-digest.mjs --dist dist --out /tmp/after.jsonl [files or folders...]
 *     node scripts/chunk-digest.mjs --compare /tmp/before.jsonl /tmp/after.jsonl
 *
 * Without files, it takes every document of the repository's `samples/`, of `../shared/corpus` and of Node's API
 * docs (`/usr/share/doc/nodejs/api/`, as Markdown and as HTML): `.md`, `.pdf`, `.html`, `.docx`, `.txt` and
 * `.transcript`. Each document is chunked at 512 tokens, at 1,000 characters with 100 of overlap, and at 128 tokens
 * with `contextualize` (with `--strategies`, also in windows of 256 tokens and at
 * markers); each chunk is one line with its start, end, prefix, suffix, heading path and the sha-256 of its text.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const SETTINGS = [
  { name: '512 tokens', options: { maxSize: 512 } },
  { name: '1000 chars overlap 100', options: { unit: 'chars', maxSize: 1000, overlap: 100 } },
  { name: '128 tokens contextualize', options: { maxSize: 128, contextualize: true } },
];
/** With `--strategies`, the simpler strategies too. */
const STRATEGY_SETTINGS = [
  { name: 'window 256 overlap 32', options: { strategy: 'window', maxSize: 256, overlap: 32 } },
  { name: 'markers', options: { strategy: 'markers', markers: ['\n# ', '\n## ', '\n\n'], minSize: 40, maxSize: 300 } },
];

const { values, positionals } = parseArgs({
  options: { dist: { type: 'string', default: 'dist' }, out: { type: 'string' }, compare: { type: 'boolean', default: false }, strategies: { type: 'boolean', default: false } },
  allowPositionals: true,
});

if (values.compare) {
  const [a, b] = positionals;
  process.exit(compare(a, b));
}

/** Every document under the inputs (folders walked in sorted order). */
function documents(inputs) {
  const out = [];
  const walk = (path) => {
    if (statSync(path).isDirectory()) for (const name of readdirSync(path).sort()) walk(join(path, name));
    else if (/\.(md|pdf|html|docx|txt|transcript)$/.test(path)) out.push(path);
  };
  for (const input of inputs) if (existsSync(input)) walk(resolve(input));
  return out;
}

const inputs = positionals.length > 0 ? positionals : [resolve(import.meta.dirname, '../samples'), resolve(import.meta.dirname, '../../shared/corpus'), '/usr/share/doc/nodejs/api'];
const lib = await import(pathToFileURL(resolve(values.dist, 'index.js')).href);
const lines = [];
let chunkCount = 0;
const files = documents(inputs);
const settings = values.strategies ? [...SETTINGS, ...STRATEGY_SETTINGS] : SETTINGS;
for (const file of files) {
  for (const setting of settings) {
    let chunks;
    try {
      ({ chunks } = await lib.chunkFile(file, { ...setting.options, documentId: 'd' }));
    } catch (error) {
      lines.push(JSON.stringify({ file, setting: setting.name, error: error.code ?? error.message }));
      continue;
    }
    chunkCount += chunks.length;
    for (const c of chunks) {
      const text = createHash('sha256').update(c.text).digest('hex').slice(0, 16);
      lines.push(JSON.stringify({ file, setting: setting.name, start: c.start, end: c.end, prefix: c.prefix, suffix: c.suffix, path: c.heading.path, text }));
    }
  }
}
writeFileSync(values.out ?? '/dev/stdout', `${lines.join('\n')}\n`);
console.error(`${files.length} documents, ${settings.length} settings, ${chunkCount} chunks`);

/** Compares two digests; prints the first differences and returns the exit code (0 when equal). */
function compare(a, b) {
  const left = readFileSync(a, 'utf8').split('\n');
  const right = readFileSync(b, 'utf8').split('\n');
  let differences = 0;
  for (let i = 0; i < Math.max(left.length, right.length); i++) {
    if (left[i] === right[i]) continue;
    if (differences++ < 10) console.log(`line ${i + 1}:\n- ${left[i] ?? '(none)'}\n+ ${right[i] ?? '(none)'}`);
  }
  console.log(differences === 0 ? `identical: ${left.length - 1} chunks` : `${differences} lines differ (of ${left.length - 1} and ${right.length - 1})`);
  return differences === 0 ? 0 : 1;
}
